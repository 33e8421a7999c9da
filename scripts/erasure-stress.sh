#!/usr/bin/env bash
# The erasure suite (Tests/IDTokensTests/ErasureTests.swift) many times in a row under load, on each
# kernel set: the default kernels, the forced AVX2 ones (IDTOKENS_SAMPLER=avx2) and the scalar path
# (IDTOKENS_NO_SIMD=1). While it runs, a CPU hog spins on every core and every 50 ms each process
# of the test binary (forked children included) is moved to another core, so the children are
# preempted and migrated while they mint. Stops at the first failure and prints it.
#
#   scripts/erasure-stress.sh [RUNS] [KERNELS]   RUNS per kernel set (default 200); KERNELS a
#                                                comma list of default,avx2,scalar (default all)
#   CI runs scripts/erasure-stress.sh 5 default,avx2
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-200}
kernels=${2:-default,avx2,scalar}
[[ $runs =~ ^[0-9]+$ ]] || { echo "usage: scripts/erasure-stress.sh [RUNS] [default,avx2,scalar]" >&2; exit 64; }
scripts/setup.sh
swift build --build-tests >&2
# A copy of the test binary: a build during the run cannot change it under the runs.
work=$(mktemp -d)
bin=$(ls -d .build/debug/*PackageTests.xctest 2>/dev/null | head -1)
[ -n "$bin" ] || { echo "erasure-stress: no test binary in .build/debug" >&2; exit 1; }
cp "$bin" "$work/erasure.xctest"
cores=$(nproc)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq "$cores"); do (while :; do :; done) & pids+=($!); done
( while :; do
    for p in $(pgrep -f "$work/erasure.xctest" || true); do taskset -a -p -c $((RANDOM % cores)) "$p" >/dev/null 2>&1 || true; done
    sleep 0.05
  done ) & pids+=($!)
start=$(date +%s)
for k in ${kernels//,/ }; do
  case $k in
    default) env=() ;;
    avx2) env=(IDTOKENS_SAMPLER=avx2) ;;
    scalar) env=(IDTOKENS_NO_SIMD=1 IDTOKENS_SAMPLER=scalar) ;;
    *) echo "erasure-stress: unknown kernel set '$k' (default, avx2, scalar)" >&2; exit 64 ;;
  esac
  for i in $(seq "$runs"); do
    if ! env "${env[@]}" "$work/erasure.xctest" --testing-library swift-testing --filter ErasureTests >"$work/run.log" 2>&1; then
      grep -E "✘|copies" "$work/run.log" >&2 || tail -20 "$work/run.log" >&2
      echo "erasure-stress: FAILED on the $k kernels, run $i of $runs" >&2
      exit 1
    fi
  done
  echo "erasure-stress: $runs runs in a row passed on the $k kernels under load ($(( $(date +%s) - start ))s so far)"
done
