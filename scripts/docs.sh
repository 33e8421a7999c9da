#!/usr/bin/env bash
# Builds the DocC archives for the two libraries (swift-docc-plugin); fails on DocC warnings.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The DocC plugin joins the manifest only when asked (users never resolve it).
export IDBUDGET_DOCS=1
. scripts/swiftpm-retry.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for target in IDFormats IDTokens IDBudget IDAudit IDQuestions; do
  swiftpm_retry "$log" swift package generate-documentation --target "$target" --warnings-as-errors || { cat "$log"; exit 1; }
  tail -2 "$log"
done
