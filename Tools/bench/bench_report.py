#!/usr/bin/env python3
"""Turns one benchmark run into a report with ratios: results/benchmark-report.md and benchmark.json.

Reads, from the results directory scripts/bench.sh fills: throughput.jmh.json (package-benchmark),
throughput-avx2.jmh.json (the same on the forced AVX2 sampler; optional), sampler.json and
collisions.json (collision-experiments), generate.json (CLI streaming), peers.json
(Tools/bench/peers.py; optional) and generate-uuid7.json (optional, {"ids_per_s": {"min", "median", "max"}}).
"""
import json
import math
import os
import platform
import statistics
import subprocess
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "results"


def load(name):
    """The JSON file `name` in the results directory, or None when it is absent or unreadable."""
    try:
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    except FileNotFoundError:
        return None
    except ValueError as e:
        print(f"bench_report: {name} is not valid JSON ({e}); treated as absent", file=sys.stderr)
        return None


runs = load("throughput.jmh.json")
if runs is None:
    sys.exit(f"bench_report: {out}/throughput.jmh.json is missing: run scripts/bench.sh")
score = {r["benchmark"].split("TokenThroughput.", 1)[1]: r["primaryMetric"]["score"] for r in runs}
# package-benchmark reports closure calls per second; each call handles 1000 tokens (bytes), or 10^6 bytes
# for the SecureRandom ceiling.
scale = {name: (1_000_000 if name == "CSPRNG.SecureRandom.bytes" else 100_000 if "Shared2Threads" in name or "SharedSnowflake8Threads" in name else 1000)
         for name in score}
rate = {name: score[name] * scale[name] for name in score}


def spread(r):
    """(min, median, max) tokens/s over the benchmark's measured iterations: from its raw samples when the
    JMH file has them, else from its percentiles; None when neither is there."""
    name = r["benchmark"].split("TokenThroughput.", 1)[1]
    metric = r["primaryMetric"]
    raw = [v for series in metric.get("rawData") or [] for v in series]
    if raw:
        lo, mid, hi = min(raw), statistics.median(raw), max(raw)
    else:
        p = metric.get("scorePercentiles") or {}
        if not all(k in p for k in ("0.0", "50.0", "100.0")):
            return name, None
        lo, mid, hi = sorted([p["0.0"], p["50.0"], p["100.0"]])
    return name, tuple(x * scale[name] for x in (lo, mid, hi))


spreads = dict(spread(r) for r in runs)

# Random bits the generator spends per symbol, as it reports them (collision-experiments writes them).
sampler = load("sampler.json")
SIZES = {62: "base62", 16: "hex", 64: "base64url"}


def bits_per_symbol(n):
    return sampler[SIZES[n]]


# Targets: (name, measured, goal, kind, unit). kind ">=" or "<"; measured None = not measured, with
# the reason in unit's place. Measured values print with as many digits as it takes for the printed
# figure to sit on the same side of the goal as the true one, so rounding never turns a miss into a hit.
ceiling_bytes = rate["CSPRNG.SecureRandom.bytes"]
rows = []
targets = []
for name, size, length in [("base62x22", 62, 22), ("hex32", 16, 32), ("base64urlx22", 64, 22)]:
    bytes_per_token = length * bits_per_symbol(size) / 8
    ceiling = ceiling_bytes / bytes_per_token
    for form in ["String", "Bulk"] + (["Array"] if name == "base62x22" else []):
        key = f"Generator.{form}.{name}"
        rows.append((key, rate[key], rate[key] * length, rate[key] / rate["Peer.UUID.uuidString"], rate[key] / ceiling))
    if name == "base62x22":
        targets.append(("String API ≥ 20× UUID().uuidString",
                        rate[f"Generator.String.{name}"] / rate["Peer.UUID.uuidString"], 20, ">=", "×"))
        targets.append(("Bulk API ≥ 60% of CSPRNG bytes/s ÷ bytes per token",
                        rate[f"Generator.Bulk.{name}"] / ceiling, 0.6, ">=", "%"))
# The same bulk path on the AVX2 sampler (IDTOKENS_SAMPLER=avx2, forced even on an AVX-512 CPU),
# against the keystream rate measured in that same run.
avx2_runs = load("throughput-avx2.jmh.json")
AVX2_TARGET = "Bulk API on the forced AVX2 sampler ≥ 60% of CSPRNG bytes/s ÷ bytes per token"
if avx2_runs is None:
    targets.append((AVX2_TARGET, None, 0.6, ">=", "not measured (no AVX2, or results/throughput-avx2.jmh.json missing)"))
