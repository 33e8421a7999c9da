#!/usr/bin/env python3
"""Running the CLI on a case and checking its JSON against the reference, field by field."""
from fuzz_budget_cases import *  # noqa: F401,F403 (every case, the reference and its imports)

# ----------------------------------------------------------------------------------------------
# Running and checking
# ----------------------------------------------------------------------------------------------

class Result:
    def __init__(self, rc=None, out=b"", err=b"", seconds=0.0, timeout=False):
        self.rc, self.out, self.err, self.seconds, self.timeout = rc, out, err, seconds, timeout


def run_cli(argv, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return Result(rc=127, err=str(e).encode(), seconds=0.0)
    try:
        out, err = p.communicate(timeout=timeout)
        return Result(p.returncode, out, err, time.monotonic() - t0)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)      # the session this call started, nothing else
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return Result(None, out, err, time.monotonic() - t0, timeout=True)


class Checker:
    def __init__(self, case, j):
        self.case, self.j, self.failures, self.unverified = case, j, [], []

    def fail(self, kind, msg):
        self.failures.append((kind, msg))

    def get(self, *path):
        x = self.j
        for p in path:
            if not isinstance(x, dict) or p not in x:
                self.fail("bad-output", f"missing key {'.'.join(path)}")
                return None
            x = x[p]
        return x

    def eq(self, label, got, want, kind="wrong-digits"):
        if want is None:
            self.unverified.append(label)
        elif got != want:
            self.fail(kind, f"{label} got {got} want {want}")

    def decided(self, label, got_ok, want):
        """got_ok: reference's decision; want: what the CLI's answer implies it must be."""
        if got_ok is None:
            self.unverified.append(label)
        elif got_ok != want:
            self.fail("wrong-answer", label)


def poisson_reference():
    """Tests/Oracles/planning_ref.py (mpmath at 150 digits): ell(λ, d) = λ − d·log1p(λ/d) and the figures."""
    return oracle("planning_ref")


def check_poisson(c, ck):
    """Poisson arrivals: per bucket P(no collision) = e^−λ(1 + λ/d)^d, over buckets × scopes."""
    e = c.exp
    ref = poisson_reference()
    saved = mpmath.mp.dps
    try:
        mpmath.mp.dps = 150
        d, groups, S = e["d"], e["scopes"] * e["buckets"], e["scopes"]
        lam = mpmath.mpf(e["poisson"].numerator) / e["poisson"].denominator
        one = ref.ell(lam, d)
        f = e.get("last", Fraction(1))
        # A partial last bucket: mean f·λ over the span it covers.
        fl = lam * mpmath.mpf(f.numerator) / f.denominator
        L = (groups - S) * one + S * ref.ell(fl, d)
        want = ref.figures(L, ((groups - S) * lam ** 2 + S * fl ** 2) / (2 * d))
        # One bucket's p: the first, whole one; where the lifetime is one partial bucket, that bucket.
        bucket = ref.fmt_mpf(-mpmath.expm1(-(one if e["buckets"] > 1 else ref.ell(fl, d))))
    finally:
        mpmath.mp.dps = saved
    ck.eq("space.size", ck.get("space", "size"), dec(d), "wrong-answer")
    ck.eq("volume.arrivals", ck.get("volume", "arrivals"), "poisson", "wrong-answer")
    ck.eq("volume.buckets", ck.get("volume", "buckets"), str(e["buckets"]), "wrong-answer")
    ck.eq("collision.probability", ck.get("collision", "probability"), want["probability"])
    ck.eq("collision.complement", ck.get("collision", "complement"), want["complement"])
    ck.eq("collision.expected_collisions", ck.get("collision", "expected_collisions"), want["expected_collisions"])
    if groups > 1:
        ck.eq("collision.group_probability", ck.get("collision", "group_probability"), bucket)


