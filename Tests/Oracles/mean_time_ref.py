#!/usr/bin/env python3
"""Independent reference values for the mean time to the first collision under growth and with ids
already stored (issue 37): E[τ(M)] = Σ_{k≥E} S(k)·(t(k + 1 − E) − t(k − E)).

mpmath, never idbudget's code. S(k) = ∏_{i<k}(1 − i/d) = d!/((d − k)!·d^k) through loggamma at 130
digits; t(j) = j/r at a constant rate, ln(1 + a·j/r)/a when the rate grows as r·e^(a·t) with
a = ln(factor)/period (a year is 365 days). Small spaces are summed term by term; large ones by
mpmath's Euler–Maclaurin summation (mpmath.sumem) over [E, E + 16·√(2d)], past which S is below
e^(−256) of S(E). This is the summation idbudget bounds by integrals (MeanTime.swift): the two share
only the definition.

Output: Tests/IDBudgetTests/Reference/mean_time.json. Rerun: python3 Tests/Oracles/mean_time_ref.py
"""
import json
import os
import sys
from fractions import Fraction

from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import REF  # noqa: E402

UNITS = {"s": 1, "min": 60, "h": 3600, "d": 86400, "y": 31536000}


def rate_of(text):
    n, u = text.split("/")
    return Fraction(n) / UNITS[u]


def growth_of(text):
    """ln(factor)/period for `2x/y` or `40%/y`."""
    amount, unit = text.split("/")
    factor = Fraction(amount[:-1]) if amount.endswith("x") else 1 + Fraction(amount[:-1]) / 100
    return mp.log(mpf(factor.numerator) / factor.denominator) / UNITS[unit]


def mean(bits, rate, growth, existing):
    return mean_time(2 ** bits, rate, growth_of(growth) if growth else mpf(0), existing)


def mean_time(space, rate, a, e):
    """E[τ(M)] for a space of `space` ids, r = rate (a Fraction, ids/s), growth a (per second), E = e."""
    d = mpf(space)
    r = mpf(rate.numerator) / rate.denominator

    def t(j):
        return j / r if a == 0 else mp.log1p(a * j / r) / a

    if space <= 2 ** 20:
        n = space
        s = mpf(1)
        for i in range(e):
            s *= mpf(n - i) / n
        total = mpf(0)
        k = e
        while s > 0 and k <= n:
            total += s * (t(k + 1 - e) - t(k - e))
            s *= mpf(n - k) / n
            k += 1
            if s < total * mpf(10) ** -80:
                break
        return total
    lgd = mp.loggamma(d + 1)
    lnd = mp.log(d)

    def f(k):
        return mp.exp(lgd - mp.loggamma(d - k + 1) - k * lnd) * (t(k + 1 - e) - t(k - e))

    top = e + int(16 * mp.sqrt(2 * d))
    return mp.sumem(f, [e, top])


CASES = [
    # (label, bits, rate, growth, existing)
    ("the issue's case: 2^96, 10^6/s doubling yearly", 96, "1e6/s", "2x/y", 0),
    ("2^96 at a constant rate after 10^13 stored", 96, "1e6/s", None, 10**13),
    ("2^40, 10^3/s doubling yearly", 40, "1e3/s", "2x/y", 0),
    ("2^64, 10^4/s growing 1%/y (w in the thousands)", 64, "1e4/s", "1%/y", 0),
    ("2^122, 10^6/s growing 40%/y after 10^15 stored (w just below 0)", 122, "1e6/s", "40%/y", 10**15),
    ("2^80, 10/s doubling daily after 3·10^12 stored (w near −2)", 80, "10/s", "2x/d", 3 * 10**12),
    ("2^16, 1/s growing 10%/d (term by term)", 16, "1/s", "10%/d", 0),
    ("2^18, 5/s doubling hourly after 300 stored (term by term)", 18, "5/s", "2x/h", 300),
    ("2^20 after 2^19 stored, 1/s doubling daily (term by term)", 20, "1/s", "2x/d", 2**19),
    ("2^20 after 2^20 − 1 stored (the stored ids all but certainly collide)", 20, "1/s", None, 2**20 - 1),
]


def log_no_collision(d, n):
    """−ln ∏_{i<n}(1 − i/d) for the integer d, the one reference's (relative error below 2^−(prec+32))."""
    return mpf(REF.logc(int(d), n, mp.prec + 32)[0]) if n > 1 else mpf(0)


