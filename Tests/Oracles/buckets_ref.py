#!/usr/bin/env python3
"""Independent reference values for the time-bucket models of issue 37: even arrivals that keep the
rate, and partial last buckets (even and Poisson, with and without growth).

mpmath at 80+ digits and Python's exact fractions, never idbudget's code:

* Even arrivals: id k at k/r for every k with k/r < T. Each bucket's ids are counted from that
  definition, bucket by bucket over one period of λ = r·b's fractional part (its denominator q buckets
  repeat), then scaled to the whole buckets, plus the last partial bucket counted directly; then
  1 − p = ∏ P(n)^(buckets holding n), P(n) = ∏_{i<n} (1 − i/d), in logs.
* Poisson, partial last bucket: the bucket's mean is the rate's integral over the span it covers
  (mpmath.quad with growth); L = Σ_j (λ_j − d·log1p(λ_j/d)), bucket by bucket (few buckets here).
* Capacity with even arrivals: the most whole buckets F with p ≤ budget, by bisection over F with
  the bucket sizes counted as above.

Output: Tests/IDBudgetTests/Reference/buckets.json. Rerun: python3 Tests/Oracles/buckets_ref.py
"""
import json
import math
import os
import sys
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(__file__))
from reference import REF, fmt_mpf, log_complement  # noqa: E402

UNITS = {"ms": Fraction(1, 1000), "s": Fraction(1), "min": Fraction(60), "h": Fraction(3600), "d": Fraction(86400),
         "y": Fraction(31536000)}


def per(text):
    n, u = text.split("/")
    return Fraction(n) / UNITS[u]


def span(text):
    for u in sorted(UNITS, key=len, reverse=True):
        if text.endswith(u):
            return Fraction(text[: -len(u)] or "1") * UNITS[u]
    raise ValueError(text)


def F(x: Fraction):
    return mpf(x.numerator) / x.denominator


