#!/usr/bin/env python3
"""Independent reference values for idbudget's tests.

Computed with Python's exact integers/fractions where affordable and mpmath at 60+ significant digits
(plus the digits any cancellation costs) elsewhere, never with idbudget's own code. Output:
Tests/IDBudgetTests/Reference/reference.json. Rerun: python3 Tests/Oracles/reference.py
"""
import json
import sys
import math
import os
from decimal import Decimal, Context, ROUND_HALF_EVEN, MAX_EMAX, MIN_EMIN
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

DIGITS = 30
sys.set_int_max_str_digits(0)
CTX = Context(prec=DIGITS, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)


def fmt_decimal(d: Decimal, n: int = DIGITS) -> str:
    """d.ddd…e±X with exactly n significant digits (or '0')."""
    if d == 0:
        return "0"
    ctx = Context(prec=n, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)
    sign, digits, exp = ctx.plus(d).as_tuple()
    s = "".join(map(str, digits)).ljust(n, "0")[:n]
    e = exp + len(digits) - 1
    return f"{s[0]}.{s[1:]}e{'+' if e >= 0 else '-'}{abs(e)}"


def fmt_fraction(q: Fraction) -> str:
    if q == 0:
        return "0"
    return fmt_decimal(CTX.divide(Decimal(q.numerator), Decimal(q.denominator)))


def fmt_mpf(x) -> str:
    """Round an mpf (carrying ≥ 45 good digits) to DIGITS, half-even."""
    if x == 0:
        return "0"
    return fmt_decimal(Decimal(mpmath.nstr(x, DIGITS + 15, strip_zeros=False, min_fixed=1, max_fixed=0)))


def fmt_pow10(t) -> str:
    """10^t for an mpf t of any size: exponent floor(t), digits from 10^(t − floor t)."""
    e = int(mpmath.floor(t))
    m = mpmath.power(10, t - e)
    s = mpmath.nstr(m, DIGITS + 15, strip_zeros=False, min_fixed=-1, max_fixed=2)
    r = CTX.plus(Decimal(s))
    sign, digits, exp = r.as_tuple()
    e += exp + len(digits) - 1
    s = "".join(map(str, digits)).ljust(DIGITS, "0")[:DIGITS]
    return f"{s[0]}.{s[1:]}e{'+' if e >= 0 else '-'}{abs(e)}"


def log_complement(d: int, n: int):
    """L = -log prod_{i<n} (1 - i/d) in mpmath, at a precision that absorbs the cancellation."""
    if n <= 2000:
        mp.dps = 80 + len(str(n))
        return mpmath.fsum(-mpmath.log1p(-mpf(i) / d) if 2 * i <= d else -mpmath.log(mpf(d - i) / d)
                           for i in range(1, n))
    # lgamma(d+1) − lgamma(d−n+1) ≈ n·log d cancels down to L ≈ n²/2d: about 2·digits(d) are lost.
    mp.dps = 2 * len(str(d)) + 2 * len(str(n)) + 90
    return n * mpmath.log(d) + mpmath.loggamma(d - n + 1) - mpmath.loggamma(d + 1)


def probability(d: int, n: int):
    """(p, 1 - p) as 30-digit strings."""
    if n <= 1:
        return "0", fmt_decimal(Decimal(1))
    if n > d:
        return fmt_decimal(Decimal(1)), "0"
    if n <= 3000 and n * d.bit_length() <= 60000:
        num = 1
        for i in range(n):
            num *= d - i
        c = Fraction(num, d ** n)
        return fmt_fraction(1 - c), fmt_fraction(c)
    L = log_complement(d, n)
    mp.dps += len(str(int(L))) + 20
    p = -mpmath.expm1(-L)
    c = fmt_pow10(-L / mpmath.log(10))
    return fmt_mpf(p), c


def p_within(d: int, n: int, budget: Fraction) -> bool:
    """p(d, n) <= budget, decided in mpmath with a wide safety margin checked explicitly."""
    if n <= 1:
        return True
    if n > d:
        return False
    if n <= 3000 and n * d.bit_length() <= 60000:
        num = 1
        for i in range(n):
            num *= d - i
        return 1 - Fraction(num, d ** n) <= budget
    L = log_complement(d, n)
    lam = -mpmath.log1p(-mpf(budget.numerator) / budget.denominator)
    assert abs(L - lam) > abs(lam) * mpf(10) ** (-40), (d, n)  # too close to call at this precision
    return L <= lam


def capacity(d: int, budget: Fraction) -> int:
    mp.dps = 60 + len(str(d))
    lam = -mpmath.log1p(-mpf(budget.numerator) / budget.denominator)
    n = int(mpmath.floor(mpmath.sqrt(2 * d * lam) + mpf(1) / 2))
    n = max(1, min(n, d))
    while not p_within(d, n, budget):
        n -= 1
    while p_within(d, n + 1, budget):
        n += 1
    return n