def even_alternating_mean(bits, rate, bucket):
    """Even arrivals into buckets of `bucket` seconds holding ⌊λ⌋ or ⌈λ⌉ ids: the mean time to the end
    of the bucket with the first collision, b·Σ_j S_j. The first j buckets hold ⌈jλ⌉ ids, so the pattern
    of bucket sizes repeats every Q buckets (λ = P/Q): Σ_j S_j = (Σ_{r<Q} S_r)/(1 − S_Q)."""
    lam = rate * bucket
    d = 2 ** bits
    lf, lc = lam.numerator // lam.denominator, -((-lam.numerator) // lam.denominator)
    Lf, Lc = log_no_collision(d, lf), log_no_collision(d, lc)
    q = lam.denominator
    total = mpf(0)
    for r in range(q):
        ceil_count = -((-(r * lam.numerator)) // q) - r * lf   # ⌈rλ⌉ − r⌊λ⌋
        total += mp.exp(-(r - ceil_count) * Lf - ceil_count * Lc)
    ceil_q = lam.numerator - q * lf
    return mpf(bucket.numerator) / bucket.denominator * total / (-mp.expm1(-((q - ceil_q) * Lf + ceil_q * Lc)))


def poisson_growing_mean(bits, rate, growth, bucket):
    """Poisson buckets whose rate grows: bucket j's mean is λ_j = x₀·d·e^(cj) (c = a·b, x₀·d = r·b·expm1(c)/c),
    ℓ_j = λ_j − d·log1p(λ_j/d) = d·Σ_{k≥2} (−1)^k·x_j^k/k, so Λ_j = Σ_{i<j} ℓ_i is a geometric sum per k.
    The mean time to the end of the bucket with the first collision is b·Σ_{j≥0} e^(−Λ_j), summed by
    mpmath's Euler–Maclaurin over j (Λ extends smoothly to real j) up to where Λ passes 700."""
    d = mpf(2) ** bits
    r = mpf(rate.numerator) / rate.denominator
    b = mpf(bucket.numerator) / bucket.denominator
    c = growth_of(growth) * b
    x0 = r * b * mp.expm1(c) / c / d

    def big_lambda(j):
        return d * mp.fsum((-1) ** k * x0 ** k * mp.expm1(k * c * j) / (k * mp.expm1(k * c)) for k in range(2, 12))

    top = mpf(1)
    while big_lambda(top) < 700:
        top *= 2
    return b * mp.sumem(lambda j: mp.exp(-big_lambda(j)), [0, top])


GROWING_CASES = [
    # (label, scheme, bits, bucket seconds, rate, growth)
    ("uuid7 at 1000/s doubling yearly", "uuid7", 74, Fraction(1, 1000), "1000/s", "2x/y"),
    ("ksuid at 10^6/s growing 40%/y", "ksuid", 128, Fraction(1), "1e6/s", "40%/y"),
    ("ulid at 10^4/s growing tenfold yearly", "ulid", 80, Fraction(1, 1000), "1e4/s", "10x/y"),
]


EVEN_CASES = [
    # (label, scheme, bits, bucket seconds, rate)
    ("uuid7 at 1500/s: buckets of 1 and 2", "uuid7", 74, Fraction(1, 1000), "1500/s"),
    ("uuid7 at 2^20+1/s", "uuid7", 74, Fraction(1, 1000), "1048577/s"),
    ("ksuid at 2.5/s: buckets of 2 and 3", "ksuid", 128, Fraction(1), "2.5/s"),
]


def main():
    mp.dps = 130
    out = []
    for label, bits, rate, growth, existing in CASES:
        value = mean(bits, rate_of(rate), growth, existing)
        out.append({"label": label, "bits": bits, "rate": rate, "growth": growth, "existing": existing,
                    "mean_seconds": mp.nstr(value, 40, strip_zeros=False, min_fixed=1, max_fixed=0)})
        print(label, mp.nstr(value, 20), flush=True)
    even = []
    for label, scheme, bits, bucket, rate in EVEN_CASES:
        value = even_alternating_mean(bits, rate_of(rate), bucket)
        even.append({"label": label, "scheme": scheme, "rate": rate,
                     "mean_seconds": mp.nstr(value, 40, strip_zeros=False, min_fixed=1, max_fixed=0)})
        print(label, mp.nstr(value, 20), flush=True)
    growing = []
    for label, scheme, bits, bucket, rate, growth in GROWING_CASES:
        value = poisson_growing_mean(bits, rate_of(rate), growth, bucket)
        growing.append({"label": label, "scheme": scheme, "rate": rate, "growth": growth,
                        "mean_seconds": mp.nstr(value, 40, strip_zeros=False, min_fixed=1, max_fixed=0)})
        print(label, mp.nstr(value, 20), flush=True)
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "mean_time.json")
    with open(path, "w") as fh:
        json.dump({"source": "Tests/Oracles/mean_time_ref.py", "cases": out, "even_alternating": even,
                   "poisson_growing": growing}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
