#!/usr/bin/env bash
# The Spark audit summary (examples/spark/audit_summary.py) against the pure-Python reference
# (Tests/Oracles/audit_summary_ref.py), field by field, on generated inputs that hit every line rule,
# time format and groups rule (mixed lengths, non-ASCII, 64 vs 65 lengths); the reference's merge
# against the whole; and, when $IDBUDGET points to a binary with `audit --emit-summary`, the Swift
# tool against both (its shards merged too) and its verdicts from the summaries against the files'.
#
#   scripts/spark-test.sh                       # Spark vs reference, merge, selftests
#   IDBUDGET=.build/release/idbudget scripts/spark-test.sh
#
# Installs pyspark (and python-ulid, cyksuid, used only to generate ids) from requirements.txt when
# missing; needs Java 17+. SPARK_TEST_KEEP=1 keeps the work directory. Ends with
# 'spark-test: N passed, M failed'; exits 1 on any failure, naming the differing fields.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
PY=${PYTHON:-python3}
ref=Tests/Oracles/audit_summary_ref.py
job=examples/spark/audit_summary.py
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "spark-test: ok: $*"; }
bad() { failed=$((failed + 1)); echo "spark-test: FAIL: $*"; }
elapsed() { echo "$(( $(date +%s) - start ))s"; }

if [ -z "${JAVA_HOME:-}" ] && command -v java >/dev/null; then
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
    export JAVA_HOME
fi
command -v java >/dev/null || { echo "spark-test: FAIL: no java (Spark needs Java 17+: apt-get install openjdk-17-jre-headless)"; exit 1; }
PYTHON=$PY scripts/setup.sh --python pyspark python-ulid cyksuid
echo "spark-test: pyspark $("$PY" -c 'import pyspark; print(pyspark.__version__)'), $(java -version 2>&1 | head -1)"

work=$(mktemp -d)
if [ -n "${SPARK_TEST_KEEP:-}" ]; then echo "spark-test: keeping $work"; else trap 'rm -rf "$work"' EXIT; fi

# compare NAME A B [--ignore FIELD]: one check; the reference's compare prints the differing fields.
# The Spark job writes no node_formats (optional: docs/audit-summary.md), so it is not compared there:
# a random 13-character token can read as a TSID of a time that has since become plausible.
compare() {
    local name=$1 a=$2 b=$3
    shift 3
    if "$PY" "$ref" compare "$a" "$b" "$@" >"$work/diff.txt"; then
        ok "$name"
    else
        sed 's/^/    /' "$work/diff.txt" | head -20
        bad "$name (the fields above differ)"
    fi
}

# 1. The reference's own selftest: the doc's example, edge cases, merge, and wrong summaries caught.
if "$PY" "$ref" selftest; then ok "reference selftest"; else bad "reference selftest"; fi

# 2. Inputs. ids.txt: ~20k lines; rows.jsonl: table rows; half0/half1.txt: ids.txt split so that
# every id lies wholly in one half and every non-id line in half 0 (what shards do); dir/: small
# files that start with a BOM (which Hadoop's line reader drops, as the contract does), one
# gzipped, one empty.
"$PY" - "$work" <<'EOF'
import hashlib, json, random, sys, uuid
from ulid import ULID
from cyksuid import ksuid as ks

work = sys.argv[1]
rng = random.Random(20240601)
B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
MAX = 4096

def token(n):
    return "".join(rng.choice(B62) for _ in range(n))

# A few timestamps only, so that buckets hold several ids.
ms_pool = [1_700_000_000_000 + rng.randrange(40) for _ in range(30)]
tick_pool = [0x1EE_0000_0000_0000 + rng.randrange(1 << 40) for _ in range(30)]
sec_pool = [300_000_000 + rng.randrange(20) for _ in range(20)]

def uuid7():
    value = rng.choice(ms_pool) << 80 | 7 << 76 | rng.getrandbits(12) << 64 | 2 << 62 | rng.getrandbits(62)
    return str(uuid.UUID(int=value))