else:
    avx2_rate = {r["benchmark"].split("TokenThroughput.", 1)[1]: r["primaryMetric"]["score"] for r in avx2_runs}
    avx2_rate = {k: v * (1_000_000 if k == "CSPRNG.SecureRandom.bytes" else 1000) for k, v in avx2_rate.items()}
    avx2_ceiling = avx2_rate["CSPRNG.SecureRandom.bytes"] / (22 * bits_per_symbol(62) / 8)
    bulk_avx2 = avx2_rate["Generator.Bulk.base62x22"]
    rows.append(("Generator.Bulk.base62x22 (IDTOKENS_SAMPLER=avx2)", bulk_avx2, bulk_avx2 * 22,
                 bulk_avx2 / rate["Peer.UUID.uuidString"], bulk_avx2 / avx2_ceiling))
    targets.append((AVX2_TARGET, bulk_avx2 / avx2_ceiling, 0.6, ">=", "%"))
FORMAT_CHARS = {"uuid4": 36, "uuid7": 36, "ulid": 26, "ksuid": 27, "nanoid": 21, "typeid": 26,  # typeid: no prefix
                "cuid2": 24, "firebase": 20, "uuid8": 36, "uuid1": 36, "uuid6": 36, "xid": 20, "objectid": 24,
                "snowflake": 19, "discord": 19, "instagram": 19, "sonyflake": 18, "tsid": 13}
for key in sorted(k for k in rate if k.startswith("Format.")):
    fmt = key.rsplit(".", 1)[1]
    rows.append((key, rate[key], rate[key] * FORMAT_CHARS.get(fmt, 0), rate[key] / rate["Peer.UUID.uuidString"], None))
    if key.startswith("Format.String."):
        targets.append((f"IDGenerator({fmt}).next() ≥ 10× UUID().uuidString",
                        rate[key] / rate["Peer.UUID.uuidString"], 10, ">=", "×"))
    if key.startswith("Format.Next."):
        bulk_key = f"Format.Bulk.{fmt}"
        if bulk_key in rate:
            targets.append((f"IDGenerator({fmt}).next() ≥ 50% of its fill (ids/s)", rate[key] / rate[bulk_key], 0.5, ">=", "%"))
    if key.startswith("Format.Bulk.") and fmt != "uuid7" and "Format.Bulk.uuid7" in rate:
        targets.append((f"{fmt} minted in bulk ≥ 50% of uuid7's rate (ids/s)", rate[key] / rate["Format.Bulk.uuid7"], 0.5, ">=", "%"))
if "Generator.String.base62x22" in rate:
    targets.append(("TokenGenerator.next() ≥ 10× UUID().uuidString",
                    rate["Generator.String.base62x22"] / rate["Peer.UUID.uuidString"], 10, ">=", "×"))
for key in ["Generator.Shared.base62x22", "Generator.Shared2Threads.base62x22"]:
    if key in rate:
        rows.append((key, rate[key], rate[key] * 22, rate[key] / rate["Peer.UUID.uuidString"], None))
if "Generator.Shared2Threads.base62x22" in rate:
    targets.append(("SharedTokenGenerator, 2 threads ≥ 1.3× one thread's `next()`",
                    rate["Generator.Shared2Threads.base62x22"] / rate["Generator.String.base62x22"], 1.3, ">=", "×"))
for key in ["Generator.SharedSnowflake.1Thread", "Generator.SharedSnowflake8Threads"]:
    if key in rate:
        rows.append((key, rate[key], rate[key] * 19, rate[key] / rate["Peer.UUID.uuidString"], None))
if "Generator.SharedSnowflake8Threads" in rate and "Generator.SharedSnowflake.1Thread" in rate:
    targets.append(("SharedIDGenerator(.snowflake), 8 threads ≥ 0.5× one thread (ids/s)",
                    rate["Generator.SharedSnowflake8Threads"] / rate["Generator.SharedSnowflake.1Thread"], 0.5, ">=", "×"))
for key in ["Floor.String.36bytes", "Floor.Clock.realtime", "Floor.Clock.counter"]:
    if key in rate:
        rows.append((key, rate[key], None, rate[key] / rate["Peer.UUID.uuidString"], None))
for key in ["Peer.UUID.uuidString", "Peer.Naive.randomElement.base62x22"]:
    rows.append((key, rate[key], rate[key] * (36 if "UUID" in key else 22), 1.0 * rate[key] / rate["Peer.UUID.uuidString"], None))

generate = load("generate.json")
if generate is not None:
    targets.append(("`idbudget generate --count 10000000 > /dev/null` < 2 s", generate["generate_10M_ms"] / 1000, 2.0, "<", "s"))
else:
    targets.append(("`idbudget generate --count 10000000 > /dev/null` < 2 s", None, 2.0, "<",
                    "not measured (results/generate.json missing)"))

# Peers measured by Tools/bench/peers.py in the same scripts/bench.sh run (other runtimes, other processes).
peers_doc = load("peers.json")
peers = (peers_doc or {}).get("peers", [])
measured_peers = [p for p in peers if "ids_per_s" in p]
node_uuid = next((p for p in measured_peers if p["name"] == "Node crypto.randomUUID()"), None)
claim_costs = []  # (benchmark, ids/s with wipe-on-fork, ids/s claiming before every draw)

