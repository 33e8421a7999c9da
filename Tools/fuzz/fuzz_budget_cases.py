#!/usr/bin/env python3
"""The fuzzer's cases for lengths, capacities and budgets (exact, at and near p, ties), the README's
own questions and invalid input; and the regimes that draw from every generator."""
from fuzz_cases import *  # noqa: F401,F403 (the probability cases, the reference and its imports)

def g_length(g):
    rng = g.rng
    a_args, a, sb = g.alphabet()
    scopes, buckets, nodes, rate = 1, 1, 1, None
    args = list(a_args)
    r = rng.random()
    if r < 0.5:
        n = log_uniform_int(rng, 1, 10 ** rng.choice([3, 9, 15, 30, 60]))
        args += ["--count", int_text(rng, n)]
    elif r < 0.75:
        rt, rv = g.rate()
        lt, lv = g.lifetime()
        args += ["--rate", rt, "--lifetime", lt]
        n = ceil_frac(rv * lv)
        rate = rv
    else:
        n = rng.randint(2, 10 ** 4)
        scopes = log_uniform_int(rng, 2, 10 ** 12)
        args += ["--scopes", int_text(rng, scopes), "--count-per-scope", str(n)]
    deep = g.long and rng.random() < 0.2
    while True:
        bt, bv = g.budget(deep)
        need = 2 * log2i(max(n, 2)) + log2i(scopes) - log2i(bv.numerator) + log2i(bv.denominator)
        if need < (4000 if not g.long else 200000):
            break
    args += ["--max-probability", bt]
    mb = None
    if rng.random() < 0.3 and sb is not None:  # unknown bytes: --max-bytes is refused (tested elsewhere)
        mb = rng.choice([8, 16, 22, 64, 128])
        args += ["--max-bytes", str(mb)]
    return Case("length", "length", args, a=a, sb=sb, n=n, scopes=scopes, buckets=buckets, nodes=nodes,
                budget=bv, max_bytes=mb, rate=rate)


def g_capacity(g):
    rng = g.rng
    bucket = None
    if rng.random() < 0.25:
        name = rng.choice(["uuid7", "ulid", "ksuid", "uuid4"])
        sp, d, bucket = ["--scheme", name], 1 << SCHEMES[name][0], SCHEMES[name][1]
    else:
        # Huge spaces put n past thousands of bits, where one L at full precision decides its
        # neighbours and λ comes from binary splitting on two threads.
        huge = [4096, 8192, 65536, 131072] + ([1048576, 2097152] if g.long else [])
        sp, d = g.space(bits=rng.choice([8, 16, 20, 32, 64, 100, 128, 256, 1024, rng.randint(1, 300)]
                                        + (huge if rng.random() < 0.25 else [])))
    args = list(sp)
    bt, bv = g.budget(g.long and rng.random() < 0.2)
    args += ["--max-probability", bt]
    scopes = 1
    if rng.random() < 0.3:
        scopes = log_uniform_int(rng, 2, 10 ** 9)
        args += ["--scopes", int_text(rng, scopes)]
    rate = None
    if rng.random() < 0.5:
        rt, rate = g.rate()
        args += ["--rate", rt]
        if bucket is not None:
            args += ["--arrivals", "even"]  # this regime checks the evenly spread model's "lasts"
    return Case("capacity", "capacity", args, d=d, scopes=scopes, budget=bv, rate=rate, bucket=bucket)


def g_budget_equal(g):
    """Budgets that p meets exactly: p(10^k, 2) = 10^−k."""
    rng = g.rng
    k = rng.randint(1, 60)
    if rng.random() < 0.5:
        return Case("budget-equal", "capacity", ["--space-size", f"1e{k}", "--max-probability", f"1e-{k}"],
                    d=10 ** k, scopes=1, budget=Fraction(1, 10 ** k), rate=None, bucket=None)
    return Case("budget-equal", "length", ["--alphabet", "decimal", "--count", "2", "--max-probability", f"1e-{k}"],
                a=10, sb=1, n=2, scopes=1, buckets=1, nodes=1, budget=Fraction(1, 10 ** k), max_bytes=None)


