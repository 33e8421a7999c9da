#!/usr/bin/env python3
"""Differential fuzzer for idbudget's math core: `probability`, `length` and `capacity` against an
independent reference.

The reference never touches idbudget's code. It is exact (gmpy2 integers: the falling factorial over
d^n, raised to the number of scopes/buckets) wherever that is affordable, and otherwise mpmath with a
rigorous error bound carried along, in the style of Tests/Oracles/reference.py:

* A  n ≤ 4000:   L = Σ_{i<n} −log1p(−i/d), all terms positive (relative error ≤ (n+32)·2^−P);
* C  n ≤ d/16:   L = Σ_k S_k(n)/(k·d^k), power sums by Faulhaber (the measured cancellation is
                 charged), the tail bounded by n·r^(K+1)/((K+1)(K+2)(1−r)), r = n/d;
* B  otherwise:  L = n·log d + lgamma(d−n+1) − lgamma(d+1), the cancellation paid for in precision
                 (log2 of the magnitudes over L), computed at two precisions that must agree;

L = −log(1 − p) is multiplied by the groups (scopes × time buckets), and p = −expm1(−L) and
1 − p = 10^(−L/ln 10) are rounded to 30 digits (half-even) only when the error bound keeps the
value away from a rounding boundary; otherwise the precision doubles (Ziv), then exact fractions are
tried, and a field the reference cannot certify is counted as "unverified", never compared.
Budgets are decided the same way: p ≤ P exactly when L ≤ −log(1 − P).

Usage:
  python3 Tools/fuzz/fuzz.py --seed 1 --cases 150 --timeout 5      # CI mode (deterministic, < 2 min)
  python3 Tools/fuzz/fuzz.py --cases 5000 --timeout 30             # longer local run (bigger inputs)
  python3 Tools/fuzz/fuzz.py --selftest                            # proves each failure kind is caught
  python3 Tools/fuzz/fuzz.py --verify-reference 200                # reference methods against exact
Binary: --binary PATH, else $IDBUDGET, else .build/release/idbudget.
Known failures stay out of the CI mix and come up once in 250 long-profile cases (regimes
budget-exact-big and scopes-huge; `--regime NAME` runs only them); see Tools/fuzz/fuzz_cases.md.
Exit status 1 when any case fails; the last line is `fuzz: N passed, M failed`.
"""
from fuzz_checks import *  # noqa: F401,F403 (spec constants and the one reference, cases, checks: fuzz_spec, fuzz_cases, fuzz_checks)

# ----------------------------------------------------------------------------------------------
# Verifying the reference, and the self-test
# ----------------------------------------------------------------------------------------------

def verify_reference(count, seed=7, out=sys.stdout):
    """Every mpmath method against exact fractions on random affordable cases; also the two roundings."""
    rng = random.Random(seed)
    bad, checked = [], 0
    for i in range(count):
        kind = rng.random()
        if kind < 0.3:
            d = log_uniform_int(rng, 2, 10 ** 7)
            n = rng.randint(2, min(d, 3000))
        elif kind < 0.6:
            d = log_uniform_int(rng, 1 << 20, 1 << 4096)
            n = rng.randint(2, 60)
        elif kind < 0.8:
            d = log_uniform_int(rng, 1 << 16, 1 << 40)
            n = max(2, min(d, int(math.isqrt(d) * rng.uniform(0.01, 3))))
        else:
            d = rng.randint(2, 5000)
            n = max(2, d - rng.randint(0, 10))
        S = rng.choice([1, 1, 2, 7, 100])
        if not REF.exact_affordable(d, n, S):
            continue
        num, den = REF.exact(d, n, S)
        want = (fmt_frac(den - num, den), fmt_frac(num, den))
        if den.bit_length() <= 60_000 and (fmt_frac_decimal(den - num, den) != want[0] or fmt_frac_decimal(num, den) != want[1]):
            bad.append(f"rounding disagrees with libmpdec for d={d} n={n} S={S}")
        methods = ["B"]
        if n <= 4000:
            methods.append("A")
        if log2i(d) - log2i(n) >= 4:
            methods.append("C")
        # budgets within 1e-12 and 1e-45 (relative) of p on either side, as short decimals
        budgets = []
        for k in (12, 45):
            s = k - int(math.floor((int(den - num).bit_length() - int(den).bit_length()) * 0.30103))
            q = (den - num) * mpz(10) ** s // den
            budgets += [Fraction(int(q) + delta, 10 ** s) for delta in (-1, 0, 1, 2)]
        for m in methods:
            try:
                got = REF.digits(d, n, S, method=m, allow_exact=False)
                for g_, w_, what in zip(got, want, ("p", "1-p")):
                    if g_ is not None and g_ != w_:
                        bad.append(f"method {m} {what}: {g_} != exact {w_} for d={d} n={n} S={S}")
                for B in budgets:
                    if not 0 < B < 1:
                        continue
                    ok = REF.within(d, n, S, B, method=m, allow_exact=False)
                    if ok is not None and ok != ((den - num) * B.denominator <= B.numerator * den):
                        bad.append(f"method {m} budget decision wrong for d={d} n={n} S={S} B={float(B)!r}")
            except RefError as e:
                bad.append(f"method {m}: {e}")
            checked += 1
    print(f"reference: {checked} method checks against exact fractions, {len(bad)} disagreements", file=out)
    for b in bad[:20]:
        print("  " + b, file=out)
    return not bad


