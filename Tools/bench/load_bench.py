#!/usr/bin/env python3
"""The server under load, on loopback: wrk (Debian) against a typical question (the seed article's
length) alone — repeated (the answer cache's case) and with a new rate each request (computed every
time) — then while heavy questions (p over 2^2097152 values for 10^600000 ids, ~0.3 s each) run
at the same time; the server's resident memory after each phase. Writes RESULTS/load.json for
Tools/bench/bench_report.py.

    python3 Tools/bench/load_bench.py results [--seconds 10] [--binary Server/.build/release/idbudget-serve]
The target (a ratio measured in this run, reported, never a failure): the typical question's p99 under
heavy load within 3× its p99 alone, and memory flat (end of the loaded phase within 1.5× the end of
the unloaded one).

Then a soak (--soak, 90 s by default): typical questions (8 connections), heavy ones and audit uploads
(POST, 2,000 ids each; one connection each, sharing the heavy lane, so some are 503) all at once, the
server's RSS sampled every 5 s. Flat: the most RSS of the second half within 1.25× the most of the
first (warm-up included there), and the server still up. Before MPFR's per-thread caches
were released (Precise.ThreadCaches), RSS grew by about 1.7 KB a question without end.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

TYPICAL = "/api/v1/length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11"
HEAVY = "/api/v1/probability?bits=2097152&count=1e600000"
# A heavy question in disguise: 2^21 bits written as a power (judged on its value, it is heavy).
DISGUISED = "/api/v1/capacity?bits=2%5E21&max-probability=1e-999&rate=1e999/s"


def upload_burst(port, pid, n=1000):
    """n audit uploads opened at once, each declaring 10^6 bytes and sending 10: the server's RSS before,
    at the peak while they are open, and 3 s after they are closed; how many were refused at once (503)."""
    import socket
    before = rss_kib(pid)
    socks, refused = [], 0
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nabcdefghi\n")
            socks.append(s)
        except OSError:
            pass
    time.sleep(1.5)
    peak = rss_kib(pid)
    for s in socks:
        try:
            s.settimeout(0.01)
            if s.recv(12).startswith(b"HTTP/1.1 503"):
                refused += 1
        except OSError:
            pass
        s.close()
    time.sleep(3)
    return {"uploads": n, "refused_503": refused, "rss_kib": {"before": before, "peak": peak, "after": rss_kib(pid)}}


def repeated_uploads(port, pid, n=8, ids=2_700_000):
    """n full audit uploads one after another, each of `ids` distinct base62×22 ids (about 62 MB): the
    server's RSS before and after each. What an audit holds must go when it is answered: a lane that
    kept finished jobs grew by the fingerprint tables (64 MiB) with every upload."""
    import random
    rng = random.Random(11)
    symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    body = "\n".join("".join(rng.choices(symbols, k=22)) for _ in range(ids)).encode() + b"\n"
    rss = [rss_kib(pid)]
    for _ in range(n):
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/audit", data=body, method="POST")
        try:
            urllib.request.urlopen(req, timeout=120).read()
        except OSError:
            pass
        rss.append(rss_kib(pid))
    return {"uploads": n, "ids_each": ids, "rss_kib": rss}


def sigterm_with_trickle(server, port):
    """SIGTERM while an upload trickles 10 bytes every 2 s: seconds until the server is gone."""
    import socket
    import threading
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
    stop = threading.Event()

    def trickle():
        while not stop.is_set():
            try:
                s.sendall(b"abcdefghi\n")
            except OSError:
                return
            stop.wait(2)
    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    time.sleep(0.5)
    start = time.perf_counter()
    server.terminate()
    try:
        server.wait(timeout=60)
        took = time.perf_counter() - start
    except subprocess.TimeoutExpired:
        server.kill()
        took = None
    stop.set()
    s.close()
    return took


# The seed question with a different rate each request (1000001/s, 1000002/s, …): every one a question
# not asked before, so each is computed (the answer cache never hits): the math's own speed.
DISTINCT_LUA = """n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/api/v1/length?alphabet=base62&rate=" .. (1000000 + n) .. "/s&lifetime=10y&max-probability=1e-11")
end
"""


def wrk(url, seconds, connections, threads=1, script=None):
    extra = ["-s", script] if script else []
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s", *extra, url],
                         capture_output=True, text=True, timeout=seconds + 60).stdout
    def ms(text):
        value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1000.0}[unit]
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    pct = dict(re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {"requests_per_s": rps, "p50_ms": ms(pct["50"]), "p99_ms": ms(pct["99"]),
            "non_2xx": int(non2xx.group(1)) if non2xx else 0, "socket_errors": errors.group(1) if errors else None}


AUDIT_LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
wrk.body = BODY
"""


def audit_script(directory):
    """A wrk script that POSTs 2,000 base62 ids (distinct, from a fixed seed) to /api/v1/audit."""
    import random
    rng = random.Random(7)
    symbols = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    body = "\\n".join("".join(rng.choice(symbols) for _ in range(22)) for _ in range(2000))
    path = os.path.join(directory, "audit-post.lua")
    with open(path, "w") as f:
        f.write(AUDIT_LUA.replace("BODY", '"' + body + '\\n"'))
    return path


