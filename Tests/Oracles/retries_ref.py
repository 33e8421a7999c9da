#!/usr/bin/env python3
"""Independent reference values for `idbudget retries` (stores that redraw on collision).

For d values and N stored ids, with k attempts per insert:
  fill           f = N/d                                   exact fractions
  next           d/(d - N)                                 exact fractions
  total          sum_{i<N} d/(d - i) = d(psi(d+1) - psi(d-N+1))
                 exact fractions for N <= 2000; else mpmath's digamma at 2*digits(d) + 80 digits
                 (the difference cancels about digits(d/N)); for spaces beyond 10^1000, the series
                 N + sum_{j>=1} S_j(N)/d^j with S_j from Faulhaber (mpmath's Bernoulli numbers)
  exhaustion     P = 1 - prod_{i<N} (1 - (i/d)^k)
                 exact fractions while the product is small; else L = -sum log(1 - (i/d)^k) term by
                 term in mpmath (N <= 20000), or L = sum_j S_{kj}(N)/(j d^{kj}) with exact Faulhaber sums;
                 P = -expm1(-L)
  capacity       the largest N with P <= budget, by bisection on the same L at 80+ digits, checked at
                 N and N + 1
never with idbudget's code (which uses an asymptotic expansion of H_n, a power-sum recurrence and
directed rounding). Output: Tests/IDBudgetTests/Reference/retries.json. Rerun:
python3 Tests/Oracles/retries_ref.py
"""
import json
import math
import os
import sys
from decimal import Decimal, Context, ROUND_HALF_EVEN, MAX_EMAX, MIN_EMIN
from fractions import Fraction

import mpmath
from mpmath import mp, mpf

DIGITS = 30
sys.set_int_max_str_digits(0)


def fmt_decimal(d: Decimal) -> str:
    if d == 0:
        return "0"
    ctx = Context(prec=DIGITS, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)
    sign, digits, exp = ctx.plus(d).as_tuple()
    s = "".join(map(str, digits)).ljust(DIGITS, "0")[:DIGITS]
    e = exp + len(digits) - 1
    return f"{s[0]}.{s[1:]}e{'+' if e >= 0 else '-'}{abs(e)}"


def fmt_fraction(q: Fraction) -> str:
    if q == 0:
        return "0"
    ctx = Context(prec=DIGITS, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)
    return fmt_decimal(ctx.divide(Decimal(q.numerator), Decimal(q.denominator)))


def fmt_mpf(x) -> str:
    """An mpf carrying >= 45 good digits, rounded to 30 (half-even on the decimal string)."""
    if x == 0:
        return "0"
    return fmt_decimal(Decimal(mpmath.nstr(x, DIGITS + 15, strip_zeros=False, min_fixed=1, max_fixed=0)))


def power_sum(n: int, m: int) -> int:
    """S_m(n) = sum_{i<n} i^m exactly: Faulhaber with mpmath's Bernoulli numbers (B_1 = -1/2)."""
    total = Fraction(0)
    for j in range(m + 1):
        b = Fraction(*mpmath.bernfrac(j)) if j != 1 else Fraction(-1, 2)
        if b:
            total += math.comb(m + 1, j) * b * Fraction(n) ** (m + 1 - j)
    s = total / (m + 1)
    assert s.denominator == 1
    return s.numerator


def total_attempts(d: int, n: int) -> str:
    # Exactly while the fractions stay small (each sum's reduction is a gcd of their size).
    if n <= 2000 and n * d.bit_length() <= 1 << 20:
        return fmt_fraction(sum((Fraction(d, d - i) for i in range(n)), Fraction(0)))
    if len(str(d)) <= 1000:
        mp.dps = 2 * len(str(d)) + 80
        return fmt_mpf(d * (mpmath.digamma(d + 1) - mpmath.digamma(d - n + 1)))
    # A space beyond 10^1000 with n far below it: the terms fall by n/d each.
    mp.dps = 80
    total = mpf(n)
    j = 1
    while True:
        term = mpf(power_sum(n, j)) / mpf(d) ** j
        total += term
        if term < total * mpf(10) ** -70:
            return fmt_mpf(total)
        j += 1


