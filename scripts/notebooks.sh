#!/usr/bin/env bash
# Executes every notebook headless; each reads what the project produced (the CLI's JSON, results/)
# and writes its plot to docs/images/. Without results/ (no scripts/bench.sh yet), notebook 3 measures a
# small version through the CLI and notebook 4 plots the committed samples in notebooks/data/, each
# saying so on its figure. The notebooks find the CLI through $IDBUDGET, set here to the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import nbclient, nbconvert, matplotlib, ipykernel" 2>/dev/null || \
  python3 -m pip install -q nbclient nbconvert ipykernel matplotlib
swift build -c release --product idbudget >&2
export IDBUDGET="$PWD/.build/release/idbudget"
mkdir -p .build-notebooks
for nb in notebooks/*.ipynb; do
  echo "notebook: $nb"
  python3 -m jupyter nbconvert --to notebook --execute "$nb" --output-dir .build-notebooks \
    --ExecutePreprocessor.timeout=600 >/dev/null
done
ls -l docs/images/*.png