def check_even(c, ck):
    """Even arrivals: 1 − p = ∏ over buckets P(n_j), the buckets counted by even_rows."""
    e = c.exp
    d, S, rows = e["d"], e["scopes"], e["rows"]
    busiest = max(rows)
    ck.eq("space.size", ck.get("space", "size"), dec(d), "wrong-answer")
    ck.eq("volume.arrivals", ck.get("volume", "arrivals"), "even", "wrong-answer")
    ck.eq("volume.buckets", ck.get("volume", "buckets"), str(e["buckets"]), "wrong-answer")
    ck.eq("volume.count", ck.get("volume", "count"), dec(busiest), "wrong-answer")
    if ck.failures:
        return
    pairs = S * sum(k * n * (n - 1) for n, k in rows.items())
    ck.eq("collision.expected_collisions", ck.get("collision", "expected_collisions"), fmt_frac(pairs, 2 * d) if pairs else "0")
    if busiest > d:
        ck.eq("collision.probability", ck.get("collision", "probability"), "1")
        return
    if busiest <= 1:
        ck.eq("collision.probability", ck.get("collision", "probability"), "0")
        return
    ref = poisson_reference()
    saved = mpmath.mp.dps
    try:
        terms = [(REF.logc(d, n, 700)[0], k) for n, k in rows.items() if n > 1]
        mpmath.mp.dps = 150
        L = mpmath.fsum(mpmath.mpf(l) * k * S for l, k in terms)
        want = ref.figures(L, mpmath.mpf(pairs) / (2 * d))
    finally:
        mpmath.mp.dps = saved
    ck.eq("collision.probability", ck.get("collision", "probability"), want["probability"])
    ck.eq("collision.complement", ck.get("collision", "complement"), want["complement"])
    if S * e["buckets"] > 1:
        ck.eq("collision.group_probability", ck.get("collision", "group_probability"), REF.digits(d, busiest, 1)[0])


def even_lasting(d, lam, S, budget):
    """The most whole buckets within budget under even arrivals: Tests/Oracles/buckets_ref.py's search
    (None when too close to call)."""
    saved = mpmath.mp.dps
    try:
        return oracle("buckets_ref").even_buckets_within(d, lam, S, budget)
    finally:
        mpmath.mp.dps = saved


def check_probability(c, ck):
    e = c.exp
    if "node_model" in e:
        return check_node_ids(c, ck)
    if "poisson" in e:
        return check_poisson(c, ck)
    if "rows" in e:
        return check_even(c, ck)
    d, n, S = e["d"], e["n"], e["scopes"] * e["buckets"]
    ck.eq("space.size", ck.get("space", "size"), dec(d), "wrong-answer")
    if "new" in e:  # growth and ids already stored: count the new, existing the stored
        ck.eq("volume.count", ck.get("volume", "count"), dec(e["new"]), "wrong-answer")
        if e["existing"]:
            ck.eq("volume.existing", ck.get("volume", "existing"), dec(e["existing"]), "wrong-answer")
        elif "existing" in (ck.j.get("volume") or {}):
            ck.fail("wrong-answer", "volume.existing present with no ids stored")
    else:
        ck.eq("volume.count", ck.get("volume", "count"), dec(n), "wrong-answer")
    ck.eq("volume.scopes", ck.get("volume", "scopes"), str(e["scopes"]), "wrong-answer")
    ck.eq("volume.buckets", ck.get("volume", "buckets"), str(e["buckets"]), "wrong-answer")
    ck.eq("volume.nodes", ck.get("volume", "nodes"), str(e["nodes"]), "wrong-answer")
    if ck.failures:
        return
    p, q = REF.digits(d, n, S)
    ck.eq("collision.probability", ck.get("collision", "probability"), p)
    ck.eq("collision.complement", ck.get("collision", "complement"), q)
    ck.eq("collision.expected_collisions", ck.get("collision", "expected_collisions"),
          fmt_frac(S * n * (n - 1), 2 * d) if n > 1 else "0")
    if S > 1:
        ck.eq("collision.group_probability", ck.get("collision", "group_probability"), REF.digits(d, n, 1)[0])
    elif "group_probability" in (ck.j.get("collision") or {}):
        ck.fail("wrong-answer", "group_probability present with one group")