def uuid1():
    t, clock = rng.choice(tick_pool), rng.getrandbits(14)
    u = uuid.UUID(fields=(t & 0xFFFFFFFF, t >> 32 & 0xFFFF, t >> 48 & 0x0FFF | 0x1000,
                          0x80 | clock >> 8, clock & 0xFF, rng.getrandbits(48)))
    assert u.version == 1 and u.time == t
    return str(u)

def uuid6():
    # RFC 9562 §5.6: the 60-bit time high bits first, then version 6, the clock sequence, the node.
    t, clock = rng.choice(tick_pool), rng.getrandbits(14)
    value = (t >> 28) << 96 | (t >> 12 & 0xFFFF) << 80 | (0x6000 | t & 0xFFF) << 64 | (0x8000 | clock) << 48 | rng.getrandbits(48)
    u = uuid.UUID(int=value)
    assert u.version == 6
    return str(u)

def ulid():
    return str(ULID.from_bytes(rng.choice(ms_pool).to_bytes(6, "big") + rng.randbytes(10)))

def ksuid():
    return str(ks.from_bytes(rng.choice(sec_pool).to_bytes(4, "big") + rng.randbytes(16)))

TYPEID = "0123456789abcdefghjkmnpqrstvwxyz"

def typeid():
    value = rng.choice(ms_pool) << 80 | 7 << 76 | rng.getrandbits(12) << 64 | 2 << 62 | rng.getrandbits(62)
    return rng.choice(("user", "pre_fix", "abcdefghi")) + "_" + "".join(TYPEID[value >> (125 - 5 * i) & 31] for i in range(26))

tokens = [token(rng.choice((8, 10, 12, 16))) for _ in range(18000)]
timed = [f() for f in (uuid7, uuid1, uuid6, ulid, ksuid, typeid) for _ in range(250)]
timed = [t.upper() if rng.random() < 0.1 else t.lower() if rng.random() < 0.1 else t for t in timed]
ids = tokens + tokens[:300] + tokens[300:350] * 2 + [tokens[350]] * 4 + timed + timed[:40] + timed[40:50] * 2
raw = [i.encode() + (b"\r" if rng.random() < 0.05 else b"") for i in ids]

