#!/usr/bin/env python3
"""Exact tails of the duplicate count D = n - K (K distinct values among n uniform draws from d), the
reference DuplicateTest is checked against. Independent of idbudget's code: small cases from Stirling
numbers of the second kind in exact fractions, P(K = k) = C(d, k) k! S(n, k) / d^n; dense cases (n >> d)
from inclusion-exclusion over the empty cells in mpmath at 80 digits,
P(E = e) = C(d, e) sum_j (-1)^j C(d - e, j) (1 - (e + j)/d)^n.

Writes Tests/IDBudgetTests/Reference/duplicate_tails.json: [{n, d, x, high, low}], high = P(D >= x),
low = P(D <= x), as decimal strings to 20 significant digits.
"""
import json
import os
from fractions import Fraction
from math import comb

import mpmath

mpmath.mp.dps = 80


def stirling_row(n):
    row = [1]  # S(0, 0)
    for i in range(1, n + 1):
        new = [0] * (i + 1)
        for k in range(1, i + 1):
            new[k] = k * (row[k] if k < len(row) else 0) + row[k - 1]
        row = new
    return row


def exact_small(n, d, xs):
    s = stirling_row(n)
    total = Fraction(d) ** n
    pk = {}
    for k in range(1, min(n, d) + 1):
        falling = 1
        for i in range(k):
            falling *= d - i
        pk[k] = Fraction(falling * s[k]) / total
    out = []
    for x in xs:
        high = sum((p for k, p in pk.items() if n - k >= x), Fraction(0))
        low = sum((p for k, p in pk.items() if n - k <= x), Fraction(0))
        out.append((x, high, low))
    return out


def empty_cells_pmf(n, d, e):
    total = mpmath.mpf(0)
    j = 0
    while e + j <= d:
        term = mpmath.binomial(d - e, j) * mpmath.power(1 - mpmath.mpf(e + j) / d, n)
        total += (-1) ** j * term
        if j > 5 and abs(term) < mpmath.mpf(10) ** -75 * abs(total):
            break
        j += 1
    return mpmath.binomial(d, e) * total


def exact_dense(n, d, es):
    """P(D >= x), P(D <= x) at x = n - d + e (e empty cells), n much larger than d."""
    pmf = [empty_cells_pmf(n, d, e) for e in range(0, max(es) + 40)]
    out = []
    for e in es:
        high = 1 - sum(pmf[:e])          # P(E >= e)
        low = sum(pmf[: e + 1])          # P(E <= e)
        out.append((n - d + e, high, low))
    return out


def fmt(v):
    return mpmath.nstr(mpmath.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else v, 20, min_fixed=-1, max_fixed=-1)


def main():
    cases = []
    for n, d, xs in [
        (40, 10_000, range(0, 6)),
        (300, 1000, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]),
        (120, 120, [30, 35, 40, 44, 48, 55, 60, 70]),
        (200, 50, [148, 150, 152, 155, 160]),
        (60, 3, [55, 57, 58]),
        (250, 400_000, [0, 1, 2, 3, 4, 6]),
    ]:
        for x, high, low in exact_small(n, d, list(xs)):
            cases.append({"n": n, "d": d, "x": x, "high": fmt(high), "low": fmt(low)})
    for n, d, es in [(130_000, 10_000, [0, 1, 2, 3, 4]), (60_000, 5_000, [0, 1, 3, 6])]:
        for x, high, low in exact_dense(n, d, es):
            cases.append({"n": n, "d": d, "x": x, "high": fmt(high), "low": fmt(low)})
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "duplicate_tails.json")
    with open(path, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
