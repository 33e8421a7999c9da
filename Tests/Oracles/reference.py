#!/usr/bin/env python3
"""The one independent reference for idbudget's tests and fuzzer: p(d, n), 1 − p, budgets and their
30-digit prints, never computed with idbudget's own code.

L = −log(1 − p) = −Σ_{i<n} log(1 − i/d) is exact (gmpy2 or Python integers: the falling factorial over
d^n, raised to the groups) wherever that is affordable, and otherwise mpmath with a rigorous relative
error bound carried along (``Reference``; the methods and their bounds are in Tools/fuzz/fuzz.py's
docstring):

* A  n ≤ 4000:   L = Σ_{i<n} −log1p(−i/d), all terms positive (relative error ≤ (n+32)·2^−P);
* C  n ≤ d/16:   L = Σ_k S_k(n)/(k·d^k), power sums by Faulhaber, the tail bounded;
* B  otherwise:  L = n·log d + lgamma(d−n+1) − lgamma(d+1), the cancellation paid for in precision.

A value is rounded to 30 digits (half-even) only when its error bound keeps it off a rounding boundary;
otherwise the precision doubles. Budgets are decided the same way: p ≤ P exactly when L ≤ −log(1 − P).
The tests read Tests/IDBudgetTests/Reference/reference.json, which reference_cases.py writes from it:
python3 Tests/Oracles/reference_cases.py. The fuzzer (Tools/fuzz/) imports it.
"""
import math
import sys
from decimal import Decimal, Context, ROUND_HALF_EVEN, MAX_EMAX, MIN_EMIN
from fractions import Fraction

try:
    import gmpy2
    from gmpy2 import mpz
except ImportError:                       # slower, same answers: Python integers stand in for GMP's
    class _Gmpy2:
        f_divmod = staticmethod(divmod)
        isqrt = staticmethod(math.isqrt)
        fac = staticmethod(math.factorial)
    gmpy2, mpz = _Gmpy2(), int
import mpmath
from mpmath import mp, mpf

DIGITS = 30
sys.set_int_max_str_digits(0)
CTX = Context(prec=DIGITS, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)
TEN29 = mpz(10) ** 29
TEN30 = TEN29 * 10
POWER_FORM_BITS = 4096   # idbudget writes 1 − p as 10^−x once S·L ≥ 2^4096


# ----------------------------------------------------------------------------------------------
# Formatting: 30 significant digits, round half to even, d.ddd…e±X (the schema's "exact" pattern)
# ----------------------------------------------------------------------------------------------

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


def sci(q, e):
    s = str(q)
    return f"{s[0]}.{s[1:]}e{'+' if e >= 0 else '-'}{abs(e)}"


def scaled_quotient(num, den):
    """(q, r, b, e) with num/den = (q + r/b)·10^(e−29) and 10^29 ≤ q < 10^30 (num > 0)."""
    num, den = mpz(num), mpz(den)
    e = int(math.floor((num.bit_length() - den.bit_length()) * 0.30102999566398120))
    while True:
        s = 29 - e
        a, b = (num * mpz(10) ** s, den) if s >= 0 else (num, den * mpz(10) ** (-s))
        q, r = gmpy2.f_divmod(a, b)
        if q >= TEN30:
            e += 1
        elif q < TEN29:
            e -= 1
        else:
            return q, r, b, e


def fmt_frac(num, den):
    """num/den (integers, num ≥ 0, den > 0) to 30 significant digits, exactly, half-even."""
    if num == 0:
        return "0"
    q, r, b, e = scaled_quotient(num, den)
    if 2 * r > b or (2 * r == b and q % 2 == 1):
        q += 1
    if q == TEN30:
        q, e = TEN29, e + 1
    return sci(q, e)


def fmt_frac_decimal(num, den):
    """The same through libmpdec (a second, independent rounding), for the self-test."""
    if num == 0:
        return "0"
    ctx = Context(prec=DIGITS, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN)
    sign, digits, exp = ctx.divide(Decimal(int(num)), Decimal(int(den))).as_tuple()
    s = "".join(map(str, digits)).ljust(DIGITS, "0")[:DIGITS]
    return sci(int(s), exp + len(digits) - 1)


def is_tie(num, den):
    """Whether num/den lies exactly halfway between two 30-digit values."""
    if num == 0:
        return False
    _, r, b, _ = scaled_quotient(num, den)
    return 2 * r == b


ONE = fmt_frac(1, 1)


