#!/usr/bin/env python3
"""p(d, n) over cuid2's real space, d = 26·36^23 (a letter, then 23 base36 symbols), from the one
reference (reference.py: exact fractions, or mpmath with a carried error bound) — never idbudget's code.

    python3 cuid2_ref.py N     prints p for N ids to 30 significant digits (round half even)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import probability  # noqa: E402

print(probability(26 * 36**23, int(sys.argv[1]))[0])
