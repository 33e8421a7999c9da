#!/usr/bin/env python3
"""Independent reference values for idbudget's planning models (issue 24): Poisson arrivals into time
buckets, a growing rate, ids already stored, and the time until a count is minted.

mpmath at 120+ significant digits and Python's exact fractions, never idbudget's code:

* Poisson buckets: P(no collision in a bucket) = e^−λ(1 + λ/d)^d, L = B·(λ − d·log1p(λ/d)); for small d
  also the Poisson sum Σ_n e^−λ λ^n/n! · d!/((d−n)!·d^n) taken term by term (no closed form used).
* Growth: N(T) = r₀·P/ln(1+g)·((1+g)^(T/P) − 1), rounded up; with buckets, bucket j has
  λ_j = ∫ r over the bucket, and L = Σ_j ℓ(λ_j) is summed bucket by bucket where there are few
  buckets, and through Σ_j λ_j^k (geometric sums, mpmath) term by term of ℓ's series where there
  are billions.
* Existing: p(d, existing + new) from log-gamma.
* Format fits (`length --scheme F`, `plan`'s formats): the fewest bits b with p ≤ budget, by bisection
  over b with p from the Poisson bucket formula or log-gamma at 2^b; Nano ID's shortest length the same
  over 64^n.

Output: Tests/IDBudgetTests/Reference/planning.json. Rerun: python3 Tests/Oracles/planning_ref.py
"""
import json
import os
import sys
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(__file__))
from reference import REF, fmt_mpf, fmt_pow10  # noqa: E402

mp.dps = 150
UNITS = {"ms": Fraction(1, 1000), "s": Fraction(1), "min": Fraction(60), "h": Fraction(3600), "d": Fraction(86400),
         "mo": Fraction(2628000), "M": Fraction(2628000), "y": Fraction(31536000)}


def rate(text):
    n, u = text.split("/")
    return Fraction(n) / UNITS[u]


def span(text):
    for u in sorted(UNITS, key=len, reverse=True):
        if text.endswith(u):
            return Fraction(text[: -len(u)]) * UNITS[u]
    raise ValueError(text)


def growth(text):
    amount, u = text.split("/")
    factor = 1 + Fraction(amount[:-1]) / 100 if amount.endswith("%") else Fraction(amount[:-1])
    return factor, UNITS[u]


def q(x):
    return mpf(x.numerator) / x.denominator


def figures(L, pairs):
    p = -mpmath.expm1(-L)
    c = fmt_pow10(-L / mpmath.log(10)) if L > 1e6 else fmt_mpf(mpmath.exp(-L))
    return {"probability": fmt_mpf(p), "complement": c, "expected_collisions": fmt_mpf(pairs)}


def ell(lam, d):
    return lam - d * mpmath.log1p(lam / d)


def poisson_sum(lam, d):
    """−log P(no collision) from the Poisson mixture itself, term by term."""
    total = mpf(0)
    falling = mpf(1)
    for n in range(0, d + 1):
        total += mpmath.exp(-lam) * lam**n / mpmath.factorial(n) * falling
        falling *= mpf(d - n) / d
    return -mpmath.log(total)


def bucket_means(r0, b, B, g):
    """λ_j, j < B, for r(t) = r0·F^(t/P): the integral of the rate over each bucket."""
    if g is None:
        return [q(r0 * b)] * B
    F, P = g
    a = mpmath.log(q(F)) / q(P)
    return [q(r0) / a * (mpmath.exp(a * q(b) * (j + 1)) - mpmath.exp(a * q(b) * j)) for j in range(B)]


