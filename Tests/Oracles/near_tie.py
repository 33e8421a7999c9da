#!/usr/bin/env python3
"""Budgets that agree with p(d, n) to `digits` significant digits: p rounded down and up in the last
digit, from the one reference's L (reference.py: mpmath with a carried error bound; not idbudget's
code, not MPFR). With the lower one the capacity of d is n − 1, with the upper one n.

    python3 Tests/Oracles/near_tie.py D N DIGITS   → two lines: the lower budget, the upper budget
    (D and N in decimal or as b^k±m: 2^21280, 10^3000+7)
"""
import os
import re
import sys

import mpmath

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import REF  # noqa: E402


def budgets(d, n, digits):
    # L to `digits` digits and 100 bits more (its relative error is at most 2^−target), and p from it.
    target = int(digits * 3.33) + 100
    L, _, _ = REF.logc(d, n, target)
    mpmath.mp.prec = target + 64
    p = -mpmath.expm1(-L)
    e = int(mpmath.floor(mpmath.log10(p)))
    scaled = int(mpmath.floor(p * mpmath.mpf(10) ** (digits - 1 - e)))  # `digits` digits, p truncated
    width = digits - 1 - e  # digits after the point
    return [f"0.{str(m).rjust(width, '0')}" for m in (scaled, scaled + 1)]


def whole(text):
    """A decimal integer, or b^k with an optional +m / −m: `2^21280`, `10^3000+7`."""
    m = re.fullmatch(r"(\d+)\^(\d+)([+-]\d+)?", text)
    return int(m.group(1)) ** int(m.group(2)) + int(m.group(3) or 0) if m else int(text)


if __name__ == "__main__":
    sys.set_int_max_str_digits(0)
    d, n, digits = whole(sys.argv[1]), whole(sys.argv[2]), int(sys.argv[3])
    print("\n".join(budgets(d, n, digits)))
