#!/usr/bin/env python3
"""Structure-aware fuzzer for audit summaries (docs/audit-summary.md).

Makes real summaries with the binary (tokens with duplicates, UUIDv7 ids with time buckets, two shards,
non-ASCII ids), mutates them structurally (counts to Int.max, 2^63, negative, 1e999, empty, numbers
instead of strings, wrong types, deleted keys, huge arrays and objects, duplicated shard indexes, deep
nesting, truncated bytes, byte flips, consistent counts near Int.max, a 300 MB sparse file) and runs
`idbudget audit --summary FILE` (and FILE merged with a real shard). Asserts the process never dies by
a signal, never hangs past --timeout, and exits only with 0, 1, 64, 65 or 66 (64 is what malformed
summaries exit with until the CLI maps them to 65; it is counted and printed).

    Tools/fuzz/summary_fuzz.py --binary .build/release/idbudget --seed 1 --cases 400
    Tools/fuzz/summary_fuzz.py --binary .build/release/idbudget --selftest
    Tools/fuzz/summary_fuzz.py --binary .build/release/idbudget --buckets 1000000   # emit and load < 5 s, RSS < 1 GiB

Prints one line, `summary fuzz: N cases, 0 signal deaths, ...`, and exits 1 on any death, hang or
unexpected exit status (the failing files are kept and named).
"""
import argparse
import copy
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import uuid

ALLOWED = {0, 1, 64, 65, 66}
INT_MAX = 2**63 - 1

BAD_COUNTS = ["9223372036854775807", "9223372036854775808", "18446744073709551616", "-1", "1e999", "", " 1",
              "0x10", "1.5", "4611686018427387904", "1" * 400, "0", INT_MAX, 2**64, -1, 3, 1e308, 1.5, None,
              True, [], {}, ["1"], {"1": "1"}]
WRONG_TYPES = [None, True, False, 0, -1, 2**63, 1e999 if False else 1e308, "", "x", [], {}, [[]], {"": {}}, "\u0000",
               "\ud83c\udf4e", ["\udc00"]]


def uuid7_lines(rng, n):
    base = 1_700_000_000_000
    out = []
    for i in range(n):
        ms = base + i // 3  # a few ids per millisecond
        r = rng.getrandbits(74)
        v = (ms << 80) | (7 << 76) | ((r & 0xFFF) << 64) | (2 << 62) | (r >> 12)
        out.append(str(uuid.UUID(int=v)))
    return out


def make_seeds(binary, work, rng):
    """Real summaries written by the binary from small id files."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    inputs = {
        "tokens": ["".join(rng.choice(alphabet) for _ in range(4)) for _ in range(3000)] + ["", "x\r", "\udcff"[:0]],
        "uuid7": uuid7_lines(rng, 2000),
        "unicode": ["\u00e9x", "e\u0301x", "\ufeffz", "a\u2028b", "\U0001F34E", "tab\there", "\"q\\", "dup", "dup"],
    }
    seeds = {}
    for name, ids in inputs.items():
        path = os.path.join(work, f"{name}.txt")
        with open(path, "wb") as f:
            f.write(("\n".join(ids) + "\n").encode("utf-8") + b"\xff\n")
        out = os.path.join(work, f"seed-{name}.json")
        run = subprocess.run([binary, "audit", path, "--emit-summary", out], capture_output=True, timeout=60)
        if run.returncode not in (0, 1) or not os.path.exists(out):
            sys.exit(f"summary fuzz: could not make the {name} seed ({run.returncode}): {run.stderr.decode(errors='replace')[:300]}")
        seeds[name] = out
        if name == "tokens":
            for k in (1, 2):
                shard = os.path.join(work, f"seed-shard{k}.json")
                run = subprocess.run([binary, "audit", path, "--shard", f"{k}/2", "--emit-summary", shard], capture_output=True, timeout=60)
                if run.returncode not in (0, 1):
                    sys.exit(f"summary fuzz: could not make shard {k}/2: {run.stderr.decode(errors='replace')[:300]}")
                seeds[f"shard{k}"] = shard
    return seeds


def paths(node, prefix=()):
    """Every path to a value in a JSON tree."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def get(node, path):
    for p in path:
        node = node[p]
    return node