def poisson_case(label, d, rate_text, bucket, B, scopes=1, growth_text=None, term_by_term=False):
    d = int(d)
    r0 = rate(rate_text)
    b = span(bucket)
    g = growth(growth_text) if growth_text else None
    if B <= 5000:
        lams = bucket_means(r0, b, B, g)
        if term_by_term:
            L = scopes * sum(poisson_sum(lam, d) for lam in lams)
        else:
            L = scopes * sum(ell(lam, d) for lam in lams)
        pairs = scopes * sum(lam**2 for lam in lams) / (2 * d)
        first = ell(lams[0], d)
    else:
        # Σ_j ℓ(λ_j) = Σ_k (−1)^k/(k d^(k−1)) Σ_j λ_j^k, Σ_j λ_j^k geometric in closed form.
        if g is None:
            lam = q(r0 * b)
            L = scopes * B * ell(lam, d)
            pairs = scopes * B * lam**2 / (2 * d)
            first = ell(lam, d)
        else:
            F, P = g
            c = mpmath.log(q(F)) * q(b) / q(P)
            lam0 = q(r0 * b) * mpmath.expm1(c) / c
            def power_sum(k):
                return lam0**k * mpmath.expm1(k * B * c) / mpmath.expm1(k * c)
            L = mpf(0)
            k = 2
            while True:
                t = power_sum(k) / (k * mpf(d) ** (k - 1))
                L += (-1) ** k * t
                if k > 2 and abs(t) < abs(L) * mpf(10) ** (-mp.dps + 10):
                    break
                k += 1
            L *= scopes
            pairs = scopes * power_sum(2) / (2 * d)
            first = ell(lam0, d)
    out = {"label": label, "space": str(d), "rate": rate_text, "bucket": bucket, "buckets": str(B), "scopes": str(scopes),
           "growth": growth_text}
    out.update(figures(L, pairs))
    out["bucket_probability"] = fmt_mpf(-mpmath.expm1(-first))
    return out


