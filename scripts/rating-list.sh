#!/bin/sh
# The Khet rating list (docs/rating-list.md): Thoth at full strength, with its previous network and
# at two of its levels, and every other Khet engine that runs here (sh scripts/fetch-engines.sh,
# then built as each one's README says), in the matches their rules allow; then the ratings fitted
# over all the games at once, with their error bars (tools/rating-list.ts).
#
#   sh scripts/rating-list.sh [DIR] [-- FLAGS…]
#
# DIR (default rating-list/, git-ignored) keeps one record file per match. Run the same command
# again to go on after an interruption (every match resumes from its file: thoth match -resume),
# or with more ROUNDS to add games. FLAGS (words without spaces) go to every thoth match: e.g.
# `-- -concurrency 2`, or `-- -distributed redis://host:6379 sign=KEY` to have workers play them.
# ROUNDS (default 10) game pairs per pairing at 1+0.01; ROUNDS_DEPTH (default 5) for khetai's.
# Needs `npm run build`. An engine that is not here is skipped with a message.
set -eu
cd "$(dirname "$0")/.."
DIR=rating-list
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  DIR=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
FLAGS="$*"
ROUNDS=${ROUNDS:-10}
ROUNDS_DEPTH=${ROUNDS_DEPTH:-5}
mkdir -p "$DIR"

DDKET=engines/6.172/project4/khetplayer.dailey
KHET2AI=engines/Khet2-AI/build/bin/khet
GEN7=engines/nets/gen7.nnue
if [ ! -f "$GEN7" ]; then # the network Thoth shipped before generation 8 (commit c386036)
  mkdir -p engines/nets
  git show c386036:nets/default.nnue >"$GEN7"
fi

# Thoth's players: full strength, the generation 7 network, and the GUI's Levels 1 and 3
# (UCI_Elo 808 and 1131: Skill Level 0 and 2, docs/strength.md "Levels")
T="cmd=node args=dist/cli.js option.Hash=16"
THOTH="-engine $T name=Thoth"
GEN7ENG="-engine $T name=Thoth-gen7 option.EvalFile=$GEN7"
LEVELS="-engine $T name=Thoth-L1 option.UCI_LimitStrength=true option.UCI_Elo=808 \
  -engine $T name=Thoth-L3 option.UCI_LimitStrength=true option.UCI_Elo=1131"
OPENINGS="-openings setups=classic,imhotep,dynasty plies=4"

# one match: its name, then its flags; resumed from its record file
run() {
  name=$1
  shift
  echo "== $name"
  # shellcheck disable=SC2086,SC2068
  node bin/thoth.js match $@ $OPENINGS -pgnout "$DIR/$name.pgn" -resume "$DIR/$name.pgn" \
    -report "json=$DIR/$name.jsonl" -recover -ratinginterval 0 $FLAGS ||
    echo "   (the match $name stopped: see above)"
}

# 1. Thoth's players among themselves (Thoth's rules)
run thoth "$THOTH $GEN7ENG $LEVELS -each tc=1+0.01 -rounds $ROUNDS -games 2"

# 2. ddket (its rules: Pharaoh rotation) against Thoth: 100 games at full strength, then the others
if [ -x "$DDKET" ]; then
  run ddket-thoth "-engine cmd=$DDKET proto=uki name=ddket $THOTH -each tc=1+0.01 -rounds 50 -games 2"
  run ddket "-engine cmd=$DDKET proto=uki name=ddket $GEN7ENG $LEVELS -tournament gauntlet -each tc=1+0.01 -rounds $ROUNDS -games 2"
else
  echo "== ddket: not in engines/ (sh scripts/fetch-engines.sh ddket): skipped"
fi

# 3. Khet2-AI (its rules: swaps onto reserved squares), likewise
if [ -x "$KHET2AI" ]; then
  run khet2ai-thoth "-engine cmd=$KHET2AI proto=khet2ai name=Khet2-AI $THOTH -each tc=1+0.01 -rounds 50 -games 2"
  run khet2ai "-engine cmd=$KHET2AI proto=khet2ai name=Khet2-AI $GEN7ENG $LEVELS -tournament gauntlet -each tc=1+0.01 -rounds $ROUNDS -games 2"
else
  echo "== Khet2-AI: not in engines/ (build it as its README says): skipped"
fi

# 4. khetai against Thoth's players at a fixed depth, as the list of 2026-12-07 was made (its
#    translator plays it by the clock now: docs/rating-list.md, "khetai at 1+0.01")
if ruby -rkhetai -e 0 2>/dev/null; then
  run khetai "-engine cmd=ruby args=scripts/khetai-bridge.rb proto=khetai name=khetai $THOTH $LEVELS -tournament gauntlet -each depth=4 -rounds $ROUNDS_DEPTH -games 2"
else
  echo "== khetai: the gem is not installed (gem install khetai): skipped"
fi

# the ratings over every game, with their error bars
npx tsx tools/rating-list.ts "$DIR"/*.pgn
