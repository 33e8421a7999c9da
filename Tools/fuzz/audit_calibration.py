#!/usr/bin/env python3
"""Calibration and power suite for `idbudget audit`.

    python3 Tools/fuzz/audit_calibration.py [--quick] [--binary .build/release/idbudget]
                                         [--seed 20240611] [--jobs 2] [--streams S]
                                         [--output results/audit-calibration.md]
    python3 Tools/fuzz/audit_calibration_selftest.py      # proves the checks can fail

Honest streams are drawn in Python from random.Random (an independent source, not idbudget's
generator), written to temporary files and audited with the binary
(`idbudget audit FILE --format json`). Every stream has a fixed seed derived from --seed, the
regime and its index, so a run (and a CI run in --quick) is deterministic: the same streams,
the same verdicts, no flakes.

Calibration (honest streams, per regime):
  * no false alarm: verdict_code is `consistent` and the exit status 0 for every stream (the
    verdict flags a tail only when its certified bound is < 5e-7, so a false alarm has
    probability <= 1e-6 per audit);
  * p_value_high / p_value_low are certified UPPER bounds on P(D >= obs) / P(D <= obs), hence
    super-uniform: the fraction of streams with p <= alpha must stay <= alpha +
    3*sqrt(alpha(1-alpha)/S) + 1/S for alpha = 0.01, 0.05 (the *_estimate fractions are shown
    for information only);
  * the contract: exit status 0 iff consistent, tail_threshold 5e-7 (divided among a mixed stream's
    groups), p-values in [0, 1], a
    `consistent` verdict only when both bounds are >= the threshold, and the space the tool
    infers (space.bits) is the one the stream was drawn from.
Power: honest streams where a fraction r of the lines is replaced by copies of earlier ids;
the detection rate (verdict too-many-duplicates) per regime and rate, with the planted count
against expected_duplicates; 100% is asserted where the planted count dwarfs the expected
duplicates (planted >= E + 10*sqrt(E) + 10) and r >= 1e-3.
Too few: sequential ids (seq -w 0 99999, %05d, hex counters) must be flagged.
Specific cases from the issue: 10^6 base62x6 ids + 100,000 repeats -> too-many-duplicates, exit
1; 4-digit codes n = 130,000 (several seeds) -> consistent, exit 0; empty stream -> empty, exit 1.
Real logs (Tools/fuzz/real_logs.py): honest logs with a CSV header, a v4->v7 migration, TypeIDs
beside other ids, nil UUIDs, Snowflakes, KSUIDs, declared formats -> consistent, exit 0, every
stream; broken ones in the same mess (21 copies of one id, a stuck position, a planted duplicate in
a migration, a KSUID payload that counts, too many nil UUIDs) -> their verdict, exit 1, every stream.

Prints one line per regime, writes the markdown tables to --output (results/ is created), and
ends with `audit calibration: N passed, M failed` (exit status 1 if M > 0).
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import real_logs  # noqa: E402 (the logs people really have: headers, migrations, mixes, declared formats)

DEC = "0123456789"
HEX = "0123456789abcdef"
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
THRESHOLD = 5e-7
ALPHAS = (0.01, 0.05)
REQUIRED = ("verdict_code", "p_value_high", "p_value_low", "p_value_high_estimate",
            "p_value_low_estimate", "test_method", "tail_threshold", "extra_occurrences",
            "expected_duplicates", "ids")


# ---------------------------------------------------------------- generators (honest streams)

def tokens(rng, n, alphabet, length):
    """n ids of `length` symbols, each uniform over `alphabet` (uniform over alphabet^length)."""
    if n == 0:
        return []
    s = "".join(rng.choices(alphabet, k=n * length))
    return [s[i:i + length] for i in range(0, len(s), length)]


def uuid7s(rng, per_ms, ms_count):
    """UUIDv7: 48-bit ms timestamp, version 7, 12 random bits, variant 10, 62 random bits."""
    start = 1_700_000_000_000 + rng.randrange(10 ** 9)
    out = []
    for ms in range(ms_count):
        ts = (start + ms) << 80
        for _ in range(per_ms):
            x = ts | (0x7 << 76) | (rng.getrandbits(12) << 64) | (0b10 << 62) | rng.getrandbits(62)
            out.append(str(uuid.UUID(int=x)))
    return out


def uuid4s(rng, n):
    return [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(n)]


def mixed_uuid4_hex6(rng, n):
    """A log of two honest kinds: UUIDv4 request ids and 6-character hex codes (1 in 6), shuffled."""
    codes = n // 6
    lines = uuid4s(rng, n - codes) + tokens(rng, codes, HEX, 6)
    rng.shuffle(lines)
    return lines


def tok_regime(alphabet, length):
    return lambda rng, n: tokens(rng, n, alphabet, length)


# Calibration regimes: key -> (label, n, generator, expected space bits, space size d or None,
# extra audit args). d is the size of the space the ids are uniform over (for n/d).
CALIB = [
    ("dec4-n45",        "decimal x4, n=45 (n/d=0.0045)",   45,      tok_regime(DEC, 4), math.log2(1e4), 10 ** 4),
    ("dec4-n2000",      "decimal x4, n=2,000 (n/d=0.2)",   2000,    tok_regime(DEC, 4), math.log2(1e4), 10 ** 4),
    ("dec4-n10000",     "decimal x4, n=10,000 (n=d)",      10000,   tok_regime(DEC, 4), math.log2(1e4), 10 ** 4),
    ("dec4-n60000",     "decimal x4, n=60,000 (6d)",       60000,   tok_regime(DEC, 4), math.log2(1e4), 10 ** 4),
    ("dec4-n130000",    "decimal x4, n=130,000 (13d)",     130000,  tok_regime(DEC, 4), math.log2(1e4), 10 ** 4),
    ("dec2-n500",       "%02d codes, n=500 (5d)",          500,     tok_regime(DEC, 2), math.log2(100), 100),
    ("hex6-n5000",      "hex x6, n=5,000",                 5000,    tok_regime(HEX, 6), 24.0, 16 ** 6),
    ("hex6-n20000",     "hex x6, n=20,000",                20000,   tok_regime(HEX, 6), 24.0, 16 ** 6),
    ("b62x5-n100000",   "base62 x5, n=100,000",            100000,  tok_regime(B62, 5), 5 * math.log2(62), 62 ** 5),
    ("b62x22-n100000",  "base62 x22, n=100,000 (huge)",    100000,  tok_regime(B62, 22), 22 * math.log2(62), 62 ** 22),
    ("b36x8-n200000",   "base36 lower x8, n=200,000",      200000,  tok_regime(B36, 8), 8 * math.log2(36), 36 ** 8),
    ("uuid7-1000perms", "UUIDv7, 1,000 ids/ms x 50 ms",    50000,   lambda rng, n: uuid7s(rng, 1000, n // 1000), 74.0, None),
    ("uuid7-1perms",    "UUIDv7, 1 id/ms x 50,000 ms",     50000,   lambda rng, n: uuid7s(rng, 1, n), 74.0, None),
    ("uuid4-n100000",   "UUIDv4, n=100,000",               100000,  lambda rng, n: uuid4s(rng, n), 122.0, None),
    ("mixed-uuid4-hex6", "UUIDv4 + hex x6 (1 in 6), n=60,000", 60000, mixed_uuid4_hex6, 122.0, None),
]

# Power regimes: key -> (label, n quick, n long, generator)
POWER = [
    ("b62x6",  "base62 x6",   200000, 1000000, tok_regime(B62, 6)),
    ("hex8",   "hex x8",      100000, 100000,  tok_regime(HEX, 8)),
    ("dec4",   "decimal x4",  2000,   2000,    tok_regime(DEC, 4)),
    ("uuid4",  "UUIDv4",      100000, 100000,  lambda rng, n: uuid4s(rng, n)),
]
RATES = (1e-4, 3e-4, 1e-3, 1e-2)

GENERATORS = {k: g for k, _, _, g, _, _ in CALIB}
GENERATORS.update({"power-" + k: g for k, _, _, _, g in POWER})
GENERATORS["b62x6"] = tok_regime(B62, 6)
GENERATORS.update(real_logs.GENERATORS)
GENERATORS["dec4"] = tok_regime(DEC, 4)


def plant(rng, lines, rate):
    """Replace round(rate*n) lines (not the first) by copies of earlier lines."""
    n = len(lines)
    k = int(round(rate * n))
    for i in sorted(rng.sample(range(1, n), k)):
        lines[i] = lines[rng.randrange(i)]
    return k


# ---------------------------------------------------------------- one audit (in a worker)

def special_lines(kind):
    if kind == "seq-w":
        seq = shutil.which("seq")
        if seq:
            return subprocess.run([seq, "-w", "0", "99999"], capture_output=True, text=True,
                                  check=True).stdout.splitlines()
        return ["%05d" % i for i in range(100000)]
    if kind == "pct05d":
        return ["%05d" % i for i in range(100000)]
    if kind == "hex4-counter":
        return ["%04x" % i for i in range(16 ** 4)]
    if kind == "hex5-counter":
        return ["%05x" % i for i in range(16 ** 5)]
    if kind == "hex8-counter":
        return ["%08x" % (0x3a7f0000 + i) for i in range(100000)]
    if kind == "empty":
        return []
    raise ValueError(kind)


def run_task(task):
    """task: dict(binary, tmpdir, tid, gen|special, n, seed, rate, extra, repeats)."""
    t0 = time.perf_counter()
    rng = random.Random(task["seed"])
    if "special" in task:
        lines = special_lines(task["special"])
    else:
        lines = GENERATORS[task["gen"]](rng, task["n"])
    planted = 0
    if task.get("rate"):
        planted = plant(rng, lines, task["rate"])
    if task.get("repeats"):
        extra = [lines[rng.randrange(len(lines))] for _ in range(task["repeats"])]
        lines = lines + extra
        rng.shuffle(lines)
        planted = task["repeats"]
    path = os.path.join(task["tmpdir"], "s%d.txt" % task["tid"])
    with open(path, "w") as f:
        if lines:
            f.write("\n".join(lines))
            f.write("\n")
    del lines
    gen_s = time.perf_counter() - t0
    argv = [task["binary"], "audit", path, "--format", "json"] + task.get("extra", [])
    t1 = time.perf_counter()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except (OSError, subprocess.TimeoutExpired) as e:
        rc, out, err = -1, "", str(e)
    audit_s = time.perf_counter() - t1
    os.unlink(path)
    res = {"tid": task["tid"], "rc": rc, "planted": planted, "gen_s": gen_s, "audit_s": audit_s,
           "seed": task["seed"], "error": None}
    try:
        j = json.loads(out)
        missing = [k for k in REQUIRED if k not in j]
        if missing:
            res["error"] = "missing keys %s" % missing
        for k in REQUIRED:
            res[k] = j.get(k)
        sp = j.get("space") or {}
        res["space_summary"] = sp.get("summary")
        res["space_bits"] = sp.get("bits")
        res["alphabet"] = j.get("alphabet")
        res["format"] = j.get("format")
        res["groups"] = [{"ids": g.get("ids"), "length": g.get("length")} for g in j.get("groups", [])]
    except (ValueError, TypeError) as e:
        res["error"] = "no JSON (rc %s): %s %s" % (rc, e, err.strip()[-300:])
    return res


# ---------------------------------------------------------------- checks

class Checks:
    def __init__(self):
        self.items = []

    def add(self, name, ok, detail=""):
        self.items.append((name, bool(ok), detail))
        if not ok:
            print("  FAIL %s: %s" % (name, detail), flush=True)
        return ok

    def counts(self):
        passed = sum(1 for _, ok, _ in self.items if ok)
        return passed, len(self.items) - passed


def limit(alpha, s):
    return alpha + 3 * math.sqrt(alpha * (1 - alpha) / s) + 1.0 / s


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def contract_errors(r):
    """Contract violations of one audit's result (a list of strings)."""
    errs = []
    if r["error"]:
        return [r["error"]]
    code = r["verdict_code"]
    if (r["rc"] == 0) != (code == "consistent"):
        errs.append("exit %s with verdict %s" % (r["rc"], code))
    # A mixed stream divides the budget among its groups of two ids or more (Bonferroni).
    tests = max(1, sum(1 for g in r.get("groups", []) if int(g["ids"]) >= 2))
    if abs(num(r["tail_threshold"]) - THRESHOLD / tests) > 1e-12 * THRESHOLD:
        errs.append("tail_threshold %s (expected %g over %d groups)" % (r["tail_threshold"], THRESHOLD / tests, tests))
    ph, pl = num(r["p_value_high"]), num(r["p_value_low"])
    for name, p in (("p_value_high", ph), ("p_value_low", pl)):
        if not (0.0 <= p <= 1.0):
            errs.append("%s = %s" % (name, p))
    if code == "consistent" and (ph < THRESHOLD or pl < THRESHOLD):
        errs.append("consistent with a bound < threshold (high %g, low %g)" % (ph, pl))
    if code == "too-many-duplicates" and not ph < THRESHOLD:
        errs.append("too-many-duplicates with p_value_high %g" % ph)
    if code == "too-few-duplicates" and not pl < THRESHOLD:
        errs.append("too-few-duplicates with p_value_low %g" % pl)
    return errs


