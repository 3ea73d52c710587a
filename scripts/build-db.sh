#!/bin/sh
# The self-play game database from scratch (docs/db.md, "Building a database"): Thoth's own games
# at depth 1, kept as records, imported into SQLite, and the page's explorer index made from them.
#
#   scripts/build-db.sh DIR [GAMES]
#
# DIR gets selfplay.pgn (the records), selfplay.bin (their training positions), games.db and
# explorer.json. GAMES defaults to 150000. Every step resumes: run the same command again after a
# stop and it goes on (datagen appends, the import skips the games already stored).
# Environment: THREADS (default: every core), SEED (default: datagen's).
set -eu
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; }
if [ $# -lt 1 ]; then usage >&2; exit 2; fi
case $1 in -h|--help) usage; exit 0 ;; esac
dir=$1
games=${2:-150000}
root=$(cd "$(dirname "$0")/.." && pwd)
threads=${THREADS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)}
[ -f "$root/dist/cli.js" ] || (cd "$root" && node build.mjs)
mkdir -p "$dir"
thoth() { node "$root/bin/thoth.js" "$@"; }
seed=${SEED:+--seed $SEED}
echo "build-db: $games games into $dir, $threads threads" >&2
# shellcheck disable=SC2086 # $seed is two words or none
thoth datagen --out "$dir/selfplay.bin" --records "$dir/selfplay.pgn" --games "$games" \
  --positions 2000000000 --depth 1 --net none --threads "$threads" $seed
thoth db import --db "$dir/games.db" "$dir/selfplay.pgn"
thoth db index --db "$dir/games.db" --out "$dir/explorer.json"
thoth db info --db "$dir/games.db"
