#!/usr/bin/env python3
"""The fuzzer's cases: generators by regime (small exact, series and direct boundaries, huge spaces,
rates, growth, buckets, ties, budgets at and near p, …), each with the CLI argv and what to check."""
from fuzz_spec import *  # noqa: F401,F403 (the spec constants, the one reference and the imports)

# ----------------------------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------------------------

class Case:
    def __init__(self, regime, command, args, valid=True, **exp):
        self.regime, self.command, self.args, self.valid, self.exp = regime, command, args, valid, exp
        self.index = None

    def argv(self, binary):
        return [binary, self.command] + self.args + ([] if not self.valid or self.exp.get("text") else ["--format", "json"])


def int_text(rng, n):
    """An exact text for the whole number n that --count/--space-size/--scopes accept."""
    s = str(n)
    z = len(s) - len(s.rstrip("0"))
    r = rng.random()
    if z >= 2 and len(s) < 60 and r < 0.45:
        m = s.rstrip("0")
        return f"{m[0]}.{m[1:]}e{len(s) - 1}" if len(m) > 1 else f"{m}e{len(s) - 1}"
    if 5 <= len(s) < 40 and r > 0.85:
        head = len(s) % 3 or 3
        return s[:head] + "".join("_" + s[i:i + 3] for i in range(head, len(s), 3))
    return s


def power_text(b, k):
    return f"{b}^{k}"


def log_uniform_int(rng, lo, hi):
    """A whole number in [lo, hi], log-uniformly (works for huge bounds)."""
    lo, hi = max(1, lo), max(1, hi)
    if hi <= lo:
        return lo
    bl = rng.uniform(log2i(lo), log2i(hi))
    bits = max(1, int(bl))
    x = (1 << (bits - 1)) | rng.getrandbits(bits - 1) if bits > 1 else 1
    return min(hi, max(lo, x))