uuid7 = load("generate-uuid7.json")
rust_uuid7 = next((p for p in measured_peers if p["name"].startswith("uuid-utils") and "uuid7" in p["name"]), None)
for goal, peer, ratio, missing in (
        ("uuid7 via `idbudget generate --scheme uuid7` ≥ 8× Node crypto.randomUUID() (strings written)", node_uuid, 8,
         "no Node crypto.randomUUID() figure in peers.json"),
        ("uuid7 via `idbudget generate --scheme uuid7` ≥ 3× uuid-utils (Rust) str(uuid7())", rust_uuid7, 3,
         "no uuid-utils uuid7 figure in peers.json")):
    if uuid7 is None:
        targets.append((goal, None, ratio, ">=", "not measured (results/generate-uuid7.json missing)"))
    elif peer is None:
        targets.append((goal, None, ratio, ">=", f"not measured ({missing})"))
    else:
        targets.append((goal, uuid7["ids_per_s"]["median"] / peer["ids_per_s"]["median"], ratio, ">=", "×"))
        if "avx2_ids_per_s" in uuid7:
            targets.append((goal.replace("`idbudget generate --scheme uuid7` ", "`idbudget generate --scheme uuid7` on AVX2 "
                                         "kernels (IDTOKENS_SAMPLER=avx2, as without AVX-512) ", 1),
                            uuid7["avx2_ids_per_s"]["median"] / peer["ids_per_s"]["median"], ratio, ">=", "×"))

# What the per-draw fork claim costs where wipe-on-fork is missing (old kernels, the portable layer):
# the same benchmarks with IDTOKENS_NO_WIPEONFORK=1, in the same scripts/bench.sh run.
claim_runs = load("throughput-claim.jmh.json")
if claim_runs is not None:
    claim = {r["benchmark"].split("TokenThroughput.", 1)[1]: r["primaryMetric"]["score"] * 1000 for r in claim_runs}
    for name, value in sorted(claim.items()):
        if name in rate:
            claim_costs.append((name, rate[name], value))


# idbudget audit against DuckDB's GROUP BY on the same file, same run (Tools/bench/audit_bench.py).
audit = load("audit.json")
AUDIT_SPEED = "`idbudget audit` of 10^7 base62×22 ids ≥ 1.5× DuckDB's GROUP BY (median wall)"
AUDIT_MEMORY = "… at most ⅓ of DuckDB's peak RSS (median)"
formats = load("generate-formats.json")
if formats is not None and "kernels" not in formats:
    formats = None  # a file from before the per-kernel runs: not this run's
KERNEL_NAMES = {"default": "default kernels", "avx2": "AVX2 kernels (IDTOKENS_SAMPLER=avx2)"}
if formats is not None:
    for kernel, table in formats["kernels"].items():
        for k, f in table.items():
            if k == "base62x22":
                continue
            targets.append((f"`idbudget generate --scheme {k}` ≥ 60% of base62×22's ids/s, {KERNEL_NAMES[kernel]} (medians, same run)",
                            f["ratio_to_base62x22"], 0.6, ">=", "×"))
# Every format's encoder (the node-id formats included, which the CLI cannot show: it waits for the real
# clock) in the library: IDGenerator(format).fill against TokenGenerator's base62×22 fill, on the default
# kernels and on the forced AVX2 ones. Timed pair by pair (Benchmarks/FormatRatios: base62×22, then the
# format, 61 rounds, the median of the rounds' ratios), so that the machine's drift between two
# benchmarks run seconds apart does not move the ratio; without those files, the two benchmarks' medians.
pair_runs = [(label, load(name)) for label, name in (("default kernels", "format-ratios.json"),
                                                      ("AVX2 kernels (IDTOKENS_SAMPLER=avx2)", "format-ratios-avx2.json"))]
for label, paired in pair_runs:
    if paired is None:
        continue
    for fmt, f in sorted(paired["formats"].items()):
        r = f["ratio"]
        targets.append((f"IDGenerator({fmt}) minted in bulk ≥ 60% of base62×22's bulk ids/s, {label} (pair by pair, "
                        f"{paired['rounds']} rounds: min {r['min']:.2f}, max {r['max']:.2f})", r["median"], 0.6, ">=", "×"))
for label, table in (("default kernels", rate),
                     ("AVX2 kernels (IDTOKENS_SAMPLER=avx2)", avx2_rate if avx2_runs is not None else None)):
    if table is None or "Generator.Bulk.base62x22" not in table or any(p is not None and l == label for l, p in pair_runs):
        continue
    for key in sorted(k for k in table if k.startswith("Format.Bulk.")):
        fmt = key.rsplit(".", 1)[1]
        targets.append((f"IDGenerator({fmt}) minted in bulk ≥ 60% of base62×22's bulk ids/s, {label}",
                        table[key] / table["Generator.Bulk.base62x22"], 0.6, ">=", "×"))