def round_certified(m, e, rel):
    """m·10^e rounded to 30 digits, or None when a relative error `rel` could move it across a
    rounding boundary. m is an mpf near [1, 10); runs in the caller's working precision."""
    u = mpf(2) ** (-mpmath.mp.prec)
    n = m * mpf(10) ** 29
    while n >= mpf(10) ** 30:
        n, e = n / 10, e + 1
    while n < mpf(10) ** 29:
        n, e = n * 10, e - 1
    fl = int(mpmath.floor(n))
    frac = n - fl
    err = n * (rel + 16 * u)
    if abs(frac - mpf(0.5)) <= err:
        return None
    q = fl + (1 if frac > 0.5 else 0)
    if q == TEN30:
        q, e = TEN29, e + 1
    return sci(q, e)


def dec(x):
    """Decimal digits of a whole number: GMP's subquadratic conversion (Python's str() holds the
    GIL for seconds on a 600,000-digit number, which stalls the threads timing the CLI)."""
    return mpz(x).digits() if x.bit_length() > 4096 and mpz is not int else str(x)


def log2i(x):
    """log2 of a positive integer of any size, as a float."""
    return math.log2(x) if x > 0 else float("-inf")


def prod_range(a, b):
    """∏_{a ≤ x < b} x as an mpz, by a product tree."""
    if b - a <= 0:
        return mpz(1)
    if b - a <= 16:
        r = mpz(a)
        for x in range(a + 1, b):
            r *= x
        return r
    m = (a + b) // 2
    return prod_range(a, m) * prod_range(m, b)


class RefError(Exception):
    pass


