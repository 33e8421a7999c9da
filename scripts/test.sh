#!/usr/bin/env bash
# The whole test suite: library reference values, properties, the generator, and the CLI contract.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The format tests decode minted ids with independent Python decoders.
python3 -c "from ulid import ULID; from cyksuid.v2 import parse" 2>/dev/null || \
  python3 -m pip install -q python-ulid cyksuid
swift test "$@"
