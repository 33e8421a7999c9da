#!/usr/bin/env bash
# Builds the DocC archives for the two libraries (swift-docc-plugin); fails on DocC warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for target in IDBudget IDTokens; do
  log=$(swift package generate-documentation --target "$target" --warnings-as-errors 2>&1) || { echo "$log"; exit 1; }
  echo "$log" | tail -2
done