class Reference:
    EXACT_BITS = 1 << 23
    MAX_TARGET = 1 << 18          # relative-precision bits at which the reference gives up (or 4× the start)

    def __init__(self):
        self.L = {}
        self.exact_cache = {}
        self.stats = {"exact": 0, "A": 0, "B": 0, "C": 0, "uncertain": 0}

    # -- exact ----------------------------------------------------------------------------------
    def exact_affordable(self, d, n, S, factor=1):
        return (1 < n <= min(d, 100_000 * factor) and S <= 1_000_000
                and n * d.bit_length() * S <= self.EXACT_BITS * factor)

    def exact(self, d, n, S):
        """(1 − p) = num/den exactly, with num = (d)_n^S, den = d^(nS)."""
        key = (d, n, S)
        if key not in self.exact_cache:
            if len(self.exact_cache) > 64:
                self.exact_cache.clear()
            ff = prod_range(d - n + 1, d + 1)
            self.exact_cache[key] = (ff ** S, mpz(d) ** (n * S))
        return self.exact_cache[key]

    # -- L = −log(1 − p) for one group, with a relative error bound ------------------------------
    @staticmethod
    def choose(d, n, target):
        if n <= 4000 and n * (target + 64) <= 4000 * 4096:
            return "A"
        lr = log2i(d) - log2i(n)
        if lr >= 4 and (target + 40) / lr + 3 <= 300:
            return "C"
        return "B"

    def logc(self, d, n, target, method=None):
        """(L, rel, method) with |L̃ − L| ≤ rel·L, rel ≈ 2^−target; mpf values at ≥ target+64 bits."""
        method = method or self.choose(d, n, target)
        key = (d, n, target, method)
        if key in self.L:
            return self.L[key]
        if len(self.L) > 4096:
            self.L.clear()
        f = {"A": self._direct, "B": self._lgamma, "C": self._series}[method]
        out = f(d, n, target) + (method,)
        self.stats[method] += 1
        self.L[key] = out
        return out

    @staticmethod
    def _direct(d, n, target):
        prec = target + 24 + n.bit_length()
        with mpmath.workprec(prec):
            D = mpf(d)
            terms = []
            for i in range(1, n):
                if 2 * i <= d:
                    terms.append(-mpmath.log1p(-mpf(i) / D))
                else:
                    terms.append(-mpmath.log(mpf(d - i) / D))
            L = mpmath.fsum(terms)
            rel = mpf(n + 32) * mpf(2) ** (-prec)
        return L, rel

    @staticmethod
    def _series(d, n, target):
        lr = log2i(d) - log2i(n)
        K = int((target + 40) / lr) + 3
        prec = target + 40 + 2 * K.bit_length()
        with mpmath.workprec(prec):
            u = mpf(2) ** (-prec)
            N, D = mpf(n), mpf(d)
            r = N / D
            B = [mpmath.bernoulli(j) for j in range(K + 1)]
            Np = [mpf(1)]
            for _ in range(K + 1):
                Np.append(Np[-1] * N)
            total, worst, Dk = mpf(0), mpf(1), mpf(1)
            for k in range(1, K + 1):
                Dk *= D
                parts = [math.comb(k + 1, j) * B[j] * Np[k + 1 - j] for j in range(k + 1) if B[j] != 0]
                s = mpmath.fsum(parts)
                if s <= 0:
                    raise RefError(f"series: power sum S_{k}({n}) ≤ 0")
                worst = max(worst, mpmath.fsum(abs(t) for t in parts) / s)
                total += s / ((k + 1) * k * Dk)
            tail = N * r ** (K + 1) / ((K + 1) * (K + 2) * (1 - r))
            rel = (4 * K + 64) * worst * u + tail / total
        return total, rel

    @staticmethod
    def _lgamma_at(d, n, prec):
        def lgamma_int(m):            # log Γ(m) = log((m − 1)!)
            return mpmath.log(gmpy2.fac(m - 1)) if m <= 3000 else mpmath.loggamma(m)
        with mpmath.workprec(prec):
            a = n * mpmath.log(d)
            b = lgamma_int(d - n + 1)
            c = lgamma_int(d + 1)
            L = a + b - c
            M = abs(a) + abs(b) + abs(c)
            return L, M * 32 * mpf(2) ** (-prec)

    def _lgamma(self, d, n, target):
        l2L = log2i(n) + log2i(n - 1) - 1 - log2i(d)       # L ≥ n(n−1)/2d
        l2M = log2i(n + d + 2) + math.log2(math.log(d + 2) + 1) + 2
        prec = target + 40 + int(max(0.0, l2M - l2L))
        L1, e1 = self._lgamma_at(d, n, prec)
        L2, e2 = self._lgamma_at(d, n, prec + 48)
        if L2 <= 0:
            raise RefError(f"lgamma: L ≤ 0 for d={d}, n={n}")
        with mpmath.workprec(prec + 48):
            if abs(L1 - L2) > e1 + e2:
                raise RefError(f"lgamma: the two precisions disagree beyond their bounds (d={d}, n={n})")
            return L2, (e2 + abs(L1 - L2)) / L2

    # -- digits ---------------------------------------------------------------------------------
    @staticmethod
    def start_target(d, n, S):
        l2L = 2 * log2i(n) - log2i(d) + 1
        if 2 * n > d:
            l2L = max(l2L, log2i(n) + math.log2(math.log(d) + 1))
        return 128 + int(max(0.0, l2L + log2i(S)))

    def digits(self, d, n, S=1, method=None, allow_exact=True):
        """(p, 1 − p) as 30-digit strings; either may be None when it cannot be certified."""
        if n <= 1:
            return "0", ONE
        if n > d:
            return ONE, "0"
        if allow_exact and method is None and self.exact_affordable(d, n, S):
            num, den = self.exact(d, n, S)
            self.stats["exact"] += 1
            return fmt_frac(den - num, den), fmt_frac(num, den)
        p = c = None
        target = self.start_target(d, n, S)
        # Past S·L = 2^4096 idbudget writes 1 − p as 10^−x, x = S·L/ln 10: relative accuracy will do.
        power_form = target - 128 > POWER_FORM_BITS + 16
        if power_form:
            target = 256
        limit, rounds = max(self.MAX_TARGET, 4 * target), 0
        while target <= limit:
            rounds += 1
            if rounds == 3 and allow_exact and method is None and self.exact_affordable(d, n, S, 8):
                num, den = self.exact(d, n, S)      # an exact tie, or a value very near one
                self.stats["exact"] += 1
                return fmt_frac(den - num, den), fmt_frac(num, den)
            L, rel, m = self.logc(d, n, target, method)
            with mpmath.workprec(target + 64 + int(max(0.0, log2i(S)))):
                u = mpf(2) ** (-mpmath.mp.prec)
                Lt = L * S
                relt = rel + 4 * u
                if p is None:
                    pv = -mpmath.expm1(-Lt)
                    if pv > 0:
                        e = int(mpmath.floor(mpmath.log10(pv)))
                        p = round_certified(pv / mpf(10) ** e, e, relt + 16 * u)
                if c is None and Lt * (1 - relt) >= mpf(2) ** POWER_FORM_BITS:
                    x = Lt / mpmath.ln10
                    e = int(mpmath.floor(mpmath.log10(x)))
                    r = round_certified(x / mpf(10) ** e, e, relt + 16 * u)
                    c = None if r is None else "10^-" + r
                elif c is None and power_form:
                    pass  # near the 2^4096 boundary: try again at a higher target
                elif c is None and Lt * (1 + relt) >= mpf(2) ** POWER_FORM_BITS:
                    pass  # straddles the boundary: the form itself is undecided
                elif c is None:
                    t = -Lt / mpmath.ln10
                    if abs(t) < mpf(2) ** (mpmath.mp.prec - 80):
                        terr = (relt * Lt + 8 * u * Lt) / mpmath.ln10 + 8 * u * (abs(t) + 1)
                        e = int(mpmath.floor(t))
                        mv = mpmath.power(10, t - e)
                        c = round_certified(mv, e, 3 * terr + 16 * u)
            if p is not None and c is not None:
                return p, c
            target *= 2
        self.stats["uncertain"] += 1
        return p, c

    # -- budgets --------------------------------------------------------------------------------
    def within(self, d, n, S, budget, method=None, allow_exact=True, min_target=0):
        """p(d, n) over S groups ≤ budget (a Fraction in (0, 1)): True, False or None (undecided).

        `min_target`: relative bits known to be needed (one id more changes L by a factor of about
        1 + 2/n near a capacity, so log2(n) + 64 bits)."""
        if n <= 1:
            return True
        if n > d:
            return False
        bn, bd = budget.numerator, budget.denominator
        if allow_exact and method is None and self.exact_affordable(d, n, S) and bd.bit_length() < 4 * self.EXACT_BITS:
            num, den = self.exact(d, n, S)
            self.stats["exact"] += 1
            return (den - num) * bd <= bn * den
        target = max(self.start_target(d, n, S) - 64, min_target)
        limit, rounds = max(self.MAX_TARGET, 4 * target), 0
        while target <= limit:
            rounds += 1
            if rounds == 3 and allow_exact and method is None and self.exact_affordable(d, n, S, 8):
                num, den = self.exact(d, n, S)      # p equals the budget, or nearly
                self.stats["exact"] += 1
                return (den - num) * bd <= bn * den
            L, rel, m = self.logc(d, n, target, method)
            with mpmath.workprec(target + 64 + int(max(0.0, log2i(S)))):
                u = mpf(2) ** (-mpmath.mp.prec)
                Lt = L * S
                if 2 * bn < bd:
                    lam = -mpmath.log1p(-mpf(bn) / bd)
                else:
                    lam = -mpmath.log(mpf(bd - bn) / bd)
                diff = Lt - lam
                margin = (rel + 8 * u) * Lt + 16 * u * lam
                if diff > margin:
                    return False
                if diff < -margin:
                    return True
                need = int(mpmath.log(margin / abs(diff), 2)) + 64 if diff != 0 else target
            target = max(2 * target, target + need)
        self.stats["uncertain"] += 1
        return None

    def max_groups(self, d, n, S, budget):
        """The largest G with p(d, n) over S·G groups ≤ budget: floor(λ / (S·L)), certified, or None."""
        bn, bd = budget.numerator, budget.denominator
        target = 160
        while target <= self.MAX_TARGET:
            L, rel, _ = self.logc(d, n, target)
            with mpmath.workprec(target + 64):
                u = mpf(2) ** (-mpmath.mp.prec)
                lam = -mpmath.log1p(-mpf(bn) / bd) if 2 * bn < bd else -mpmath.log(mpf(bd - bn) / bd)
                g = lam / (L * S)
                fl = int(mpmath.floor(g))
                err = g * (rel + 32 * u)
                if g - fl > err and fl + 1 - g > err:
                    if target < log2i(fl + 1) + 64:      # the working precision must resolve fl itself
                        target *= 2
                        continue
                    return fl
            target *= 2
        self.stats["uncertain"] += 1
        return None


