#!/usr/bin/env python3
"""idbudget audit against DuckDB's one-pass GROUP BY histogram on the same file, in the same run.

    python3 Tools/bench/audit_bench.py results [--ids 10000000] [--repeats 3] [--binary .build/release/idbudget]
                                           [--name audit]   # writes results/NAME.json

Both answer the same question: how many distinct ids occur once, twice, … (DuckDB:
SELECT c, count(*) FROM (SELECT id, count(*) c … GROUP BY id) GROUP BY c, with its default
threads — both cores here). Runs alternate (idbudget, DuckDB, idbudget, …) so that a busy
machine slows both alike. Wall time and peak RSS per run come from the kernel (os.wait4's
rusage of that child; the DuckDB child is a Python process running DuckDB, as a user would).
The multiplicity histograms must agree, or the run fails. Writes results/audit.json:
min/median/max of each and the ratios of the medians. The 10^7 run (the default name) also times
`--threads 1` in the same alternation: the thread row (default threads against one), after one
uncounted warm-up of each (a VM's first touch of fresh memory can add half a second of system time to
whichever run comes first); and, beside it, the machine's own ceiling for that row: two `--threads 1`
audits of the file's two halves at once, as separate processes sharing nothing but the hardware (the
one-thread wall of the whole file over the pair's wall: what two cores give two independent jobs here).
It also reads the same ids from a CSV column and a JSON-lines field against plain lines (`records`).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


WRAPPER = r"""
import os, sys, json, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps({"status": os.waitstatus_to_exitcode(status), "wall": time.perf_counter() - start,
                  "max_rss_kib": usage.ru_maxrss}), file=sys.stderr)
"""

DUCK = r"""
import duckdb, json, sys
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
rows = con.execute(
    "SELECT c, count(*) FROM (SELECT id, count(*) AS c FROM read_csv(?, header=false, "
    "columns={'id': 'VARCHAR'}, delim='\t', quote='', escape='') GROUP BY id) GROUP BY c ORDER BY c",
    [sys.argv[1]]).fetchall()