def exact_p_decimal(d, n, S, a2, a5):
    """p(d, n) over S groups as the exact decimal '0.ddd…' for d = 2^a2·5^a5 (p terminates)."""
    num, den = REF.exact(d, n, S)
    x, y = a2 * n * S, a5 * n * S                  # den = 2^x·5^y
    z = max(x, y)
    m = (den - num) * mpz(2) ** (z - x) * mpz(5) ** (z - y)
    return "0." + str(m).rjust(z, "0").rstrip("0"), z


def nudge(text, z, up):
    """The decimal text ± 10^−(z+3)."""
    digits = text[2:].ljust(z + 3, "0")
    v = int(digits) + (1 if up else -1)
    return "0." + str(v).rjust(z + 3, "0").rstrip("0")


def g_budget_exact(g, big=False):
    """Budgets equal to p exactly (or 10^−(digits+3) either side): capacity must be n, length L."""
    rng = g.rng
    S = rng.choice([1, 1, 1, 2, 3, 10])
    limit = 125_000 if g.long else 20_000
    if big:
        d = rng.choice([10 ** 5, 50_000, 25_000, 31_250, 62_500])
        a2, a5 = {10 ** 5: (5, 5), 50_000: (4, 5), 25_000: (3, 5), 31_250: (1, 6), 62_500: (2, 6)}[d]
        S = 1
        n = rng.randint(20_001, 20_050)
        if max(a2, a5) * n > limit:
            d, a2, a5, n = 10 ** 5, 5, 5, 20_001
        form = "capacity" if d != 10 ** 5 or rng.random() < 0.5 else "length-decimal"
    else:
        form = rng.choice(["capacity", "capacity", "length-hex", "length-decimal", "length-base32", "length-size"])
    if form == "capacity" and not big:
        a2, a5 = rng.choice([(rng.randint(1, 128), 0), (0, rng.randint(1, 40)), (k := rng.randint(1, 40), k),
                             (rng.randint(0, 20), rng.randint(1, 20))])
        d = 2 ** a2 * 5 ** a5
        n = min(d, log_uniform_int(rng, 2, 60))
    elif form.startswith("length"):
        base, a2b, a5b, args = {"length-hex": (16, 4, 0, ["--alphabet", "hex"]),
                                "length-decimal": (10, 1, 1, ["--alphabet", "decimal"]),
                                "length-base32": (32, 5, 0, ["--alphabet", "base32"]),
                                "length-size": (8, 3, 0, ["--alphabet-size", "8"])}[form]
        if big:
            L, n = 5, 20_001
        else:
            L = rng.randint(1, 30)
            n = min(base ** L, log_uniform_int(rng, 2, 50))
        d, a2, a5 = base ** L, a2b * L, a5b * L
    if n < 2 or max(a2, a5) * n * S > limit:
        n, S = 2, 1
    B, z = exact_p_decimal(d, n, S, a2, a5)
    r = rng.random()
    if r < 0.25:
        B = nudge(B, z, True)
    elif r < 0.5:
        B = nudge(B, z, False)
    regime = "budget-exact-big" if big else "budget-exact"
    if form == "capacity":
        sp = ["--bits", str(a2)] if a5 == 0 and rng.random() < 0.6 else ["--space-size", f"{2 ** a2 * 5 ** a5}" if a2 + a5 < 60 or not big else str(d)]
        args = sp + (["--scopes", str(S)] if S > 1 else []) + ["--max-probability", B]
        return Case(regime, "capacity", args, d=d, scopes=S, budget=Fraction(B), rate=None, bucket=None)
    vol = ["--count", str(n)] if S == 1 else ["--scopes", str(S), "--count-per-scope", str(n)]
    a_size = {"length-hex": 16, "length-decimal": 10, "length-base32": 32, "length-size": 8}[form]
    return Case(regime, "length", args + vol + ["--max-probability", B], a=a_size, sb=1, n=n, scopes=S,
                buckets=1, nodes=1, budget=Fraction(B), max_bytes=None)


def g_budget_exact_big(g):
    return g_budget_exact(g, big=True)


