#!/usr/bin/env python3
"""Budgets that agree with p(d, n) to `digits` significant digits: p rounded down and up in the last
digit, from mpmath alone (its own log-gamma; not idbudget's code, not MPFR). With the lower one the
capacity of d is n − 1, with the upper one n.

    python3 scripts/near_tie.py D N DIGITS   → two lines: the lower budget, the upper budget
"""
import sys

import mpmath


def budgets(d, n, digits):
    # log-gamma's terms are ~d·log d while L can be tiny: log2(d·ln d) + |log2 L| bits cancel.
    mpmath.mp.prec = int(digits * 3.33) + 2 * d.bit_length() + 400
    p = -mpmath.expm1(-(n * mpmath.log(d) - mpmath.loggamma(d + 1) + mpmath.loggamma(d - n + 1)))
    e = int(mpmath.floor(mpmath.log10(p)))
    scaled = int(mpmath.floor(p * mpmath.mpf(10) ** (digits - 1 - e)))  # `digits` digits, p truncated
    width = digits - 1 - e  # digits after the point
    return [f"0.{str(m).rjust(width, '0')}" for m in (scaled, scaled + 1)]


if __name__ == "__main__":
    sys.set_int_max_str_digits(0)
    d, n, digits = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    print("\n".join(budgets(d, n, digits)))
