"""The audit calibration's self-test: fake binaries — honest, one whose p-values are not calibrated,
one that raises false alarms, one blind to planted duplicates — each of which the suite's checks
must fail (the honest one pass). Run: python3 Tools/fuzz/audit_calibration_selftest.py (it takes
audit_calibration.py's options)."""
import argparse
import os
import shutil
import sys
import tempfile

from audit_calibration import CALIB, POWER, Checks, parser, run_suite

FAKE = r'''#!/usr/bin/env python3
import sys, json, hashlib, math, random
MODE = %r
path = sys.argv[2]
data = open(path, "rb").read()
lines = data.split(b"\n")[:-1] if data else []
n, distinct = len(lines), len(set(lines))
rng = random.Random(hashlib.sha256(data).hexdigest())
u1, u2 = rng.random(), rng.random()
# the space from the observed symbols: length x log2(#symbols), like a tool that infers it right
symbols = set(b"".join(lines))
length = max((len(l) for l in lines), default=0)
bits = length * math.log2(len(symbols)) if len(symbols) > 1 else 0.0
code = "consistent"
ph, pl = u1, u2
if MODE == "high":        # always reports p_value_high = 0.001, verdict consistent
    ph = 0.001
elif MODE == "alarm":     # a false alarm with probability 0.3
    if rng.random() < 0.3:
        code, ph = "too-many-duplicates", 1e-9
elif MODE == "blind":     # never flags anything
    ph = pl = 0.5
if n == 0 and MODE != "blind":
    code = "empty"
out = {"verdict_code": code, "p_value_high": ph, "p_value_low": pl, "p_value_high_estimate": ph,
       "p_value_low_estimate": pl, "test_method": "exact", "tail_threshold": 5e-07,
       "extra_occurrences": str(n - distinct), "expected_duplicates": 1.0, "ids": str(n),
       "alphabet": "fake", "space": {"summary": "fake", "bits": bits}}
print(json.dumps(out))
sys.exit(0 if code == "consistent" else 1)
'''


def selftest(args):
    """Each fake binary must make the suite's checks fail (and a well-behaved one pass)."""
    meta = Checks()
    tmp = tempfile.mkdtemp(prefix="audit-calib-selftest-")
    small = [c for c in CALIB if c[0] in ("dec4-n2000", "hex6-n5000", "dec2-n500")]
    try:
        for mode, expect in (("honest", "pass"), ("high", "calibrated"), ("alarm", "no false alarm"),
                             ("blind", "power")):
            fake = os.path.join(tmp, "fake-%s.py" % mode)
            with open(fake, "w") as f:
                f.write(FAKE % mode)
            os.chmod(fake, 0o755)
            a = argparse.Namespace(**vars(args))
            a.binary = fake
            a.quick, a.streams, a.power_streams = True, 60, 2
            inner = Checks()
            print("selftest: fake binary '%s'" % mode, flush=True)
            power = [POWER[1]] if mode == "blind" else []
            run_suite(a, inner, [], calib=small, power=power, rates=(1e-3,), do_special=(mode == "blind"))
            failed = [name for name, ok, _ in inner.items if not ok]
            if expect == "pass":
                meta.add("selftest: well-behaved fake passes all calibration checks", not failed,
                         "unexpected failures: %s" % failed[:5])
            else:
                hit = [name for name in failed if expect in name]
                meta.add("selftest: fake '%s' fails the '%s' checks" % (mode, expect), hit,
                         "no '%s' check failed (failures: %s)" % (expect, failed[:5]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return meta


if __name__ == "__main__":
    meta = selftest(parser().parse_args())
    passed, failed = meta.counts()
    print("audit calibration: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