def log_no_exhaustion(d: int, n: int, k: int, dps: int):
    """L = -sum_{i<n} log(1 - (i/d)^k) in mpmath at `dps` digits (plus what the method needs)."""
    if n <= 20000:
        mp.dps = dps + 10
        dk = mpf(d) ** k
        return mpmath.fsum(-mpmath.log1p(-(mpf(i) ** k) / dk) for i in range(1, n))
    rho = Fraction(n - 1, d) ** k
    assert rho < Fraction(1, 4), "series too slow for the oracle"
    mp.dps = dps + 10
    total = mpf(0)
    j = 1
    while True:
        term = mpf(power_sum(n, k * j)) / (j * mpf(d) ** (k * j))
        total += term
        if term < total * mpf(10) ** -(dps + 5):
            return total
        j += 1


def exact_complement(d: int, n: int, k: int):
    """prod_{i<n} (1 - (i/d)^k) as a Fraction when it is small enough to build."""
    if n * k * d.bit_length() > 400_000:
        return None
    num = 1
    dk = d**k
    for i in range(n):
        num *= dk - i**k
    return Fraction(num, dk**n)


def exhaustion(d: int, n: int, k: int) -> str:
    if n <= 1:
        return "0"
    c = exact_complement(d, n, k)
    if c is not None:
        return fmt_fraction(1 - c)
    if certainly_exhausted(d, n, k, 100):
        return fmt_decimal(Decimal(1))
    L = log_no_exhaustion(d, n, k, 80)
    mp.dps = 90
    return fmt_mpf(-mpmath.expm1(-L))


def certainly_exhausted(d: int, n: int, k: int, bound) -> bool:
    """L >= sum_{i<n} (i/d)^k = S_k(n)/d^k (as -log(1 - x) >= x) exceeds `bound`: then 1 - P < e^-bound."""
    # Compared as integers: a Fraction would reduce by the gcd of million-bit numbers first.
    b = Fraction(bound)
    return power_sum(n, k) * b.denominator > b.numerator * d**k


def within(d: int, n: int, k: int, budget: Fraction) -> bool:
    if n <= 1:
        return True
    if n > d:
        return False
    c = exact_complement(d, n, k) if n <= 3000 else None
    if c is not None:
        return 1 - c <= budget
    if certainly_exhausted(d, n, k, -math.log1p(-float(budget)) * 2 + 1):
        return False
    L = log_no_exhaustion(d, n, k, 100)
    mp.dps = 110
    lam = -mpmath.log1p(-mpf(budget.numerator) / budget.denominator)
    assert abs(L - lam) > lam * mpf(10) ** -80, "too close for the oracle"
    return L <= lam