big_audits = [(label, load(f"{name}.json")) for label, name in (("5·10^7", "audit-5e7"), ("10^8", "audit-1e8"))]
# Past the default --memory, the goal is issue 35's: twice DuckDB's speed in a third of its memory.
for label, big in big_audits:
    goal = f"`idbudget audit` of {label} base62×22 ids under the default --memory ≥ 2× DuckDB's GROUP BY (median wall)"
    memory = f"… at most ⅓ of DuckDB's peak RSS ({label}, median)"
    if big is None:
        targets.append((goal, None, 2.0, ">=", "not measured"))
    else:
        targets.append((goal, big["speed_ratio"], 2.0, ">=", "×"))
        if "memory_ratio" in big:
            targets.append((memory, big["memory_ratio"], 0.3334, "<", "×"))
if audit is None:
    targets.append((AUDIT_SPEED, None, 1.5, ">=", "not measured (results/audit.json missing)"))
    targets.append((AUDIT_MEMORY, None, 0.3334, "<", "not measured (results/audit.json missing)"))
else:
    targets.append((AUDIT_SPEED, audit["speed_ratio"], 1.5, ">=", "×"))
    targets.append((AUDIT_MEMORY, audit["memory_ratio"], 0.3334, "<", "×"))
    for kind, r in audit.get("records", {}).items():
        w = r["wall_s"]
        targets.append((f"`idbudget audit` of 10^7 ids read from a {kind} ≥ 0.5× the speed of plain lines (median wall; "
                        f"{w['min']:.2f} / {w['median']:.2f} / {w['max']:.2f} s)", r["speed_of_lines"], 0.5, ">=", "×"))
    if "thread_ratio" in audit:
        t = audit["one_thread"]["wall_s"]
        targets.append((f"`idbudget audit` of 10^7 ids, {audit['threads']} threads ≥ 1.7× one thread (median wall; one thread "
                        f"{t['min']:.2f} / {t['median']:.2f} / {t['max']:.2f} s)", audit["thread_ratio"], 1.7, ">=", "×"))

# The server under wrk on loopback (Tools/bench/load_bench.py): a typical question alone and while heavy
# ones run; its p99 under load within 3× its p99 alone.
load_run = load("load.json")
LOAD_TARGET = ("server: typical question's p99 while heavy ones run ≤ 3× its p99 alone (wrk, loopback; each question a new "
               "one, computed: the answer cache can not help)")
if load_run is None or load_run.get("p99_ratio") is None:
    targets.append((LOAD_TARGET, None, 3.0, "<", "not measured (no wrk, or results/load.json missing)"))
else:
    targets.append((LOAD_TARGET, load_run["p99_ratio"], 3.0, "<", "×"))

CEILING_TARGET = "server: the seed question's requests/s ≥ 0.4× /healthz's (the HTTP ceiling), wrk, same run"
if load_run is None or load_run.get("typical_to_ceiling") is None:
    targets.append((CEILING_TARGET, None, 0.4, ">=", "not measured (no wrk, or results/load.json missing)"))
else:
    targets.append((CEILING_TARGET, load_run["typical_to_ceiling"], 0.4, ">=", "×"))
# The same two targets for the other variant of the question, reported side by side so neither is
# read from the variant it happens to meet: the repeated question's p99 (its answer from the cache,
# under a millisecond alone, so any CPU the flood takes shows), and the computed question's rate.
for goal, key, bound, op in (
        ("server: the seed question asked again (answered from the cache): p99 while heavy ones run ≤ 3× its p99 alone",
         "p99_ratio_repeated", 3.0, "<"),
        ("server: the seed question computed each time (a new rate each request): requests/s ≥ 0.4× /healthz's",
         "distinct_to_ceiling", 0.4, ">=")):
    if load_run is None or load_run.get(key) is None:
        targets.append((goal, None, bound, op, "not measured (no wrk, or results/load.json missing)"))
    else:
        targets.append((goal, load_run[key], bound, op, "×"))
BURST_TARGET = "server: RSS 3 s after 1,000 trickled audit uploads ≤ its RSS before + 100 MiB"
burst = (load_run or {}).get("upload_burst")
if burst is None or burst["rss_kib"]["after"] is None:
    targets.append((BURST_TARGET, None, 100.0, "<=", "not measured (no results/load.json, or no burst in it)"))
else:
    targets.append((BURST_TARGET, (burst["rss_kib"]["after"] - burst["rss_kib"]["before"]) / 1024, 100.0, "<=", "MiB"))
REPEATED_TARGET = "server: RSS after 8 audit uploads of 2.7 million distinct ids each ≤ its RSS after the first + 100 MiB"
repeated = (load_run or {}).get("repeated_uploads")
if repeated is None or None in repeated["rss_kib"]:
    targets.append((REPEATED_TARGET, None, 100.0, "<=", "not measured (no results/load.json, or no repeated uploads in it)"))
else:
    targets.append((REPEATED_TARGET, (repeated["rss_kib"][-1] - repeated["rss_kib"][1]) / 1024, 100.0, "<=", "MiB"))
