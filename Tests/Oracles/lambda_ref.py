#!/usr/bin/env python3
"""λ = −log(1 − P) for budgets P read one per line on stdin, as ⌊λ·2^E⌋ (E from argv[1]), by mpmath
from the exact fraction 1 − P — independent of idbudget's code. Used by Tests/IDBudgetTests/
LambdaTests.swift to check idbudget's certified bounds at tens of thousands of bits."""
import sys
from fractions import Fraction

import mpmath

sys.set_int_max_str_digits(0)

E = int(sys.argv[1])
mpmath.mp.prec = E + 256
for line in sys.stdin:
    text = line.strip()
    if not text:
        continue
    if "^" in text:  # b^k, as idbudget writes 2^-40
        base, exp = text.split("^")
        c = 1 - Fraction(base) ** int(exp)
    else:
        c = 1 - Fraction(text)
    lam = -mpmath.log(mpmath.mpf(c.numerator) / c.denominator)
    print(int(mpmath.floor(lam * mpmath.mpf(2) ** E)))