def solve_space(n, S, lam, bits):
    """The integer d with S·L(d, n) closest to λ (L falls as d grows), by d ← d·S·L(d)/λ."""
    prec = bits + 96
    with mpmath.workprec(prec):
        D = mpf(S) * n * (n - 1) / (2 * lam)
        for _ in range(12):
            d = int(mpmath.nint(D))
            if d < 2 * n:
                return None
            L, _, _ = REF.logc(d, n, prec)
            with mpmath.workprec(prec):
                D_new = d * S * L / lam
            if abs(D_new - d) < 1:
                return int(mpmath.nint(D_new))
            D = D_new
    return None


def g_near_tie(g):
    """p or 1 − p manufactured to sit within ~10^30/d of an ulp of a rounding midpoint."""
    rng = g.rng
    kind = rng.choice(["p", "p", "c", "c-small"])
    S = rng.choice([1, 1, 1, 2, 1000, 10 ** 12])
    log10d = rng.randint(45, 300 if not g.long else 2500)
    bits = int(log10d * 3.33) + 8
    with mpmath.workprec(bits + 128):
        if kind == "p":
            e = rng.randint(-40, -1)
            M = 10 * rng.randint(10 ** 29, 10 ** 30 - 1) + 5
            t = mpf(M) * mpf(10) ** (e - 30)
            lam = -mpmath.log1p(-t)
        elif kind == "c":
            k = log_uniform_int(rng, 1, 9 * 10 ** 29)
            t = (mpf(k) + mpf(0.5)) * mpf(10) ** -30
            lam = -mpmath.log1p(-t)
        else:
            e = rng.randint(-300, -2)
            M = 10 * rng.randint(10 ** 29, 10 ** 30 - 1) + 5
            lam = -mpmath.log(mpf(M) * mpf(10) ** (e - 30))
        n = int(mpmath.sqrt(2 * mpf(10) ** log10d * lam / S)) + 1
    n = max(2, n)
    d = solve_space(n, S, lam, bits)
    if d is None:
        return g_p_near_1(g)
    c = probability_case("near-tie", ["--space-size", str(d)], d, str(n), n, scopes=S,
                         scope_form="per-scope" if S > 1 else "count")
    c.regime = "near-tie"
    return c


def near_tie_budgets(d, n, digits):
    """Tests/Oracles/near_tie.py's two budgets; it sets mpmath's global precision, which is restored here."""
    near_tie = oracle("near_tie")
    saved = mpmath.mp.prec
    try:
        return near_tie.budgets(d, n, digits)
    finally:
        mpmath.mp.prec = saved


def g_budget_near_p(g):
    """A budget written to match p(d, n) to K digits (p truncated, or one unit above it; mpmath's own
    log-gamma, Tests/Oracles/near_tie.py): the capacity is n − 1 or n, and telling which needs p to K digits.
    Up to 1,500 digits in CI, 10,000 in the long profile, where one case in ten goes past the
    10,000-digit limit (K ≥ 10,600 with p ≤ 0.63, where the exact fraction is too big) and must be
    refused: exit 64, one line."""
    rng = g.rng
    # Long profile: also spaces to 2^30000 with p down to 10^−(bits/4), where at 10,000 digits the
    # series gives way to log-gamma and thousands of bits cancel (an outside tester's refusals).
    huge = g.long and rng.random() < 0.3
    bits = rng.randint(200, 30_000) if huge else rng.randint(20, 200)
    d = (1 << bits) if rng.random() < 0.5 else rng.randint(1 << (bits - 1), 1 << bits)
    refuse = g.long and rng.random() < 0.1
    lam = mpf(10) ** (-rng.uniform(0, bits / 4) if huge else rng.uniform(-12, 0 if refuse else 2))
    with mpmath.workprec(bits + 64):
        n = min(d, max(2, int(mpmath.sqrt(2 * d * lam))))
    # K digits tell n from n + 1 only while n has well under K digits.
    n = min(n, 10 ** 8_000)
    # A small exact fraction (n·log2 d ≤ 2^23 bits) decides even a closer match: no refusal there.
    refuse = refuse and n * d.bit_length() > 1 << 23
    low = 40 + len(str(n))
    K = rng.randint(10_600, 11_000) if refuse else rng.randint(low, max(low, 10_000 if g.long else 1_500))
    text = rng.choice(near_tie_budgets(d, n, K))
    args = ["--space-size", str(d), "--max-probability", text]
    if refuse:
        return Case("budget-near-p", "capacity", args, valid=False)
    return Case("budget-near-p", "capacity", args, d=d, scopes=1, budget=Fraction(text), rate=None, bucket=None)


