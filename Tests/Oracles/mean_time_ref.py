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
from fractions import Fraction

from mpmath import mp, mpf

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
]


def main():
    mp.dps = 130
    out = []
    for label, bits, rate, growth, existing in CASES:
        value = mean(bits, rate_of(rate), growth, existing)
        out.append({"label": label, "bits": bits, "rate": rate, "growth": growth, "existing": existing,
                    "mean_seconds": mp.nstr(value, 40, strip_zeros=False, min_fixed=1, max_fixed=0)})
        print(label, mp.nstr(value, 20), flush=True)
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "mean_time.json")
    with open(path, "w") as fh:
        json.dump({"source": "Tests/Oracles/mean_time_ref.py", "cases": out}, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