def min_length(a: int, n: int, budget: Fraction) -> int:
    L = 1
    while not p_within(a ** L, n, budget):
        L += 1
    return L


def expected_draws(d: int) -> str:
    """E[draws until the first repeat] = sum_{k>=0} prod_{i<k} (1 - i/d), 15 digits."""
    mp.dps = 50
    if d <= 10 ** 6:
        total, term, k = mpf(0), mpf(1), 0
        while term > mpf(10) ** -40 and k <= d:
            total += term
            term *= 1 - mpf(k) / d
            k += 1
        x = total
    else:
        # Q(d) = integral_0^inf e^-x (1 + x/d)^(d-1) dx (Knuth, TAOCP 1.2.11.3); E = 1 + Q(d).
        f = lambda x: mpmath.exp(-x + (d - 1) * mpmath.log1p(x / d))
        s = mpmath.sqrt(d)
        x = 1 + mpmath.quad(f, [0, s / 4, s / 2, s, 2 * s, 4 * s, 8 * s, 16 * s, mpmath.inf])
    return fmt_decimal(Decimal(mpmath.nstr(x, 40, strip_zeros=False, min_fixed=1, max_fixed=0)), 15)


YEAR = 365 * 86400
ARTICLE_N = 10 ** 6 * 10 * YEAR  # 10^6/s for 10 years

PROBABILITY_CASES = [
    # (label, d, n)
    ("article: base62^22, 1e6/s x 10y", 62 ** 22, ARTICLE_N),
    ("article: base62^23, 1e6/s x 10y", 62 ** 23, ARTICLE_N),
    ("birthday 23 of 365", 365, 23),
    ("birthday 2 of 365", 365, 2),
    ("n = d = 365", 365, 365),
    ("n > d", 365, 366),
    ("n = 1", 365, 1),
    ("n = 0", 365, 0),
    ("d = 2, n = 2 (exact tie)", 2, 2),
    ("d = 1, n = 1", 1, 1),
    ("uuid4 2^122, n = 1e9", 2 ** 122, 10 ** 9),
    ("2^128, n = 1e9", 2 ** 128, 10 ** 9),
    ("2^128, n = 2^64", 2 ** 128, 2 ** 64),
    ("2^128, n = 2^127 (lgamma regime)", 2 ** 128, 2 ** 127),
    ("2^64, n = 3e11 (1 - p near 1e-1060)", 2 ** 64, 3 * 10 ** 11),
    ("2^65536, n = 2 (p = 1/d)", 2 ** 65536, 2),
    ("2^65536, n = 1e40", 2 ** 65536, 10 ** 40),
    ("1e40, n = 1e40 (n = d, huge)", 10 ** 40, 10 ** 40),
    ("1e40, n = 1e20", 10 ** 40, 10 ** 20),
    ("1e6, n = 1e5 (p near 1)", 10 ** 6, 10 ** 5),
    ("1e6, n = 4096 (direct)", 10 ** 6, 4096),
    ("1e6, n = 4097 (lgamma)", 10 ** 6, 4097),
    ("1e6, n = 3906 (series boundary)", 10 ** 6, 3906),
    ("1e9, n = 1e7", 10 ** 9, 10 ** 7),
    ("hex^8, n = 1e5", 16 ** 8, 10 ** 5),
    ("base62^8, n = 500 (collapse ids on one device)", 62 ** 8, 500),
    ("decimal^6, n = 999999", 10 ** 6, 999999),
    ("1000, n = 1000", 1000, 1000),
    ("1e30, n = 1e29", 10 ** 30, 10 ** 29),
    ("2^32, n = 2^16", 2 ** 32, 2 ** 16),
    ("base58^22, n = 1e12", 58 ** 22, 10 ** 12),
    ("2^256, n = 1e38", 2 ** 256, 10 ** 38),
]

CAPACITY_CASES = [
    ("2^64 at 1e-11", 2 ** 64, "1e-11"),
    ("base62^22 at 1e-11", 62 ** 22, "1e-11"),
    ("365 at 0.5", 365, "0.5"),
    ("365 at 0.999", 365, "0.999"),
    ("1e6 at 2e-6", 10 ** 6, "2e-6"),
    ("2^128 at 1e-18", 2 ** 128, "1e-18"),
    ("2^32 at 0.01", 2 ** 32, "0.01"),
    ("1e6 at 1e-6 (p(1e6, 2) equals the budget exactly)", 10 ** 6, "1e-6"),
    ("1000 at 0.999999", 1000, "0.999999"),
]

ALPHABET_SIZES = {"base64url": 64, "base62": 62, "base58": 58, "base36": 36, "base32": 32, "hex": 16, "decimal": 10}