def set_at(node, path, value):
    if not path:
        return value
    get(node, path[:-1])[path[-1]] = value
    return node


def count_paths(tree):
    return [p for p in paths(tree) if p and isinstance(get(tree, p), str) and get(tree, p).isdigit()]


def consistent_huge(tree, rng):
    """Counts near Int.max that still agree with each other (exercises judging, not just loading)."""
    big = rng.choice([INT_MAX, INT_MAX - 1, 2**62, 2**53 + 1, 10**18])
    t = tree
    for k in ("empty_lines", "crlf_lines", "invalid_utf8_lines", "overlong_lines"):
        t[k] = "0"
    t["lines"] = t["ids"] = str(big)
    shape = rng.choice(["distinct", "one", "two"])
    if shape == "distinct":
        t["multiplicities"] = {"1": str(big)}
    elif shape == "one":
        t["multiplicities"] = {str(big): "1"}
    else:
        t["multiplicities"] = {"1": str(big - 2 * (big // 4)), "2": str(big // 4)}
    t["lengths"] = {"1": str(big)}
    t["positions"] = [{"a": str(big)}]
    t["symbols"] = "a"
    t["sample"] = ["a"]
    for f in t.get("time_formats", {}).values():
        if isinstance(f, dict):
            f["ids"], f["buckets"], f["truncated"] = "0", {}, False
    if rng.random() < 0.5 and "uuid7" in t.get("time_formats", {}):
        t["time_formats"]["uuid7"] = {"ids": str(big), "buckets": {"1": str(big)}, "truncated": False}
    return t


def mutate(tree, rng, work, case):
    """One structural mutation; returns (description, bytes or None for a special file path)."""
    tree = copy.deepcopy(tree)
    kind = rng.choice(["count", "count", "count", "type", "type", "delete", "huge", "shards", "deep", "truncate",
                       "flip", "consistent", "sum-overflow", "duplicate-key", "sample", "positions"])
    if kind == "count":
        cands = count_paths(tree)
        p = rng.choice(cands)
        v = rng.choice(BAD_COUNTS)
        set_at(tree, p, v)
        return f"count {'.'.join(map(str, p))} = {json.dumps(v)[:40]}", json.dumps(tree).encode()
    if kind == "type":
        p = rng.choice([p for p in paths(tree) if p])
        v = rng.choice(WRONG_TYPES)
        set_at(tree, p, v)
        return f"type {'.'.join(map(str, p))} = {json.dumps(v)[:40]}", json.dumps(tree, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")
    if kind == "delete":
        p = rng.choice([p for p in paths(tree) if p and isinstance(get(tree, p[:-1]), (dict, list))])
        parent = get(tree, p[:-1])
        del parent[p[-1]]
        return f"delete {'.'.join(map(str, p))}", json.dumps(tree).encode()
    if kind == "huge":
        what = rng.choice(["buckets", "multiplicities", "lengths", "positions-rows", "positions-keys", "symbols", "array"])
        n = rng.choice([70, 1000, 100_000, (1 << 20) + 1])
        if what == "buckets":
            tree["time_formats"]["ulid"] = {"ids": str(n), "buckets": {str(i): "1" for i in range(n)}, "truncated": False}
        elif what == "multiplicities":
            tree["multiplicities"] = {str(i + 1): "1" for i in range(n)}
        elif what == "lengths":
            tree["lengths"] = {str(i + 1): "0" for i in range(n)}
        elif what == "positions-rows":
            tree["positions"] = [{"a": "1"} for _ in range(min(n, 100_000))]
        elif what == "positions-keys":
            tree["positions"] = [{chr(0x100 + i): "1" for i in range(min(n, 60_000))}]
        elif what == "symbols":
            tree["symbols"] = "".join(chr(0x100 + (i % 60_000)) for i in range(n))
        else:
            tree["sample"] = ["x%d" % i for i in range(n)]
        return f"huge {what} ({n})", json.dumps(tree).encode()
    if kind == "shards":
        v = rng.choice([{"count": 2, "indexes": [1, 1]}, {"count": 2, "indexes": [2]}, {"count": 0, "indexes": [0]},
                        {"count": -1, "indexes": [0]}, {"count": INT_MAX, "indexes": [0]}, {"count": 2**64, "indexes": [0]},
                        {"count": 1, "indexes": []}, {"count": 1, "indexes": [0] * 100_000}, {"count": 3, "indexes": [-1]},
                        {"count": 1e999 if False else 1e300, "indexes": [0]}, {"count": 1 << 20, "indexes": list(range(1 << 16))},
                        {"count": "1", "indexes": ["0"]}])
        tree["shards"] = v
        return f"shards = {json.dumps(v)[:60]}", json.dumps(tree).encode()
    if kind == "deep":
        depth = rng.choice([100, 10_000, 1_000_000])
        where = rng.choice(["root", "extra", "multiplicities"])
        text = json.dumps(tree)
        if where == "root":
            return f"deep root {depth}", ("[" * depth + "]" * depth).encode()
        nest = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
        if where == "extra":
            return f"deep extra {depth}", (text[:-1] + ', "extra": ' + nest + "}").encode()
        return f"deep multiplicities {depth}", text.replace('"multiplicities": {', '"multiplicities": {"1": ' + nest + ", ", 1).encode()
    if kind == "truncate":
        data = json.dumps(tree, indent=rng.choice([None, 2])).encode()
        n = rng.randrange(0, len(data))
        return f"truncate at {n}/{len(data)}", data[:n]
    if kind == "flip":
        data = bytearray(json.dumps(tree).encode())
        for _ in range(rng.choice([1, 3, 20])):
            i = rng.randrange(len(data))
            data[i] = rng.choice([0x00, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x2D, 0x39, 0xFF, 0xC3, 0xED, rng.randrange(256)])
        return "byte flips", bytes(data)
    if kind == "consistent":
        return "consistent counts near Int.max", json.dumps(consistent_huge(tree, rng)).encode()
    if kind == "sum-overflow":
        big = rng.choice([INT_MAX, 2**62, 2**63 - 2])
        field = rng.choice(["multiplicities", "lengths", "positions", "buckets", "lines"])
        if field == "multiplicities":
            tree["multiplicities"] = {str(big): "2", "1": "1"} if rng.random() < 0.5 else {"1": str(big), "2": str(big)}
        elif field == "lengths":
            tree["lengths"] = {"1": str(big), "2": str(big)}
        elif field == "positions":
            tree["positions"] = [{"a": str(big), "b": str(big)}]
        elif field == "buckets":
            tree["time_formats"]["uuid7"] = {"ids": "5", "buckets": {"1": str(big), "2": str(big)}, "truncated": False}
        else:
            tree["empty_lines"] = str(big)
            tree["overlong_lines"] = str(big)
        return f"sum overflow in {field}", json.dumps(tree).encode()
    if kind == "duplicate-key":
        text = json.dumps(tree)
        key = rng.choice(['"ids": ', '"lines": ', '"multiplicities": ', '"shards": '])
        i = text.find(key)
        j = text.find(",", i)
        return f"duplicate key {key.strip()}", (text[:j] + ", " + text[i:j] + text[j:]).encode()
    if kind == "sample":
        v = rng.choice([["x"] * 1000, [1, 2], ["\udc00"], [None], "abc", ["a" * 10_000_000], [["a"]], ["é", "e\u0301"] * 3])
        tree["sample"] = v
        return "sample mutated", json.dumps(tree).encode("utf-8", "surrogatepass")
    # positions
    v = rng.choice([[{"ab": "1"}], [{"": "1"}], [[]], [{"a": "1"}] * 65, [{}] * 10, [{"a": str(INT_MAX)}] * 64, {"0": {"a": "1"}}])
    tree["positions"] = v
    return "positions mutated", json.dumps(tree).encode()


def run_case(binary, files, timeout):
    """(status, stderr) where status is the return code, or 'timeout'."""
    try:
        r = subprocess.run([binary, "audit", "--summary", *files], capture_output=True, timeout=timeout)
        return r.returncode, r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def fuzz(binary, seed, cases, timeout, work, sparse=True, quiet=False):
    rng = random.Random(seed)
    seeds = make_seeds(binary, work, rng)
    trees = {name: json.load(open(p, encoding="utf-8")) for name, p in seeds.items()}
    stats = {"cases": 0, "deaths": 0, "timeouts": 0, "bad": 0, "multiline": 0, "exits": {}}
    failures = []

    def check(desc, files):
        status, err = run_case(binary, files, timeout)
        stats["cases"] += 1
        if status == "timeout":
            stats["timeouts"] += 1
            failures.append(f"timeout ({timeout}s): {desc}: {' '.join(files)}")
            return
        stats["exits"][status] = stats["exits"].get(status, 0) + 1
        if status < 0:
            stats["deaths"] += 1
            failures.append(f"signal {signal.Signals(-status).name}: {desc}: {' '.join(files)}")
        elif status not in ALLOWED:
            stats["bad"] += 1
            failures.append(f"exit {status}: {desc}: {' '.join(files)}: {err.strip()[:200]}")
        elif status >= 64 and len(err.strip().splitlines()) != 1:
            stats["multiline"] += 1

    # The originals (and the two shards merged) must pass.
    for name, p in seeds.items():
        check(f"seed {name}", [p])
    check("seed shards merged", [seeds["shard1"], seeds["shard2"]])
    # Cases known to crash the unhardened code (overflow while loading and merging counts).
    known = copy.deepcopy(trees["tokens"])
    known["multiplicities"] = {"4611686018427387904": "2"}
    path = os.path.join(work, "known-product-overflow.json")
    open(path, "w").write(json.dumps(known))
    check("known: m × count overflows", [path])
    a = consistent_huge(copy.deepcopy(trees["shard1"]), random.Random(0))
    a["multiplicities"] = {"1": str(INT_MAX)}; a["lines"] = a["ids"] = a["lengths"]["1"] = a["positions"][0]["a"] = str(INT_MAX)
    pa = os.path.join(work, "known-merge-a.json")
    open(pa, "w").write(json.dumps(a))
    check("known: merged ids overflow", [pa, seeds["shard2"]])

    if sparse:
        # A 300 MB file (sparse, cheap): refused by its size, not read whole.
        big = os.path.join(work, "sparse-300MB.json")
        with open(big, "wb") as f:
            f.write(b'{"kind": "idbudget-audit-summary", "symbols": "')
            f.truncate(300 << 20)
        check("sparse 300 MB file", [big])
        os.remove(big)

    names = [n for n in trees if not n.startswith("shard")] + ["shard1"]
    for case in range(cases - stats["cases"] if cases > stats["cases"] else 0):
        name = rng.choice(names)
        desc, data = mutate(trees[name], rng, work, case)
        path = os.path.join(work, f"case-{case}.json")
        with open(path, "wb") as f:
            f.write(data)
        before = len(failures)
        if name == "shard1" and rng.random() < 0.7:
            files = [path, seeds["shard2"]] if rng.random() < 0.5 else [seeds["shard2"], path]
            check(f"{desc} (merged with shard 2)", files)
        else:
            check(f"{name}: {desc}", [path])
        if len(failures) == before:
            os.remove(path)
    return stats, failures


def summary_line(stats):
    exits = ", ".join(f"exit {k}: {v}" for k, v in sorted(stats["exits"].items(), key=lambda kv: str(kv[0])))
    return (f"summary fuzz: {stats['cases']} cases, {stats['deaths']} signal deaths, {stats['timeouts']} timeouts, "
            f"{stats['bad']} unexpected exits, {stats['multiline']} multi-line errors ({exits})")


def selftest(binary, timeout):
    """The fuzzer must be able to fail: fake binaries that die by a signal, hang, or exit 3 are caught."""
    ok = True
    with tempfile.TemporaryDirectory(prefix="summary-fuzz-selftest-") as work:
        for name, body, expect in [
            ("dies", 'kill -ILL $$', "deaths"),
            ("hangs", 'sleep 30', "timeouts"),
            ("exits3", 'exit 3', "bad"),
        ]:
            fake = os.path.join(work, f"fake-{name}")
            # Behaves like the real binary when making seeds (delegates), misbehaves on --summary.
            with open(fake, "w") as f:
                f.write(f'#!/bin/sh\nfor a in "$@"; do [ "$a" = --summary ] && {{ {body}; }}; done\nexec "{os.path.abspath(binary)}" "$@"\n')
            os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
            d = os.path.join(work, name)
            os.mkdir(d)
            stats, failures = fuzz(fake, 1, 8, min(timeout, 2), d, sparse=False)
            caught = stats[expect] > 0 and failures
            print(f"selftest: a binary that {name}: {'caught' if caught else 'NOT CAUGHT'} ({summary_line(stats)})")
            ok = ok and bool(caught)
        # And the real binary on the known old crashers alone passes.
        d = os.path.join(work, "real")
        os.mkdir(d)
        stats, failures = fuzz(binary, 1, 0, timeout, d, sparse=False)
        print(f"selftest: the binary on the seeds and known crashers: {summary_line(stats)}")
        for f in failures:
            print("  " + f)
    print("selftest: " + ("ok" if ok else "FAILED"))
    return ok


def bucket_check(binary, n, memory, limit, work):
    """n UUIDv7 ids of distinct milliseconds: emit and load each within `limit` seconds and `memory` bytes."""
    import time
    rng = random.Random(7)
    ids = os.path.join(work, "uuid7-buckets.txt")
    with open(ids, "w") as f:
        base = 1_700_000_000_000
        for i in range(n):
            r = rng.getrandbits(74)
            v = ((base + i) << 80) | (7 << 76) | ((r & 0xFFF) << 64) | (2 << 62) | (r >> 12)
            h = f"{v:032x}"
            f.write(f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}\n")
    out = os.path.join(work, "buckets.json")
    ok = True
    for what, cmd in [("emit", [binary, "audit", ids, "--memory", str(memory), "--emit-summary", out]),
                      ("load", [binary, "audit", "--memory", str(memory), "--summary", out])]:
        t0 = time.monotonic()
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # reaps it, with its own rusage
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - t0
        code = os.waitstatus_to_exitcode(status)
        rss = usage.ru_maxrss * 1024
        good = code in (0, 1) and seconds < limit and rss <= memory
        ok = ok and good
        print(f"summary buckets: {what} {n} buckets: {seconds:.2f} s, peak RSS {rss >> 20} MiB, exit {code}"
              f" ({'ok' if good else f'FAIL: limits {limit} s, {memory >> 20} MiB'})")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a case may take (default 20)")
    ap.add_argument("--selftest", action="store_true", help="prove the fuzzer catches deaths, hangs and bad exits")
    ap.add_argument("--keep", help="directory to work in and keep (default: a temporary one, kept only on failure)")
    ap.add_argument("--buckets", type=int, help="instead: emit and load a summary of this many UUIDv7 buckets, timed")
    ap.add_argument("--memory", type=int, default=1 << 30, help="with --buckets: the --memory to pass and the RSS cap (bytes)")
    ap.add_argument("--limit-seconds", type=float, default=5.0, help="with --buckets: the time cap for each of emit and load")
    args = ap.parse_args()
    if args.buckets:
        with tempfile.TemporaryDirectory(prefix="summary-buckets-") as work:
            sys.exit(0 if bucket_check(args.binary, args.buckets, args.memory, args.limit_seconds, work) else 1)
    if args.selftest:
        sys.exit(0 if selftest(args.binary, args.timeout) else 1)
    work = args.keep or tempfile.mkdtemp(prefix="summary-fuzz-")
    os.makedirs(work, exist_ok=True)
    stats, failures = fuzz(args.binary, args.seed, args.cases, args.timeout, work)
    for f in failures[:50]:
        print("FAIL " + f)
    print(summary_line(stats))
    if stats["exits"].get(64):
        print(f"note: {stats['exits'][64]} cases exited 64 (malformed summaries are to exit 65)")
    if failures:
        print(f"failing files kept in {work}")
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