def ceil_frac(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def ids_in(j, lam):
    """Ids k with j·λ ≤ k < (j+1)·λ: the integers in [jλ, (j+1)λ)."""
    return ceil_frac((j + 1) * lam) - ceil_frac(j * lam)


def even_sizes(rate, bucket, lifetime=None, whole=None):
    """{ids: buckets} for even arrivals (id k at k/rate, k/rate < lifetime) into buckets of `bucket`
    seconds, `whole` of them or those of `lifetime`: bucket j holds the integers in [jλ, (j+1)λ),
    λ = rate·bucket. Counted bucket by bucket over one period of λ's denominator q (buckets j and j + q
    hold the same count) when q ≤ 4096; past that by the telescoped sum (the whole buckets F hold ⌈Fλ⌉
    ids, so ⌈Fλ⌉ − F⌊λ⌋ of them hold ⌈λ⌉). A partial last bucket holds the ids left. The fuzzer
    (Tools/fuzz) counts with this too."""
    lam = rate * bucket
    if whole is None:
        whole = (lifetime / bucket).numerator // (lifetime / bucket).denominator
    q = lam.denominator
    sizes = {}
    if q <= 4096:
        periods, rest = divmod(whole, q)
        for j in range(q):  # one period: buckets j, j+q, j+2q, … hold the same count
            n = ids_in(j, lam)
            sizes[n] = sizes.get(n, 0) + periods + (1 if j < rest else 0)
    else:
        lo, hi = lam.numerator // q, ceil_frac(lam)
        m = ceil_frac(whole * lam) - whole * lo
        sizes[lo] = sizes.get(lo, 0) + whole - m
        sizes[hi] = sizes.get(hi, 0) + m
    if lifetime is not None and lifetime != whole * bucket:
        total = ceil_frac(rate * lifetime)  # ids k with k/r < T
        last = total - sum(n * c for n, c in sizes.items())
        sizes[last] = sizes.get(last, 0) + 1
    return {n: c for n, c in sizes.items() if c > 0}


def log_c(d, n):
    """L(d, n) = −log P(n), the one reference's; 0 for n ≤ 1."""
    if n <= 1:
        return mpf(0)
    L = log_complement(d, n)
    mp.dps = max(mp.dps, 120 + 2 * len(str(d)))
    return L


def p_of(L):
    mp.dps = 80
    return -mpmath.expm1(-L)


def even_case(label, bits, bucket, rate_text, lifetime_text, scopes=1):
    d = 2 ** bits
    sizes = even_sizes(per(rate_text), span(bucket), lifetime=span(lifetime_text))
    L = mpf(0)
    for n, c in sizes.items():
        L += log_c(d, n) * c * scopes
    mp.dps = 80
    return {"label": label, "bits": bits, "rate": rate_text, "lifetime": lifetime_text, "scopes": scopes,
            "sizes": {str(n): c for n, c in sorted(sizes.items())}, "probability": fmt_mpf(p_of(L))}


def poisson_case(label, bits, bucket, rate_text, lifetime_text, growth=None):
    """growth: (factor, period seconds) compounding continuously."""
    mp.dps = 80
    d = mpf(2) ** bits
    b = span(bucket)
    T = span(lifetime_text)
    r0 = per(rate_text)
    a = mpf(0) if growth is None else mpmath.log(mpf(growth[0])) / mpf(growth[1])
    rate = (lambda t: F(r0) * mpmath.exp(a * t))
    B = ceil_frac(T / b)
    L = mpf(0)
    for j in range(B):
        lo, hi = j * b, min((j + 1) * b, T)
        lam = mpmath.quad(rate, [F(lo), F(hi)]) if growth else F(r0 * (hi - lo))
        L += lam - d * mpmath.log1p(lam / d)
    return {"label": label, "bits": bits, "rate": rate_text, "lifetime": lifetime_text,
            "growth": None if growth is None else f"{growth[0]}x/{growth[2]}", "probability": fmt_mpf(p_of(L))}


def even_buckets_within(d, lam, scopes, budget):
    """The most whole buckets F with p ≤ budget (a Fraction) under even arrivals of λ ids a bucket in
    each of `scopes`, by doubling and bisection over F (the buckets counted by even_sizes, each L the
    one reference's at 700 bits); None when a comparison is too close to call at 500 bits. The fuzzer
    (Tools/fuzz) asks this too."""
    bn, bd = budget.numerator, budget.denominator
    with mpmath.workprec(700):
        limit = -mpmath.log1p(-mpf(bn) / bd) if 2 * bn < bd else -mpmath.log(mpf(bd - bn) / bd)
        logs = {}

        def total(F):
            s = mpf(0)
            for n, k in even_sizes(lam, Fraction(1), whole=F).items():
                if n > 1:
                    if n not in logs:
                        logs[n] = REF.logc(d, n, 700)[0] if n <= d else mpmath.inf
                    s += logs[n] * k * scopes
            return s

        def within(F):
            t = total(F)
            if t != mpmath.inf and abs(t - limit) <= limit * mpf(2) ** -500:
                raise ValueError("too close")
            return t <= limit

        try:
            if not within(1):
                return 0
            lo, hi = 1, 2
            while within(hi):
                lo, hi = hi, hi * 2
                if hi.bit_length() > 4000:
                    return None
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if within(mid) else (lo, mid)
            return lo
        except ValueError:
            return None


def even_lasting(label, bits, bucket, rate_text, budget_text):
    """The most whole buckets F with p ≤ budget under even arrivals (bisection over F)."""
    rate, b = per(rate_text), span(bucket)
    lo = even_buckets_within(2 ** bits, rate * b, 1, Fraction(budget_text))
    assert lo is not None, ("too close to call", label)
    mp.dps = 80
    return {"label": label, "bits": bits, "rate": rate_text, "budget": budget_text, "buckets": lo,
            "seconds": str(Fraction(lo) * b)}


def main():
    even = [
        even_case("uuid7 1500/s 1y even (issue 37)", 74, "ms", "1500/s", "1y"),
        even_case("uuid7 1000.5/s 1d even", 74, "ms", "1000.5/s", "1d"),
        even_case("uuid7 2500/s 10y even", 74, "ms", "2500/s", "10y"),
        even_case("ksuid 1e5/s 0.7s even (partial)", 128, "s", "100000/s", "0.7s"),
        even_case("ksuid 1e5/s 2.5s even (partial)", 128, "s", "100000/s", "2.5s"),
        even_case("uuid7 3000/s 1.0005s even, 2 scopes", 74, "ms", "3000/s", "1.0005s", scopes=2),
    ]
    poisson = [
        poisson_case("ksuid 1e5/s 0.7s (issue 37)", 128, "s", "100000/s", "0.7s"),
        poisson_case("ksuid 1e5/s 1.7s", 128, "s", "100000/s", "1.7s"),
        poisson_case("ksuid 1e5/s 1.7s growing 2x/s", 128, "s", "100000/s", "1.7s", growth=(2, 1, "s")),
        poisson_case("uuid7 1e6/s 2.5ms growing 3x/s", 74, "ms", "1000000/s", "2.5ms", growth=(3, 1, "s")),
    ]
    lasting = [
        even_lasting("uuid7 1500/s p ≤ 1e-12 even", 74, "ms", "1500/s", "1e-12"),
        even_lasting("uuid7 2000/s p ≤ 1e-9 even", 74, "ms", "2000/s", "1e-9"),
    ]
    out = {"digits": 30, "even": even, "poisson_partial": poisson, "even_lasting": lasting}
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "buckets.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