LENGTH_CASES = [
    # (label, alphabet size, count, budget)
    ("article, base62", 62, ARTICLE_N, "1e-11"),
    ("article, base64url", 64, ARTICLE_N, "1e-11"),
    ("article, hex", 16, ARTICLE_N, "1e-11"),
    ("article, decimal", 10, ARTICLE_N, "1e-11"),
    ("1e9 ids at 1e-18, base58", 58, 10 ** 9, "1e-18"),
    ("500 ids at 1e-12, base62", 62, 500, "1e-12"),
    ("2 ids at 0.5, hex", 16, 2, "0.5"),
]


# Schemes, from their specifications: random bits, and bucket length in ms.
SCHEMES = {"uuid4": (122, None), "uuid7": (74, 1), "ulid": (80, 1), "ksuid": (128, 1000), "nanoid": (126, None)}
TEN_YEARS_MS = 10 * YEAR * 1000
SCOPED_CASES = [
    ("collapse ids: 1e8 devices x 500, base62^8", 62 ** 8, 500, 10 ** 8),
    ("uuid7 at 1e6/s for 10y (1000 per ms)", 2 ** 74, 1000, TEN_YEARS_MS),
    ("ulid at 1e6/s for 10y (1000 per ms)", 2 ** 80, 1000, TEN_YEARS_MS),
    ("ksuid at 1e6/s for 10y (1e6 per s)", 2 ** 128, 10 ** 6, 10 * YEAR),
    ("uuid7 peak 1e8/s for 1y (1e5 per ms)", 2 ** 74, 10 ** 5, YEAR * 1000),
    ("2 scopes of birthday 23", 365, 23, 2),
]
SCOPED_LENGTH_CASES = [
    ("collapse ids: 1e8 devices x 500 at 1e-6, base62", 62, 500, 10 ** 8, "1e-6"),
    ("collapse ids: 1e8 devices x 500 at 1e-9, base62", 62, 500, 10 ** 8, "1e-9"),
]


def scoped_probability(d, n, groups):
    L = log_complement(d, n)
    mp.dps += len(str(groups)) + 20
    L = L * groups
    return fmt_mpf(-mpmath.expm1(-L)), fmt_pow10(-L / mpmath.log(10))


def scoped_within(d, n, groups, budget):
    if n > d:
        return False
    L = log_complement(d, n) * groups
    lam = -mpmath.log1p(-mpf(budget.numerator) / budget.denominator)
    assert abs(L - lam) > abs(lam) * mpf(10) ** (-40)
    return L <= lam


def main():
    out = {"digits": DIGITS, "probability": [], "capacity": [], "length": [], "expected_draws": [], "duplicates": []}
    for label, d, n in PROBABILITY_CASES:
        p, c = probability(d, n)
        e = fmt_fraction(Fraction(n * (n - 1), 2 * d)) if n >= 0 else "0"
        out["probability"].append({"label": label, "space": str(d), "count": str(n),
                                   "probability": p, "complement": c, "expected_collisions": e})
    for label, d, budget in CAPACITY_CASES:
        out["capacity"].append({"label": label, "space": str(d), "budget": budget,
                                "capacity": str(capacity(d, Fraction(budget)))})
    for label, a, n, budget in LENGTH_CASES:
        out["length"].append({"label": label, "alphabet_size": a, "count": str(n), "budget": budget,
                              "length": min_length(a, n, Fraction(budget))})
    for d in [2, 10, 365, 1000, 10 ** 6, 10 ** 7, 2 ** 32, 62 ** 22, 2 ** 128]:
        out["expected_draws"].append({"space": str(d), "value": expected_draws(d)})
    mp.dps = 120
    for d, n in [(62 ** 4, 3_000_000), (62 ** 4, 200_000), (16 ** 5, 10_000), (2, 3), (365, 23), (10 ** 12, 10 ** 6)]:
        # Classical occupancy, in mpmath: E[n - distinct] and Var(distinct) = Var(empty cells).
        q1, q2 = 1 - mpf(1) / d, 1 - mpf(2) / d
        mean = n - d + d * q1 ** n
        var = d * q1 ** n + d * (d - 1) * q2 ** n - d * d * q1 ** (2 * n)
        out["duplicates"].append({"space": str(d), "count": str(n), "mean": mpmath.nstr(mean, 20),
                                  "variance": mpmath.nstr(var, 20)})
    # Scopes and time buckets: 1 - (1 - p)^S for S independent groups of n ids each.
    out["scoped"] = []
    for label, d, n, groups in SCOPED_CASES:
        p, c = scoped_probability(d, n, groups)
        out["scoped"].append({"label": label, "space": str(d), "count": str(n), "groups": str(groups),
                              "probability": p, "complement": c})
    out["scoped_length"] = []
    for label, a, n, groups, budget in SCOPED_LENGTH_CASES:
        L = 1
        while not scoped_within(a ** L, n, groups, Fraction(budget)):
            L += 1
        out["scoped_length"].append({"label": label, "alphabet_size": a, "count": str(n), "groups": str(groups),
                                     "budget": budget, "length": L})
    path = os.path.join(os.path.dirname(__file__), "..", "IDBudgetTests", "Reference", "reference.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
