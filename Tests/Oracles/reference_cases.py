#!/usr/bin/env python3
"""The cases the Swift tests check against the one reference (reference.py), and the writer of
Tests/IDBudgetTests/Reference/reference.json. Rerun: python3 Tests/Oracles/reference_cases.py"""
import json
import os
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

from reference import DIGITS, capacity, expected_draws, fmt_fraction, min_length, probability, scoped_probability, scoped_within

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