TERM_TARGET = "server: gone ≤ 15 s after SIGTERM with an upload trickling 10 bytes every 2 s"
term = (load_run or {}).get("sigterm_with_trickle_s")
targets.append((TERM_TARGET, term, 15.0, "<=", "s") if term is not None
               else (TERM_TARGET, None, 15.0, "<=", "not measured (no results/load.json, or the server did not end within 60 s)"))

SOAK_TARGET = "server: memory flat under mixed load (RSS peak of the soak's second half < 1.25× its first half's)"
soak_run = (load_run or {}).get("soak")
if soak_run is None or soak_run.get("flat_ratio") is None:
    targets.append((SOAK_TARGET, None, 1.25, "<", "not measured (no wrk, or no soak in results/load.json)"))
else:
    targets.append((SOAK_TARGET, soak_run["flat_ratio"], 1.25, "<", "×"))

# The hardest planning queries known, through the CLI (Tools/bench/math_wall.py): every one under 1 s.
wall = load("math-wall.json")
WALL_TARGET = "hardest planning queries through the CLI (worst median wall) < 1 s"
if wall is None:
    targets.append((WALL_TARGET, None, 1.0, "<", "not measured (results/math-wall.json missing)"))
else:
    targets.append((WALL_TARGET, wall["worst_median_s"], 1.0, "<", "s"))
ONE_CORE_TARGET = "… the same pinned to one core (taskset -c 0)"
if wall is None or wall.get("worst_one_core_median_s") is None:
    targets.append((ONE_CORE_TARGET, None, 1.0, "<", "not measured (no taskset or results/math-wall.json missing)"))
else:
    targets.append((ONE_CORE_TARGET, wall["worst_one_core_median_s"], 1.0, "<", "s"))

# The math core (Benchmarks/MathSpeed): one library call per scaled iteration, reported as µs per call.
math_runs = load("math.jmh.json") or []
math_us = {}
for r in math_runs:
    name = r["benchmark"].split("MathSpeed.", 1)[-1]
    calls_per_s = r["primaryMetric"]["score"]
    if calls_per_s > 0:
        math_us[name] = 1e6 / calls_per_s
for name, goal, label in [("Math.probability.typical", 20, "library p(d, n), d ≤ 2^256, n ≤ 10^18"),
                          ("Math.length.article", 200, "library minimum length, the article"),
                          ("Math.capacity.article", 200, "library capacity, the article")]:
    if name in math_us:
        targets.append((f"{label} ≤ {goal} µs", math_us[name] / 1e6, goal / 1e6, "<=µs", "µs"))
    else:
        targets.append((f"{label} ≤ {goal} µs", None, goal / 1e6, "<=µs", "not measured (results/math.jmh.json missing)"))


def met(value, goal, kind):
    if kind in ("<=µs", "<="):
        return value <= goal
    return value >= goal if kind == ">=" else value < goal


def shown(value, goal, kind, unit):
    """value as text, with enough digits that the printed figure is on the same side of goal as value."""
    factor = 100 if unit == "%" else 1e6 if unit == "µs" else 1
    v, g = value * factor, goal * factor
    for digits in range(2, 13):
        text = f"{v:.{digits}f}"
        if met(float(text), g, kind) == met(v, g, kind) and (float(text) != g or v == g):
            break
    return text + ("%" if unit == "%" else f" {unit}" if unit in ("s", "µs", "MiB") else "×")


def goal_text(goal, kind, unit):
    if kind == "<=µs":
        return f"≤ {goal * 1e6:g} µs"
    if kind == "<=":
        return f"≤ {goal:g} {unit}" if unit in ("s", "MiB") else f"≤ {goal:g}×"
    return f"{'≥' if kind == '>=' else '<'} " + (f"{goal:.0%}" if unit == "%" else f"{goal} s" if unit == "s" else f"{goal}×")


def system_layer():
    """The release CLI's generator system layer ("linux" or "portable") and SIMD kernels, from its --version line."""
    try:
        binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "release", "idbudget")
        version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    layer = version.split("system layer: ", 1)[1].split(")", 1)[0] if "system layer: " in version else "unknown"
    kernels = version.split("(kernels: ", 1)[1].split(")", 1)[0] if "(kernels: " in version else "unknown"
    return f"{layer}; SIMD kernels: {kernels}"


def mega(x):
    return f"{x / 1e6:.3f} M" if x < 1e6 else f"{x / 1e6:.2f} M"


collisions = load("collisions.json") or []
groups = {}
for r in collisions:
    groups.setdefault((r["generator"], r["alphabet"], r["length"]), []).append(r)

