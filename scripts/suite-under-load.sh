#!/usr/bin/env bash
# The suite under load (docs/conventions.md, "Tests on a busy machine"): fresh clones of a commit
# each run CI (`.ci/run`: `npm ci && npm test`) side by side, while `thoth datagen --threads 2`
# plays beside them from another clone; the load average is logged every 15 s. Each clone's
# result, wall time and test counts, and the load's median and range, end up in DIR/summary.txt.
#
#   scripts/suite-under-load.sh DIR [COMMIT] [CLONES]
#
# DIR: a new folder for the clones and logs; COMMIT: what to clone (default HEAD); CLONES: how
# many suites at once (default 2; each one has the others and datagen beside it).
set -u
if [ $# -lt 1 ]; then
  echo "usage: scripts/suite-under-load.sh DIR [COMMIT] [CLONES]" >&2
  exit 2
fi
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
base=$(realpath -m "$1")
if ! commit=$(git -C "$repo" rev-parse --verify --quiet "${2:-HEAD}^{commit}"); then
  echo "${2:-HEAD}: not a commit of $repo" >&2
  exit 2
fi
clones=${3:-2}
case $clones in
  '' | *[!0-9]* | 0) echo "CLONES: a number of suites, 1 or more (not '$clones')" >&2; exit 2 ;;
esac
if [ -e "$base" ]; then
  echo "$base exists already: give a new folder" >&2
  exit 2
fi
mkdir -p "$base"
lanes=$(seq 1 "$clones")
for c in $lanes datagen; do
  git clone -q "$repo" "$base/$c" && git -C "$base/$c" checkout -q "$commit" || exit 1
done
(cd "$base/datagen" && npm ci --silent > /dev/null 2>&1 && node build.mjs > /dev/null 2>&1 &&
  exec node bin/thoth.js datagen --out "$base/datagen.bin" --threads 2 --positions 100000000 --quiet) \
  > "$base/datagen.log" 2>&1 &
datagen=$!
(while sleep 15; do echo "$(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; done) > "$base/load.log" &
loadlog=$!
sleep 20
pids=
for c in $lanes; do
  (cd "$base/$c" && s=$(date +%s) && bash .ci/run > "$base/$c.log" 2>&1; rc=$?
    echo "exit $rc, $(($(date +%s) - s)) s" > "$base/$c.rc") &
  pids="$pids $!"
  sleep 5
done
# shellcheck disable=SC2086
wait $pids
kill "$datagen" "$loadlog" 2> /dev/null
pkill -f "$base/datagen.bin" 2> /dev/null
{
  echo "commit $commit, $clones suites beside thoth datagen --threads 2 on $(nproc) cores"
  for c in $lanes; do
    echo "suite $c: $(cat "$base/$c.rc"); $(sed 's/\x1b\[[0-9;]*m//g' "$base/$c.log" | grep -E '^tests: ' | tail -n 1)"
  done
  awk '{print $2}' "$base/load.log" | sort -n |
    awk '{a[NR] = $1} END {print "load (1 min): median " a[int(NR / 2) + 1] ", from " a[1] " to " a[NR] ", " NR " samples"}'
} > "$base/summary.txt"
cat "$base/summary.txt"