FAKE = r'''#!{python}
import json, os, signal, subprocess, sys, time
MODE, REAL = {mode!r}, {real!r}
if MODE == "sleep":
    time.sleep(120)
if MODE == "crash":
    sys.stderr.write("idbudget/LogComplement.swift:42: Fatal error: Unexpectedly found nil\n"); sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGILL)
    time.sleep(5)
if MODE == "reject":
    sys.stderr.write("idbudget: error: --count: refused\n"); sys.exit(64)
if MODE == "exit1":
    sys.stderr.write("Error: could not certify 30 digits\n"); sys.exit(1)
r = subprocess.run([REAL] + sys.argv[1:], capture_output=True)
out, err = r.stdout, r.stderr
def bump(s):
    i = s.index("e") - 1
    return s[:i] + str((int(s[i]) + 1) % 10) + s[i + 1:]
if r.returncode == 0 and MODE not in ("fatal0", "accept"):
    j = json.loads(out)
    if MODE == "digit-p":
        j["collision"]["probability"] = bump(j["collision"]["probability"])
    elif MODE == "digit-c":
        j["collision"]["complement"] = bump(j["collision"]["complement"])
    elif MODE == "capacity+1":
        j["capacity"] = str(int(j["capacity"]) + 1)
    elif MODE == "capacity-1":
        j["capacity"] = str(int(j["capacity"]) - 1)
    elif MODE == "length-1":
        j["length"] = j["length"] - 1
    elif MODE == "length+1":
        j["length"] = j["length"] + 1
    elif MODE == "count+1":
        j["volume"]["count"] = str(int(j["volume"]["count"]) + 1)
    out = json.dumps(j).encode()
if MODE == "fatal0":
    err += b"Fatal error: Division by zero\n"
if MODE == "accept":
    sys.stdout.write("{{}}\n"); sys.exit(0)
sys.stdout.buffer.write(out); sys.stderr.buffer.write(err); sys.exit(r.returncode)
'''

SELFTEST_CASES = [
    ("probability", "--bits 122 --count 1e9", dict(d=1 << 122, n=10 ** 9, scopes=1, buckets=1, nodes=1)),
    ("probability", "--space-size 1000003 --count 4097", dict(d=1000003, n=4097, scopes=1, buckets=1, nodes=1)),
    ("probability", "--space-size 365 --count 23", dict(d=365, n=23, scopes=1, buckets=1, nodes=1)),
    ("probability", "--bits 44 --count 2", dict(d=1 << 44, n=2, scopes=1, buckets=1, nodes=1)),
    ("probability", "--bits 4096 --count 2^2047", dict(d=1 << 4096, n=1 << 2047, scopes=1, buckets=1, nodes=1)),
    ("probability", "--scheme uuid7 --rate 1e6/s --lifetime 10y --arrivals even", dict(d=1 << 74, n=1000, scopes=1, buckets=315360000000, nodes=1)),
    ("probability", "--alphabet base62 --length 8 --scopes 1e8 --count-per-scope 500", dict(d=62 ** 8, n=500, scopes=10 ** 8, buckets=1, nodes=1)),
    ("length", "--alphabet base62 --count 3.1536e14 --max-probability 1e-11",
     dict(a=62, sb=1, n=315360000000000, scopes=1, buckets=1, nodes=1, budget=Fraction(1, 10 ** 11), max_bytes=None)),
    ("length", "--alphabet hex --count 1e6 --max-probability 1e-30",
     dict(a=16, sb=1, n=10 ** 6, scopes=1, buckets=1, nodes=1, budget=Fraction(1, 10 ** 30), max_bytes=None)),
    ("capacity", "--bits 64 --max-probability 1e-11", dict(d=1 << 64, scopes=1, budget=Fraction(1, 10 ** 11), rate=None, bucket=None)),
    ("capacity", "--space-size 365 --max-probability 0.5", dict(d=365, scopes=1, budget=Fraction(1, 2), rate=None, bucket=None)),
    ("capacity", "--bits 4096 --max-probability 1e-18", dict(d=1 << 4096, scopes=1, budget=Fraction(1, 10 ** 18), rate=None, bucket=None)),
]