def check_length(c, ck):
    e = c.exp
    a, n, S, B = e["a"], e["n"], e["scopes"] * e["buckets"], e["budget"]
    ck.eq("volume.count", ck.get("volume", "count"), dec(n), "wrong-answer")
    L = ck.get("length")
    if not isinstance(L, int) or L < 1:
        ck.fail("bad-output", f"length {L!r}")
        return
    if L * math.log2(a) > MAX_SPACE_BITS + 64:
        ck.fail("wrong-answer", f"length {L} is beyond the largest space idbudget handles")
        return
    ck.eq("bytes", ck.get("bytes"), None if e["sb"] is None else L * e["sb"], "wrong-answer")
    ck.eq("alphabet_size", ck.get("alphabet_size"), a, "wrong-answer")
    ck.eq("space.size", ck.get("space", "size"), dec(a ** L), "wrong-answer")
    if e.get("max_bytes") is not None:
        ck.eq("fits_max_bytes", ck.get("fits_max_bytes"), L * e["sb"] <= e["max_bytes"], "wrong-answer")
    ck.decided(f"length {L}: p(len {L}) ≤ budget must hold", REF.within(a ** L, n, S, B), True)
    if L > 1:
        ck.decided(f"length {L} is not minimal: p(len {L - 1}) ≤ budget", REF.within(a ** (L - 1), n, S, B), False)
    p, q = REF.digits(a ** L, n, S)
    ck.eq("collision.probability", ck.get("collision", "probability"), p)
    ck.eq("collision.complement", ck.get("collision", "complement"), q)
    if L > 1:
        ck.eq("shorter_probability", ck.get("shorter_probability"), REF.digits(a ** (L - 1), n, S)[0])
    if e.get("rate") is not None:
        check_schedule(c, ck, L)


def check_schedule(c, ck, L):
    """length's upgrade schedule: each row's switch count is its length's capacity, its end the mint
    time of the next id, lengths run up to L, and the length before the first lasts less than a day."""
    e = c.exp
    a, S, B, rv = e["a"], e["scopes"], e["budget"], e["rate"]
    day = ceil_frac(rv * 86400) - 1  # capacity < day ⟺ its breaking id comes within the first day
    rows = (ck.j.get("schedule") or {}).get("rows")
    first = rows[0]["length"] if rows else L
    if first > 1 and (not rows or len(rows) - 1 < 64):  # 64 shorter rows at most, the ones nearest L
        ck.decided(f"schedule: length {first - 1} lasts a day", REF.within(a ** (first - 1), day, S, B), False)
    if not rows:
        return
    ck.eq("schedule lengths", [r.get("length") for r in rows], list(range(first, L + 1)), "wrong-answer")
    ck.eq("schedule.rows[0].from_seconds", rows[0].get("from_seconds"), "0", "wrong-answer")
    for before, row in zip(rows, rows[1:]):
        ck.eq("schedule from = previous to", row.get("from_seconds"), before.get("to_seconds"), "wrong-answer")
    for row in rows[:-1]:
        length, cap = row.get("length"), int(row.get("switch_count") or -1)
        ck.decided(f"schedule: {cap} fit length {length}", REF.within(a ** length, cap, S, B), True)
        ck.decided(f"schedule: {cap + 1} overflow length {length}", REF.within(a ** length, cap + 1, S, B), False)
        ck.eq(f"schedule: length {length} to_seconds", row.get("to_seconds"), fmt_frac((cap + 1) * rv.denominator, rv.numerator))
    if "to_seconds" in rows[-1]:
        ck.fail("wrong-answer", "the schedule's last row has an end")