lines = [
    "# idbudget benchmark report",
    "",
    f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; one run, the Swift peers "
    "measured in the same process (package-benchmark).",
    "",
    f"Generator system layer: {system_layer()} (`SecureRandom.systemLayer`; see SecurityModel, *What is tested where*).",
    "",
    "| benchmark | tokens/s | bytes/s | × UUID().uuidString | share of CSPRNG ceiling |",
    "|---|---:|---:|---:|---:|",
]
for key, tps, bps, vs_uuid, share in rows:
    bytes_text = "" if bps is None else f"{bps / 1e6:.0f} MB"
    lines.append(f"| {key} | {tps / 1e6:.2f} M | {bytes_text} | {vs_uuid:.2f}× | {'' if share is None else f'{share:.1%}'} |")
lines += [
    "",
    f"CSPRNG ceiling: SecureRandom {ceiling_bytes / 1e9:.2f} GB/s"
    + (f" ({avx2_rate['CSPRNG.SecureRandom.bytes'] / 1e9:.2f} GB/s on the forced AVX2 kernels, the default kernel "
       f"{ceiling_bytes / avx2_rate['CSPRNG.SecureRandom.bytes']:.1f}× that)" if avx2_runs is not None else "")
    + "; SystemRandomNumberGenerator "
    f"{rate['CSPRNG.SystemRandomNumberGenerator.bytes'] / 1e6:.0f} MB/s. A base62×22 token consumes "
    f"{22 * bits_per_symbol(62) / 8:.1f} random bytes.",
    "",
    "## Peers, same run",
    "",
]
OWN = [("Generator.String.base62x22", "idbudget `next() -> String`, base62×22"),
       ("Generator.Bulk.base62x22", "idbudget bulk `fill`, base62×22")]
own = [(label, spreads.get(key) or (rate[key],) * 3) for key, label in OWN if key in rate]
if peers_doc is None:
    lines += [f"No peers measured: {out}/peers.json is missing. `scripts/bench.sh` writes it with "
              "`python3 Tools/bench/peers.py results`; run that for the comparison with real peers.", ""]
else:
    m = peers_doc.get("machine", {})
    flags = ", ".join(f for f, on in (m.get("cpu_flags") or {}).items() if on) or "none of the tracked flags"
    lines += [
        f"Measured by `Tools/bench/peers.py` ({peers_doc.get('mode', '?')} mode) on {m.get('cpu', '?')} "
        f"({m.get('cores', '?')} cores; {flags}), commit {m.get('git', '?')}"
        f"{' (uncommitted changes)' if m.get('git_dirty') else ''}, {m.get('date', '?')}, Python {m.get('python', '?')}, "
        f"Node {m.get('node') or 'absent'}; load average {m.get('loadavg_start', '?')} before, "
        f"{m.get('loadavg_end', '?')} after.",
        "Peers run in their own runtimes (each id made by one call, as a user of that library gets it, "
        "interpreter overhead included); idbudget's figures are package-benchmark's in-process Swift "
        "figures from this run (min/median/max over its iterations). Ratios are idbudget's median ÷ the "
        "peer's median.",
        "",
    ]
    head = "| peer | format | runtime | min ids/s | median ids/s | max ids/s | repeats |"
    rule = "|---|---|---|---:|---:|---:|---:|"
    for label, _ in own:
        head += f" {label.replace('idbudget ', '')} ÷ peer |"
        rule += "---:|"
    lines += [head, rule]
    for label, (lo, mid, hi) in own:
        lines.append(f"| {label} | base62×22 | Swift, in process | {mega(lo)} | {mega(mid)} | {mega(hi)} | "
                     f"{'—'} |" + " |" * len(own))
    if uuid7 is not None:
        u = uuid7["ids_per_s"]
        lines.append(f"| `idbudget generate --scheme uuid7` | UUIDv7, 36 chars | idbudget CLI (Swift) | {mega(u['min'])} | "
                     f"{mega(u['median'])} | {mega(u['max'])} | {uuid7.get('repeats', '—')} |" + " |" * len(own))
    for p in sorted(peers, key=lambda p: -p["ids_per_s"]["median"] if "ids_per_s" in p else 0):
        if "ids_per_s" not in p:
            lines.append(f"| {p['name']} | {p.get('format', '')} | {p.get('runtime', '')} | not measured: "
                         f"{p.get('error', 'no figures')} | | | |" + " |" * len(own))
            continue
        s = p["ids_per_s"]
        ratios = "".join(f" {mid / s['median']:.1f}× |" for _, (_, mid, _) in own)
        lines.append(f"| {p['name']} | {p['format']} | {p['runtime']} | {mega(s['min'])} | {mega(s['median'])} | "
                     f"{mega(s['max'])} | {p.get('repeats', '')} |{ratios}")
    if not measured_peers:
        lines += ["", "No peer could be measured in this run (see the rows above)."]
    lines.append("")
lines += [
    "## Targets",
    "",
    "| target | measured | goal | met |",
    "|---|---:|---:|---|",
]
for name, value, goal, kind, unit in targets:
    if value is None:
        lines.append(f"| {name} | {unit} | {goal_text(goal, kind, '×')} | not measured |")
    else:
        lines.append(f"| {name} | {shown(value, goal, kind, unit)} | {goal_text(goal, kind, unit)} | "
                     f"{'yes' if met(value, goal, kind) else 'MISSED'} |")
