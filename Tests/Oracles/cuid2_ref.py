#!/usr/bin/env python3
"""p(d, n) over cuid2's real space, d = 26·36^23 (a letter, then 23 base36 symbols), by exact integers
and mpmath — never idbudget's code.

    python3 cuid2_ref.py N     prints p for N ids to 30 significant digits (round half even)

L = −Σ_{i<n} log(1 − i/d) = Σ_k S_k(n)/(k·d^k) with S_k(n) = Σ_{i<n} i^k (exact fractions); each term is
about n/d of the one before, so for n up to 1e15 (n/d < 1e−22) four terms leave L's relative error below
1e−80.
"""
import sys
from decimal import Context, Decimal, ROUND_HALF_EVEN
from fractions import Fraction

from mpmath import mp, mpf, expm1

mp.dps = 80
n = int(sys.argv[1])
d = 26 * 36**23
s1 = Fraction(n * (n - 1), 2)
s2 = Fraction((n - 1) * n * (2 * n - 1), 6)
s3 = s1 * s1
s4 = Fraction((n - 1) * n * (2 * n - 1) * (3 * (n - 1) ** 2 + 3 * (n - 1) - 1), 30)
L = s1 / d + s2 / (2 * d**2) + s3 / (3 * d**3) + s4 / (4 * d**4)
p = -expm1(-(mpf(L.numerator) / L.denominator))
ctx = Context(prec=30, rounding=ROUND_HALF_EVEN)
print("{:.29e}".format(ctx.plus(Decimal(mp.nstr(p, 60)))))