print(json.dumps({str(c): str(n) for c, n in rows}))
"""


def measured(argv, ok=(0,)):
    """(stdout, wall seconds, peak RSS bytes) of one run, via a fork/exec/wait4 wrapper. `ok`: the exit
    statuses that are answers (idbudget audit exits 1 for a verdict that is not consistent)."""
    p = subprocess.run([sys.executable, "-c", WRAPPER] + argv, capture_output=True, text=True)
    info = json.loads(p.stderr.strip().splitlines()[-1])
    if info["status"] not in ok:
        sys.exit(f"audit_bench: {argv[0]} failed: {p.stderr[-500:]}")
    return p.stdout, info["wall"], info["max_rss_kib"] * 1024


def spread(xs):
    return {"min": min(xs), "median": statistics.median(xs), "max": max(xs)}


def records_rows(binary, path, tmp, repeats):
    """The same ids as a CSV column (`id,user`, a header) and as a JSON-lines field ({"id": …, "n": …}),
    each audited with --column / --field, alternating with the plain file: the records' wall against
    plain lines' (the issue's goal: at least half their speed). The answers must agree."""
    csv_path, jsonl_path = os.path.join(tmp, "ids.csv"), os.path.join(tmp, "ids.jsonl")
    with open(path, "rb") as src, open(csv_path, "wb") as c, open(jsonl_path, "wb") as j:
        c.write(b"id,user\n")
        for k, line in enumerate(src):
            x = line.rstrip(b"\n")
            c.write(x + b",u%d\n" % (k & 1023))
            j.write(b'{"id": "' + x + b'", "n": %d}\n' % (k & 1023))
    runs = {"plain": [], "CSV column (`--column id`)": [], "JSON-lines field (`--field id`)": []}
    argvs = {"plain": [path], "CSV column (`--column id`)": [csv_path, "--column", "id"], "JSON-lines field (`--field id`)": [jsonl_path, "--field", "id"]}
    answers = {}
    for _ in range(repeats):
        for kind, extra in argvs.items():
            text, wall, _ = measured([binary, "audit", *extra, "--format", "json"], ok=(0, 1))
            runs[kind].append(wall)
            j = json.loads(text)
            answers[kind] = (j["distinct"], j["verdict"])
    if len(set(answers.values())) != 1:
        sys.exit(f"audit_bench: plain lines, the CSV column and the JSON field answer differently: {answers}")
    plain = statistics.median(runs["plain"])
    return {kind: {"wall_s": spread(w), "speed_of_lines": plain / statistics.median(w)} for kind, w in runs.items() if kind != "plain"}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "results"
    args = sys.argv[1:]
    ids = int(args[args.index("--ids") + 1]) if "--ids" in args else 10_000_000
    repeats = int(args[args.index("--repeats") + 1]) if "--repeats" in args else 3
    binary = args[args.index("--binary") + 1] if "--binary" in args else ".build/release/idbudget"
    name = args[args.index("--name") + 1] if "--name" in args else "audit"
    try:
        import duckdb
    except ImportError:
        sys.exit("audit_bench: duckdb is missing (scripts/setup.sh --python duckdb installs it, pinned in requirements.txt)")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ids.txt")
        with open(path, "wb") as f:
            subprocess.run([binary, "generate", "--alphabet", "base62", "--length", "22", "--count", str(ids)], stdout=f, check=True)
        ours = {"wall": [], "rss": []}
        theirs = {"wall": [], "rss": []}
        one = {"wall": []}
        pair = {"wall": []}
        halves = []
        if name == "audit":
            with open(path, "rb") as f:
                data = f.read()
            cut = data.index(b"\n", len(data) // 2) + 1
            for k, part in enumerate((data[:cut], data[cut:])):
                halves.append(os.path.join(tmp, f"half{k}.txt"))
                with open(halves[-1], "wb") as h:
                    h.write(part)
            del data
            for argv in ([binary, "audit", path, "--threads", "1", "--format", "json"], [binary, "audit", path, "--format", "json"]):
                measured(argv, ok=(0, 1))
        histogram = None
        for _ in range(repeats):
            if name == "audit":
                text, wall, _ = measured([binary, "audit", path, "--threads", "1", "--format", "json"], ok=(0, 1))
                one["wall"].append(wall)
                single = json.loads(text)
                start = time.perf_counter()
                runs = [subprocess.Popen([binary, "audit", h, "--threads", "1", "--format", "json"], stdout=subprocess.DEVNULL)
                        for h in halves]
                if any(r.wait() not in (0, 1) for r in runs):
                    sys.exit("audit_bench: an audit of a half failed")
                pair["wall"].append(time.perf_counter() - start)
            text, wall, rss = measured([binary, "audit", path, "--format", "json"], ok=(0, 1))
            ours["wall"].append(wall)
            ours["rss"].append(rss)
            j = json.loads(text)
            if name == "audit" and (single["distinct"], single["verdict"]) != (j["distinct"], j["verdict"]):
                sys.exit("audit_bench: --threads 1 and the default threads answer differently")
            mine = {"1": j["distinct"]} if j["duplicate_ids"] == "0" else None
            text, wall, rss = measured([sys.executable, "-c", DUCK, path])
            theirs["wall"].append(wall)
            theirs["rss"].append(rss)
            histogram = json.loads(text.strip().splitlines()[-1])
            if mine is not None and histogram != mine:
                sys.exit(f"audit_bench: the histograms differ: idbudget {mine}, DuckDB {histogram}")
        result = {
            "ids": ids, "file_bytes": os.path.getsize(path), "repeats": repeats,
            "duckdb_version": duckdb.__version__, "cpus": os.cpu_count(),
            "idbudget": {"wall_s": spread(ours["wall"]), "peak_rss_bytes": spread(ours["rss"])},
            "duckdb": {"wall_s": spread(theirs["wall"]), "peak_rss_bytes": spread(theirs["rss"])},
            "histogram": histogram,
        }
        result["speed_ratio"] = result["duckdb"]["wall_s"]["median"] / result["idbudget"]["wall_s"]["median"]
        result["memory_ratio"] = result["idbudget"]["peak_rss_bytes"]["median"] / result["duckdb"]["peak_rss_bytes"]["median"]
        if one["wall"]:
            result["one_thread"] = {"wall_s": spread(one["wall"])}
            result["threads"] = min(os.cpu_count() or 1, 64)
            result["thread_ratio"] = result["one_thread"]["wall_s"]["median"] / result["idbudget"]["wall_s"]["median"]
            result["halves_at_once"] = {"wall_s": spread(pair["wall"])}
            result["machine_ratio"] = result["one_thread"]["wall_s"]["median"] / result["halves_at_once"]["wall_s"]["median"]
        if name == "audit":
            result["records"] = records_rows(binary, path, tmp, repeats)
    os.makedirs(out, exist_ok=True)
    json.dump(result, open(os.path.join(out, f"{name}.json"), "w"), indent=1)
    w, d = result["idbudget"], result["duckdb"]
    print(f"audit_bench: {ids} base62x22 ids ({result['file_bytes'] >> 20} MiB), {repeats} runs each")
    print(f"  idbudget audit  wall {w['wall_s']['min']:.2f}/{w['wall_s']['median']:.2f}/{w['wall_s']['max']:.2f} s, "
          f"peak RSS {w['peak_rss_bytes']['median'] / 2**20:.0f} MiB")
    print(f"  DuckDB GROUP BY wall {d['wall_s']['min']:.2f}/{d['wall_s']['median']:.2f}/{d['wall_s']['max']:.2f} s, "
          f"peak RSS {d['peak_rss_bytes']['median'] / 2**20:.0f} MiB")
    for kind, r in result.get("records", {}).items():
        print(f"  {kind}: wall {r['wall_s']['min']:.2f}/{r['wall_s']['median']:.2f}/{r['wall_s']['max']:.2f} s, "
              f"{r['speed_of_lines']:.2f}x the speed of plain lines (goal >= 0.5)")
    if "thread_ratio" in result:
        print(f"  threads: {result['threads']} threads {result['thread_ratio']:.2f}x one thread; two one-thread audits of the "
              f"halves at once {result['machine_ratio']:.2f}x (the machine's ceiling for that row)")
    print(f"  speed ratio {result['speed_ratio']:.2f}x (goal >= 1.5), memory ratio {result['memory_ratio']:.2f} (goal <= 0.33)")


if __name__ == "__main__":
    main()