# fake mode → (commands it applies to, the failure kind it must produce)
SELFTEST_MODES = {
    "digit-p": ("probability length capacity", "wrong-digits"),
    "digit-c": ("probability length capacity", "wrong-digits"),
    "capacity+1": ("capacity", "wrong-answer"),
    "capacity-1": ("capacity", "wrong-answer"),
    "length-1": ("length", "wrong-answer"),
    "length+1": ("length", "wrong-answer"),
    "count+1": ("probability", "wrong-answer"),
    "sleep": ("probability length capacity", "timeout"),
    "crash": ("probability length capacity", "crash"),
    "fatal0": ("probability length capacity", "crash"),
    "exit1": ("probability length capacity", "crash"),
    "reject": ("probability length capacity", "rejected-valid"),
    "accept": ("invalid", "accepted-invalid"),
}


def selftest(binary):
    ok = True
    print("selftest: roundings and reference methods against exact fractions")
    ok &= verify_reference(80)
    cases = [Case("selftest", cmd, a.split(), **exp) for cmd, a, exp in SELFTEST_CASES]
    for i, c in enumerate(cases):
        c.index = i
    invalid = [Case("invalid", s.split()[0], s.split()[1:], valid=False) for s in INVALID[:3]]
    for i, c in enumerate(invalid):
        c.index = 100 + i
    sink = open(os.devnull, "w")
    print("selftest: the real binary passes the self-test cases (control)")
    fails, _, _ = fuzz(binary, cases + invalid, 10, out=sink, quiet=True)
    if fails:
        ok = False
        for _, _, line in fails:
            print("  control failed: " + line)
    with tempfile.TemporaryDirectory() as tmp:
        for mode, (applies, kind) in SELFTEST_MODES.items():
            fake = os.path.join(tmp, f"idbudget-{mode}")
            with open(fake, "w") as f:
                f.write(FAKE.format(python=sys.executable, mode=mode, real=os.path.abspath(binary)))
            os.chmod(fake, 0o755)
            subset = [c for c in cases + invalid if (c.regime == "invalid") == (applies == "invalid")
                      and (applies == "invalid" or c.command in applies.split())]
            if mode == "sleep":
                subset = subset[:2]
            fails, _, _ = fuzz(fake, subset, 1.5 if mode == "sleep" else 20, out=sink, quiet=True)
            caught = {(c.index) for k, c, _ in fails if k == kind}
            missed = [c for c in subset if c.index not in caught]
            status = "ok" if not missed else "MISSED"
            print(f"selftest: fake '{mode}' → {kind}: {len(caught)}/{len(subset)} caught {status}")
            for c in missed:
                ok = False
                print(f"  not caught: {shlex.join(c.argv(fake))}")
            if fails and mode == "digit-p":
                print("  e.g. " + fails[0][2][:220])
    sink.close()
    print("selftest: " + ("ok" if ok else "FAILED"))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock, printed)")
    ap.add_argument("--cases", type=int, default=150)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per CLI run")
    ap.add_argument("--profile", choices=["auto", "ci", "long"], default="auto",
                    help="input sizes: ci (fast, what CI runs) or long (up to 2^2097152, 1e20000 scopes); auto: long when --timeout ≥ 20")
    ap.add_argument("--binary", default=os.environ.get("IDBUDGET", os.path.join(ROOT, ".build", "release", "idbudget")))
    ap.add_argument("--jobs", type=int, default=1, help="CLI runs in flight (the reference runs alongside)")
    ap.add_argument("--regime", action="append", help="only these regimes (repeatable)")
    ap.add_argument("--case", type=int, action="append", help="only these case numbers (from a FAIL line)")
    ap.add_argument("--slow", type=float, default=1.0, help="report CLI runs slower than this (seconds)")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--verify-reference", type=int, metavar="N")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    if a.verify_reference:
        return 0 if verify_reference(a.verify_reference, seed=a.seed or 7) else 1
    if not os.access(a.binary, os.X_OK):
        print(f"fuzz: no executable at {a.binary}; build it or pass --binary", file=sys.stderr)
        return 2
    if a.selftest:
        return 0 if selftest(a.binary) else 1
    seed = a.seed if a.seed is not None else int(time.time())
    profile = a.profile if a.profile != "auto" else ("long" if a.timeout >= 20 else "ci")
    print(f"fuzz: seed {seed}, {a.cases} cases, profile {profile}, timeout {a.timeout:g} s, binary {a.binary}", flush=True)
    cases = generate(seed, a.cases, profile, a.regime)
    if a.case:
        cases = [c for c in cases if c.index in a.case]
    failures, _, failed = fuzz(a.binary, cases, a.timeout, a.jobs, a.slow, a.quiet)
    if failures and not a.quiet:
        first = failures[0][1].index
        print(f"rerun one: python3 Tools/fuzz/fuzz.py --seed {seed} --cases {a.cases} --timeout {a.timeout:g} --profile {profile}"
              + "".join(f" --regime {r}" for r in a.regime or []) + f" --case {first} --binary {a.binary}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
