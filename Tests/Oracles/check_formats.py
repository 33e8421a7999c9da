#!/usr/bin/env python3
"""Checks ids minted by `idbudget generate --scheme NAME` with independent decoders: Python's `uuid`,
`python-ulid`, `cyksuid` and `typeid-python` (PyPI). Reads one id per line on stdin.

    idbudget generate --scheme uuid7 --count 20000 | python3 Tests/Oracles/check_formats.py uuid7 --sorted
    idbudget generate --scheme typeid --prefix user | python3 Tests/Oracles/check_formats.py typeid --prefix user

`--prefix P`: every id starts with P (TypeID: its type prefix is P; other schemes: P then the id).

Checks: every id parses and re-encodes to itself; version and variant; timestamps within 60 s of now;
with --sorted, ids sort in minting order; no duplicates; with --random, each random bit is set about
half the time (|z| < 5) and the random bytes pass a chi-square test (z < 5). Exit 1 with one line per
problem, or print one line of findings. --selftest runs the checks on deliberately broken ids and
fails unless they are caught.
"""
import math
import sys
import time
import uuid

NANOID = set("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict")
KSUID_EPOCH = 1_400_000_000


PREFIX = ""


def decode(scheme, text):
    """(timestamp in seconds or None, random bits as int, how many random bits) for one id; raises on a bad id."""
    if scheme != "typeid" and PREFIX:
        assert text.startswith(PREFIX), f"{text!r} does not start with {PREFIX!r}"
        text = text[len(PREFIX):]
    if scheme == "typeid":
        from typeid import TypeID
        t = TypeID.from_string(text)
        assert str(t) == text, f"{text!r} does not re-encode to itself ({t})"
        assert (t.prefix or "") == PREFIX, f"{text}: prefix {t.prefix!r}, want {PREFIX!r}"
        u = uuid.UUID(str(t.uuid))
        assert u.variant == uuid.RFC_4122 and u.version == 7, f"{text}: not a UUIDv7 ({u})"
        return (u.int >> 80) / 1000, ((u.int >> 64) & 0xFFF) << 62 | (u.int & ((1 << 62) - 1)), 74
    if scheme in ("uuid4", "uuid7"):
        u = uuid.UUID(text)
        assert str(u) == text, f"{text!r} does not re-encode to itself ({u})"
        assert u.variant == uuid.RFC_4122, f"{text}: variant {u.variant}"
        want = 4 if scheme == "uuid4" else 7
        assert u.version == want, f"{text}: version {u.version}, want {want}"
        if scheme == "uuid4":
            v = u.int
            rand = ((v >> 80) << 74) | (((v >> 64) & 0xFFF) << 62) | (v & ((1 << 62) - 1))
            return None, rand, 122
        return (u.int >> 80) / 1000, ((u.int >> 64) & 0xFFF) << 62 | (u.int & ((1 << 62) - 1)), 74
    if scheme == "ulid":
        from ulid import ULID
        u = ULID.from_str(text)
        assert str(u) == text, f"{text!r} does not re-encode to itself ({u})"
        return u.timestamp, int(u) & ((1 << 80) - 1), 80
    if scheme == "ksuid":
        from cyksuid.v2 import parse
        k = parse(text)
        assert str(k) == text, f"{text!r} does not re-encode to itself ({k})"
        return k.timestamp, int.from_bytes(k.payload, "big"), 128
    if scheme == "nanoid":
        assert len(text) == 21 and set(text) <= NANOID, f"{text!r} is not a default Nano ID"
        alphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
        value = 0
        for c in text:
            value = value * 64 + alphabet.index(c)
        return None, value, 126
    raise SystemExit(f"check_formats: unknown scheme {scheme}")


def check(scheme, ids, want_sorted, want_random, now):
    problems = []
    decoded = []
    for text in ids:
        try:
            decoded.append(decode(scheme, text))
        except Exception as e:  # a decoder's own error, or an assertion above
            problems.append(f"{text!r}: {e}")
            if len(problems) > 5:
                break
    if problems:
        return problems
    if len(set(ids)) != len(ids):
        problems.append(f"{len(ids) - len(set(ids))} duplicate ids")
    stamps = [t for t, _, _ in decoded if t is not None]
    if stamps and (min(stamps) < now - 60 or max(stamps) > now + 60):
        problems.append(f"timestamps {min(stamps)}..{max(stamps)} are not within 60 s of now ({now})")
    if want_sorted and ids != sorted(ids):
        first = next(i for i in range(1, len(ids)) if ids[i] < ids[i - 1])
        problems.append(f"not in minting order: {ids[first - 1]} then {ids[first]}")
    if want_random:
        bits = decoded[0][2]
        n = len(decoded)
        worst = max(abs((sum((r >> b) & 1 for _, r, _ in decoded) - n / 2) / math.sqrt(n / 4)) for b in range(bits))
        if worst > 5:
            problems.append(f"a random bit is biased: max |z| = {worst:.1f}")
        counts = [0] * 256
        for _, r, _ in decoded:
            for k in range(bits // 8):
                counts[(r >> (8 * k)) & 0xFF] += 1
        total = sum(counts)
        chi = sum((c - total / 256) ** 2 / (total / 256) for c in counts)
        z = (chi - 255) / math.sqrt(2 * 255)
        if z > 5:
            problems.append(f"random bytes fail chi-square: {chi:.0f} for 255 degrees of freedom (z = {z:.1f})")
    return problems


def selftest():
    """Broken ids that the checks must catch."""
    now = time.time()
    good = [str(uuid.uuid4()) for _ in range(2000)]
    cases = {
        "wrong version": ("uuid7", good, False, False),
        "duplicates": ("uuid4", good + good[:3], False, False),
        "out of order": ("uuid4", sorted(good, reverse=True), True, False),
        "biased bits": ("uuid4", [str(uuid.UUID(int=uuid.uuid4().int & ~(1 << 5))) for _ in range(2000)], False, True),
        "old timestamp": ("ulid", ["01ARZ3NDEKTSV4RRFFQ69G5FAV"], False, False),
        "typeid, upper case": ("typeid", ["01H455VB4PEX5VSKNK084SN02Q"], False, False),
        "typeid, not v7": ("typeid", ["00000000000000000000000000"], False, False),
    }
    missed = [name for name, (s, ids, so, ra) in cases.items() if not check(s, ids, so, ra, now)]
    if missed:
        sys.exit(f"check_formats: selftest: not caught: {', '.join(missed)}")
    print(f"check_formats: selftest: all {len(cases)} broken streams caught")


def main():
    args = sys.argv[1:]
    if args == ["--selftest"]:
        return selftest()
    if not args:
        sys.exit(__doc__)
    scheme = args[0]
    global PREFIX
    if "--prefix" in args:
        PREFIX = args[args.index("--prefix") + 1]
    ids = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    if not ids:
        sys.exit("check_formats: no ids on stdin")
    problems = check(scheme, ids, "--sorted" in args, "--random" in args, time.time())
    if problems:
        print("\n".join(f"check_formats: {scheme}: {p}" for p in problems))
        sys.exit(1)
    print(f"check_formats: {scheme}: {len(ids)} ids parse, no duplicates"
          + (", sorted" if "--sorted" in args else "") + (", random bits uniform" if "--random" in args else ""))


if __name__ == "__main__":
    main()