def capacity(d: int, k: int, budget: Fraction) -> str:
    lo, hi = 1, d + 1  # within(lo), not within(hi)
    # A guess from L ~ N^(k+1)/((k+1) d^k) narrows the bracket.
    lam = -math.log1p(-float(budget))
    guess = int(math.exp((math.log((k + 1) * lam) + k * math.log(d)) / (k + 1)))
    for g in (guess // 2, guess * 2):
        if 1 < g <= d:
            if within(d, g, k, budget):
                lo = max(lo, g)
            else:
                hi = min(hi, g)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if within(d, mid, k, budget):
            lo = mid
        else:
            hi = mid
    assert within(d, lo, k, budget) and not within(d, lo + 1, k, budget)
    return str(lo)


CASES = [
    # label, d, N, k, budget (or None)
    ("tiny: d = 10, N = 2, k = 2, budget = P exactly", 10, 2, 2, "0.01"),
    ("birthday 23 of 365, k = 1", 365, 23, 1, None),
    ("d = 1000, N = 150, k = 2 (simulated)", 1000, 150, 2, None),
    ("d = 1000, N = 600, k = 10 (simulated)", 1000, 600, 10, None),
    ("d = 1000, N = 600, k = 2: P rounds to 1", 1000, 600, 2, None),
    ("f near 1: d = 1000, N = 999, k = 3", 1000, 999, 3, None),
    ("f near 1: d = 1e6, N = 999999, k = 3", 10**6, 999999, 3, None),
    ("d = 1e5, N = 5e4, k = 2, budget 1e-6", 10**5, 50000, 2, "1e-6"),
    ("README: base62^8, N = 1e6, k = 3, budget 1e-9", 62**8, 10**6, 3, "1e-9"),
    ("2^122, N = 1e18, k = 2, budget 1e-9", 2**122, 10**18, 2, "1e-9"),
    ("2^122, N = 2^121, k = 10", 2**122, 2**121, 10, None),
    ("2^122, N = 2^100, k = 10, budget 1e-9", 2**122, 2**100, 10, "1e-9"),
    ("2^64, N = 1e5, k = 1, budget 1e-6", 2**64, 10**5, 1, "1e-6"),
    ("2^128, N = 2^100, k = 3, budget 0.5", 2**128, 2**100, 3, "0.5"),
    ("2^40, N = 1e6, k = 10", 2**40, 10**6, 10, None),
    ("d = 5000, N = 4097, k = 2", 5000, 4097, 2, None),
    ("d = 2^20, N = 20000, k = 3", 2**20, 20000, 3, None),
    ("d = 50000, N = 17000, k = 10", 50000, 17000, 10, None),
    ("d = 30000, N = 2000, k = 5", 30000, 2000, 5, None),
    ("d = 2^2097152, N = 2^1048576, k = 2", 2**2097152, 2**1048576, 2, None),
    ("d = 1e9, N = 1e8, k = 1, budget 1e-3", 10**9, 10**8, 1, "1e-3"),
    ("d = 1e12, N = 1e3, k = 2, budget 1e-12", 10**12, 1000, 2, "1e-12"),
    # d^k past 2^20 bits: the series, not the direct sum over exact powers of d.
    ("few ids, a large space, many attempts: d = 2^11000, N = 2^9, k = 100", 2**11000, 2**9, 100, None),
]


# A store at or past its space: N = d (the next insert never succeeds, the total is d·H_d) and N > d.
FULL = [
    ("full: d = 1000, N = 1000, k = 3", 1000, 1000, 3),
    ("full: d = 1e6, N = 1e6, k = 2", 10**6, 10**6, 2),
    ("past full: d = 1000, N = 1001, k = 2", 1000, 1001, 2),
]

# Capacities past 2^4096 ids: the answer is "at least 2^4096" when that count is within the budget.
AT_LEAST = [
    # label, base, exponent (d = base^exponent), k, budget
    ("2^8192 values, k = 2, budget 1e-3", 2, 8192, 2, "1e-3"),
    ("base36^55508, k = 90, budget 0.39", 36, 55508, 90, "0.39"),
]


def main():
    full = []
    for label, d, n, k in FULL:
        full.append({
            "label": label, "space": str(d), "count": str(n), "max_attempts": k,
            "fill": fmt_fraction(Fraction(n, d)),
            "expected_attempts_total": total_attempts(d, n) if n <= d else None,
            "exhaustion_probability": exhaustion(d, n, k),
        })
        print(label, file=sys.stderr)
    at_least = []
    for label, base, exponent, k, budget in AT_LEAST:
        assert within(base**exponent, 2**4096, k, Fraction(Decimal(budget))), label
        at_least.append({"label": label, "space": f"{base}^{exponent}", "max_attempts": k, "budget": budget})
        print(label, file=sys.stderr)
    rows = []
    for label, d, n, k, budget in CASES:
        huge = d.bit_length() > 4000
        mp.dps = 80
        row = {
            "label": label,
            # Powers of two past 4000 bits are written 2^k (the test reads both forms).
            "space": f"2^{d.bit_length() - 1}" if huge else str(d),
            "count": f"2^{n.bit_length() - 1}" if huge else str(n),
            "max_attempts": k,
            "fill": fmt_mpf(mpf(n) / mpf(d)) if huge else fmt_fraction(Fraction(n, d)),
            "expected_attempts_next": fmt_mpf(mpf(d) / (mpf(d) - mpf(n))) if huge else fmt_fraction(Fraction(d, d - n)),
            "expected_attempts_total": total_attempts(d, n),
            "exhaustion_probability": exhaustion(d, n, k),
            "budget": budget,
            "capacity": capacity(d, k, Fraction(Decimal(budget))) if budget else None,
        }
        rows.append(row)
        print(label, file=sys.stderr)
    out = {"digits": DIGITS, "cases": rows, "full": full, "at_least": at_least}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../IDBudgetTests/Reference/retries.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
