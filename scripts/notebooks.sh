#!/usr/bin/env bash
# Executes every notebook headless and checks its figure against the committed one.
#   scripts/notebooks.sh            run, then compare with docs/images/ and notebooks/data/; exit 1 on a difference
#   scripts/notebooks.sh --update   run, then make the new figures and data the committed ones (commit them)
# The notebooks read what the project produced (the CLI's JSON, results/) and write their figures to
# .build-notebooks/images/ ($IDBUDGET_FIGURES), never straight into docs/images/. Without results/ (no
# scripts/bench.sh yet), notebook 3 measures a small version through the CLI and notebook 4 plots the
# committed samples in notebooks/data/, each saying so on its figure. What is compared (plots differ
# between runs in their timings): every committed image has a regenerated one of the same pixel size,
# and the plotted data of the deterministic notebooks (1, 2) equals notebooks/data/*.json; see
# Tools/check_notebooks.py. The CLI: $IDBUDGET when set, else the release build (built here).
set -euo pipefail
cd "$(dirname "$0")/.."
update=""
case "${1:-}" in
  "") ;;
  --update) update="--update" ;;
  *) echo "usage: scripts/notebooks.sh [--update]" >&2; exit 64 ;;
esac
scripts/setup.sh --python matplotlib nbclient nbconvert nbformat ipykernel jupyter_core
if [ -z "${IDBUDGET:-}" ]; then
  scripts/setup.sh
  swift build -c release --product idbudget >&2
  IDBUDGET=.build/release/idbudget
fi
# The notebooks run in notebooks/: a relative path must become absolute.
case "$IDBUDGET" in /*) ;; */*) IDBUDGET="$PWD/$IDBUDGET" ;; esac
export IDBUDGET
out=.build-notebooks
export IDBUDGET_FIGURES="$PWD/$out/images"
rm -rf "$IDBUDGET_FIGURES"
mkdir -p "$IDBUDGET_FIGURES"
for nb in notebooks/*.ipynb; do
  echo "notebook: $nb"
  python3 -m jupyter nbconvert --to notebook --execute "$nb" --output-dir "$out" \
    --ExecutePreprocessor.timeout=600 >/dev/null
done
python3 Tools/check_notebooks.py "$IDBUDGET_FIGURES" $update