u7, u1 = uuid7(), uuid1()
specials = [
    "café", "🙂x", "e\u0301", "日本語ID", "a\u2028b", "nul\0byte", " lead", "trail ", "tab\tin", "\ufeffmid",
    u7 + "\u2028", u7.replace("-", "_", 1), u7[:19] + "c" + u7[20:],   # not uuid7 (Java's $ trap, _, variant)
    u1[:19] + "c" + u1[20:],                                            # uuid1 with a non-RFC variant
    str(uuid.UUID(int=rng.getrandbits(128), version=4)),                # uuid4: no time
    "8" + "Z" * 25, "01ARZ3NDEKTSV4RRFFQ69G5FAU", ulid().lower(),        # ulid: overflow, U, lower case
    "aWgEPTl1tmebfsQzFP4bxwgy80V", "aWgEPTl1tmebfsQzFP4bxwgy80W", "0" * 27, "z" * 27,
    "prefix_01h455vb4pex5vsknk084sn02q", "prefix_00000000000000000000000000",      # typeid: v7, not v7
    "prefix__01h455vb4pex5vsknk084sn02q", "_prefix_01h455vb4pex5vsknk084sn02q",    # typeid: prefix edges
    "a" * 64 + "_01h455vb4pex5vsknk084sn02q", "a" * 63 + "_01h455vb4pex5vsknk084sn02q",  # 64 vs 63
    "m" * MAX, "é" * (MAX // 2), "é" * (MAX // 2 + 1), "o" * 5000, "p" * (MAX + 1),
    # placeholders (the nil and the max UUID, any case, hyphens or not) and near misses (ids)
    str(uuid.UUID(int=0)), str(uuid.UUID(int=0)), "F" * 8 + "-ffff-FFFF-ffff-" + "f" * 12, "0" * 32, "f" * 32,
    str(uuid.UUID(int=1)), "0" * 31, "0" * 33, "0" * 8 + "_0000-0000-0000-" + "0" * 12, "f" * 35 + "e",
]
raw += [s.encode() for s in specials]
raw += [u7.encode() + b"\r\r",          # an id ending in CR: not uuid7
        b"n" * MAX + b"\r",             # MAX bytes once the CR goes: an id
        b"\xff", b"bad\xc3", b"\xed\xa0\x80sur", b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xff" * 5000,
        b"\r\r"] + [b""] * 20 + [b"\r"] * 10
# JSON strings (jq without -r): read as what is between the quotes; a quote or backslash inside, or
# one quote alone, is no JSON string of an id's own bytes.
raw += [b'"' + ulid().encode() + b'"', b'"' + ulid().encode() + b'"\r', b'"' + tokens[5].encode() + b'"', b'""', b'""\r',
        b'"a"b"', b'"a\\b"', b'"', b'"x', b'x"', b'"' + b"q" * MAX + b'"', b'"' + b"q" * (MAX + 1) + b'"',
        b'"\xff"', '"é"'.encode(), b'"' + str(uuid.UUID(int=0)).encode() + b'"']
rng.shuffle(raw)
raw = [b"\xef\xbb\xbf" + token(10).encode() + b"\r"] + raw + [b"lastline-no-newline"]
with open(f"{work}/ids.txt", "wb") as f:
    f.write(b"\n".join(raw))  # no "\n" after the last line

# Shard-like halves for the merge test.
def is_id(line):
    body = line[:-1] if line.endswith(b"\r") else line
    if len(body) >= 2 and body[:1] == b'"' and body[-1:] == b'"' and b'"' not in body[1:-1] and b"\\" not in body[1:-1]:
        body = body[1:-1]
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = body.decode().lower()
    if text.replace("-", "") in ("0" * 32, "f" * 32) and (len(text) == 32 or (len(text) == 36 and text[8::5][:4] == "----")):
        return None  # a placeholder: not an id
    return body if 0 < len(body) <= MAX else None

halves = ([], [])
for line in raw:
    body = is_id(line)
    halves[hashlib.sha256(body).digest()[0] & 1 if body is not None else 0].append(line)
for k, half in enumerate(halves):
    with open(f"{work}/half{k}.txt", "wb") as f:
        f.write(b"".join(l + b"\n" for l in half))

# Table rows: no line rules; "" and null are empty; a row may hold "\n" or be very long.
rows = tokens[:1500] + tokens[:100] + timed[:200] + timed[:20] + [None] * 5 + [""] * 5 + [
    "a\nb", "a\nb", "x\r", "\r", "o" * 5000, "🙂", "\ufeffbom", u7 + "\u2028", "é" * 3000,
    str(uuid.UUID(int=0)), "F" * 32]
rng.shuffle(rows)
with open(f"{work}/rows.jsonl", "w", encoding="utf-8") as f:
    f.writelines(json.dumps(r) + "\n" for r in rows)
import gzip, os
BOM = b"\xef\xbb\xbf"
os.mkdir(f"{work}/dir")
files = {
    "bom-only.txt": BOM, "bom-newline.txt": BOM + b"\nabc", "bom-crlf.txt": BOM + b"\r\nabc\r\n",
    "bom-id.txt": BOM + b"abc\nabc\n", "plain.txt": b"abc\n" + BOM + b"mid\n", "empty.txt": b"",
    "bom-overlong.txt": BOM + b"q" * 5000 + b"\nafter",
    "bom-4097.txt": BOM + b"r" * (MAX - 2) + b"\n",         # overlong with the BOM, an id without
    "bom-4096.txt": BOM + b"s" * (MAX - 3) + b"\r\n",       # an id of MAX bytes, BOM included
    "bom-4101.txt": BOM + b"t" * (MAX + 2),                  # overlong either way, no newline
    "bom-4101n.txt": BOM + b"u" * (MAX + 1) + b"\n",
}
for name, data in files.items():
    with open(f"{work}/dir/{name}", "wb") as f:
        f.write(data)
with gzip.open(f"{work}/dir/bom-gz.txt.gz", "wb") as f:
    f.write(BOM + b"gz-first\r\nabc\n")
with open(f"{work}/dir-plain.txt", "wb") as f:  # the gzipped file's content, for the reference
    f.write(BOM + b"gz-first\r\nabc\n")

# Groups by id length at the 64-lengths edge: lengths64.txt has exactly 64 lengths (1..64; length 7
# also holds a non-ASCII id, so it gets no group), lengths65.txt one more (so no groups at all).
many = [token(n) for n in range(1, 65) for _ in range(rng.choice((1, 3, 20)))]
many += many[::7] + ["abcdef\u00e9"]
rng.shuffle(many)
with open(f"{work}/lengths64.txt", "w", encoding="utf-8") as f:
    f.writelines(m + "\n" for m in many)
with open(f"{work}/lengths65.txt", "w", encoding="utf-8") as f:
    f.writelines(m + "\n" for m in many + [token(65)])
print(f"spark-test: inputs: {len(raw)} lines, {len(rows)} rows, {len(files) + 1} small files")
EOF

# 3. Spark vs reference on the text file. Small splits so that lines cross partition boundaries.
"$PY" "$ref" summarise "$work/ids.txt" -o "$work/ref.json"
t=$(date +%s)
"$PY" "$job" --input "$work/ids.txt" --output "$work/spark.json" \
    --conf spark.sql.files.maxPartitionBytes=65536 2>"$work/spark.log" || { tail -30 "$work/spark.log"; bad "spark job failed"; }
echo "spark-test: Spark job (text, $(wc -c <"$work/ids.txt") bytes) took $(( $(date +%s) - t ))s"
compare "Spark = reference (text file)" "$work/ref.json" "$work/spark.json" --ignore node_formats
# The inputs must exercise groups: several lengths with groups (and positions), some without.
if "$PY" - "$work/ref.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))
with_rows = [L for L, g in s["groups"].items() if g["positions"]]
without = sorted(set(s["lengths"]) - set(s["groups"]), key=int)
print(f"spark-test: ids.txt: {len(s['lengths'])} lengths, groups for {sorted(with_rows, key=int)}, none for {without}")
sys.exit(0 if len(with_rows) >= 2 and without else 1)
EOF
then ok "ids.txt exercises groups (>= 2 with positions, some lengths without)"
else bad "ids.txt does not exercise groups"
fi

# 4. A test must be able to fail: the Spark summary with one count changed is reported.
"$PY" - "$work/spark.json" "$work/wrong.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))
s["multiplicities"]["2"] = str(int(s["multiplicities"]["2"]) + 1)
json.dump(s, open(sys.argv[2], "w", encoding="utf-8"))
EOF
if "$PY" "$ref" compare "$work/spark.json" "$work/wrong.json" >"$work/diff.txt"; then
    bad "selftest: a changed count went unnoticed"
elif grep -q '^differs: multiplicities\.2:' "$work/diff.txt"; then
    ok "selftest: a changed count is reported ($(head -1 "$work/diff.txt"))"
else
    bad "selftest: a changed count was reported without naming it: $(head -1 "$work/diff.txt")"
fi

# 5. Merge: the halves, summarised apart and merged, equal the whole (shards aside).
"$PY" "$ref" summarise "$work/half0.txt" --label-shard 0/2 -o "$work/half0.json"
"$PY" "$ref" summarise "$work/half1.txt" --label-shard 1/2 -o "$work/half1.json"
"$PY" "$ref" merge "$work/half0.json" "$work/half1.json" -o "$work/merged.json"
compare "merge(halves) = whole" "$work/ref.json" "$work/merged.json" --ignore shards
if "$PY" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["shards"] != {"count": 2, "indexes": [0, 1]})' "$work/merged.json"; then
    ok "merged shards = {count 2, indexes [0, 1]}"
