#!/usr/bin/env bash
# Builds the DocC archives for the two libraries (swift-docc-plugin); fails on DocC warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The DocC plugin joins the manifest only when asked (users never resolve it).
export IDBUDGET_DOCS=1
for target in IDFormats IDTokens IDBudget; do
  log=$(swift package generate-documentation --target "$target" --warnings-as-errors 2>&1) || { echo "$log"; exit 1; }
  echo "$log" | tail -2
done
