#!/bin/sh
# Training data on a many-core host (docs/nnue.md, "Datagen on other machines"): every core,
# at nice 19, into one shard file; run it again to go on (datagen resumes from the file).
#
#   scripts/datagen-host.sh SHARD [POSITIONS] [more thoth datagen flags…]
#
# Environment: THREADS (default: every core), NET (default: the shipped network, `default`),
# NODES (1000), SEED (default: derived from the host name, so that two hosts play different
# games; give each host its own, and keep it when resuming). Merge the shards afterwards with
#   node bin/thoth.js datagen --merge --out all.bin shard-a.bin shard-b.bin …
set -eu
usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; }
if [ $# -lt 1 ]; then usage >&2; exit 2; fi
case $1 in -h|--help) usage; exit 0 ;; esac
shard=$1
shift
positions=${1:-5000000}
[ $# -gt 0 ] && shift
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${THREADS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)}
seed=${SEED:-$(hostname | cksum | cut -d' ' -f1)}
nodes=${NODES:-1000}
[ -f "$root/dist/cli.js" ] || (cd "$root" && node build.mjs)
mkdir -p "$(dirname "$shard")" # data/ is ignored by git: a fresh clone has none
echo "datagen-host: $shard, $positions positions, $threads threads, seed $seed, nodes $nodes, net ${NET:-default}" >&2
exec nice -n 19 node "$root/bin/thoth.js" datagen --out "$shard" --positions "$positions" --threads "$threads" \
  --seed "$seed" --nodes "$nodes" --net "${NET:-default}" "$@"