else
    bad "merged shards field"
fi
if "$PY" "$ref" merge "$work/half0.json" "$work/half0.json" -o "$work/bad.json" 2>/dev/null; then
    bad "merge accepted the same shard twice"
else
    ok "merge refuses the same shard twice"
fi

# 6. Table input: a parquet file by path (the CLI), and a table name (a temporary view, in the
# session that writes the parquet), against the reference's row semantics. The same session also
# summarises dir/ (a directory of small text files) through the job's functions.
"$PY" "$ref" summarise --rows "$work/rows.jsonl" -o "$work/rows.ref.json"
"$PY" "$ref" summarise $(ls "$work"/dir/*.txt) "$work/dir-plain.txt" -o "$work/dir.ref.json"
"$PY" "$ref" summarise "$work/lengths64.txt" -o "$work/lengths64.ref.json"
"$PY" "$ref" summarise "$work/lengths65.txt" -o "$work/lengths65.ref.json"
"$PY" - "$work" "$job" 2>"$work/parquet.log" <<'EOF' || { tail -30 "$work/parquet.log"; bad "writing parquet / --table summary failed"; }
import importlib.util, json, os, sys
from pyspark.sql import SparkSession
work, job_path = sys.argv[1:3]
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
spec = importlib.util.spec_from_file_location("audit_summary", job_path)
job = importlib.util.module_from_spec(spec)
spec.loader.exec_module(job)
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate())
rows = [json.loads(line) for line in open(f"{work}/rows.jsonl", encoding="utf-8")]
spark.createDataFrame([(r,) for r in rows], "id string").repartition(3).write.parquet(f"{work}/rows.parquet")
spark.read.parquet(f"{work}/rows.parquet").createOrReplaceTempView("audit_ids")
args = job.parse_args(["--table", "audit_ids", "--column", "id", "--output", f"{work}/table.spark.json"])
job.write_summary(job.summarise(job.read_input(spark, args), args.max_line_bytes), args.output)
args = job.parse_args(["--input", f"{work}/dir", "--output", f"{work}/dir.spark.json"])
job.write_summary(job.summarise(job.read_input(spark, args), args.max_line_bytes), args.output)
for name in ("lengths64", "lengths65"):
    args = job.parse_args(["--input", f"{work}/{name}.txt", "--output", f"{work}/{name}.spark.json"])
    job.write_summary(job.summarise(job.read_input(spark, args), args.max_line_bytes), args.output)
spark.stop()
EOF
compare "Spark = reference (--table, a view)" "$work/rows.ref.json" "$work/table.spark.json" --ignore node_formats
compare "Spark = reference (a directory: BOMs, gzip, an empty file)" "$work/dir.ref.json" "$work/dir.spark.json" --ignore node_formats
compare "Spark = reference (64 lengths: groups but for the non-ASCII one)" "$work/lengths64.ref.json" "$work/lengths64.spark.json" --ignore node_formats
compare "Spark = reference (65 lengths: no groups)" "$work/lengths65.ref.json" "$work/lengths65.spark.json" --ignore node_formats
if "$PY" -c 'import json,sys; a,b=(json.load(open(p))["groups"] for p in sys.argv[1:3]); sys.exit(not (len(a) == 63 and "7" not in a and b == {}))' \
        "$work/lengths64.ref.json" "$work/lengths65.ref.json"; then
    ok "groups: 63 of 64 lengths (7 has a non-ASCII id); none with 65 lengths"
else
    bad "groups at the 64-lengths edge are not as built"
fi
t=$(date +%s)
"$PY" "$job" --input "$work/rows.parquet" --column id --output "$work/rows.spark.json" 2>"$work/spark.log" \
    || { tail -30 "$work/spark.log"; bad "spark job (parquet) failed"; }
echo "spark-test: Spark job (parquet) took $(( $(date +%s) - t ))s"
compare "Spark = reference (parquet rows)" "$work/rows.ref.json" "$work/rows.spark.json" --ignore node_formats

# 7. The Swift tool, when it can emit summaries.
if [ -n "${IDBUDGET:-}" ] && "$IDBUDGET" audit --help 2>/dev/null | grep -q emit-summary; then
    # The exit codes are not judged here (a suspicious verdict may exit non-zero): the outputs are.
    "$IDBUDGET" audit "$work/ids.txt" --emit-summary "$work/swift.json" --format json >/dev/null || true
    compare "idbudget --emit-summary = Spark" "$work/swift.json" "$work/spark.json" --ignore node_formats
    compare "idbudget --emit-summary = reference" "$work/swift.json" "$work/ref.json"
    for name in lengths64 lengths65; do
        "$IDBUDGET" audit "$work/$name.txt" --emit-summary "$work/$name.swift.json" --format json >/dev/null || true
        compare "idbudget --emit-summary = Spark ($name)" "$work/$name.swift.json" "$work/$name.spark.json" --ignore node_formats
        compare "idbudget --emit-summary = reference ($name)" "$work/$name.swift.json" "$work/$name.ref.json"
    done
    # Swift's shards, merged by the reference, equal the whole (groups' merge rules included).
    for k in 1 2; do
        "$IDBUDGET" audit "$work/ids.txt" --shard "$k/2" --emit-summary "$work/swift.s$k.json" --format json >/dev/null || true
    done
    "$PY" "$ref" merge "$work/swift.s1.json" "$work/swift.s2.json" -o "$work/swift.merged.json"
    compare "merge(idbudget shards) = idbudget whole" "$work/swift.json" "$work/swift.merged.json" --ignore shards
    # same_verdict NAME FILE SUMMARY...: the verdict of `audit FILE` = the verdict of `audit --summary SUMMARY...`.
    same_verdict() {
        local name=$1 file=$2
        shift 2
        "$IDBUDGET" audit "$file" --format json >"$work/verdict.file.json" || true
        "$IDBUDGET" audit --summary "$@" --format json >"$work/verdict.summary.json" || true
        if "$PY" - "$work/verdict.file.json" "$work/verdict.summary.json" <<'EOF'
import json, sys
try:
    a, b = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
except (OSError, ValueError) as e:
    print(f"    no verdict JSON: {e}")
    sys.exit(1)
def groups(v):  # the per-length judgements, when the verdict has them
    return [(g.get("length"), g.get("ids"), g.get("verdict_code"), g.get("p_value_high"), g.get("p_value_low"))
            for g in v.get("groups") or []]
a["groups"], b["groups"] = groups(a), groups(b)
keys = ("ids", "distinct", "duplicate_ids", "extra_occurrences", "verdict_code", "p_value_high", "p_value_low", "groups")
diffs = [f"{k}: {a.get(k, '(missing)')!r} (file) vs {b.get(k, '(missing)')!r} (--summary)"
         for k in keys if a.get(k, "(missing)") != b.get(k, "(missing)")]
for d in diffs:
    print(f"    differs: {d[:300]}")
sys.exit(1 if diffs else 0)
EOF
        then ok "$name"
        else bad "$name (keys above differ)"
        fi
    }
    same_verdict "idbudget verdict from the Spark summary = verdict from the file" "$work/ids.txt" "$work/spark.json"
    for name in lengths64 lengths65; do
        same_verdict "idbudget verdict from the Spark summary = verdict from the file ($name)" \
            "$work/$name.txt" "$work/$name.spark.json"
    done
    same_verdict "idbudget verdict from its merged shards = verdict from the file" \
        "$work/ids.txt" "$work/swift.s1.json" "$work/swift.s2.json"
else
    echo "skipped: idbudget has no --emit-summary"
fi

echo "spark-test: done in $(elapsed)"
echo "spark-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