class Gen:
    def __init__(self, rng, profile):
        self.rng, self.long = rng, profile == "long"
        self.max_bits = MAX_SPACE_BITS if self.long else 65536

    def pick_bits(self, big_ok=True):
        r = self.rng.random()
        if big_ok and r < (0.10 if self.long else 0.04):
            return self.rng.choice([8192, 16384, 65536] + ([131072, 262144] if self.long else []))
        if r < 0.6:
            return self.rng.randint(1, 200)
        return self.rng.randint(1, 4096)

    def space(self, bits=None, named_schemes=True):
        """(args, d, summary) for a random space."""
        rng = self.rng
        b = bits or self.pick_bits()
        form = rng.choice(["bits", "bits", "pow", "dec", "1e", "alpha", "symbols", "asize"] + (["scheme"] if named_schemes else []))
        if form == "dec" and b > 300_000:
            form = "bits"  # 90,000+ digits pass the 128 KiB limit on one argument
        if form == "bits":
            return ["--bits", str(b)], 1 << b
        if form == "pow":
            base = rng.choice([2, 3, 7, 10, 16, 36, 62, 999_983, 1_000_000])
            k = max(1, int(b / math.log2(base)))
            return ["--space-size", power_text(base, k)], base ** k
        if form == "dec":
            d = (1 << (b - 1)) | rng.getrandbits(b - 1) if b > 1 else rng.randint(1, 3)
            return ["--space-size", int_text(rng, d)], d
        if form == "1e":
            k = max(0, int(b / 3.3220))
            return ["--space-size", f"1e{k}"], 10 ** k
        if form == "scheme":
            name = rng.choice(["uuid4", "nanoid", "apns-id", "apns-collapse-id", "notification-request-id"])
            return ["--scheme", name], 1 << SCHEMES[name][0]
        a_args, a, _ = self.alphabet()
        L = max(1, int(b / math.log2(a)))
        return a_args + ["--length", str(L)], a ** L

    def alphabet(self):
        """(args, size, bytes per symbol)."""
        rng = self.rng
        form = rng.choice(["named", "named", "symbols", "asize"])
        if form == "named":
            name = rng.choice(list(ALPHABETS))
            return ["--alphabet", name], ALPHABETS[name], 1
        if form == "symbols":
            pool = "ACGTUXYZabcdefghjkmnpqrstuvwxyz0123456789"
            k = rng.randint(2, len(pool))
            sym = "".join(rng.sample(pool, k))
            return ["--symbols", sym], k, 1
        a = rng.choice([2, 3, 5, 7, 11, 26, 100, 256, 1000, 65536, 1 << 20, rng.randint(2, 1 << 20)])
        # Past 95 symbols (printable ASCII) a symbol's bytes are unknown: None.
        return ["--alphabet-size", str(a)], a, (1 if a <= 95 else None)

    def count_for(self, d, lo_exp=-40, hi_exp=12):
        """A count around √d·2^u, in [1, d + 2]."""
        rng = self.rng
        r = rng.random()
        if r < 0.08:
            return rng.randint(1, 3)
        if r < 0.14:
            return max(1, d - rng.randint(0, 5))
        root = gmpy2.isqrt(mpz(d))
        u = rng.randint(lo_exp, hi_exp)
        n = int(root << u if u >= 0 else root >> -u)
        n += rng.randint(-3, 3)
        return int(max(1, min(n, d + 2, 10 ** 300 if not self.long else 10 ** 79_999)))

    def budget(self, deep=False):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            k = rng.randint(1, 40)
            t = f"1e-{k}"
        elif r < 0.5:
            t = f"{rng.randint(2, 9)}e-{rng.randint(1, 30)}"
        elif r < 0.6:
            t = f"{rng.randint(1, 9)}.{rng.randint(0, 99):02d}e-{rng.randint(2, 25)}"
        elif r < 0.72:
            t = rng.choice(["0.5", "0.25", "0.1", "0.001", "0.9", "0.99", "0.999999", "0.75", "1e-1"])
        elif r < 0.82:
            t = "0." + "9" * rng.randint(2, 60 if not deep else 800)
        elif r < 0.88:
            t = f"1e-{rng.randint(40, 300 if not deep else 5000)}"
        elif r < 0.94:
            # Many digits, not near 0 or 1: λ's ratio has big numerator and denominator.
            t = "0." + "".join(rng.choice("0123456789") for _ in range(rng.randint(3, 40 if not deep else 3000))) + str(rng.randint(1, 9))
        else:
            t = f"{rng.randint(1, 999)}e-{rng.randint(3, 18)}"
        return t, Fraction(t.replace("_", ""))

    def rate(self, big=False):
        """(text, per-second Fraction)."""
        rng = self.rng
        unit = rng.choice(["s", "s", "min", "ms", "h", "d"])
        r = rng.random()
        if r < 0.08:
            amount = "1"  # one per unit (a rate needs its count: "/s" is refused)
        elif r < 0.4:
            amount = f"1e{rng.randint(0, 12 if not big else 60)}"
        elif r < 0.6:
            amount = str(rng.choice([2, 5, 10, 100, 2000, 12345, 999]))
        elif r < 0.8:
            amount = f"{rng.randint(1, 99)}.{rng.randint(1, 9)}"
        else:
            amount = f"{rng.randint(1, 9)}.{rng.randint(0, 9)}e{rng.randint(1, 9)}"
        value = Fraction(amount) if amount else Fraction(1)
        return f"{amount}/{unit}", value / UNITS[unit]

    def lifetime(self, big=False):
        rng = self.rng
        unit = rng.choice(["y", "y", "d", "h", "m", "s", "ms"])
        r = rng.random()
        if r < 0.5:
            amount = str(rng.choice([1, 2, 3, 5, 10, 30, 36, 90, 100]))
        elif r < 0.75:
            amount = f"{rng.randint(1, 20)}.{rng.randint(1, 9)}"
        else:
            amount = f"1e{rng.randint(0, 6 if not big else 39)}"
        return f"{amount}{unit}", Fraction(amount) * UNITS[unit]


