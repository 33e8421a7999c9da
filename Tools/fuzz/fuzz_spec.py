#!/usr/bin/env python3
"""What the fuzzer shares: the spec values of the schemes, alphabets and units, its imports, and the
one independent reference (Tests/Oracles/reference.py: p(d, n), 1 − p, budgets and the 30-digit prints,
with the error bounds fuzz.py's docstring states), imported from there, never copied."""
import argparse
import json
import math
import os
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal, Context, ROUND_HALF_EVEN, MAX_EMAX, MIN_EMIN
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Oracles"))
from reference import (  # noqa: E402,F401 (the one reference and its exact formatting)
    DIGITS, ONE, POWER_FORM_BITS, REF, TEN29, TEN30, Reference, RefError, dec, fmt_frac, fmt_frac_decimal, gmpy2,
    is_tie, log2i, mpz, prod_range, round_certified, scaled_quotient, sci)
import mpmath  # noqa: E402
from mpmath import mpf  # noqa: E402

# Spec values, from the formats' own documents (RFC 9562, ULID spec, KSUID README, Nano ID README,
# Apple's APNs docs as the README describes them): random bits, and bucket length in seconds.
SCHEMES = {
    "uuid4": (122, None), "uuid7": (74, Fraction(1, 1000)), "ulid": (80, Fraction(1, 1000)),
    "ksuid": (128, Fraction(1)), "nanoid": (126, None), "apns-id": (122, None),
    "apns-collapse-id": (384, None), "notification-request-id": (122, None),
}
ALPHABETS = {"base64url": 64, "base62": 62, "base58": 58, "base36": 36, "base32": 32, "hex": 16, "decimal": 10}
UNITS = {"ms": Fraction(1, 1000), "s": Fraction(1), "min": Fraction(60), "m": Fraction(60), "h": Fraction(3600),
         "d": Fraction(86400), "w": Fraction(604800), "y": Fraction(365 * 86400), "mo": Fraction(365 * 86400, 12)}
MAX_SPACE_BITS = 2097152
MAX_COUNT_DIGITS = 640000


def oracle(name):
    """A module of Tests/Oracles, imported once."""
    here = os.path.join(ROOT, "Tests", "Oracles")
    if here not in sys.path:
        sys.path.insert(0, here)
    import importlib
    return importlib.import_module(name)
