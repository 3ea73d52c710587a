#!/bin/sh
# One network generation end to end on this machine (docs/nnue.md, "Making a generation"):
#
#   scripts/generation.sh NAME SEED POSITIONS [EARLIER.bin …]
#
# 1. data/NAME.bin: self-play of the shipped network (every core, nice 19) until it holds POSITIONS.
# 2. data/NAME-all.bin: that and the earlier generations' files, merged and deduplicated.
# 3. data/NAME-scratch.nnue (random start) and data/NAME-warm.nnue (from the shipped network),
#    the same seed, data and validation split; their losses in data/NAME-*.log.
# 4. Each judged by its loss on the held-out games of data/NAME.bin alone (the earlier games were
#    partly the shipped network's training data), and the better one played against the shipped
#    network: an SPRT [0, 5] at 2+0.02.
# Every step goes on from what the files hold: Ctrl-C, then the same command again. Environment:
# THREADS (every core), NODES (1000), EPOCHS (2), LR_DROP (1), TC (2+0.02), CONCURRENCY (THREADS).
set -eu
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; }
case ${1:-} in -h|--help) usage; exit 0 ;; esac
if [ $# -lt 3 ]; then usage >&2; exit 2; fi
name=$1 seed=$2 positions=$3
shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
threads=${THREADS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)}
thoth() { nice -n 19 node bin/thoth.js "$@"; }
[ -f dist/cli.js ] || node build.mjs
mkdir -p data

echo "== 1. datagen: data/$name.bin" >&2
thoth datagen --out "data/$name.bin" --net default --positions "$positions" --threads "$threads" \
  --seed "$seed" --nodes "${NODES:-1000}"

echo "== 2. merge: data/$name-all.bin" >&2
thoth datagen --merge --out "data/$name-all.bin" "$@" "data/$name.bin"

for start in scratch warm; do
  net="data/$name-$start.nnue"
  if [ -f "$net" ]; then echo "== 3. $net is there" >&2; continue; fi
  echo "== 3. train: $net" >&2
  init=''
  [ "$start" = warm ] && init='--init default'
  # shellcheck disable=SC2086 # $init is empty or two words
  thoth train --out "$net" $init --epochs "${EPOCHS:-2}" --lr-drop "${LR_DROP:-1}" --threads "$threads" \
    --seed "$seed" --quiet "data/$name-all.bin" | tee "data/$name-$start.log"
done

# The loss of each on the fresh games held out (game by game, the same ones as in the merged
# file's split): `--epochs 0` trains nothing. The lower one is matched.
loss() {
  thoth train --init "data/$name-$1.nnue" --epochs 0 --out "data/$name-judged.nnue" --seed "$seed" --threads 1 \
    --quiet "data/$name.bin" | sed -n 's/^Validation loss before training \([0-9.]*\).*/\1/p'
}
scratch=$(loss scratch) warm=$(loss warm)
best=$(printf '%s scratch\n%s warm\n' "$scratch" "$warm" | sort -g | head -1 | cut -d' ' -f2)
echo "== 4. on the fresh games: scratch $scratch, warm $warm; SPRT of data/$name-$best.nnue against the shipped network" >&2
[ -f "data/$name-base.nnue" ] || cp nets/default.nnue "data/$name-base.nnue" # the network it must beat, kept
pgn="data/$name-sprt.pgn"
resume=''
[ -s "$pgn" ] && resume="-resume $pgn"
# shellcheck disable=SC2086 # $resume is empty or two words
thoth match -engine cmd="node dist/cli.js" name="$name" option.EvalFile="$root/data/$name-$best.nnue" \
  -engine cmd="node dist/cli.js" name=shipped option.EvalFile="$root/data/$name-base.nnue" \
  -each tc="${TC:-2+0.02}" option.Hash=16 option.Threads=1 -openings setups=classic,imhotep,dynasty plies=4 \
  -sprt elo0=0 elo1=5 -concurrency "${CONCURRENCY:-$threads}" -pgnout "$pgn" $resume
