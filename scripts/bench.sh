#!/usr/bin/env bash
# Benchmark report: generator throughput against peers (package-benchmark, one run), real peers from
# PyPI and Node (Tools/bench/peers.py), empirical collision rates against theory, and the CLI's streaming
# speed. Writes results/ and prints the report.
#   scripts/bench.sh            full run (~2 min of measuring)
#   scripts/bench.sh --short    CI mode
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# mpmath for the planning wall's near-tie budgets, DuckDB for the audit's comparison (the peers are
# installed by Tools/bench/peers.py itself, one at a time, so that one failing costs only its row).
scripts/setup.sh --python mpmath duckdb
short=""
[ "${1:-}" = "--short" ] && short="--short"
mkdir -p results
. scripts/swiftpm-retry.sh
if [ -n "$short" ]; then export IDBUDGET_BENCH_SHORT=1; fi
# The benchmarks are their own package (Benchmarks/), built in its own .build.
bench() {  # target, raw log, jmh output, then filters
  local target=$1 log=$2 out=$3; shift 3
  rm -rf Benchmarks/.build-bench-out
  swiftpm_retry "$log" env -C Benchmarks swift package --allow-writing-to-package-directory benchmark \
    --target "$target" "$@" --format jmh --path .build-bench-out --no-progress || { cat "$log"; exit 1; }
  cp Benchmarks/.build-bench-out/*.jmh.json "$out"
  rm -rf Benchmarks/.build-bench-out
}
bench TokenThroughput results/benchmark-raw.log results/throughput.jmh.json
# The bulk path again on the AVX2 sampler, forced even where the CPU has AVX-512, against the keystream
# measured in the same run (the report's AVX2 target); skipped on a CPU without AVX2.
rm -f results/throughput-avx2.jmh.json results/throughput-claim.jmh.json
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
  export IDTOKENS_SAMPLER=avx2
  bench TokenThroughput results/benchmark-avx2-raw.log results/throughput-avx2.jmh.json \
    --filter "CSPRNG.SecureRandom.bytes" --filter "Generator.Bulk.base62x22" --filter "Format.Bulk.*"
  unset IDTOKENS_SAMPLER
fi
# The fork claim's cost: the bulk and String paths again with wipe-on-fork refused (every draw claims
# the state with one atomic compare-and-swap first, as on old kernels and the portable layer).
export IDTOKENS_NO_WIPEONFORK=1
bench TokenThroughput results/benchmark-claim-raw.log results/throughput-claim.jmh.json \
  --filter "Generator.Bulk.base62x22" --filter "Generator.String.base62x22" --filter "Format.Bulk.uuid7" --filter "Format.String.uuid7"
unset IDTOKENS_NO_WIPEONFORK
bench MathSpeed results/benchmark-math-raw.log results/math.jmh.json
swift build -c release --package-path Benchmarks --product collision-experiments >&2
# Every format's bulk fill against base62×22 timed pair by pair (61 rounds; the report's 60% targets),
# on the default kernels and on the forced AVX2 ones.
rm -f results/format-ratios.json results/format-ratios-avx2.json
swift build -c release --package-path Benchmarks --product format-ratios >&2
Benchmarks/.build/release/format-ratios 61 > results/format-ratios.json
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
  IDTOKENS_SAMPLER=avx2 Benchmarks/.build/release/format-ratios 61 > results/format-ratios-avx2.json
fi
swift build -c release --product idbudget >&2
Benchmarks/.build/release/collision-experiments results $short > results/collisions.txt
cat results/collisions.txt
# Streaming through the CLI: best of three runs of 10^7 base62x22 tokens into /dev/null.
best=""
for _ in 1 2 3; do
  s=$(date +%s%N); .build/release/idbudget generate --count 10000000 > /dev/null; e=$(date +%s%N)
  t=$(( (e - s) / 1000000 )); if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
echo "{\"generate_10M_ms\": $best}" > results/generate.json
# uuid7 through the CLI: 5 runs of 10^7 ids into /dev/null, as ids/s; then as a CPU without AVX-512
# runs it (IDTOKENS_SAMPLER=avx2 narrows the keystream, sampler and encoder kernels), alternating.
python3 - <<'PY'
import json, os, statistics, subprocess, time
rates, avx2 = [], []
for _ in range(5):
    for env, into in ((None, rates), (dict(os.environ, IDTOKENS_SAMPLER="avx2"), avx2)):
        start = time.perf_counter()
        subprocess.run([".build/release/idbudget", "generate", "--scheme", "uuid7", "--count", "10000000"],
                       stdout=subprocess.DEVNULL, check=True, env=env)
        into.append(1e7 / (time.perf_counter() - start))
spread = lambda r: {"min": min(r), "median": statistics.median(r), "max": max(r)}
json.dump({"ids_per_s": spread(rates), "repeats": len(rates), "samples": rates,
           "avx2_ids_per_s": spread(avx2), "avx2_samples": avx2}, open("results/generate-uuid7.json", "w"))
PY
# Every format that mints at the speed of its encoder, through the CLI against base62×22 tokens: 5
# alternating rounds of 5·10^6 ids each into /dev/null, ids/s (min/median/max) and the ratio of medians,
# on the default kernels and again on the AVX2 ones (IDTOKENS_SAMPLER=avx2, as a CPU without AVX-512
# runs them; skipped without AVX2), with the CPU's SIMD features. The node-id formats are left out here:
# they mint at most their ceiling a tick (Snowflake: 4,096 ids a millisecond) and `generate` waits for
# the real clock to catch up before it exits (a release binary has no fixed clock), so their encoders
# are compared in the library benchmark instead (Format.Bulk.*, on both kernel sets).
python3 - <<'PY'
import json, statistics, subprocess, time
import os
kinds = {"base62x22": ["--alphabet", "base62", "--length", "22"]}
for f in ["uuid4", "uuid7", "ulid", "ksuid", "nanoid", "typeid", "cuid2", "firebase", "uuid8"]:
    kinds[f] = ["--scheme", f]
flags = set()
try:
    for line in open("/proc/cpuinfo"):
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
except OSError:
    pass
kernels = {"default": None}
if "avx2" in flags:
    kernels["avx2"] = dict(os.environ, IDTOKENS_SAMPLER="avx2")
n = 5_000_000
rates = {kernel: {k: [] for k in kinds} for kernel in kernels}
for _ in range(5):
    for k, args in kinds.items():
        for kernel, env in kernels.items():
            start = time.perf_counter()
            subprocess.run([".build/release/idbudget", "generate", "--count", str(n)] + args,
                           stdout=subprocess.DEVNULL, check=True, env=env)
            rates[kernel][k].append(n / (time.perf_counter() - start))
tracked = ["ssse3", "sse4_1", "avx2", "avx512f", "avx512bw", "avx512vbmi", "avx512_vbmi2", "bmi2"]
out = {"ids": n, "rounds": 5, "cpu_flags": {f: f in flags for f in tracked}, "kernels": {}}
for kernel in kernels:
    table = {k: {"min": min(v), "median": statistics.median(v), "max": max(v)} for k, v in rates[kernel].items()}
    base = table["base62x22"]["median"]
    for k in kinds:
        table[k]["ratio_to_base62x22"] = table[k]["median"] / base
    out["kernels"][kernel] = table
json.dump(out, open("results/generate-formats.json", "w"), indent=1)
PY
# The hardest planning queries known (top of the range, huge scopes, budgets near 1 or of many digits).
rm -f results/math-wall.json
python3 Tools/bench/math_wall.py results --repeats 3 || echo "bench: Tools/bench/math_wall.py failed; the report has no planning wall times" >&2
# The audit against DuckDB's GROUP BY on the same 10^7 ids, alternating runs.
rm -f results/audit.json results/audit-5e7.json results/audit-1e8.json
python3 Tools/bench/audit_bench.py results --repeats 5 || echo "bench: Tools/bench/audit_bench.py failed; the report has no audit figures" >&2
# Past the default --memory: 5·10^7 ids (1.1 GiB) three times each, 10^8 (2.1 GiB) once each.
python3 Tools/bench/audit_bench.py results --ids 50000000 --repeats 3 --name audit-5e7 || echo "bench: audit_bench.py (5e7) failed" >&2
python3 Tools/bench/audit_bench.py results --ids 100000000 --repeats 1 --name audit-1e8 || echo "bench: audit_bench.py (1e8) failed" >&2
# Real peers (PyPI packages, Python stdlib, Node's crypto.randomUUID()), measured in this run; a stale
# file from an earlier run must not pass for this one. The report says so if this step fails.
rm -f results/peers.json
python3 Tools/bench/peers.py results $short || echo "bench: Tools/bench/peers.py failed; the report has no peers" >&2
# The server under load (wrk, Debian; the release server is built if missing): a typical question alone
# and while heavy ones run.
if ! command -v wrk >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq wrk >/dev/null || true
fi
rm -f results/load.json
if command -v wrk >/dev/null; then
  python3 Tools/bench/load_bench.py results --seconds "$([ -n "$short" ] && echo 5 || echo 20)" >/dev/null \
    || echo "bench: Tools/bench/load_bench.py failed; the report has no load figures" >&2
fi
python3 Tools/bench/bench_report.py results
