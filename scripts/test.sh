#!/usr/bin/env bash
# The whole test suite: library reference values, properties, the generator, and the CLI contract.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift test "$@"