# What bounds `next()` against `fill`: `next()` hands out ids a batch minted by `fill`'s own path, so it
# costs the fill's work plus handing one out; a time-ordered id also needs the time at each call, which
# the CPU counter gives between reads of the real-time clock (`idt_clock`). That counter read is a floor
# no per-call API can go under; where it alone exceeds the fill's cost an id, 50% is out of reach.
if "Floor.Clock.counter" in rate and "Floor.String.36bytes" in rate:
    counter_ns, string_ns = 1e9 / rate["Floor.Clock.counter"], 1e9 / rate["Floor.String.36bytes"]
    realtime_ns = 1e9 / rate["Floor.Clock.realtime"] if "Floor.Clock.realtime" in rate else float("nan")
    timed = {"uuid7", "ulid", "ksuid", "typeid", "firebase", "uuid1", "uuid6", "xid", "objectid",
             "snowflake", "discord", "instagram", "sonyflake", "tsid"}
    bounds, ruled_out = [], []
    for key in sorted(k for k in rate if k.startswith("Format.Bulk.")):
        fmt = key.rsplit(".", 1)[1]
        if fmt not in timed:
            continue
        fill_ns = 1e9 / rate[key]
        bound = fill_ns / (fill_ns + counter_ns)
        bounds.append(f"{fmt} {bound:.0%}")
        if bound < 0.5:
            ruled_out.append(fmt)
    lines += ["", f"`next()` against `fill`: `next()` returns a `GeneratedID` (the id's bytes inline; as a `String` it "
              f"costs {string_ns:.1f} ns more, `Floor.String.36bytes`) handed out from a batch that `fill`'s own path "
              "minted for the current millisecond (second, for ksuid; the node-id formats mint each id alone, their "
              "ticks holding a fixed number of ids). A time-ordered id needs the "
              f"time at each call: the CPU counter costs {counter_ns:.1f} ns a read here (`Floor.Clock.counter`), the "
              f"real-time clock {realtime_ns:.1f} ns (`Floor.Clock.realtime`, read once a millisecond). Even a `next()` "
              "that cost nothing but the fill's work and one counter read would reach at most: " + ", ".join(bounds)
              + " of its fill"
              + (f"; the counter read alone rules out 50% for {', '.join(ruled_out)}." if ruled_out else ".")]


def audit_table(title, result):
    """The audit-against-DuckDB table of one results file."""
    a, d = result["idbudget"], result["duckdb"]
    runs = f"{result['repeats']} alternating run{'s' if result['repeats'] > 1 else ''}"
    return ["", f"## {title} ({result['file_bytes'] >> 20} MiB, {runs}, DuckDB {result['duckdb_version']})", "",
            "| tool | wall min / median / max | peak RSS (median) |", "|---|---:|---:|",
            f"| `idbudget audit` | {a['wall_s']['min']:.2f} / {a['wall_s']['median']:.2f} / {a['wall_s']['max']:.2f} s | "
            f"{a['peak_rss_bytes']['median'] / 2**20:.0f} MiB |",
            f"| DuckDB `GROUP BY` histogram | {d['wall_s']['min']:.2f} / {d['wall_s']['median']:.2f} / {d['wall_s']['max']:.2f} s | "
            f"{d['peak_rss_bytes']['median'] / 2**20:.0f} MiB |",
            f"| speed ratio (medians) | {result['speed_ratio']:.2f}× | memory ratio {result['memory_ratio']:.2f} |"]


if audit is not None:
    lines += audit_table(f"Audit against DuckDB ({audit['ids']:,} base62×22 ids)", audit)
if formats is not None:
    on = [f for f, v in formats["cpu_flags"].items() if v]
    lines += ["", f"## Formats through the CLI ({formats['ids']:,} ids a run, {formats['rounds']} alternating rounds into /dev/null; "
              f"CPU: {', '.join(on) if on else 'no tracked SIMD flags'})", "",
              "Node-id formats (uuid1, uuid6, xid, objectid, the Snowflake family, tsid) are compared in the library "
              "(`Format.Bulk.*` above): their ceiling (Snowflake: 4,096 ids a millisecond) makes `generate` wait for the clock.", "",
              "| what | kernels | ids/s min / median / max | × base62×22 |", "|---|---|---:|---:|"]
    for kernel, table in formats["kernels"].items():
        for k, f in table.items():
            lines.append(f"| `generate {k}` | {kernel} | {f['min'] / 1e6:.1f} / {f['median'] / 1e6:.1f} / {f['max'] / 1e6:.1f} M | "
                         f"{f['ratio_to_base62x22']:.2f} |")
