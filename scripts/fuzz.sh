#!/usr/bin/env bash
# The fuzzers and the audit's calibration, against the release binary:
#   * Tools/fuzz/fuzz.py: the math core (probability, length, capacity) against an independent
#     reference (mpmath + exact fractions);
#   * Tools/fuzz/summary_fuzz.py: mutated summaries never kill the process; 10^6 time buckets emit
#     and load in under 5 s within a 1 GiB --memory;
#   * Tools/fuzz/audit_calibration.py: the audit's verdicts on streams whose answer is known.
# Each starts with its selftest, which proves its checks can fail.
#
#   scripts/fuzz.sh           the CI sample: fixed seeds, deterministic, a few minutes
#   scripts/fuzz.sh --long    longer local run: more cases and seeds, the long fuzz profile (which also
#                             draws the known failures listed in Tools/fuzz/fuzz_cases.md, one case in
#                             250), the full calibration (500 streams per regime); runs every step and
#                             names the failed ones at the end
#
# The binary: $IDBUDGET when set, else .build/release/idbudget (built here).
set -euo pipefail
cd "$(dirname "$0")/.."
long=false
case "${1:-}" in
  "") ;;
  --long) long=true ;;
  *) echo "usage: scripts/fuzz.sh [--long]" >&2; exit 64 ;;
esac
if [ -z "${IDBUDGET:-}" ]; then
  scripts/setup.sh
  swift build -c release --product idbudget >&2
  IDBUDGET=.build/release/idbudget
fi
scripts/setup.sh --python mpmath uuid6 python-ulid cyksuid typeid-python epyxid pymongo tsidpy cuid2 nanoid
bin=$IDBUDGET
start=$(date +%s)
failed=()
# step NAME COMMAND...: in CI mode the first failure stops the run; in long mode every step runs.
step() {
  local name=$1
  shift
  echo "fuzz.sh: $name"
  if "$@"; then return 0; fi
  $long || { echo "fuzz.sh: FAILED: $name" >&2; exit 1; }
  failed+=("$name")
}
step "math fuzz selftest" python3 Tools/fuzz/fuzz.py --selftest --binary "$bin"
if $long; then
  for seed in 1 2 3 4; do
    step "math fuzz, seed $seed (long)" python3 Tools/fuzz/fuzz.py --seed "$seed" --cases 1000 --timeout 30 \
      --profile long --jobs 2 --binary "$bin"
  done
else
  step "math fuzz, seed 1" python3 Tools/fuzz/fuzz.py --seed 1 --cases 400 --timeout 5 --binary "$bin"
fi
echo "fuzz.sh: differential fuzz done in $(( $(date +%s) - start ))s"
step "summary fuzz selftest" python3 Tools/fuzz/summary_fuzz.py --selftest --binary "$bin"
if $long; then
  for seed in 1 2 3 4 5; do
    step "summary fuzz, seed $seed (long)" python3 Tools/fuzz/summary_fuzz.py --seed "$seed" --cases 2000 --timeout 20 --binary "$bin"
  done
else
  step "summary fuzz, seed 1" python3 Tools/fuzz/summary_fuzz.py --seed 1 --cases 400 --timeout 20 --binary "$bin"
fi
step "summary of 10^6 buckets" python3 Tools/fuzz/summary_fuzz.py --buckets 1000000 --binary "$bin"
echo "fuzz.sh: summary fuzz done in $(( $(date +%s) - start ))s"
step "inspect fuzz selftest" python3 Tools/fuzz/inspect_fuzz.py --selftest --binary "$bin"
if $long; then
  for seed in 1 2 3 4 5; do
    step "inspect fuzz, seed $seed (long)" python3 Tools/fuzz/inspect_fuzz.py --seed "$seed" --cases 50000 --binary "$bin"
  done
else
  step "inspect fuzz, seed 1" python3 Tools/fuzz/inspect_fuzz.py --seed 1 --cases 3000 --binary "$bin"
fi
echo "fuzz.sh: inspect fuzz done in $(( $(date +%s) - start ))s"
step "audit calibration selftest" python3 Tools/fuzz/audit_calibration_selftest.py
if $long; then
  step "audit calibration (full)" python3 Tools/fuzz/audit_calibration.py --binary "$bin"
else
  step "audit calibration (quick)" python3 Tools/fuzz/audit_calibration.py --quick --binary "$bin"
fi
echo "fuzz.sh: audit calibration done in $(( $(date +%s) - start ))s"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'fuzz.sh: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "fuzz.sh: all passed in $(( $(date +%s) - start ))s"