def stream_seed(base, *parts):
    return "%s:%s" % (base, ":".join(str(p) for p in parts))


def repro(binary, task):
    if "special" in task:
        return "special stream %s" % task["special"]
    if task.get("repeats"):
        return "generator %s n=%d seed %r + %d repeats" % (task["gen"], task["n"], task["seed"], task["repeats"])
    s = "Tools/fuzz/audit_calibration.py --dump %s %d '%s'" % (task["gen"], task["n"], task["seed"])
    if task.get("rate"):
        s += " %g" % task["rate"]
    return s + " > s.txt && idbudget audit s.txt --format json" + "".join(" " + a for a in task.get("extra", []))


# ---------------------------------------------------------------- the suite

def run_suite(args, checks, md, calib=CALIB, power=POWER, rates=RATES, do_special=True):
    tmpdir = tempfile.mkdtemp(prefix="audit-calib-")
    tid = [0]

    def task(**kw):
        tid[0] += 1
        kw.update(binary=args.binary, tmpdir=tmpdir, tid=tid[0])
        return kw

    streams = args.streams or (30 if args.quick else 500)
    power_streams = args.power_streams or (3 if args.quick else 30)
    t_start = time.perf_counter()
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs)
    try:
        # ---------------- calibration
        tasks = []
        for key, label, n, _, bits, d in calib:
            for i in range(streams):
                tasks.append(task(kind="calib", regime=key, gen=key, n=n,
                                  seed=stream_seed(args.seed, key, i)))
        results = list(pool.map(run_task, tasks, chunksize=1))
        by_regime = {}
        for t, r in zip(tasks, results):
            by_regime.setdefault(t["regime"], []).append((t, r))
        md.append("## Calibration (honest streams)\n")
        md.append("S = %d streams per regime; a bound is calibrated when the fraction with "
                  "p <= alpha is <= alpha + 3 sqrt(alpha(1-alpha)/S) + 1/S (limits %.3f and %.3f)."
                  " `est` = the *_estimate fields (information only).\n"
                  % (streams, limit(0.01, streams), limit(0.05, streams)))
        md.append("| regime | inferred space (tool) | n | n/d | method | mean E[D] | mean D | "
                  "false alarms | high<=.01 | high<=.05 | low<=.01 | low<=.05 | "
                  "est high .01/.05 | est low .01/.05 | result |")
        md.append("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        print("calibration: %d regimes x %d streams (fixed seeds: --seed %s; deterministic)"
              % (len(calib), streams, args.seed), flush=True)
        for key, label, n, _, bits, d in calib:
            rows = by_regime[key]
            s = len(rows)
            nfail_before = checks.counts()[1]
            # contract
            bad = [(t, r, contract_errors(r)) for t, r in rows]
            bad = [(t, r, e) for t, r, e in bad if e]
            checks.add("%s contract" % key, not bad,
                       "; ".join("%s -> %s" % (repro(args.binary, t), e) for t, r, e in bad[:3]))
            ok_rows = [r for _, r in rows if not r["error"]]
            # inferred space
            spaces = sorted({(r["space_summary"], r["alphabet"]) for r in ok_rows}, key=str)
            wrong = [(t, r) for t, r in rows if not r["error"] and
                     abs(num(r["space_bits"]) - bits) > 1e-3]
            checks.add("%s inferred space" % key, not wrong,
                       "%d/%d streams inferred %s (want %.4f bits); e.g. %s" % (
                           len(wrong), s, sorted({(r["space_summary"], r["space_bits"]) for _, r in wrong}, key=str)[:4],
                           bits, repro(args.binary, wrong[0][0]) if wrong else ""))
            # false alarms
            alarms = [(t, r) for t, r in rows if r["error"] or r["verdict_code"] != "consistent" or r["rc"] != 0]
            codes = {}
            for _, r in alarms:
                codes[r.get("verdict_code")] = codes.get(r.get("verdict_code"), 0) + 1
            checks.add("%s no false alarm" % key, not alarms,
                       "%d/%d: %s; e.g. %s" % (len(alarms), s, codes,
                                               "; ".join(repro(args.binary, t) for t, _ in alarms[:3])))
            # calibration of the bounds
            frac = {}
            for field in ("p_value_high", "p_value_low", "p_value_high_estimate", "p_value_low_estimate"):
                for a in ALPHAS:
                    frac[field, a] = sum(1 for r in ok_rows if num(r[field]) <= a) / max(1, s)
            for field in ("p_value_high", "p_value_low"):
                for a in ALPHAS:
                    checks.add("%s %s calibrated at %.2f" % (key, field, a), frac[field, a] <= limit(a, s),
                               "fraction %.4f > limit %.4f (S=%d)" % (frac[field, a], limit(a, s), s))
            methods = {}
            for r in ok_rows:
                methods[r["test_method"]] = methods.get(r["test_method"], 0) + 1
            meth = "/".join("%s %d" % kv for kv in sorted(methods.items(), key=str))
            ed = sum(num(r["expected_duplicates"]) for r in ok_rows) / max(1, len(ok_rows))
            dd = sum(num(r["extra_occurrences"]) for r in ok_rows) / max(1, len(ok_rows))
            below = sum(1 for r in ok_rows if num(r["p_value_high"]) < num(r["p_value_high_estimate"]) - 1e-9
                        or num(r["p_value_low"]) < num(r["p_value_low_estimate"]) - 1e-9)
            passed = checks.counts()[1] == nfail_before
            sp = "; ".join("%s (%s)" % x for x in spaces)
            nd = ("%.4g" % (n / d)) if d else "~0"
            print("  %-16s %-34s S=%d %-18s E[D]=%-10.4g D=%-10.4g alarms=%d  high<=.01/.05: %.3f/%.3f  "
                  "low<=.01/.05: %.3f/%.3f  est high %.3f/%.3f low %.3f/%.3f%s  %s"
                  % (key, sp, s, meth, ed, dd, len(alarms), frac["p_value_high", 0.01], frac["p_value_high", 0.05],
                     frac["p_value_low", 0.01], frac["p_value_low", 0.05],
                     frac["p_value_high_estimate", 0.01], frac["p_value_high_estimate", 0.05],
                     frac["p_value_low_estimate", 0.01], frac["p_value_low_estimate", 0.05],
                     ("  bound<estimate in %d" % below) if below else "", "PASS" if passed else "FAIL"), flush=True)
            md.append("| %s | %s | %d | %s | %s | %.4g | %.4g | %d%s | %.3f | %.3f | %.3f | %.3f | %.3f/%.3f | %.3f/%.3f | %s |"
                      % (label, sp, n, nd, meth, ed, dd, len(alarms), (" %s" % codes) if codes else "",
                         frac["p_value_high", 0.01], frac["p_value_high", 0.05],
                         frac["p_value_low", 0.01], frac["p_value_low", 0.05],
                         frac["p_value_high_estimate", 0.01], frac["p_value_high_estimate", 0.05],
                         frac["p_value_low_estimate", 0.01], frac["p_value_low_estimate", 0.05],
                         "pass" if passed else "**FAIL**"))
        t_cal = time.perf_counter() - t_start

        # ---------------- power
        if power:
            tasks = []
            for key, label, nq, nl, _ in power:
                n = nq if args.quick else nl
                for rate in rates:
                    for i in range(power_streams):
                        tasks.append(task(kind="power", regime=key, gen="power-" + key, n=n, rate=rate,
                                          seed=stream_seed(args.seed, "power", key, rate, i)))
            results = list(pool.map(run_task, tasks, chunksize=1))
            cells = {}
            for t, r in zip(tasks, results):
                cells.setdefault((t["regime"], t["rate"]), []).append((t, r))
            md.append("\n## Power (planted duplicates)\n")
            md.append("A fraction r of the lines of an honest stream is replaced by copies of earlier "
                      "lines; detected = verdict too-many-duplicates. 100%% is asserted where r >= 1e-3 "
                      "and planted >= E + 10 sqrt(E) + 10 (E = expected_duplicates). %d streams per cell.\n"
                      % power_streams)
            md.append("| regime | n | r | planted | expected_duplicates E | sd | planted/sd | detected | rate | asserted |")
            md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
            print("power: %d streams per cell" % power_streams, flush=True)
            for key, label, nq, nl, _ in power:
                n = nq if args.quick else nl
                line = []
                for rate in rates:
                    rows = cells[(key, rate)]
                    ok_rows = [r for _, r in rows if not r["error"]]
                    bad = [(t, r, contract_errors(r)) for t, r in rows]
                    bad = [(t, r, e) for t, r, e in bad if e]
                    checks.add("power %s r=%g contract" % (key, rate), not bad,
                               "; ".join("%s -> %s" % (repro(args.binary, t), e) for t, r, e in bad[:3]))
                    det = sum(1 for r in ok_rows if r["verdict_code"] == "too-many-duplicates")
                    planted = rows[0][1]["planted"]
                    e = sum(num(r["expected_duplicates"]) for r in ok_rows) / max(1, len(ok_rows))
                    sd = math.sqrt(max(e, 1e-300))
                    asserted = rate >= 1e-3 and planted >= e + 10 * math.sqrt(e) + 10
                    if asserted:
                        miss = [(t, r) for t, r in rows if r["error"] or r["verdict_code"] != "too-many-duplicates"]
                        checks.add("power %s r=%g detects all" % (key, rate), not miss,
                                   "%d/%d missed (%s); e.g. %s" % (len(miss), len(rows),
                                                                  sorted({str(r.get("verdict_code")) for _, r in miss}),
                                                                  repro(args.binary, miss[0][0]) if miss else ""))
                    others = sorted({r["verdict_code"] for r in ok_rows if r["verdict_code"] not in ("too-many-duplicates", "consistent")})
                    line.append("r=%g: %d/%d" % (rate, det, len(rows)))
                    md.append("| %s | %d | %g | %d | %.4g | %.3g | %.3g | %d/%d%s | %.0f%% | %s |"
                              % (label, n, rate, planted, e, sd, planted / sd, det, len(rows),
                                 (" (other: %s)" % ",".join(others)) if others else "",
                                 100.0 * det / max(1, len(rows)), "yes" if asserted else "no"))
                print("  %-8s n=%-8d %s" % (key, n, "  ".join(line)), flush=True)
        t_pow = time.perf_counter() - t_start - t_cal

        # ---------------- too few and the specific cases
        if do_special:
            specs = [
                ("seq -w 0 99999", task(special="seq-w", seed="-"), {"too-few-duplicates"}, 1),
                ("%05d 0..99999", task(special="pct05d", seed="-"), {"too-few-duplicates", "non-uniform-positions"}, 1),
                ("%04x 0..65535 (hex counter)", task(special="hex4-counter", seed="-"), {"too-few-duplicates", "non-uniform-positions"}, 1),
                ("%08x counter, 100,000 from 0x3a7f0000", task(special="hex8-counter", seed="-"), {"too-few-duplicates", "non-uniform-positions"}, 1),
                ("empty stream", task(special="empty", seed="-"), {"empty"}, 1),
                ("10^6 base62x6 + 100,000 repeats", task(gen="b62x6", n=10 ** 6, repeats=100000,
                                                         seed=stream_seed(args.seed, "repeats")), {"too-many-duplicates"}, 1),
            ]
            if not args.quick:
                specs.insert(3, ("%05x 0..16^5-1 (hex counter)", task(special="hex5-counter", seed="-"),
                                 {"too-few-duplicates", "non-uniform-positions"}, 1))
            for i in range(3 if args.quick else 8):
                specs.append(("4-digit codes n=130,000 honest, seed #%d" % i,
                              task(gen="dec4", n=130000, seed=stream_seed(args.seed, "dec4-130k-case", i)),
                              {"consistent"}, 0))
            results = list(pool.map(run_task, [t for _, t, _, _ in specs], chunksize=1))
            md.append("\n## Too few duplicates and the issue's cases\n")
            md.append("| stream | ids | verdict_code | exit | p_value_high | p_value_low | D | E | method | expected | result |")
            md.append("|---|---:|---|---:|---:|---:|---:|---:|---|---|---|")
            print("too-few and specific cases:", flush=True)
            for (name, t, want, want_rc), r in zip(specs, results):
                errs = contract_errors(r)
                good = not errs and r["verdict_code"] in want and r["rc"] == want_rc
                checks.add("case %s" % name, good, "verdict %s exit %s (want %s, exit %d) %s; %s"
                           % (r.get("verdict_code"), r["rc"], sorted(want), want_rc, errs, repro(args.binary, t)))
                print("  %-44s %-22s exit %s  high %-10.3g low %-10.3g D=%s E=%.6g  %s"
                      % (name, r.get("verdict_code"), r["rc"], num(r.get("p_value_high")), num(r.get("p_value_low")),
                         r.get("extra_occurrences"), num(r.get("expected_duplicates")), "PASS" if good else "FAIL"), flush=True)
                md.append("| %s | %s | %s | %s | %.3g | %.3g | %s | %.6g | %s | %s, exit %d | %s |"
                          % (name, r.get("ids"), r.get("verdict_code"), r["rc"], num(r.get("p_value_high")),
                             num(r.get("p_value_low")), r.get("extra_occurrences"), num(r.get("expected_duplicates")),
                             r.get("test_method"), " or ".join(sorted(want)), want_rc, "pass" if good else "**FAIL**"))
        if do_special:
            run_real_logs(args, checks, md, pool, task)
    finally:
        pool.shutdown()
        shutil.rmtree(tmpdir, ignore_errors=True)
    t_all = time.perf_counter() - t_start
    return {"calibration_s": t_cal, "power_s": t_pow, "total_s": t_all}