def check_capacity(c, ck):
    e = c.exp
    if "mean_time" in e:
        check_mean_time(c, ck)
        return
    d, S, B = e["d"], e["scopes"], e["budget"]
    ck.eq("space.size", ck.get("space", "size"), dec(d), "wrong-answer")
    ck.eq("scopes", ck.get("scopes"), str(S), "wrong-answer")
    raw = ck.get("capacity")
    if not isinstance(raw, str) or not raw.isdigit():
        ck.fail("bad-output", f"capacity {raw!r}")
        return
    N = int(raw)
    if not 1 <= N <= d:
        ck.fail("wrong-answer", f"capacity {N} outside [1, d]")
        return
    need = N.bit_length() + 64
    ck.decided(f"capacity {N}: p({N}) ≤ budget must hold", REF.within(d, N, S, B, min_target=need), True)
    ck.decided(f"capacity {N} is not maximal: p({N + 1}) ≤ budget", REF.within(d, N + 1, S, B, min_target=need), False)
    p, q = REF.digits(d, N, S)
    ck.eq("collision.probability", ck.get("collision", "probability"), p)
    ck.eq("collision.complement", ck.get("collision", "complement"), q)
    ck.eq("next_probability", ck.get("next_probability"), REF.digits(d, N + 1, S)[0])
    rate, bucket = e.get("rate"), e.get("bucket")
    if rate is None:
        return
    m = ceil_frac(rate * bucket) if bucket is not None else None
    if m is not None and m <= 1:
        # Never two ids in one bucket: no duration, "for ever" in words (seconds absent).
        ck.eq("lasts.text", ck.get("lasts", "text"), "for ever", "wrong-answer")
        return
    got = ck.get("lasts", "seconds")
    if bucket is None:
        ck.eq("lasts.seconds", got, fmt_frac(N * rate.denominator, rate.numerator), "wrong-answer")
        return
    # Even arrivals: buckets of ⌊λ⌋ and ⌈λ⌉ ids (even_rows), the most whole buckets within budget.
    G = even_lasting(d, rate * bucket, S, B)
    if G is None:
        ck.unverified.append("lasts.seconds")
    else:
        ck.eq("lasts.seconds", got, "0" if G == 0 else fmt_frac(G * bucket.numerator, bucket.denominator), "wrong-answer")


def retries_reference():
    """Tests/Oracles/retries_ref.py (exact fractions, mpmath's digamma, Faulhaber sums)."""
    return oracle("retries_ref")


def check_retries(c, ck):
    e = c.exp
    RETRIES = retries_reference()
    saved = mpmath.mp.dps
    d, n, k = e["d"], e["n"], e["k"]
    ck.eq("retries.fill", ck.get("retries", "fill"), RETRIES.fmt_fraction(Fraction(n, d)))
    def infinite(label, got):  # null: the store is full
        if got is not None:
            ck.fail("wrong-digits", f"{label} got {got} want null (infinite)")

    if n < d:
        ck.eq("retries.expected_attempts_next", ck.get("retries", "expected_attempts_next"), RETRIES.fmt_fraction(Fraction(d, d - n)))
    else:
        infinite("retries.expected_attempts_next", ck.get("retries", "expected_attempts_next"))
    if n > d:
        infinite("retries.expected_attempts_total", ck.get("retries", "expected_attempts_total"))
    try:
        mpmath.mp.dps = 80
        if n <= d:
            ck.eq("retries.expected_attempts_total", ck.get("retries", "expected_attempts_total"), RETRIES.total_attempts(d, n))
        ck.eq("retries.exhaustion_probability", ck.get("retries", "exhaustion_probability"), RETRIES.exhaustion(d, n, k))
        if e["budget"]:
            ck.eq("retries.capacity", ck.get("retries", "capacity"), RETRIES.capacity(d, k, Fraction(e["budget"])))
    finally:
        mpmath.mp.dps = saved


CHECKS = {"probability": check_probability, "length": check_length, "capacity": check_capacity, "retries": check_retries}


def check(case, res, timeout):
    """[(kind, message)], [unverified field labels]."""
    if res.timeout:
        return [("timeout", f"no answer within {timeout:g} s")], []
    err = res.err.decode("utf-8", "replace")
    first = err.strip().splitlines()[0] if err.strip() else ""
    if "Fatal error" in err or res.rc is None or res.rc not in (0, 1, 64):
        sig = f" (signal {-res.rc})" if res.rc is not None and res.rc < 0 else ""
        return [("crash", f"exit {res.rc}{sig}: {first[:300]}")], []
    if res.rc == 1:
        # 1: the answer fails its check — only `length` given --max-bytes that the length does not fit.
        try:
            fits = json.loads(res.out).get("fits_max_bytes")
        except ValueError:
            fits = None
        if case.command != "length" or fits is not False:
            return [("crash", f"exit 1 without a length that fails --max-bytes: {first[:200]}")], []
    if not case.valid:
        if res.rc != 64 or res.out.strip() or len(err.strip().splitlines()) != 1:
            return [("accepted-invalid", f"exit {res.rc}, {len(res.out)} bytes on stdout, stderr {first[:200]!r}")], []
        return [], []
    if res.rc == 64:
        return [("rejected-valid", f"exit 64: {first[:300]}")], []
    try:
        j = json.loads(res.out)
    except ValueError as e:
        return [("bad-output", f"not JSON: {e}")], []
    if not isinstance(j, dict) or j.get("schema_version") != 1 or j.get("command") != case.command:
        return [("bad-output", "schema_version/command")], []
    ck = Checker(case, j)
    try:
        CHECKS[case.command](case, ck)
    except RefError as e:
        ck.unverified.append(f"reference: {e}")
    return ck.failures, ck.unverified