def g_capacity_max(g):
    """Budgets so close to 1 that all d ids fit: capacity = d (and d + 1 ids never do)."""
    rng = g.rng
    d = log_uniform_int(rng, 2, 3000)
    with mpmath.workprec(64):
        nines = float(-(mpmath.loggamma(d + 1) - d * mpmath.log(d)) / mpmath.log(10))   # −log10 of 1 − p(d, d)
    k = max(1, int(nines) + rng.choice([-2, -1, 0, 1, 2, 5]))
    B = "0." + "9" * k
    return Case("capacity-max", "capacity", ["--space-size", str(d), "--max-probability", B],
                d=d, scopes=1, budget=Fraction(B), rate=None, bucket=None)


README_CASES = [
    ("probability", "--alphabet base62 --length 22 --rate 1e6/s --lifetime 10y", dict(d=62 ** 22, n=315360000000000, scopes=1, buckets=1, nodes=1)),
    ("probability", "--alphabet base62 --length 8 --scopes 1e8 --count-per-scope 500", dict(d=62 ** 8, n=500, scopes=10 ** 8, buckets=1, nodes=1)),
    ("probability", "--scheme uuid7 --rate 1e6/s --lifetime 10y --arrivals even", dict(d=1 << 74, n=1000, scopes=1, buckets=315360000000, nodes=1)),
    ("probability", "--bits 122 --count 1e9", dict(d=1 << 122, n=10 ** 9, scopes=1, buckets=1, nodes=1)),
    ("probability", "--bits 65536 --count 1e40", dict(d=1 << 65536, n=10 ** 40, scopes=1, buckets=1, nodes=1)),
    ("probability", "--space-size 1e40 --count 1e40", dict(d=10 ** 40, n=10 ** 40, scopes=1, buckets=1, nodes=1)),
    ("length", "--alphabet base62 --scopes 1e8 --count-per-scope 500 --max-probability 1e-6 --max-bytes 64",
     dict(a=62, sb=1, n=500, scopes=10 ** 8, buckets=1, nodes=1, budget=Fraction(1, 10 ** 6), max_bytes=64)),
    ("length", "--alphabet base62 --count 3.1536e14 --max-probability 1e-11",
     dict(a=62, sb=1, n=315360000000000, scopes=1, buckets=1, nodes=1, budget=Fraction(1, 10 ** 11), max_bytes=None)),
    ("length", "--alphabet base62 --count 1e9 --max-probability 1e-1000",
     dict(a=62, sb=1, n=10 ** 9, scopes=1, buckets=1, nodes=1, budget=Fraction(1, 10 ** 1000), max_bytes=None)),
    ("capacity", "--bits 122 --max-probability 1e-18 --rate 1e6/s",
     dict(d=1 << 122, scopes=1, budget=Fraction(1, 10 ** 18), rate=Fraction(10 ** 6), bucket=None)),
    ("capacity", "--bits 65536 --max-probability 1e-18", dict(d=1 << 65536, scopes=1, budget=Fraction(1, 10 ** 18), rate=None, bucket=None)),
    ("capacity", "--scheme uuid7 --max-probability 1e-9 --rate 1e6/s --arrivals even",
     dict(d=1 << 74, scopes=1, budget=Fraction(1, 10 ** 9), rate=Fraction(10 ** 6), bucket=Fraction(1, 1000))),
    ("capacity", "--space-size 1e6 --max-probability 1e-6", dict(d=10 ** 6, scopes=1, budget=Fraction(1, 10 ** 6), rate=None, bucket=None)),
]


def g_readme(g):
    cmd, a, exp = g.rng.choice(README_CASES)
    return Case("readme", cmd, a.split(), **exp)


