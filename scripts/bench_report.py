#!/usr/bin/env python3
"""Turns one benchmark run into a report with ratios: results/benchmark-report.md and benchmark.json."""
import json
import math
import os
import platform
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "results"
runs = json.load(open(os.path.join(out, "throughput.jmh.json")))
score = {r["benchmark"].split("TokenThroughput.", 1)[1]: r["primaryMetric"]["score"] for r in runs}
# package-benchmark reports closure calls per second; each call handles 1000 tokens (bytes), or 10^6 bytes
# for the SecureRandom ceiling.
scale = {name: (1_000_000 if name == "CSPRNG.SecureRandom.bytes" else 1000) for name in score}
rate = {name: score[name] * scale[name] for name in score}


# Random bits the generator spends per symbol, as it reports them (collision-experiments writes them).
sampler = json.load(open(os.path.join(out, "sampler.json")))
SIZES = {62: "base62", 16: "hex", 64: "base64url"}


def bits_per_symbol(n):
    return sampler[SIZES[n]]


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
        targets.append(("String API ≥ 20× UUID().uuidString", rate[f"Generator.String.{name}"] / rate["Peer.UUID.uuidString"], 20))
        targets.append(("Bulk API ≥ ½ of CSPRNG bytes/s ÷ bytes per token", rate[f"Generator.Bulk.{name}"] / ceiling, 0.5))
for key in ["Peer.UUID.uuidString", "Peer.Naive.randomElement.base62x22"]:
    rows.append((key, rate[key], rate[key] * (36 if "UUID" in key else 22), 1.0 * rate[key] / rate["Peer.UUID.uuidString"], None))

generate_ms = json.load(open(os.path.join(out, "generate.json")))["generate_10M_ms"]
targets.append(("`idbudget generate --count 10000000 > /dev/null` < 2 s", generate_ms / 1000, 2.0))

collisions = json.load(open(os.path.join(out, "collisions.json")))
groups = {}
for r in collisions:
    groups.setdefault((r["generator"], r["alphabet"], r["length"]), []).append(r)

lines = [
    "# idbudget benchmark report",
    "",
    f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; one run, peers measured in the same process.",
    "",
    "| benchmark | tokens/s | bytes/s | × UUID().uuidString | share of CSPRNG ceiling |",
    "|---|---:|---:|---:|---:|",
]
for key, tps, bps, vs_uuid, share in rows:
    lines.append(f"| {key} | {tps / 1e6:.2f} M | {bps / 1e6:.0f} MB | {vs_uuid:.1f}× | {'' if share is None else f'{share:.0%}'} |")
lines += [
    "",
    f"CSPRNG ceiling: SecureRandom {ceiling_bytes / 1e9:.2f} GB/s; SystemRandomNumberGenerator "
    f"{rate['CSPRNG.SystemRandomNumberGenerator.bytes'] / 1e6:.0f} MB/s. A base62×22 token consumes "
    f"{22 * bits_per_symbol(62) / 8:.1f} random bytes.",
    "",
    "| target | measured | goal | met |",
    "|---|---:|---:|---|",
]
for name, value, goal in targets:
    met = value <= goal if "< 2 s" in name else value >= goal
    lines.append(f"| {name} | {value:.2f} | {goal} | {'yes' if met else 'NO'} |")
lines += ["", "| generator | space | n | expected duplicates | observed (mean of trials) | combined z |", "|---|---|---:|---:|---:|---:|"]
for (gen, alph, length), rs in groups.items():
    z = sum(r["z"] for r in rs) / math.sqrt(len(rs))
    obs = sum(r["observed"] for r in rs) / len(rs)
    lines.append(f"| {gen} | {alph}^{length} | {rs[0]['count']} | {rs[0]['expected']:.1f} | {obs:.1f} | {z:+.2f} |")
report = "\n".join(lines) + "\n"
open(os.path.join(out, "benchmark-report.md"), "w").write(report)
json.dump({"tokens_per_second": rate, "targets": [{"name": n, "measured": v, "goal": g} for n, v, g in targets]},
          open(os.path.join(out, "benchmark.json"), "w"), indent=1)
print(report)
