#!/usr/bin/env bash
# Builds the DocC archives for the two libraries (swift-docc-plugin); fails on DocC warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for target in IDBudget IDTokens; do
  swift package generate-documentation --target "$target" --warnings-as-errors 2>&1 | tail -3
done