def growth_count(r0, T, g):
    if g is None:
        n = r0 * T
        return -((-n.numerator) // n.denominator)
    F, P = g
    y = mpmath.log(q(F))
    value = q(r0) * q(P) / y * mpmath.expm1(y * q(T / P))
    return int(mpmath.ceil(value))


def existing_case(label, d, new, existing):
    n = new + existing
    L = birthday_L(d, n)
    pairs = Fraction(n * (n - 1), 2 * d)
    f = figures(L, q(pairs))
    return {"label": label, "space": str(d), "new": str(new), "existing": str(existing), **f}


def seconds_to_mint(r0, count, g):
    if g is None:
        return fmt_mpf(q(Fraction(count) / r0))
    F, P = g
    y = mpmath.log(q(F))
    return fmt_mpf(q(P) / y * mpmath.log1p(count * y / (q(r0) * q(P))))


def lasting_buckets(d, rate_text, bucket, budget, growth_text=None):
    """The most buckets B with L(B) ≤ −log(1 − budget), by bisection on mpmath values."""
    r0, b = rate(rate_text), span(bucket)
    lam_budget = -mpmath.log1p(-q(Fraction(budget)))
    if growth_text is None:
        return str(int(mpmath.floor(lam_budget / ell(q(r0 * b), d))))
    F, P = growth(growth_text)
    c = mpmath.log(q(F)) * q(b) / q(P)
    lam0 = q(r0 * b) * mpmath.expm1(c) / c
    def L(B):
        total, k = mpf(0), 2
        while True:
            t = lam0**k * mpmath.expm1(k * B * c) / mpmath.expm1(k * c) / (k * mpf(d) ** (k - 1))
            total += (-1) ** k * t
            if k > 2 and abs(t) < abs(total) * mpf(10) ** (-mp.dps + 10):
                return total
            k += 1
    lo, hi = 0, 1
    while L(hi) <= lam_budget:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if L(mid) <= lam_budget:
            lo = mid
        else:
            hi = mid
    return str(lo)


def mean_count(d):
    """E[N] = Σ_{k≥0} P(no collision among k) = ∫_0^∞ e^−x (1 + x/d)^d dx (an identity, not idbudget's method)."""
    d = mpf(d)
    return mpmath.quad(lambda x: mpmath.exp(-x + d * mpmath.log1p(x / d)), [0, mpmath.sqrt(d), 10 * mpmath.sqrt(d), mpmath.inf])


def median_count(d):
    """The smallest n with p(d, n) ≥ 1/2, by bisection on L(n), the one reference's."""
    def L(n):
        return birthday_L(d, n)
    lo, hi = 1, 2
    while L(hi) < mpmath.log(2):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if L(mid) < mpmath.log(2):
            lo = mid
        else:
            hi = mid
    return hi


def when_case(d, rate_text, growth_text):
    r0 = rate(rate_text)
    g = growth(growth_text) if growth_text else None
    n = median_count(d)
    out = {"space": str(d), "rate": rate_text, "growth": growth_text, "median_seconds": seconds_to_mint(r0, n, g)}
    m = mean_count(d)
    if g is None:
        out["mean_seconds"] = fmt_mpf(m / q(r0))
    else:
        # Under growth the mean time is E[t(N)], which t(E[N]) overstates (t is concave): idbudget
        # prints the digits its bounds share; the reference is mean_time_ref's sum, to 40 digits.
        from mean_time_ref import mean_time  # noqa: E402
        F, P = g
        with mpmath.workdps(130):
            value = mean_time(d, r0, mpmath.log(q(F)) / P, 0)
        out["mean_time_reference"] = mpmath.nstr(value, 40, strip_zeros=False, min_fixed=1, max_fixed=0)
    return out


def capacity(d, budget, scopes=1):
    """The largest n with p over `scopes` independent scopes of n ids in d within budget: scopes·L(n) ≤
    −log1p(−budget), L(n) the one reference's, by doubling and bisection."""
    limit = -mpmath.log1p(-q(Fraction(budget)))
    def fits(n):
        return n <= d and scopes * birthday_L(d, n) <= limit
    lo, hi = 1, 2
    while fits(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def schedule_case(label, size, rate_text, seconds, budget, growth_text=None, existing=0, scopes=1, start=None):
    """`length`'s upgrade schedule: the final length lasts all the ids of the lifetime; each shorter
    length serves until id capacity + 1 − existing, kept from the shortest one lasting a day."""
    import datetime
    r0 = rate(rate_text)
    g = growth(growth_text) if growth_text else None
    total = growth_count(r0, seconds, g) + existing
    final = 1
    while capacity(size**final, budget, scopes) < total:
        final += 1
    rows = []
    for L in range(final - 1, 0, -1):
        c = capacity(size**L, budget, scopes)
        if c < existing:
            break
        k = c - existing + 1
        if g is None:
            t = Fraction(k) / r0
            tv = q(t)
        else:
            F, P = g
            y = mpmath.log(q(F))
            tv = q(P) / y * mpmath.log1p(k * y / (q(r0) * q(P)))
        if tv < 86400:
            break
        row = {"length": L, "to_seconds": fmt_mpf(tv), "switch_count": str(c)}
        if start:
            when = datetime.datetime(*start, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=int(mpmath.floor(tv)))
            row["to_date"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.insert(0, row)
    return {"label": label, "size": size, "rate": rate_text, "seconds": str(seconds), "budget": budget, "growth": growth_text,
            "existing": str(existing), "scopes": str(scopes), "final": final, "rows": rows}


def birthday_L(d, n):
    """−log P(no collision) for n ids in d values: the one reference's L (reference.py), its relative
    error below 2^−(the working precision + 32)."""
    if n > d:
        return mpmath.inf
    if n <= 1:
        return mpf(0)  # one id (or none) never collides
    return mpf(REF.logc(d, n, mpmath.mp.prec + 32)[0])


def fewest(space_of, L_of, budget):
    """The least k ≥ 0 with p(space_of(k)) ≤ budget (p falls as k grows)."""
    limit = -mpmath.log1p(-mpf(budget))
    if L_of(space_of(0)) <= limit:
        return 0
    lo, hi = 0, 1
    while L_of(space_of(hi)) > limit:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if L_of(space_of(mid)) > limit:
            lo = mid
        else:
            hi = mid
    return hi


def ell_series(lam, d):
    """ℓ(λ) = d·S(λ/d) by S's series where λ/d is tiny (λ − d·log1p(λ/d) would cancel every digit)."""
    x = lam / d
    if x > mpf(10) ** -20:
        return ell(lam, d)
    return d * (x**2 / 2 - x**3 / 3 + x**4 / 4)


def format_fit(label, bits, budget, count=None, rate_text=None, bucket=None, B=None, symbols=None):
    if rate_text:
        lam = q(rate(rate_text) * span(bucket))
        L_of = lambda d: B * ell_series(lam, mpf(d))  # noqa: E731
    else:
        L_of = lambda d: birthday_L(mpf(d), count)  # noqa: E731
    out = {"label": label, "bits_needed": fewest(lambda b: 2**b, L_of, budget), "probability": fmt_mpf(-mpmath.expm1(-L_of(2**bits)))}
    if symbols:
        out["shortest_length"] = max(1, fewest(lambda n: symbols**n, L_of, budget))
    return out


def main():
    U7, ULID, KSUID = 2**74, 2**80, 2**128
    poisson = [
        poisson_case("uuid7 500/s 10y (issue 24)", U7, "500/s", "1ms", 315360000000),
        poisson_case("uuid7 1/s 1y: λ ≪ 1", U7, "1/s", "1ms", 31536000000),
        poisson_case("ulid 1e6/s 10y", ULID, "1e6/s", "1ms", 315360000000),
        poisson_case("ksuid 1e9/s 30d", KSUID, "1e9/s", "1s", 2592000),
        poisson_case("uuid7 1e6/s 1y, 1e6 scopes", U7, "1e6/s", "1ms", 31536000000, scopes=10**6),
        poisson_case("uuid7 λ = d/1000", U7, str(U7 // 1000) + "/ms", "1ms", 1),
        poisson_case("d = 1e6, λ = 5e4 (series edge)", 10**6, "5e4/ms", "1ms", 1),
        poisson_case("d = 1e6, λ = 1e5 (direct)", 10**6, "1e5/ms", "1ms", 1),
        poisson_case("d = 1000, λ = d", 1000, "1000/ms", "1ms", 3),
        poisson_case("d = 1000, λ = 10d", 1000, "10000/ms", "1ms", 1),
        poisson_case("d = 10, λ = 3, term by term", 10, "3/ms", "1ms", 7, term_by_term=True),
        poisson_case("d = 50, λ = 0.2, term by term", 50, "0.2/ms", "1ms", 1000, term_by_term=True),
        poisson_case("d = 365, λ = 23, term by term", 365, "23/s", "1s", 1, term_by_term=True),
        poisson_case("d = 1e4, λ = 1, growth 2x/s, 40 buckets", 10**4, "1/ms", "1ms", 40, growth_text="2x/s"),
        poisson_case("d = 2^20, λ = 1, growth 10x/s, 3000 buckets", 2**20, "1/ms", "1ms", 3000, growth_text="10x/s"),
        poisson_case("uuid7 500/s 10y growing 2x/y", U7, "500/s", "1ms", 315360000000, growth_text="2x/y"),
        poisson_case("uuid7 500/s 10y growing 10x/y", U7, "500/s", "1ms", 315360000000, growth_text="10x/y"),
        poisson_case("ulid 1e3/s 5y growing 40%/y", ULID, "1e3/s", "1ms", 157680000000, growth_text="40%/y"),
        poisson_case("ksuid 1e6/s 10y growing 3%/mo", KSUID, "1e6/s", "1s", 315360000, growth_text="3%/mo"),
    ]
    counts = []
    for r, T, g in [("1000/s", "10y", None), ("1000/s", "10y", "0%/y"), ("1000/s", "10y", "1x/y"), ("1000/s", "10y", "40%/y"),
                    ("1000/s", "10y", "2x/y"), ("1000/s", "10y", "10x/y"), ("1e6/s", "1y", "3%/mo"), ("7/min", "3y", "2.5x/y"),
                    ("1/d", "100y", "1%/y"), ("1e9/s", "1y", "10x/y")]:
        gg = growth(g) if g and growth(g)[0] != 1 else None
        counts.append({"rate": r, "lifetime": T, "growth": g, "count": str(growth_count(rate(r), span(T), gg))})
    existing = [
        existing_case("2^64, 1e3 new, 1e9 stored", 2**64, 10**3, 10**9),
        existing_case("2^122, 1e6 new, 1e15 stored", 2**122, 10**6, 10**15),
        existing_case("62^8, 10 new, 1e6 stored", 62**8, 10, 10**6),
        existing_case("2^40, 1 new, 1e6 stored", 2**40, 1, 10**6),
    ]
    mint = []
    for r, k, g in [("1000/s", 10**9, None), ("1000/s", 10**9, "40%/y"), ("1e6/s", 10**15, "2x/y"), ("1e6/s", 10**15, "10x/y"),
                    ("5/min", 12345, "3%/mo")]:
        gg = growth(g) if g else None
        mint.append({"rate": r, "count": str(k), "growth": g, "seconds": seconds_to_mint(rate(r), k, gg)})
    lasting = []
    for d, r, bk, budget, g in [(U7, "500/s", "1ms", "1e-9", None), (U7, "1e6/s", "1ms", "1e-6", None), (KSUID, "1e12/s", "1s", "1e-12", None),
                                (U7, "500/s", "1ms", "1e-9", "2x/y"), (ULID, "1e4/s", "1ms", "1e-6", "40%/y")]:
        lasting.append({"space": str(d), "rate": r, "bucket": bk, "budget": budget, "growth": g,
                        "buckets": lasting_buckets(d, r, bk, budget, g)})
    mp.dps = 60
    when = [when_case(d, r, g) for d, r, g in [(1000, "1/s", None), (10**6, "10/s", None), (2**20, "1/min", "40%/y"),
                                               (2**40, "1000/s", None), (2**64, "1000/s", "40%/y"), (2**122, "1e9/s", "2x/y")]]
    mp.dps = 150
    schedules = [
        schedule_case("base62 1e4/s doubling yearly, 2026-01-01 to 2036-01-01, 1e-9", 62, "1e4/s", 315532800, "1e-9", "2x/y",
                      start=(2026, 1, 1)),
        schedule_case("hex 1000/s 10y 1e-12, 1e6 stored", 16, "1000/s", 315360000, "1e-12", existing=10**6, start=(2026, 1, 1)),
        schedule_case("base62 1e6/s 10y 1e-11 (the seed)", 62, "1e6/s", 315360000, "1e-11"),
        schedule_case("base36 10/s 1y 1e-6 in 1e6 scopes, growing 40%/y", 36, "10/s", 31536000, "1e-6", "40%/y", scopes=10**6),
    ]
    fits = [
        format_fit("uuid7 1e6/s 10y 1e-11 (the seed)", 74, "1e-11", rate_text="1e6/s", bucket="1ms", B=315360000000),
        format_fit("uuid7 500/s 10y 1e-9", 74, "1e-9", rate_text="500/s", bucket="1ms", B=315360000000),
        format_fit("ksuid 1e9/s 30d 1e-12", 128, "1e-12", rate_text="1e9/s", bucket="1s", B=2592000),
        format_fit("uuid4 1e12 ids 1e-9", 122, "1e-9", count=10**12),
        format_fit("nanoid 1e9 ids 1e-12", 126, "1e-12", count=10**9, symbols=64),
        format_fit("snowflake 50 random nodes 1e-6", 10, "1e-6", count=50),
        format_fit("uuid7 1e78878/s 1y 0.5 (half a million bits)", 74, "0.5", rate_text="1e78878/s", bucket="1ms", B=31536000000),
        format_fit("uuid4 1 id", 122, "1e-6", count=1),
    ]
    out = {"digits": 30, "format_fits": fits, "when": when, "schedules": schedules, "poisson": poisson, "growth_counts": counts, "existing": existing, "seconds_to_mint": mint,
           "lasting_buckets": lasting}
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "planning.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