def ceil_frac(q):
    return -((-q.numerator) // q.denominator)


def probability_case(regime, space_args, d, n_text, n, scopes=1, scope_form="count"):
    args = list(space_args)
    if scopes > 1 or scope_form == "per-scope":
        args += ["--scopes", str(scopes) if isinstance(scopes, int) else scopes]
        args += ["--count-per-scope" if scope_form == "per-scope" else "--count", n_text]
    else:
        args += ["--count", n_text]
    return Case(regime, "probability", args, d=d, n=n, scopes=scopes, buckets=1, nodes=1)


# -- the regimes ---------------------------------------------------------------------------------

def g_small_exact(g):
    rng = g.rng
    d = log_uniform_int(rng, 2, 10 ** 6)
    n = rng.choice([1, 2, 3, rng.randint(1, min(d + 2, 5000)), max(1, d - rng.randint(0, 3)), d, d + 1,
                    int(math.isqrt(d) * rng.uniform(0.5, 4)) + 1])
    return probability_case("small-exact", ["--space-size", int_text(rng, d)], d, int_text(rng, n), n)


def g_series_boundary(g):
    rng = g.rng
    d = log_uniform_int(rng, 1 << 12, 1 << (200 if not g.long else 3000))
    div = rng.choice([256, 256, 256, 128, 64, 16])
    n = max(1, d // div + rng.choice([-1, 0, 1, 2]))
    return probability_case("series-boundary", ["--space-size", int_text(rng, d)], d, int_text(rng, n), n)


def g_direct_boundary(g):
    rng = g.rng
    n = rng.choice([4094, 4095, 4096, 4097, 4098])
    d = rng.choice([rng.randint(n, (1 << 20) + 8), rng.randint(n, 256 * n + 300), 256 * n + rng.randint(-2, 2),
                    rng.randint(n, 3 * n)])
    return probability_case("direct-4096", ["--space-size", int_text(rng, d)], d, int_text(rng, n), n)


def g_near_2_20(g):
    rng = g.rng
    d = (1 << 20) + rng.randint(-4, 4)
    n = rng.choice([2, 4095, 4096, 4097, d // 256 - 1, d // 256, d // 256 + 1, rng.randint(2, d),
                    d - rng.randint(0, 8), d, d + 1, int(math.isqrt(d) * rng.uniform(1, 8))])
    return probability_case("d~2^20", ["--space-size", int_text(rng, d)], d, int_text(rng, n), n)


def g_near_d(g):
    rng = g.rng
    r = rng.random()
    if r < 0.3:
        b = None
        d = log_uniform_int(rng, 2, 10 ** 7)
        sp = ["--space-size", int_text(rng, d)]
    else:
        b = rng.choice([8, 20, 33, 64, 128, 333, 1024, 4096] + ([16384, 65536] if rng.random() < 0.3 else []))
        if rng.random() < (0.15 if g.long else 0.05):
            b = rng.choice([131072, 262144, 2097152] if g.long else [2097152])
        d = 1 << b
        sp = ["--bits", str(b)]
    k = rng.choice([0, 0, 1, 2, 3, 5, 8, 12, -1, -2])
    n = max(1, d - k)
    nt = power_text(2, b) if (b and n == d and rng.random() < 0.5) else dec(n)
    if b and b > 100000:  # no shell passes 30,000+ digits in one argument: write 2^b−k
        nt = power_text(2, b) + (f"-{k}" if k > 0 else f"+{-k}" if k < 0 else "")
    return probability_case("n~d", sp, d, nt, n)


def g_trivial(g):
    rng = g.rng
    c = rng.randint(0, 4)
    if c == 0:
        return probability_case("n<=1", ["--space-size", "1"], 1, "1", 1)
    if c == 1:
        return probability_case("n<=1", ["--space-size", "1"], 1, "2", 2)
    if c == 2:
        return probability_case("n<=1", ["--space-size", "2"], 2, "2", 2)
    sp, d = g.space()
    return probability_case("n<=1", sp, d, rng.choice(["1", "1e0", "2^0", "1^5"]), 1)


def g_tiny_p(g):
    rng = g.rng
    sp, d = g.space(bits=rng.choice([122, 128, 200, 384, 1024, 4096, 65536] + ([262144] if g.long else [])))
    n = rng.choice([2, 3, 10, 1000, 10 ** 6, 10 ** 9, rng.randint(2, 10 ** 12)])
    n = min(n, d)
    return probability_case("tiny-p", sp, d, int_text(rng, n), n)


def g_p_near_1(g):
    rng = g.rng
    d = log_uniform_int(rng, 1000, 1 << 200)
    n = min(d, int(gmpy2.isqrt(mpz(d))) * rng.randint(5, 3000) + rng.randint(0, 9))
    return probability_case("p~1", ["--space-size", int_text(rng, d)], d, int_text(rng, n), n)


def g_huge_space(g):
    rng = g.rng
    bits = rng.choice([1024, 4096, 16384, 65536] + ([131072, 262144] if g.long else []))
    sp, d = g.space(bits=bits, named_schemes=False)
    n = g.count_for(d, -60, 10)
    return probability_case("huge-space", sp, d, int_text(rng, n), n)


def g_alphabet(g):
    rng = g.rng
    a_args, a, _ = g.alphabet()
    L = rng.randint(1, max(1, int((4096 if not g.long else 60000) / math.log2(a))))
    if rng.random() < 0.6:
        L = rng.randint(1, max(1, int(200 / math.log2(a))))
    d = a ** L
    n = g.count_for(d)
    return probability_case("alphabet", a_args + ["--length", str(L)], d, int_text(rng, n), n)


def g_scopes(g):
    rng = g.rng
    sp, d = g.space(bits=g.rng.choice([32, 48, 64, 100, 128, 200, 1024]))
    n = g.count_for(d, -30, 2)
    hi = 10 ** (40 if not g.long else 2000)
    S = log_uniform_int(rng, 2, hi)
    if g.long and rng.random() < 0.05:
        S = 10 ** rng.choice([5000, 20000])                # known slow area
    st = int_text(rng, S)
    form = rng.choice(["per-scope", "per-scope", "count"])
    c = probability_case("scopes", sp, d, int_text(rng, n), n, scopes=S, scope_form=form)
    c.args[c.args.index("--scopes") + 1] = st
    return c


def g_rate_lifetime(g):
    rng = g.rng
    sp, d = g.space(bits=rng.choice([48, 64, 80, 96, 122, 128, 160, 256, 1024]))
    rt, rv = g.rate(big=g.long)
    lt, lv = g.lifetime(big=g.long)
    nodes = rng.choice([1, 1, 1, 2, 12, 1000])
    args = sp + ["--rate", rt, "--lifetime", lt]
    if nodes > 1:
        args += ["--nodes", str(nodes)]
    scopes = 1
    if rng.random() < 0.2:
        scopes = rng.randint(2, 10 ** 6)
        args += ["--scopes", str(scopes)]
    n = ceil_frac(rv * nodes * lv)
    return Case("rate-lifetime", "probability", args, d=d, n=n, scopes=scopes, buckets=1, nodes=nodes)


GROWTHS = [("0%/y", 1, "y"), ("40%/y", Fraction(7, 5), "y"), ("3%/mo", Fraction(103, 100), "mo"), ("2x/y", 2, "y"),
           ("10x/y", 10, "y"), ("1.5x/d", Fraction(3, 2), "d"), ("25%/w", Fraction(5, 4), "w")]


def growth_count(rv, lv, factor, unit):
    """⌈r₀·P/ln F·(F^(T/P) − 1)⌉ in mpmath at 80 digits (the issue's formula; not idbudget's code)."""
    if factor == 1:
        return ceil_frac(rv * lv)
    with mpmath.workdps(80):
        P = UNITS[unit]
        y = mpmath.log(mpf(factor.numerator if isinstance(factor, Fraction) else factor) /
                       (factor.denominator if isinstance(factor, Fraction) else 1))
        t = mpf(lv.numerator) / lv.denominator / (mpf(P.numerator) / P.denominator)
        v = mpf(rv.numerator) / rv.denominator * (mpf(P.numerator) / P.denominator) / y * mpmath.expm1(y * t)
        return int(mpmath.ceil(v))


def g_growth_existing(g):
    """probability with --growth and --existing: the count is the rate's integral, p over stored + new."""
    rng = g.rng
    sp, d = g.space(bits=rng.choice([48, 64, 80, 96, 122, 128, 256]), named_schemes=False)
    rt, rv = g.rate()
    lt, lv = g.lifetime()
    args = sp + ["--rate", rt, "--lifetime", lt]
    text, factor, unit = rng.choice(GROWTHS)
    periods = lv / UNITS[unit]
    if factor != 1 and periods * math.log10(float(factor)) > 30:
        text, factor, unit = "0%/y", 1, "y"  # keep the count within what the case budget can check
    if rng.random() < 0.8:
        args += ["--growth", text]
    else:
        factor = 1
    new = growth_count(rv, lv, factor, unit)
    existing = 0
    if rng.random() < 0.5:
        existing = log_uniform_int(rng, 1, 10 ** rng.choice([3, 9, 15, 20]))
        args += ["--existing", int_text(rng, existing)]
    return Case("growth-existing", "probability", args, d=d, n=new + existing, new=new, existing=existing, scopes=1, buckets=1,
                nodes=1)


def g_mean_time(g):
    """capacity's mean time to the first collision under growth or after stored ids: E[t(N)], whose
    printed digits must be Tests/Oracles/mean_time_ref.py's sum (mpmath's Euler–Maclaurin) rounded to
    as many; the digits printed are the ones idbudget's bounds share (at least 2)."""
    rng = g.rng
    bits = rng.choice([12, 16, 20, 24, 32, 48, 64, 80, 96, 122, 160])
    rate_text = rng.choice(["1/s", "10/s", "1000/s", "1e6/s", "5/min", "2e9/s"])
    text, factor, unit = rng.choice([x for x in GROWTHS if x[1] != 1])
    args = ["--bits", str(bits), "--max-probability", "0.5", "--rate", rate_text]
    growing = rng.random() < 0.8
    if growing:
        args += ["--growth", text]
    else:
        factor = 1
    existing = 0
    if not growing or rng.random() < 0.4:
        # Up to a few times √(2d): the stored ids already take p far up.
        existing = log_uniform_int(rng, 1, max(2, int(math.isqrt(2 << bits) * rng.choice([0.1, 1, 3]))))
        args += ["--existing", str(existing)]
    return Case("mean-time", "capacity", args, d=1 << bits, mean_time=(rate_text, factor, unit, existing), scopes=1, budget="0.5")


def check_mean_time(c, ck):
    mean_time = oracle("mean_time_ref").mean_time
    rate_text, factor, unit, existing = c.exp["mean_time"]
    d = c.exp["d"]
    printed = ck.get("when", "mean_seconds")
    method = ck.get("when", "method") or ""
    if printed is None:
        ck.fail("wrong-answer", f"no mean: {method[-120:]}")
        return
    n, u = rate_text.split("/")
    r = Fraction(n) / UNITS[u]
    with mpmath.workdps(45 + int(d.bit_length() * 0.31)):
        f, per = Fraction(factor), UNITS[unit]
        a = mpmath.log(mpf(f.numerator) / f.denominator) * per.denominator / per.numerator if f != 1 else mpf(0)
        value = mean_time(d, r, a, existing)
        mantissa, exponent = printed.split("e")
        digits = mantissa.replace(".", "")
        want = mpmath.nstr(value, len(digits), min_fixed=1, max_fixed=0, strip_zeros=False)
    wm, we = want.lower().split("e") if "e" in want.lower() else (want, "0")
    if wm.replace(".", "") != digits or int(we) != int(exponent):
        ck.fail("wrong-digits", f"mean_seconds {printed}, the reference {mpmath.nstr(value, 25)}")
    if len(digits) < 2:
        ck.fail("wrong-answer", f"mean_seconds {printed} has under 2 digits")


NODE_FORMATS = [("snowflake", 10, None), ("discord", 10, None), ("instagram", 13, None), ("sonyflake", 16, None),
                ("tsid", 10, None), ("uuid1", 61, None), ("uuid6", 61, None), ("xid", 40, 24), ("objectid", 40, 24)]


def g_node_ids(g):
    """Node-id formats: p is the birthday over the node field; for xid and ObjectId with a per-node
    rate, the counters started at random meet only within m − 1 of each other, p = 1 − ∏_{i=1}^{K−1}(1 −
    (K(m − 1) + i)/2^64) (exact fractions here; fewer digits, each the product's, past K(m − 1) ≥ 2^24);
    assigned ids give 0."""
    rng = g.rng
    name, bits, counter = rng.choice(NODE_FORMATS)
    nodes = rng.choice([2, 3, 12, 50, 300, 2000])
    args = ["--scheme", name, "--nodes", str(nodes)]
    assigned = rng.random() < 0.15
    if assigned:
        args += ["--node-ids", "assigned"]
    m = None
    if rng.random() < 0.6:
        m = rng.choice([1, 10, 1000, 50000, 8_000_000, 16_777_216])
        args += ["--rate", f"{m}/s"]
    return Case("node-ids", "probability", args, node_model=(bits, counter, nodes, assigned, m if counter else None))


def check_node_ids(c, ck):
    ref = oracle("reference")
    bits, counter, k, assigned, m = c.exp["node_model"]
    got = ck.get("collision", "probability")
    if assigned:
        ck.eq("collision.probability", got, "0", "wrong-answer")
        return
    if counter and m is not None and 2 * m - 1 < 2 ** counter:
        n = 2 ** (bits + counter)
        q = Fraction(1)
        for i in range(1, k):
            q *= Fraction(n - k * (m - 1) - i, n)
    else:
        num, den = REF.exact(2 ** bits, k, 1)  # the birthday bound over the node field: the reference's
        q = Fraction(int(num), int(den))
    want = ref.fmt_fraction(1 - q)
    if counter and m is not None and 2 * m - 1 < 2 ** counter and k * (m - 1) >= 2 ** counter and isinstance(got, str):
        # Past K(m − 1) < 2^24 the product is bounded, not exact: the digits printed must be its.
        mant, _, exp = got.partition("e")
        digits = mant.replace(".", "")
        with mpmath.workdps(60):
            v = mpmath.mpf((1 - q).numerator) / (1 - q).denominator
            wm, _, we = mpmath.nstr(v, len(digits), min_fixed=1, max_fixed=0, strip_zeros=False).partition("e")
        if wm.replace(".", "") != digits or int(we or 0) != int(exp or 0):
            ck.fail("wrong-digits", f"collision.probability {got}, the product {want}")
        return
    ck.eq("collision.probability", got, want)


def g_retries(g):
    """retries against Tests/Oracles/retries_ref.py: fill, attempts, exhaustion and its capacity."""
    rng = g.rng
    bits = rng.choice([16, 24, 32, 40, 64, 96, 128])
    d = 1 << bits
    n = log_uniform_int(rng, 1, min(d - 1, 10 ** rng.choice([2, 4, 6, 9, 12])))
    if bits == 16 and rng.random() < 0.3:
        n = d + rng.randint(-1, 2)  # a store at or past full: the attempts are infinite (null)
    k = rng.choice([1, 2, 3, 5, 10])
    args = ["--bits", str(bits), "--count", str(n), "--max-attempts", str(k)]
    budget = None
    if rng.random() < 0.5:
        budget = f"1e-{rng.randint(3, 15)}"
        args += ["--max-probability", budget]
    return Case("retries", "retries", args, d=d, n=n, k=k, budget=budget)


def g_bucketed(g):
    rng = g.rng
    name = rng.choice(["uuid7", "uuid7", "ulid", "ksuid"])
    bits, bucket = SCHEMES[name]
    d = 1 << bits
    nodes = rng.choice([1, 1, 1, 3, 16])
    scopes = rng.choice([1, 1, 1, 2, 10 ** 6])
    args = ["--scheme", name]
    if rng.random() < 0.12:
        n = rng.choice([2, 1000, 10 ** 6, 10 ** 9])
        args += ["--count", int_text(rng, n)]
        if nodes > 1:
            args += ["--nodes", str(nodes)]
        if scopes > 1:
            args += ["--scopes", str(scopes)]
        return Case("bucketed", "probability", args, d=d, n=n * nodes, scopes=scopes, buckets=1, nodes=nodes)
    rt, rv = g.rate()
    lt, lv = g.lifetime()
    if lv / bucket > 10 ** 15:
        lt, lv = "10y", 10 * UNITS["y"]
    args += ["--rate", rt, "--lifetime", lt]
    busiest = rv
    if rng.random() < 0.3:
        amount, unit = rt.split("/")
        k = rng.choice([1, 2, 10, 100])
        pa = Decimal(amount or "1") * k
        pt = f"{format(pa, 'f')}/{unit}"
        pv = Fraction(pa) / UNITS[unit]
        args += ["--peak-rate", pt]
        busiest = pv
    if nodes > 1:
        args += ["--nodes", str(nodes)]
    if scopes > 1:
        args += ["--scopes", str(scopes)]
    per = ceil_frac(busiest * nodes * bucket)
    buckets = ceil_frac(lv / bucket)
    # The lifetime may end inside its last bucket: f of it is covered.
    f = lv / bucket - (buckets - 1)
    if rng.random() < 0.5:
        # Poisson arrivals (the default): λ = busiest rate × nodes × bucket ids per bucket on average; a
        # partial last bucket has the mean of the span it covers, f·λ.
        return Case("poisson", "probability", args, d=d, n=per, scopes=scopes, buckets=buckets, nodes=nodes,
                    poisson=busiest * nodes * bucket, last=f)
    args += ["--arrivals", "even"]
    return Case("even", "probability", args, d=d, rows=even_rows(busiest * nodes, bucket, lv), scopes=scopes,
                buckets=buckets, nodes=nodes)


def even_rows(rate, bucket, lifetime=None, whole=None):
    """{ids: buckets} for even arrivals: Tests/Oracles/buckets_ref.py's even_sizes (one count of the
    model for the tests and the fuzzer)."""
    return oracle("buckets_ref").even_sizes(rate, bucket, lifetime, whole)


_TIES = None


def tie_pool():
    """(d-args, d, n, S) whose p or 1 − p lies exactly halfway between two 30-digit values."""
    global _TIES
    if _TIES is None:
        _TIES = []
        for kind, rng_ in (("bits", range(1, 140)), ("ten", range(1, 36))):
            for e in rng_:
                d = (1 << e) if kind == "bits" else 10 ** e
                for n in (2, 3, 4):
                    if n > d:
                        continue
                    for S in (1, 2, 3, 44, 45, 46):
                        num, den = REF.exact(d, n, S)
                        if is_tie(den - num, den) or is_tie(num, den):
                            sp = ["--bits", str(e)] if kind == "bits" else ["--space-size", f"1e{e}"]
                            _TIES.append((sp, d, n, S))
    return _TIES


def g_ties(g):
    sp, d, n, S = g.rng.choice(tie_pool())
    return probability_case("ties", sp, d, str(n), n, scopes=S, scope_form="per-scope" if S > 1 else "count")
