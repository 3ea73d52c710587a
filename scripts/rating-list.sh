#!/bin/sh
# The Khet rating list (docs/rating-list.md): Thoth at full strength, with its previous network and
# at two of its levels, and every other Khet engine that runs here (sh scripts/fetch-engines.sh,
# then built as each one's README says), in the matches their rules allow, at two time controls;
# then the ratings fitted over each control's games, with their error bars (tools/rating-list.ts).
#
#   sh scripts/rating-list.sh [DIR] [-- FLAGS…]
#
# DIR (default rating-list/, git-ignored) keeps one record file per match. Run the same command
# again to go on after an interruption (every match resumes from its file: thoth match -resume),
# or with more rounds to add games. FLAGS (words without spaces) go to every thoth match: e.g.
# `-- -concurrency 2`, or `-- -distributed redis://host:6379 sign=KEY` to have workers play them.
# At 1+0.01: ROUNDS (default 10) game pairs per pairing, ROUNDS_CLOSE (default 100) for Thoth
# against Thoth-gen7, the list's closest pair. At TC2 (default 4+0.04; its files are named after
# it): each engine against Thoth, ROUNDS2 (default 10) game pairs each.
# Needs `npm run build`. An engine that is not here is skipped with a message; khetai's gem is
# looked for in engines/khetai/gems too.
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
ROUNDS_CLOSE=${ROUNDS_CLOSE:-100}
ROUNDS2=${ROUNDS2:-10}
TC2=${TC2:-4+0.04}
mkdir -p "$DIR"

DDKET=engines/6.172/project4/khetplayer.dailey
KHET2AI=engines/Khet2-AI/build/bin/khet
KHETAI="-engine cmd=ruby args=scripts/khetai-bridge.rb proto=khetai name=khetai"
if [ -z "${GEM_HOME:-}" ] && [ -d engines/khetai/gems ]; then # khetai installed beside the others
  GEM_HOME=$PWD/engines/khetai/gems
  export GEM_HOME
fi
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

# The first control, 1+0.01 (the file names of the list of 2026-12-07)
# 1. Thoth's players among themselves (Thoth's rules), and more games of its closest pair
run thoth "$THOTH $GEN7ENG $LEVELS -each tc=1+0.01 -rounds $ROUNDS -games 2"
run thoth-gen7 "$THOTH $GEN7ENG -each tc=1+0.01 -rounds $ROUNDS_CLOSE -games 2"

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

# 4. khetai (its rules: swaps onto reserved squares and with the Sphinx), likewise, by the clock
#    (docs/match.md, "Other engines": khetai's clock). The list of 2026-12-07 played it at depth=4
#    in a file named khetai.pgn: that match is not played again.
HAVE_KHETAI=false
if ruby -rkhetai -e 0 2>/dev/null; then
  HAVE_KHETAI=true
  run khetai-thoth "$KHETAI $THOTH -each tc=1+0.01 -rounds 50 -games 2"
  run khetai-levels "$KHETAI $GEN7ENG $LEVELS -tournament gauntlet -each tc=1+0.01 -rounds $ROUNDS -games 2"
else
  echo "== khetai: the gem is not installed (gem install khetai, or into engines/khetai/gems): skipped"
fi

# The second control, TC2: each engine against Thoth at full strength, each match in its own file
run "thoth@$TC2" "$THOTH $GEN7ENG $LEVELS -tournament gauntlet -each tc=$TC2 -rounds $ROUNDS2 -games 2"
[ -x "$DDKET" ] && run "ddket@$TC2" "-engine cmd=$DDKET proto=uki name=ddket $THOTH -each tc=$TC2 -rounds $ROUNDS2 -games 2"
[ -x "$KHET2AI" ] && run "khet2ai@$TC2" "-engine cmd=$KHET2AI proto=khet2ai name=Khet2-AI $THOTH -each tc=$TC2 -rounds $ROUNDS2 -games 2"
$HAVE_KHETAI && run "khetai@$TC2" "$KHETAI $THOTH -each tc=$TC2 -rounds $ROUNDS2 -games 2"

# the ratings, a table per time control, each from that control's games, with their error bars
npx tsx tools/rating-list.ts "$DIR"/*.pgn