def summarize_argv(argv, limit):
    s = shlex.join(argv)
    return s if limit is None or len(s) <= limit else s[:limit] + f"… ({len(s)} chars)"


def fuzz(binary, cases, timeout, jobs=1, slow=1.0, quiet=False, cmd_limit=None, out=sys.stdout):
    stats = {}
    failures, slow_cases, unverified_total = [], [], 0
    t0 = time.monotonic()
    walls = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_cli, c.argv(binary), timeout) for c in cases]
        # Every run first, the reference after: mpmath and gmpy2 hold the GIL for seconds on huge
        # inputs, and a thread waiting to read a finished run's clock would count that time as its own.
        results = [f.result() for f in futures]
        for c, res in zip(cases, results):
            fails, unver = check(c, res, timeout)
            st = stats.setdefault(c.regime, {"cases": 0, "passed": 0, "failed": 0, "unverified": 0, "max_s": 0.0})
            st["cases"] += 1
            st["failed" if fails else "passed"] += 1
            st["unverified"] += len(unver)
            st["max_s"] = max(st["max_s"], res.seconds)
            if c.regime != "invalid" and not res.timeout:
                walls.append(res.seconds)
            unverified_total += len(unver)
            argv = c.argv(binary)
            if res.seconds >= slow and not res.timeout:
                slow_cases.append((res.seconds, c, argv))
            for kind, msg in fails:
                line = f"FAIL #{c.index} [{kind}] {c.regime}: {msg} :: {summarize_argv(argv, cmd_limit)}"
                failures.append((kind, c, line))
                print(line, file=out, flush=True)
            if unver and not quiet:
                print(f"note #{c.index} {c.regime}: unverified {', '.join(unver)} :: {summarize_argv(argv, 300)}", file=out)
    elapsed = time.monotonic() - t0
    if not quiet:
        for s, c, argv in sorted(slow_cases, key=lambda x: -x[0]):
            print(f"slow #{c.index} {s:.2f} s {c.regime} :: {summarize_argv(argv, 300)}", file=out)
        print(f"{'regime':<16} {'cases':>5} {'passed':>6} {'failed':>6} {'unverif':>7} {'max s':>6}", file=out)
        names = [name for name, _, _ in REGIMES + LONG_ONLY]
        for name in names + sorted(set(stats) - set(names)):
            if name in stats:
                s = stats[name]
                print(f"{name:<16} {s['cases']:>5} {s['passed']:>6} {s['failed']:>6} {s['unverified']:>7} {s['max_s']:>6.2f}", file=out)
        print(f"reference: {REF.stats}; {unverified_total} unverified fields; {elapsed:.1f} s", file=out)
        if walls:
            walls.sort()
            pick = lambda q: walls[min(len(walls) - 1, int(q * len(walls)))]
            print(f"CLI wall per query (valid input, {len(walls)} runs, {jobs} at a time): median {pick(0.5) * 1000:.0f} ms, "
                  f"p99 {pick(0.99) * 1000:.0f} ms, max {walls[-1] * 1000:.0f} ms", file=out)
    passed = sum(s["passed"] for s in stats.values())
    failed = sum(s["failed"] for s in stats.values())
    print(f"fuzz: {passed} passed, {failed} failed", file=out, flush=True)
    return failures, passed, failed
