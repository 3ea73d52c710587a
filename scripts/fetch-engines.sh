#!/bin/sh
# Fetches the other Khet engines that `thoth match -engine proto=…` can play into engines/
# (git-ignored), each at the commit its notes in docs/match.md ("Other engines") were checked
# against. It only fetches: build each as its own README says (docs/match.md lists the steps).
# Resumable: an engine already there is left alone. Needs git and the network.
#
#   sh scripts/fetch-engines.sh            every engine
#   sh scripts/fetch-engines.sh ddket      one of: ddket khet2-ai khetai dandailey-khet
set -eu
cd "$(dirname "$0")/.."
mkdir -p engines

fetch() { # name url commit
  if [ -d "engines/$1/.git" ]; then
    echo "engines/$1: already there"
    return
  fi
  git clone --quiet "$2" "engines/$1"
  git -C "engines/$1" -c advice.detachedHead=false checkout --quiet "$3"
  echo "engines/$1: $2 at $3"
}


for e in ${*:-all}; do
  case "$e" in
    all | ddket) fetch 6.172 https://github.com/albertyw/6.172 67bb34a40ade5f213b0442dea38ff42feccd190a ;;
  esac
  case "$e" in
    all | khet2-ai) fetch Khet2-AI https://github.com/AlexKent3141/Khet2-AI fb2865d1701623332d44008b3adf0cc032da0897 ;;
  esac
  case "$e" in
    all | khetai) fetch khetai https://github.com/jkugs/khetai 7ab93b4daa2dbb7e4db8308f1d73819920ec07ca ;;
  esac
  case "$e" in
    all | dandailey-khet) fetch dandailey-khet https://github.com/dandailey/khet 75fd0e6ad9d46b25ed3a7746384da4f2e17ed2cd ;;
  esac
  case "$e" in
    all | ddket | khet2-ai | khetai | dandailey-khet) ;;
    *) echo "unknown engine '$e' (ddket, khet2-ai, khetai, dandailey-khet)" >&2; exit 2 ;;
  esac
done
