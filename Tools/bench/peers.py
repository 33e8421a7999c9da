#!/usr/bin/env python3
"""Measures, in one run, the id generators a user would pick instead of idbudget: ids/s as
min/median/max over repeats, with the machine they ran on. Writes OUTDIR/peers.json.

  python3 Tools/bench/peers.py [OUTDIR] [--short] [--no-install]

Missing PyPI packages are installed with `python3 -m pip install -q` (unless --no-install or
IDBUDGET_PEERS_NO_INSTALL=1); a peer that cannot be installed, imported or run gets a row that says so.
Each Python peer is timed with timeit on its one-line call (e.g. `str(uuid_utils.uuid4())`), so the
figure is what a Python caller gets per id, interpreter overhead included; Node's crypto.randomUUID() is
timed by Tools/bench/peers.js in a `node` subprocess the same way (N calls per repeat, warm-up first).
Full mode takes about a minute, --short about 20 s.
"""
import datetime
import importlib
import importlib.metadata
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
import timeit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
PY = f"CPython {platform.python_version()}"

# name (as users know it), format, runtime, PyPI distribution (None: stdlib), setup, statement
PEERS = [
    ("fastnanoid (Rust, PyPI) base62×22", "base62×22 (Nano ID alphabet 0-9A-Za-z)", f"{PY} + Rust extension",
     "fastnanoid", f"from fastnanoid import generate; A = {BASE62!r}", "generate(alphabet=A, size=22)"),
    ("uuid-utils (Rust, PyPI) str(uuid4())", "UUIDv4, 36 chars", f"{PY} + Rust extension",
     "uuid-utils", "from uuid_utils import uuid4", "str(uuid4())"),
    ("uuid-utils (Rust, PyPI) str(uuid7())", "UUIDv7, 36 chars", f"{PY} + Rust extension",
     "uuid-utils", "from uuid_utils import uuid7", "str(uuid7())"),
    ("python-ulid (PyPI) str(ULID())", "ULID, 26 chars Crockford base32", f"{PY} (pure Python)",
     "python-ulid", "from ulid import ULID", "str(ULID())"),
    ("nanoid (PyPI) generate(base62, 22)", "base62×22 (Nano ID alphabet 0-9A-Za-z)", f"{PY} (pure Python)",
     "nanoid", f"from nanoid import generate; A = {BASE62!r}", "generate(A, 22)"),
    ("cyksuid (Cython, PyPI) str(ksuid())", "KSUID, 27 chars base62", f"{PY} + Cython extension",
     "cyksuid", "from cyksuid.v2 import ksuid", "str(ksuid())"),
    ("Python str(uuid.uuid4())", "UUIDv4, 36 chars", f"{PY} (stdlib)",
     None, "import uuid", "str(uuid.uuid4())"),
    ("Python secrets.token_urlsafe(16)", "base64url×22 (16 random bytes)", f"{PY} (stdlib)",
     None, "import secrets", "secrets.token_urlsafe(16)"),
]


def sh(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine():
    model, flags = platform.processor() or platform.machine(), set()
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                model = value.strip()
            elif key.strip() == "flags":
                flags = set(value.split())
                break
    except OSError:
        pass
    node = shutil.which("node")
    return {
        "cpu": model,
        "cpu_flags": {f: f in flags for f in ["ssse3", "sse4_1", "avx2", "avx512f", "aes"]},
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "git": sh("git", "rev-parse", "--short", "HEAD") or "unknown",
        "git_dirty": bool(sh("git", "status", "--porcelain", "--untracked-files=no")),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "node": sh(node, "--version") if node else None,
        "loadavg_start": [round(x, 2) for x in os.getloadavg()],
    }


def installed(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


# Where packages go when the interpreter's own environment refuses them (PEP 668, e.g. Debian's python3).
PRIVATE_SITE = os.path.join(ROOT, ".build-peers", "site-packages")


def pip(args):
    """Runs `python3 -m pip install -q ARGS`; returns (ok, stderr)."""
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *args]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        return r.returncode == 0, r.stderr
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)


def install(dists, allowed):
    """Installs what is missing; returns {dist: error} for what is still missing afterwards."""
    if os.path.isdir(PRIVATE_SITE) and PRIVATE_SITE not in sys.path:
        sys.path.insert(0, PRIVATE_SITE)
    missing = [d for d in dists if installed(d) is None]
    errors = {}
    if missing and allowed:
        print(f"peers: pip install {' '.join(missing)}", file=sys.stderr)
        ok, err = pip(missing)
        if not ok and "externally-managed" in err:  # install next to the project instead, not system-wide
            print(f"peers: environment is externally managed; installing into {PRIVATE_SITE}", file=sys.stderr)
            os.makedirs(PRIVATE_SITE, exist_ok=True)
            sys.path.insert(0, PRIVATE_SITE)
            ok, err = pip(["--target", PRIVATE_SITE, *missing])
        if not ok:
            target = ["--target", PRIVATE_SITE] if PRIVATE_SITE in sys.path else []
            for d in missing:  # one at a time, so one failure does not cost the others
                ok, err = pip([*target, d])
                if not ok:
                    errors[d] = err.strip().splitlines()[-1][:200] if err.strip() else "unknown error"
                    print(f"peers: pip install {d} failed: {err.strip()[-300:]}", file=sys.stderr)
        importlib.invalidate_caches()
    return {d: (f"pip install failed ({errors.get(d, 'installed but not found')})" if allowed
                else "not installed (--no-install)")
            for d in missing if installed(d) is None}


