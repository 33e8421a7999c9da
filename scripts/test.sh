#!/usr/bin/env bash
# The whole test suite: library reference values, properties, the generator, and the CLI contract.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The tests compare against independent Python oracles (Tests/Oracles/): mpmath, a JSON Schema
# validator, ULID, KSUID and TypeID decoders; installed from requirements.txt when missing.
scripts/setup.sh --python mpmath jsonschema python-ulid cyksuid typeid-python uuid6 epyxid pymongo tsidpy cuid2 nanoid
swift test "$@"