if load_run is not None:
    a, h, m = load_run["alone"], load_run["with_heavy"], load_run["rss_kib"]
    lines += ["", f"## The server under load (wrk on loopback, {load_run['seconds']} s a phase, same run)", "",
              f"Typical: `{load_run['typical']}`; heavy: `{load_run['heavy']}` (4 connections at once). The typical "
              "question asked again is answered from the server's answer cache (light answers, by question and UTC "
              "day); the rows with a new rate each request are computed every time: the math's own speed"
              + (f", {load_run['distinct_to_ceiling']:.2f}× the ceiling." if load_run.get("distinct_to_ceiling") else "."), "",
              "| phase | requests/s | p50 | p99 | non-2xx |", "|---|---:|---:|---:|---:|",
              f"| typical alone (8 connections) | {a['requests_per_s']:.0f} | {a['p50_ms']:.2f} ms | {a['p99_ms']:.2f} ms | {a['non_2xx']} |",
              f"| typical while heavy ones run | {h['requests_per_s']:.0f} | {h['p50_ms']:.2f} ms | {h['p99_ms']:.2f} ms | {h['non_2xx']} |",
              *[f"| {label} | {r['requests_per_s']:.0f} | {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms | {r['non_2xx']} |"
                for label, r in [("typical, a new rate each request (computed, no cache), alone", load_run.get("distinct_alone")),
                                 ("the same, while heavy ones run", load_run.get("distinct_with_heavy")),
                                 ("/healthz (the HTTP ceiling)", load_run.get("healthz"))] if r],
              f"| heavy (answered or 503 when its lane is full) | {load_run['heavy_requests_per_s'] or 0:.1f} | | | {load_run['heavy_non_2xx']} |",
              "", f"Server memory (RSS): {m['start'] / 1024:.0f} MiB at start, {m['after_alone'] / 1024:.0f} MiB after the "
              f"typical phase, {m['after_loaded'] / 1024:.0f} MiB after the loaded one; "
              f"{'it stayed up' if load_run['server_stayed_up'] else 'IT DID NOT STAY UP'}."]
    if soak_run:
        rss = ", ".join(f"{kib / 1024:.0f}" for _, kib in soak_run["rss_kib"] if kib)
        ans, non = soak_run["answered"], soak_run["non_2xx"]
        lines += ["", f"Soak, {soak_run['seconds']} s of typical, heavy and audit-upload requests at once: answered "
                  f"{ans['typical']} typical, {ans['heavy']} heavy, {ans['audit']} audits (503 for a full heavy lane: "
                  f"{non['heavy']} heavy, {non['audit']} audits); RSS every 5 s (MiB): {rss}; second half's peak / first "
                  f"half's: {soak_run['flat_ratio']:.2f}."]
if claim_costs:
    lines += ["", "## The fork claim's cost (no wipe-on-fork: every draw claims the state first; same run)", "",
              "| benchmark | ids/s, wipe-on-fork | ids/s, claim per draw | claim / wipe |", "|---|---:|---:|---:|"]
    for name, wipe, claimed in claim_costs:
        lines.append(f"| {name} | {wipe / 1e6:.1f} M | {claimed / 1e6:.1f} M | {claimed / wipe:.2f} |")
for label, big in big_audits:
    if big is not None:
        lines += audit_table(f"Audit against DuckDB, {label} base62×22 ids under the default --memory (1 GiB)", big)
if wall is not None:
    lines += ["", f"## Hardest planning queries ({wall['repeats']} interleaved runs each, wall including start-up)", "",
              "| query | min / median / max | one core, median |", "|---|---:|---:|"]
    for r in wall["rows"]:
        one = f"{r['one_core_median_s']:.2f} s" if r.get("one_core_median_s") is not None else "–"
        lines.append(f"| {r['query']} | {r['min_s']:.2f} / {r['median_s']:.2f} / {r['max_s']:.2f} s | {one} |")
lines += ["", "## Collisions against theory", ""]
if not groups:
    lines.append(f"No collision experiments: {out}/collisions.json is missing.")
else:
    lines += ["| generator | space | n | expected duplicates | observed (mean of trials) | combined z |",
              "|---|---|---:|---:|---:|---:|"]
for (gen, alph, length), rs in groups.items():
    z = sum(r["z"] for r in rs) / math.sqrt(len(rs))
    obs = sum(r["observed"] for r in rs) / len(rs)
    lines.append(f"| {gen} | {alph}^{length} | {rs[0]['count']} | {rs[0]['expected']:.1f} | {obs:.1f} | {z:+.2f} |")
report = "\n".join(lines) + "\n"
open(os.path.join(out, "benchmark-report.md"), "w").write(report)
json.dump({"tokens_per_second": rate,
           "tokens_per_second_spread": {k: {"min": v[0], "median": v[1], "max": v[2]} for k, v in spreads.items() if v},
           "targets": [{"name": n, "measured": v, "goal": g, "kind": k,
                        "met": None if v is None else met(v, g, k),
                        **({"note": u} if v is None else {})} for n, v, g, k, u in targets],
           "peers_file": "peers.json" if peers_doc is not None else None},
          open(os.path.join(out, "benchmark.json"), "w"), indent=1)
print(report)
