#!/usr/bin/env python3
"""Fuzzes `idbudget inspect`: ids minted by the formats' own libraries, then mutated (a character
changed, dropped, doubled, upper/lower-cased, a control byte or invalid UTF-8 put in), all sent on one
stdin. Checks: never a crash; one JSON line per input line, each schema-shaped; an id a reference
library accepts is valid in its format here, with the library's timestamp; exit 1 exactly when some
line is valid in no format.

    python3 Tools/fuzz/inspect_fuzz.py --binary .build/release/idbudget [--seed N] [--cases N]
    python3 Tools/fuzz/inspect_fuzz.py --selftest     (the checks catch a planted wrong answer)
"""
import argparse
import json
import os
import random
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Oracles"))
import inspect_ref  # noqa: E402


def seeds():
    """(format, id, fields) from the reference libraries (inspect_ref.py's `mint`)."""
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        inspect_ref.mint()
    return [(c["format"], c["id"], c["fields"]) for c in json.loads(buf.getvalue())["cases"]]


def mutate(rng, text):
    b = bytearray(text.encode())
    if not b:
        return bytes(b)
    i = rng.randrange(len(b))
    op = rng.randrange(8)
    if op == 0:
        b[i] = rng.choice(b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")
    elif op == 1:
        del b[i]
    elif op == 2:
        b.insert(i, b[i])
    elif op == 3:
        b = bytearray(bytes(b).swapcase())
    elif op == 4:
        b.insert(i, rng.choice([0, 1, 7, 9, 11, 12, 27, 127]))
    elif op == 5:
        b.insert(i, rng.choice([0x80, 0xC0, 0xFF, 0xFE]))
    elif op == 6:
        b = b * rng.randint(2, 300)
    else:
        b[i:i] = "é🍎".encode()
    return bytes(b).replace(b"\n", b"").replace(b"\r", b"")


def run(binary, lines):
    data = b"".join(l + b"\n" for l in lines)
    p = subprocess.run([binary, "inspect", "--format", "json"], input=data, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace").splitlines(), p.stderr.decode("utf-8", "replace")


def check(binary, rng, count, plant=False):
    base = seeds()
    lines, expect = [], []
    for _ in range(count):
        fmt, text, fields = rng.choice(base)
        if rng.random() < 0.3:
            lines.append(text.encode())
            expect.append((fmt, fields))
        else:
            lines.append(mutate(rng, text))
            expect.append(None)
    rc, out, err = run(binary, lines)
    failures = []
    if rc not in (0, 1) or "Fatal error" in err:
        failures.append(f"exit {rc}: {err[:300]}")
    nonblank = [l for l in lines if l]
    if len(out) != len(nonblank):
        failures.append(f"{len(out)} answers for {len(nonblank)} lines")
    answers = iter(out)
    any_invalid = False
    for line, exp in zip(lines, expect):
        if not line:
            continue
        try:
            a = json.loads(next(answers))
        except (StopIteration, ValueError) as e:
            failures.append(f"no JSON answer for {line[:60]!r}: {e}")
            break
        if set(a) != {"schema_version", "command", "id", "valid", "readings", "rejections"}:
            failures.append(f"keys {sorted(a)}")
        any_invalid |= not a["valid"]
        if exp:
            fmt, fields = exp
            reading = next((r for r in a["readings"] if r["format"] == fmt), None)
            if reading is None:
                failures.append(f"{line.decode()!r} not read as {fmt}")
            elif "timestamp" in fields:
                got = reading["fields"].get("timestamp")
                if plant:
                    got = (got or "") + "!"
                if got != fields["timestamp"]:
                    failures.append(f"{line.decode()!r} as {fmt}: timestamp {got} want {fields['timestamp']}")
    if (rc == 1) != any_invalid:
        failures.append(f"exit {rc} but {'some' if any_invalid else 'no'} line invalid")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "idbudget"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.selftest:
        planted = check(a.binary, rng, 200, plant=True)
        if not planted:
            sys.exit("inspect_fuzz: selftest: a planted wrong timestamp was not caught")
        print(f"inspect_fuzz: selftest: the planted error was caught ({len(planted)} findings)")
        return
    failures = check(a.binary, rng, a.cases)
    for f in failures[:20]:
        print("FAIL", f)
    print(f"inspect_fuzz: seed {a.seed}, {a.cases} lines: {'FAILED' if failures else 'passed'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