def run_real_logs(args, checks, md, pool, task):
    """Tools/fuzz/real_logs.py: honest logs with a header, a migration, mixed formats, placeholders or a
    declaration must all pass; broken ones in the same mess must all fail."""
    honest_streams = 10 if args.quick else 100
    broken_streams = 3 if args.quick else 10
    tasks, kinds = [], []
    for key, label, n, extra in real_logs.HONEST:
        for i in range(honest_streams):
            tasks.append(task(gen=key, n=n, extra=extra, seed=stream_seed(args.seed, key, i)))
            kinds.append((label, {"consistent"}, 0))
    for key, label, n, extra, want in real_logs.BROKEN:
        for i in range(broken_streams):
            tasks.append(task(gen=key, n=n, extra=extra, seed=stream_seed(args.seed, key, label, i)))
            kinds.append((label, want, 1))
    results = list(pool.map(run_task, tasks, chunksize=1))
    rows = {}
    for t, (label, want, want_rc), r in zip(tasks, kinds, results):
        good = not r["error"] and r.get("verdict_code") in want and r["rc"] == want_rc
        row = rows.setdefault(label, {"want": want, "rc": want_rc, "n": 0, "good": 0, "codes": {}, "bad": []})
        row["n"] += 1
        row["good"] += good
        row["codes"][r.get("verdict_code")] = row["codes"].get(r.get("verdict_code"), 0) + 1
        if not good:
            row["bad"].append(repro(args.binary, t))
    md.append("\n## Real logs: headers, migrations, mixed formats, placeholders, declared formats\n")
    md.append("Honest logs must pass (consistent, exit 0) and broken ones fail (exit 1), every stream: %d honest "
              "and %d broken streams per row (Tools/fuzz/real_logs.py).\n" % (honest_streams, broken_streams))
    md.append("| log | streams | expected | verdicts | result |")
    md.append("|---|---:|---|---|---|")
    print("real logs:", flush=True)
    for label, row in rows.items():
        ok = row["good"] == row["n"]
        checks.add("real log %s" % label, ok, "%d/%d wrong (want %s, exit %d); e.g. %s"
                   % (row["n"] - row["good"], row["n"], sorted(row["want"]), row["rc"], "; ".join(row["bad"][:2])))
        codes = ", ".join("%s %d" % kv for kv in sorted(row["codes"].items(), key=str))
        print("  %-52s %d/%d  %s  %s" % (label, row["good"], row["n"], codes, "PASS" if ok else "FAIL"), flush=True)
        md.append("| %s | %d | %s, exit %d | %s | %s |" % (label, row["n"], " or ".join(sorted(row["want"])), row["rc"], codes,
                                                         "pass" if ok else "**FAIL**"))