INVALID = [
    "probability --bits 64 --count 10 --count 10",
    "probability --bits 64 --bits 64 --count 10",
    "length --alphabet base62 --count 1e9 --max-probability 0",
    "length --alphabet base62 --count 1e9 --max-probability 1",
    "length --alphabet base62 --count 1e9 --max-probability 1.5",
    "capacity --bits 64 --max-probability -1e-3",
    "probability --alphabet base99 --length 8 --count 10",
    "probability --bits 64 --count 1.5",
    "probability --bits 64 --rate 5/fortnight --lifetime 1y",
    "probability --scheme uuid7 --rate 1e6/s --peak-rate 1e5/s --lifetime 1y",
    "probability --space-size 2^2097153 --count 2",
    "probability --bits 2097153 --count 2",
    "probability --alphabet-size 1 --length 8 --count 2",
    "probability --bits 64 --count 1e640000",
    "probability --space-size 2^2097152+1 --count 2",
    "probability --bits 64 --count 1e-9223372036854775808",
    "capacity --bits 64 --max-probability 1e-9223372036854775808",
    "capacity --bits 64 --max-probability 0.5 --scopes 0e-9223372036854775808",
    "probability --bits 64 --rate 1/s --lifetime 1.5e-9223372036854775808y",
    "probability --alphabet-size 1e-9223372036854775808 --length 8 --count 2",
]


def g_invalid(g):
    cmd = g.rng.choice(INVALID).split()
    return Case("invalid", cmd[0], cmd[1:], valid=False)


REGIMES = [
    ("small-exact", g_small_exact, 2), ("series-boundary", g_series_boundary, 2), ("direct-4096", g_direct_boundary, 2),
    ("d~2^20", g_near_2_20, 2), ("n~d", g_near_d, 2), ("n<=1", g_trivial, 1), ("tiny-p", g_tiny_p, 2),
    ("p~1", g_p_near_1, 2), ("huge-space", g_huge_space, 1), ("alphabet", g_alphabet, 2), ("scopes", g_scopes, 2),
    ("rate-lifetime", g_rate_lifetime, 2), ("bucketed", g_bucketed, 2), ("ties", g_ties, 1), ("length", g_length, 3),
    ("capacity", g_capacity, 3), ("budget-equal", g_budget_equal, 1), ("budget-exact", g_budget_exact, 2),
    ("near-tie", g_near_tie, 2), ("capacity-max", g_capacity_max, 1), ("readme", g_readme, 1), ("invalid", g_invalid, 1),
    ("budget-near-p", g_budget_near_p, 1), ("growth-existing", g_growth_existing, 2), ("retries", g_retries, 1),
    ("mean-time", g_mean_time, 1), ("node-ids", g_node_ids, 1),
]


def g_scopes_huge(g):
    """Known slow (reported): 1e20000 to 1e79999 scopes over small spaces."""
    rng = g.rng
    b = rng.choice([20, 24, 64])
    k = rng.choice([20000, 40000, 79999])
    c = probability_case("scopes-huge", ["--bits", str(b)], 1 << b, "2", 2, scopes=10 ** k, scope_form="per-scope")
    c.args[c.args.index("--scopes") + 1] = f"1e{k}"
    return c


# Known failures and slow spots (reported; not in the CI mix; one long-profile case in 250):
# a budget exactly equal to p with more than 20000 ids (exit 64 or a hang), and huge --scopes (16-46 s).
LONG_ONLY = [("budget-exact-big", g_budget_exact_big, 1), ("scopes-huge", g_scopes_huge, 1)]


def generate(seed, count, profile, only=None):
    pool = REGIMES + (LONG_ONLY if only else [])
    regimes = [r for r in pool if not only or r[0] in only]
    wheel = [r for r in regimes for _ in range(r[2])]
    cases = []
    for i in range(count):
        rng = random.Random(f"{seed}:{i}")
        name, fn, _ = wheel[i % len(wheel)]
        if profile == "long" and not only and i % 250 == 249:
            name, fn, _ = LONG_ONLY[(i // 250) % len(LONG_ONLY)]
        c = fn(Gen(rng, profile))
        c.index = i
        cases.append(c)
    return cases
