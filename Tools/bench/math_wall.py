#!/usr/bin/env python3
"""Wall time of the hardest planning queries known (the top of the range, huge scopes, budgets near 1
or with many digits), through the CLI, three runs each, interleaved, and as many pinned to one core
(taskset). Writes results/math-wall.json for the benchmark report, whose targets are: every one under
1 s (median), on two cores and on one.

    python3 Tools/bench/math_wall.py results [--repeats 3] [--binary .build/release/idbudget]
"""
import argparse
import json
import os
import shutil
import random
import statistics
import subprocess
import sys
import time

rng = random.Random(2)
DIGITS_400 = "0." + "".join(rng.choice("0123456789") for _ in range(400)) + "7"
DIGITS_100K = "0." + "".join(rng.choice("0123456789") for _ in range(99_990)) + "3"
DIGITS_130K = "0.9" + "".join(rng.choice("0123456789") for _ in range(130_000)) + "1"
# Budgets written to agree with p(d, n) to thousands of digits (mpmath): deciding one needs p to as many
# digits, up to the limit of 10,000 (log-gamma at 2^64; the falling product at 2^36 with 2^24 ids, where
# 1 − p ≈ 10^−890, so 10,500 digits of p are ~9,600 of 1 − p); past it, a refusal (exit 64).
sys.set_int_max_str_digits(0)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Oracles"))
from near_tie import budgets  # noqa: E402

NEAR_TIE_9900 = budgets(2**64, 5_000_000_000, 9_900)[0]
NEAR_TIE_PRODUCT = budgets(2**36, 2**24, 10_500)[0]
NEAR_TIE_10300 = budgets(2**64, 5_000_000_000, 10_300)[0]

