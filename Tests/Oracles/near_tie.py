#!/usr/bin/env python3
"""Budgets that agree with p(d, n) to `digits` significant digits: p rounded down and up in the last
digit, from mpmath alone (its own log-gamma; not idbudget's code, not MPFR). With the lower one the
capacity of d is n − 1, with the upper one n.

    python3 Tests/Oracles/near_tie.py D N DIGITS   → two lines: the lower budget, the upper budget
    (D and N in decimal or as b^k±m: 2^21280, 10^3000+7)
"""
import re
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


def whole(text):
    """A decimal integer, or b^k with an optional +m / −m: `2^21280`, `10^3000+7`."""
    m = re.fullmatch(r"(\d+)\^(\d+)([+-]\d+)?", text)
    return int(m.group(1)) ** int(m.group(2)) + int(m.group(3) or 0) if m else int(text)


if __name__ == "__main__":
    sys.set_int_max_str_digits(0)
    d, n, digits = whole(sys.argv[1]), whole(sys.argv[2]), int(sys.argv[3])
    print("\n".join(budgets(d, n, digits)))