def measure(setup, stmt, seconds, repeats):
    """N ids per repeat, N chosen so one repeat takes about `seconds`; returns (N, [ids/s per repeat])."""
    timer = timeit.Timer(stmt, setup)
    n = 100
    while True:  # calibration doubles as the warm-up
        t = timer.timeit(n)
        if t >= 0.05:
            break
        n *= 4 if t < 0.0125 else 2
    n = max(1000, int(n * seconds / t))
    n = int(float(f"{n:.2g}"))  # a round count, the same for every repeat
    return n, [n / t for t in timer.repeat(repeats, n)]


def node_peers(seconds, repeats):
    node = shutil.which("node")
    name, fmt = "Node crypto.randomUUID()", "UUIDv4, 36 chars"
    if not node:
        return [{"name": name, "format": fmt, "runtime": "Node", "error": "node not found on PATH"}]
    version = sh(node, "--version")
    n = int(5e6 * seconds)  # ~5 M/s on the development machine: about `seconds` per repeat
    try:
        r = subprocess.run([node, os.path.join(ROOT, "Tools", "bench", "peers.js"), str(n), str(repeats)],
                           capture_output=True, text=True, timeout=120)
        rows = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
        if r.returncode != 0 or not rows:
            raise RuntimeError(r.stderr.strip()[-300:] or f"exit status {r.returncode}")
    except (OSError, subprocess.SubprocessError, RuntimeError, ValueError) as e:
        return [{"name": name, "format": fmt, "runtime": f"Node {version}", "error": f"node failed: {e}"}]
    return [{"name": r["name"], "format": r["format"], "runtime": f"Node {version}", "package": f"node {version}",
             "statement": "crypto.randomUUID()", "ids_per_repeat": r["ids_per_repeat"],
             **summary(r["samples"])} for r in rows]


def summary(samples):
    return {"ids_per_s": {"min": min(samples), "median": statistics.median(samples), "max": max(samples)},
            "repeats": len(samples), "samples": samples}


def main():
    args = sys.argv[1:]
    short = "--short" in args
    allow_install = "--no-install" not in args and os.environ.get("IDBUDGET_PEERS_NO_INSTALL") != "1"
    out = next((a for a in args if not a.startswith("--")), os.path.join(ROOT, "results"))
    seconds, repeats = (0.25, 5) if short else (1.0, 5)
    started = time.monotonic()
    info = machine()
    failed = install(sorted({p[3] for p in PEERS if p[3]}), allow_install)
    rows = []
    for name, fmt, runtime, dist, setup, stmt in PEERS:
        row = {"name": name, "format": fmt, "runtime": runtime,
               "package": f"{dist} {installed(dist)}" if dist else "stdlib", "statement": stmt}
        if dist in failed:
            row["error"] = f"{dist}: {failed[dist]}"
        else:
            try:
                n, samples = measure(setup, stmt, seconds, repeats)
                row.update(ids_per_repeat=n, **summary(samples))
            except Exception as e:  # an import or API change must not cost the other rows
                row["error"] = f"{type(e).__name__}: {e}"
        rows.append(row)
        print(f"peers: {name}: " + (row["error"] if "error" in row else
              "{min:.3g} / {median:.3g} / {max:.3g} ids/s (min/median/max)".format(**row["ids_per_s"])),
              file=sys.stderr)
    for row in node_peers(seconds, repeats):
        rows.append(row)
        print(f"peers: {row['name']}: " + (row["error"] if "error" in row else
              "{min:.3g} / {median:.3g} / {max:.3g} ids/s (min/median/max)".format(**row["ids_per_s"])),
              file=sys.stderr)
    info["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    info["seconds"] = round(time.monotonic() - started, 1)
    result = {"mode": "short" if short else "full",
              "method": "timeit of the one-line call per id (Python, gc off as timeit does); Node: "
                        "hrtime around N calls, each id's 10th char read (flattens V8's rope string "
                        "as any real use would); warm-up first; ids/s per repeat",
              "machine": info, "peers": rows}
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "peers.json"), "w") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"peers: wrote {os.path.join(out, 'peers.json')} in {info['seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