QUERIES = [
    ("plan for the article", ["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"]),
    # Issue 37's slow corner: a near-full space, many attempts (6–10 s before the Euler–Maclaurin power sums).
    ("retries, 2^16 values, 100 attempts, p ≤ 0.5", ["retries", "--bits", "16", "--count", "10", "--max-attempts", "100", "--max-probability", "0.5"]),
    ("retries, 2^20 values, 100 attempts, p ≤ 0.5", ["retries", "--bits", "20", "--count", "10", "--max-attempts", "100", "--max-probability", "0.5"]),
    ("probability, n near d at the top", ["probability", "--bits", "2097152", "--count", "2^2097152-3"]),
    ("probability, n = d/256 at the top", ["probability", "--bits", "2097152", "--count", "2^2097144"]),
    ("length, 2^1048575 ids", ["length", "--alphabet", "base62", "--count", "2^1048575", "--max-probability", "0.5"]),
    ("length, 10^600000 scopes", ["length", "--alphabet-size", "2", "--scopes", "1e600000", "--count-per-scope", "2",
                                  "--max-probability", "1e-12"]),
    ("plan, 10^600000 scopes (7 alphabets)", ["plan", "--scopes", "1e600000", "--count-per-scope", "500",
                                              "--max-probability", "1e-6"]),
    ("capacity 2^2097152, p ≤ 1e-12", ["capacity", "--bits", "2097152", "--max-probability", "1e-12"]),
    ("capacity 2^2097152, p ≤ 0.3", ["capacity", "--bits", "2097152", "--max-probability", "0.3"]),
    ("capacity 2^2097152, p ≤ 0.5", ["capacity", "--bits", "2097152", "--max-probability", "0.5"]),
    ("capacity 2^2097152, p ≤ 0.999999", ["capacity", "--bits", "2097152", "--max-probability", "0.999999"]),
    ("capacity 2^2097152, 22 nines", ["capacity", "--bits", "2097152", "--max-probability", "0.9999999999999999999999"]),
    ("capacity 2^2097152, 26-digit budget", ["capacity", "--bits", "2097152", "--max-probability", "0.31415926535897932384626433"]),
    ("capacity 2^2097152, 400-digit budget", ["capacity", "--bits", "2097152", "--max-probability", DIGITS_400]),
    ("capacity 2^2097152, 100,000-digit budget", ["capacity", "--bits", "2097152", "--max-probability", DIGITS_100K]),
    ("capacity 2^2097152−1, 130,000-digit budget, a rate", ["capacity", "--space-size", "2^2097152-1", "--max-probability",
                                                            DIGITS_130K, "--rate", "1e6/s"]),
    ("capacity 2^2097152, 10^300000 scopes, 130,000-digit budget", ["capacity", "--bits", "2097152", "--scopes", "1e300000",
                                                                   "--max-probability", DIGITS_130K]),
    ("capacity 2^2097152, 7 scopes, 130,000-digit budget", ["capacity", "--bits", "2097152", "--scopes", "7",
                                                            "--max-probability", DIGITS_130K]),
    ("plan, 2^1048575 ids, 130,000-digit budget", ["plan", "--count", "2^1048575", "--max-probability", DIGITS_130K]),
    ("capacity 2^64, a budget matching p(2^64, 5·10^9) to 9,900 digits", ["capacity", "--bits", "64", "--max-probability",
                                                                          NEAR_TIE_9900]),
    ("capacity 2^36, a budget matching p(2^36, 2^24) to 10,500 digits", ["capacity", "--bits", "36", "--max-probability",
                                                                        NEAR_TIE_PRODUCT]),
    ("capacity 2^64, matching p(2^64, 5·10^9) to 10,300 digits: refused", ["capacity", "--bits", "64", "--max-probability",
                                                                           NEAR_TIE_10300], 64),
    # Issue 37's edges: steep growth over microseconds (20 s when the check began at log2(L) bits), the
    # mean after a near-full store, many xid processes past K(m − 1) ≥ 2^24.
    ("capacity ksuid, 1e6/s doubling every µs", ["capacity", "--scheme", "ksuid", "--max-probability", "1e-9", "--rate", "1e6/s",
                                                 "--growth", "2x/us"]),
    ("capacity uuid7, 1e-40/s doubling yearly", ["capacity", "--scheme", "uuid7", "--max-probability", "1e-9", "--rate", "1e-40/s",
                                                 "--growth", "2x/y"]),
    ("capacity 2^20 after 2^20 − 1 stored", ["capacity", "--bits", "20", "--existing", "1048575", "--max-probability", "0.5",
                                             "--rate", "1/s"]),
    ("probability, 1.79·10^9 xid processes at 1000/s", ["probability", "--scheme", "xid", "--nodes", "1.79e9", "--rate", "1000/s"]),
    ("capacity 3^1323000, 26-digit budget", ["capacity", "--space-size", "3^1323000", "--max-probability",
                                             "0.31415926535897932384626433"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--binary", default=".build/release/idbudget")
    a = ap.parse_args()
    # Each query as is, and pinned to one core (taskset), where the claim must hold too.
    pinned = ["taskset", "-c", "0"] if shutil.which("taskset") else None
    times = {label: [] for label, *_ in QUERIES}
    one_core = {label: [] for label, *_ in QUERIES}
    for _ in range(a.repeats):
        for label, args, *expected in QUERIES:
            for prefix, into in [([], times), (pinned, one_core)]:
                if prefix is None:
                    continue
                t = time.perf_counter()
                r = subprocess.run(prefix + [a.binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                into[label].append(time.perf_counter() - t)
                if r.returncode != (expected[0] if expected else 0):
                    sys.exit(f"math_wall: {label} failed: {r.stderr.decode()[:300]}")
    rows = [{"query": label, "command": "idbudget " + " ".join(x if len(x) < 60 else f"<{len(x)} chars>" for x in args),
             "min_s": min(times[label]), "median_s": statistics.median(times[label]), "max_s": max(times[label]),
             "one_core_median_s": statistics.median(one_core[label]) if one_core[label] else None}
            for label, args, *_ in QUERIES]
    json.dump({"repeats": a.repeats, "rows": rows, "worst_median_s": max(r["median_s"] for r in rows),
               "worst_one_core_median_s": max(r["one_core_median_s"] for r in rows) if pinned else None},
              open(f"{a.out}/math-wall.json", "w"), indent=1)
    for r in rows:
        one = f"  one core {r['one_core_median_s']:.2f}" if r["one_core_median_s"] is not None else ""
        print(f"{r['min_s']:6.2f} {r['median_s']:6.2f} {r['max_s']:6.2f} s{one}  {r['query']}")


if __name__ == "__main__":
    main()