def soak(base, seconds, pid, directory):
    """typical + heavy + audit uploads for `seconds`; RSS every 5 s."""
    script = audit_script(directory)
    runs = [subprocess.Popen(["wrk", "-t1", f"-c{c}", f"-d{seconds}s", "--timeout", "10s"] + extra + [base + path],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            for c, extra, path in ((8, [], TYPICAL), (1, [], HEAVY), (1, ["-s", script], "/api/v1/audit"))]
    samples = []
    start = time.time()
    while time.time() - start < seconds + 1:
        samples.append([round(time.time() - start), rss_kib(pid)])
        time.sleep(5)
    outs = [r.communicate(timeout=60)[0] for r in runs]
    samples.append([round(time.time() - start), rss_kib(pid)])
    def rate(out):
        m = re.search(r"Requests/sec:\s+([\d.]+)", out)
        return float(m.group(1)) if m else None
    def non2xx(out):
        m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        return int(m.group(1)) if m else 0
    def answered(out):
        m = re.search(r"(\d+) requests in", out)
        return int(m.group(1)) - non2xx(out) if m else None
    # Flat: the most RSS of the second half within 1.25× the most of the first (warm-up included there).
    half = seconds / 2
    first = max((kib for t, kib in samples if t <= half and kib), default=None)
    second = max((kib for t, kib in samples if t > half and kib), default=None)
    return {"seconds": seconds, "rss_kib": samples, "flat_ratio": second / first if first and second else None,
            "requests_per_s": {"typical": rate(outs[0]), "heavy": rate(outs[1]), "audit": rate(outs[2])},
            "answered": {"typical": answered(outs[0]), "heavy": answered(outs[1]), "audit": answered(outs[2])},
            "non_2xx": {"typical": non2xx(outs[0]), "heavy": non2xx(outs[1]), "audit": non2xx(outs[2])}}


def rss_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--port", type=int, default=18097)
    ap.add_argument("--soak", type=int, default=90, help="seconds of mixed load with RSS sampled (0: none)")
    ap.add_argument("--binary", default="Server/.build/release/idbudget-serve")
    a = ap.parse_args()
    if not os.path.exists(a.binary):
        subprocess.run(["swift", "build", "-c", "release", "--package-path", "Server", "--product", "idbudget-serve"],
                       check=True, stdout=sys.stderr)
    server = subprocess.Popen([a.binary, "--host", "127.0.0.1", "--port", str(a.port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{a.port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        start_rss = rss_kib(server.pid)
        # The HTTP ceiling on this machine, same run: a question's rate is quoted against it.
        ceiling = wrk(base + "/healthz", a.seconds, 8)
        alone = wrk(base + TYPICAL, a.seconds, 8)
        distinct_script = os.path.join(a.results, "distinct.lua")
        with open(distinct_script, "w") as f:
            f.write(DISTINCT_LUA)
        distinct_alone = wrk(base + TYPICAL, a.seconds, 8, script=distinct_script)
        alone_rss = rss_kib(server.pid)
        heavy = subprocess.Popen(["wrk", "-t1", "-c4", f"-d{a.seconds + 2}s", "--latency", "--timeout", "10s", base + HEAVY],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        disguised = subprocess.Popen(["wrk", "-t1", "-c20", f"-d{a.seconds + 2}s", "--timeout", "10s", base + DISGUISED],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        # The flood lasts a.seconds + 2: half of it for the repeated question, half for distinct ones.
        half = max(1, a.seconds // 2)
        loaded = wrk(base + TYPICAL, half, 8)
        distinct_loaded = wrk(base + TYPICAL, half, 8, script=distinct_script)
        heavy_out = heavy.communicate(timeout=a.seconds + 60)[0]
        disguised.wait(timeout=a.seconds + 60)
        heavy_rps = re.search(r"Requests/sec:\s+([\d.]+)", heavy_out)
        heavy_503 = re.search(r"Non-2xx or 3xx responses: (\d+)", heavy_out)
        loaded_rss = rss_kib(server.pid)
        soaked = soak(base, a.soak, server.pid, a.results) if a.soak > 0 and server.poll() is None else None
        burst = upload_burst(a.port, server.pid) if server.poll() is None else None
        repeated = repeated_uploads(a.port, server.pid) if server.poll() is None else None
        alive = server.poll() is None
        term_seconds = sigterm_with_trickle(server, a.port) if alive else None
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    out = {"seconds": a.seconds, "typical": TYPICAL, "heavy": HEAVY, "alone": alone, "with_heavy": loaded,
           "heavy_requests_per_s": float(heavy_rps.group(1)) if heavy_rps else None,
           "heavy_non_2xx": int(heavy_503.group(1)) if heavy_503 else 0,
           "rss_kib": {"start": start_rss, "after_alone": alone_rss, "after_loaded": loaded_rss},
           "p99_ratio_repeated": loaded["p99_ms"] / alone["p99_ms"] if alone["p99_ms"] else None,
           "distinct_alone": distinct_alone, "distinct_with_heavy": distinct_loaded,
           # The lanes' test: questions computed beside the flood (the cache can not answer them).
           "p99_ratio": distinct_loaded["p99_ms"] / distinct_alone["p99_ms"] if distinct_alone["p99_ms"] else None,
           "distinct_to_ceiling": (distinct_alone["requests_per_s"] / ceiling["requests_per_s"]
                                   if ceiling.get("requests_per_s") else None),
           "soak": soaked, "server_stayed_up": alive, "healthz": ceiling,
           "typical_to_ceiling": alone["requests_per_s"] / ceiling["requests_per_s"] if ceiling.get("requests_per_s") else None,
           "disguised_heavy": DISGUISED, "upload_burst": burst, "repeated_uploads": repeated, "sigterm_with_trickle_s": term_seconds}
    with open(os.path.join(a.results, "load.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