REF = Reference()

# ----------------------------------------------------------------------------------------------
# The questions the tests ask, answered by the one Reference
# ----------------------------------------------------------------------------------------------

def log_complement(d: int, n: int):
    """L = −log(1 − p(d, n)) as an mpf, relative error ≤ 2^−(mp.prec); mp.dps is left wide enough
    for the callers' arithmetic on it (about 2·digits(d) are lost to cancellation elsewhere)."""
    mp.dps = max(80 + len(str(n)), 2 * len(str(d)) + 2 * len(str(n)) + 90) if n > 2000 else 80 + len(str(n))
    L, _, _ = REF.logc(d, n, mp.prec + 16)
    return +L


def scoped_probability(d: int, n: int, groups: int):
    """(p, 1 − p) over `groups` independent groups of n ids, as 30-digit strings, certified."""
    p, c = REF.digits(d, n, groups)
    assert p is not None and c is not None, ("uncertified", d, n, groups)
    return p, c


def probability(d: int, n: int):
    """(p, 1 − p) as 30-digit strings, certified."""
    return scoped_probability(d, n, 1)


def scoped_within(d: int, n: int, groups: int, budget: Fraction) -> bool:
    """p(d, n) over `groups` groups ≤ budget, decided with a certified margin."""
    verdict = REF.within(d, n, groups, budget)
    assert verdict is not None, ("undecided", d, n, groups, budget)
    return verdict


def p_within(d: int, n: int, budget: Fraction) -> bool:
    return scoped_within(d, n, 1, budget)


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
