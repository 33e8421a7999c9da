#!/usr/bin/env bash
# The main job: install the C libraries if missing, build idbudget (release), and run it.
# With no arguments it answers the seed article's question: 10^6 ids/s for 10 years at p ≤ 1e-11.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product idbudget >&2
if [ "$#" -eq 0 ]; then
  set -- plan --rate 1e6/s --lifetime 10y --max-probability 1e-11
fi
exec .build/release/idbudget "$@"