# ---------------------------------------------------------------- main

def parser():
    """The command line of the calibration (and of its self-test, audit_calibration_selftest.py)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "idbudget"))
    ap.add_argument("--quick", action="store_true", help="CI sample: 30 streams per regime, 3 per power cell")
    ap.add_argument("--seed", default="20240611", help="base seed of every stream (default 20240611)")
    ap.add_argument("--jobs", type=int, default=2, help="audits in parallel (default 2)")
    ap.add_argument("--streams", type=int, default=0, help="streams per calibration regime (default 30 quick, 500 long)")
    ap.add_argument("--power-streams", type=int, default=0, help="streams per power cell (default 3 quick, 30 long)")
    ap.add_argument("--output", default=os.path.join(ROOT, "results", "audit-calibration.md"))
    ap.add_argument("--dump", nargs="+", metavar="ARG",
                    help="write one stream to stdout and exit, to reproduce a failure: GENERATOR N SEED [RATE] "
                         "(generators: %s)" % ", ".join(sorted(GENERATORS)))
    return ap


def main():
    args = parser().parse_args()

    if args.dump:
        gen, n, seed = args.dump[0], int(args.dump[1]), args.dump[2]
        rng = random.Random(seed)
        lines = GENERATORS[gen](rng, n)
        if len(args.dump) > 3:
            plant(rng, lines, float(args.dump[3]))
        sys.stdout.write("".join(l + "\n" for l in lines))
        return 0

    if not os.access(args.binary, os.X_OK):
        print("audit_calibration: no executable binary at %s" % args.binary, file=sys.stderr)
        return 2
    checks = Checks()
    md = ["# idbudget audit: calibration and power\n",
          "Mode: %s; base seed %s (fixed: every stream is random.Random('<seed>:<regime>:<i>'), so the run "
          "is deterministic); binary %s; jobs %d.\n" % ("quick" if args.quick else "long", args.seed,
                                                       args.binary, args.jobs)]
    print("audit calibration (%s mode, seed %s: fixed seeds, deterministic; binary %s)"
          % ("quick" if args.quick else "long", args.seed, args.binary), flush=True)
    times = run_suite(args, checks, md)
    p, f = checks.counts()
    md.append("\nRuntime: calibration %.1f s, power %.1f s, total %.1f s. Checks: %d passed, %d failed.\n"
              % (times["calibration_s"], times["power_s"], times["total_s"], p, f))
    if f:
        md.append("Failed checks:\n")
        md.extend("* %s: %s" % (name, detail) for name, ok, detail in checks.items if not ok)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w") as fh:
        fh.write("\n".join(md) + "\n")
    print("\n".join(x for x in md if x.startswith("|") or x.startswith("#")))
    print("runtime %.1f s (calibration %.1f s, power %.1f s); tables written to %s"
          % (times["total_s"], times["calibration_s"], times["power_s"], args.output))
    print("audit calibration: %d passed, %d failed" % (p, f))
    return 1 if f else 0


if __name__ == "__main__":
    sys.exit(main())
