#!/usr/bin/env python3
"""The audit summary of docs/audit-summary.md, computed by Spark.

    python3 examples/spark/audit_summary.py --input ids.txt --output S.json
    python3 examples/spark/audit_summary.py --input ids.parquet --column id --output S.json
    python3 examples/spark/audit_summary.py --table db.events --column id --output S.json
    idbudget audit --summary S.json            # the verdict, as `idbudget audit ids.txt` gives it

Options: --master (default local[2]), --max-line-bytes (default 4096, rule 3), --input-format
(with --column; default parquet), --conf KEY=VALUE (any Spark setting, repeatable).
Needs pyspark 4.0+ (pip install pyspark; is_valid_utf8 is new in 4.0) and Java 17+.

How the contract maps onto Spark
--------------------------------
Text input (--input FILE without --column): spark.read.text with lineSep="\\n", so only b"\\n"
ends a line and a last line without it is still a row; CR, lone or not, stays in the row. The
row is taken as bytes (CAST(value AS BINARY) gives back the file's bytes unchanged: the text
reader does not decode), so the rules run on bytes:
  1. a trailing b"\\r" is cut off and counted (crlf_lines),
  2. empty -> empty_lines, 3. more than --max-line-bytes bytes -> overlong_lines,
  4. not valid UTF-8 (is_valid_utf8: strict, as Python's decoder: no surrogates, no overlong
     forms, nothing above U+10FFFF) -> invalid_utf8_lines, 5. otherwise an id, compared as bytes.
Hadoop's line reader drops a UTF-8 byte order mark at the start of a file, as the contract does
(rule 0: it is not part of the first id).

Table input (--column COL, with --input PATH [--input-format parquet|orc|json|...] or --table
NAME): each row is one id and there are no line rules: no CR cutting, no length limit (a row may
hold "\\n" or be longer than --max-line-bytes; max_line_bytes is still written, as the contract
wants the field). `lines` counts rows; an empty string and a null both count in empty_lines; a
value that is not valid UTF-8 (a binary column, or a string column holding bad bytes) counts in
invalid_utf8_lines, since an id is text. A column of another type is cast to string.

Then, with ids the DataFrame of id bytes:
  grouped = ids.groupBy(id).count()              Spark's exact GROUP BY; persisted, and every
                                                 per-id field below is a weighted sum over it
  multiplicities = grouped.groupBy(count).count()
  lengths        = grouped by char_length(id) (Unicode scalars), summing count; with it, per
                   length, whether every id is ASCII (octet_length = char_length)
  positions      = posexplode of substring(id, i+1, 1) for i < min(length, 64), summed by (i, char)
  symbols        = distinct characters of all ids, sorted by code point in the driver
  time_formats   = uuid7/uuid6/uuid1/ulid by anchored regexes (\\A...\\z: Java's $ would accept a
                   trailing \\r or U+2028) and conv() of the time digits (Crockford base32
                   translated to conv's base-32 digits); ksuid by a Python UDF (a 160-bit base62
                   number is past conv's 64 bits), run only on 27-character base62 candidates;
                   typeid by an anchored regex (prefix, _, a 26-character lower-case suffix whose
                   version character is e/f and variant character 8/9/a/b/r/s/t/v: a UUIDv7) and
                   a Python UDF: its prefix group (FNV-1a-64 of the prefix, top 16 bits) above the
                   suffix's first 10 characters (48-bit milliseconds);
                   then grouped by (format, bucket). A format with more than 1,048,576 buckets
                   is written with {} and truncated: true.
  groups         = only when there are at most 64 lengths: for the lengths <= 4096 whose ids are
                   all ASCII, grouped.groupBy(length, count).count() (multiplicities per length)
                   and the positions posexplode again, summed by (length, i, char)
  sample         = the 32 smallest ids of at most 256 bytes, ordered as binary (unsigned bytes, i.e. UTF-8 order)
  placeholder_lines = lines that are the nil or the max UUID (an anchored, case-blind regex, with
                   hyphens or without): counted apart from ids; written only when there are some
  quoted_lines   = lines that were a JSON string (jq without -r: '"' at each end, none and no
                   backslash between), read as the bytes between the quotes; written only when
                   there are some
  ksuid_payload_bits = per bit of a KSUID's 128-bit payload (from the top), the ids with it set:
                   a Python UDF gives each KSUID's payload as 128 '0'/'1' characters, posexplode
                   keeps the '1's, summed by position with the id's count; written when any id
                   is a KSUID
  node_formats   = not written (the field is optional): a stream of Snowflakes, xids or ObjectIds
                   summarised here is judged as tokens; audit it with idbudget to read their fields
Counts are Spark longs (exact to 2^63) written as JSON strings.

Huge inputs: the input is read twice (for the line counts, then for the ids), never whole: the
text reader splits uncompressed files into partitions at any byte (a line belongs to the split
it starts in; gzip files are one split each). One line must fit in a task's memory (a JVM
array: < 2 GiB). The grouped ids are persisted MEMORY_AND_DISK: plan for the distinct ids plus
a long each, spilled to local disk. The driver collects only small results (histograms,
positions, symbols, groups: at most 64 lengths x 64 positions x 128 ASCII characters, up to
4 x 1,048,576 buckets, 32 samples). Globs and directories work as in spark.read.text (which
skips files whose names start with "_" or "."); their files' lines are one stream.

Reading of the contract: uuid1 is "the same shape with 1 at 14", so it needs the variant
8/9/a/b at 19 as uuid7 does.
"""
import argparse
import json
import os
import sys

from pyspark import StorageLevel
from pyspark.sql import SparkSession, functions as F, types as T

KIND = "idbudget-audit-summary"
SCHEMA_VERSION = 1
POSITIONS = 64
SAMPLE_SIZE = 32
SAMPLE_MAX_BYTES = 256
BUCKET_KEY_LIMIT = 1_048_576
GROUP_MAX_LENGTH = 4096  # a length past this gets no group
GROUP_MAX_LENGTHS = 64   # more distinct lengths than this: no groups at all
FORMATS = ("uuid7", "ulid", "ksuid", "uuid1", "typeid", "uuid6")

HEX = "[0-9a-fA-F]"
UUID_RE = rf"\A{HEX}{{8}}-{HEX}{{4}}-[167]{HEX}{{3}}-[89abAB]{HEX}{{3}}-{HEX}{{12}}\z"
ULID_RE = r"\A[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}\z"
KSUID_RE = r"\A[0-9A-Za-z]{27}\z"
# The nil and the max UUID (RFC 9562 §5.9, §5.10): placeholders, not ids.
PLACEHOLDER_RE = r"(?i)\A(?:0{8}-0{4}-0{4}-0{4}-0{12}|0{32}|f{8}-f{4}-f{4}-f{4}-f{12}|f{32})\z"
TYPEID_C = "[0-9a-hjkmnp-tv-z]"  # TypeID's suffix alphabet, lower case only
# A 1-63 character prefix not starting or ending with _, then a UUIDv7: version 7 makes suffix
# character 10 e or f; variant 10 makes character 13 one of 8 9 a b r s t v.
TYPEID_RE = (rf"\A[a-z](?:[a-z_]{{0,61}}[a-z])?_[0-7]{TYPEID_C}{{9}}[ef]{TYPEID_C}{{2}}[89abrstv]{TYPEID_C}{{12}}\z")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BASE32_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUV"  # what conv(x, 32, 10) reads
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def ksuid_bucket(s):
    """Top 32 bits of the 160-bit base62 value, as a decimal string; None if not a KSUID."""
    if s is None or len(s) != 27:
        return None
    value = 0
    for c in s:
        d = BASE62.find(c)
        if d < 0:
            return None
        value = value * 62 + d
    return str(value >> 128) if value < 1 << 160 else None


def ksuid_payload(s):
    """A KSUID's 128-bit payload as 128 '0'/'1' characters, the top bit first (the regex and
    ksuid_bucket have checked it is one)."""
    value = 0
    for c in s:
        value = value * 62 + BASE62.find(c)
    return format(value & ((1 << 128) - 1), "0128b")


def typeid_bucket(s):
    """A TypeID's bucket (the regex has checked its shape): the top 16 bits of its prefix's FNV-1a-64
    above the suffix's 48-bit millisecond, as a decimal string."""
    prefix, suffix = s[:-27], s[-26:]
    h = 0xCBF29CE484222325
    for byte in prefix.encode("ascii"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    millis = 0
    for c in suffix[:10]:
        millis = millis * 32 + CROCKFORD.index(c.upper())
    return str((h >> 48) << 48 | millis)


# ---------------------------------------------------------------- reading

def text_lines(spark, path):
    """One row per line, column `raw`: the line's bytes without b"\\n" (a file's opening BOM dropped)."""
    text = spark.read.option("lineSep", "\n").text(path)
    return text.select(F.col("value").cast("binary").alias("raw"))


def classify_lines(lines, max_line_bytes):
    """Adds crlf and quoted (0/1) and kind (empty, overlong, invalid, id) and `id` (bytes) per the rules."""
    crlf = F.coalesce(F.substring("raw", -1, 1) == F.lit(bytearray(b"\r")), F.lit(False))
    body = F.when(crlf, F.expr("substring(raw, 1, length(raw) - 1)")).otherwise(F.col("raw"))
    # A JSON string as jq prints one without -r: a quote at each end, none and no backslash between.
    # Counted on the text (an invalid byte decodes to U+FFFD, never to a quote or a backslash).
    quote = F.lit(bytearray(b'"'))
    text = F.col("body").cast("string")
    quoted = F.coalesce(
        (F.length("body") >= 2) & (F.substring("body", 1, 1) == quote) & (F.substring("body", -1, 1) == quote)
        & (F.length(text) - F.length(F.regexp_replace(text, '"', "")) == 2)
        & (F.instr(text, "\\") == 0),
        F.lit(False))
    inner = F.expr("substring(body, 2, length(body) - 2)")
    return (lines
            .select(crlf.cast("int").alias("crlf"), body.alias("body"))
            .select("crlf", quoted.cast("int").alias("quoted"), F.when(quoted, inner).otherwise(F.col("body")).alias("id"))
            .withColumn("kind",
                        F.when(F.length("id") == 0, "empty")
                        .when(F.length("id") > max_line_bytes, "overlong")
                        .when(~F.is_valid_utf8(F.col("id").cast("string")), "invalid")
                        .when(F.col("id").cast("string").rlike(PLACEHOLDER_RE), "placeholder")
                        .otherwise("id")))


def classify_rows(frame, column):
    """Table input: a row is an id; null and "" are empty; bytes that aren't UTF-8 are invalid."""
    field = frame.schema[column]
    value = F.col(column) if isinstance(field.dataType, T.BinaryType) else F.col(column).cast("string")
    return (frame
            .select(F.lit(0).alias("crlf"), F.lit(0).alias("quoted"), value.cast("binary").alias("id"))
            .withColumn("kind",
                        F.when(F.col("id").isNull() | (F.length("id") == 0), "empty")
                        .when(~F.is_valid_utf8(F.col("id").cast("string")), "invalid")
                        .when(F.col("id").cast("string").rlike(PLACEHOLDER_RE), "placeholder")
                        .otherwise("id")))


# ---------------------------------------------------------------- summarising

def count_map(rows, key=0, value=1):
    return {str(r[key]): str(r[value]) for r in sorted(rows, key=lambda r: int(r[key]))}


def time_buckets(grouped):
    """(format, bucket, ids) for the ids that parse as a time format."""
    s = F.col("s")
    crockford_head = F.translate(F.upper(F.substring(s, 1, 10)), CROCKFORD, BASE32_DIGITS)
    is7 = F.substring(s, 15, 1) == "7"
    is6 = F.substring(s, 15, 1) == "6"
    uuids = grouped.filter(s.rlike(UUID_RE)).select(
        F.when(is7, "uuid7").when(is6, "uuid6").otherwise("uuid1").alias("format"),
        F.when(is7, F.conv(F.concat(F.substring(s, 1, 8), F.substring(s, 10, 4)), 16, 10))
         # uuid6: time_high, time_mid, time_low in that order are the 60-bit time as it stands
         .when(is6, F.conv(F.concat(F.substring(s, 1, 8), F.substring(s, 10, 4), F.substring(s, 16, 3)), 16, 10))
         .otherwise(F.conv(F.concat(F.substring(s, 16, 3), F.substring(s, 10, 4), F.substring(s, 1, 8)), 16, 10))
         .alias("bucket"),
        "count")
    ulids = grouped.filter(s.rlike(ULID_RE)).select(
        F.lit("ulid").alias("format"), F.conv(crockford_head, 32, 10).alias("bucket"), "count")
    ksuids = (grouped.filter(s.rlike(KSUID_RE))
              .select(F.lit("ksuid").alias("format"), F.udf(ksuid_bucket, "string", useArrow=False)(s).alias("bucket"), "count")
              .filter(F.col("bucket").isNotNull()))
    typeids = grouped.filter(s.rlike(TYPEID_RE)).select(
        F.lit("typeid").alias("format"), F.udf(typeid_bucket, "string", useArrow=False)(s).alias("bucket"), "count")
    return (uuids.unionByName(ulids).unionByName(ksuids).unionByName(typeids)
            .groupBy("format", "bucket").agg(F.sum("count").alias("ids")))


def summarise(classified, max_line_bytes):
    counts = classified.agg(
        F.count(F.lit(1)).alias("lines"),
        F.sum(F.when(F.col("kind") == "id", 1).otherwise(0)).alias("ids"),
        F.sum(F.when(F.col("kind") == "empty", 1).otherwise(0)).alias("empty_lines"),
        F.sum("crlf").alias("crlf_lines"),
        F.sum(F.when(F.col("kind") == "invalid", 1).otherwise(0)).alias("invalid_utf8_lines"),
        F.sum(F.when(F.col("kind") == "overlong", 1).otherwise(0)).alias("overlong_lines"),
        F.sum(F.when(F.col("kind") == "placeholder", 1).otherwise(0)).alias("placeholder_lines"),
        F.sum("quoted").alias("quoted_lines"),
    ).first()

    grouped = (classified.filter(F.col("kind") == "id")
               .groupBy("id").count()
               .withColumn("s", F.col("id").cast("string"))
               .withColumn("n", F.char_length("s"))
               # valid UTF-8 is pure ASCII exactly when it has as many bytes as characters
               .withColumn("ascii", (F.octet_length("id") == F.col("n")).cast("int"))
               .persist(StorageLevel.MEMORY_AND_DISK))

    multiplicities = grouped.groupBy(F.col("count").alias("m")).count().collect()
    length_rows = grouped.groupBy("n").agg(F.sum("count").alias("ids"), F.min("ascii").alias("ascii")).collect()
    lengths = [(r["n"], r["ids"]) for r in length_rows]
    group_rows = group_positions = []
    if len(length_rows) <= GROUP_MAX_LENGTHS:
        eligible = sorted(r["n"] for r in length_rows if r["ascii"] == 1 and r["n"] <= GROUP_MAX_LENGTH)
        if eligible:
            in_groups = grouped.filter(F.col("n").isin(eligible))
            group_rows = in_groups.groupBy("n", F.col("count").alias("m")).count().collect()
            group_positions = (in_groups
                               .select("n", F.posexplode(F.expr(
                                   f"transform(sequence(0, least(n, {POSITIONS}) - 1), i -> substring(s, i + 1, 1))")),
                                   "count")
                               .groupBy("n", "pos", "col").agg(F.sum("count").alias("k"))
                               .collect())
    positions = (grouped
                 .select(F.posexplode(F.expr(
                     f"transform(sequence(0, least(char_length(s), {POSITIONS}) - 1), i -> substring(s, i + 1, 1))")),
                     "count")
                 .groupBy("pos", "col").agg(F.sum("count").alias("n"))
                 .collect())
    symbols = (grouped
               .select(F.explode(F.expr(
                   "array_distinct(transform(sequence(1, char_length(s)), i -> substring(s, i, 1)))")).alias("c"))
               .distinct().collect())
    buckets = time_buckets(grouped)
    per_format = {r["format"]: r for r in buckets.groupBy("format")
                  .agg(F.count(F.lit(1)).alias("keys"), F.sum("ids").alias("ids")).collect()}
    kept = [f for f, r in per_format.items() if r["keys"] <= BUCKET_KEY_LIMIT]
    bucket_rows = buckets.filter(F.col("format").isin(kept)).collect() if kept else []
    ksuid_bits = (grouped.filter(F.col("s").rlike(KSUID_RE))
                  .filter(F.udf(ksuid_bucket, "string", useArrow=False)(F.col("s")).isNotNull())
                  .select(F.posexplode(F.split(F.udf(ksuid_payload, "string", useArrow=False)(F.col("s")), "(?!$)")), "count")
                  .filter(F.col("col") == "1")
                  .groupBy("pos").agg(F.sum("count").alias("k"))
                  .collect())
    sample = grouped.where(F.octet_length("id") <= SAMPLE_MAX_BYTES).select("id").orderBy("id").limit(SAMPLE_SIZE).collect()
    grouped.unpersist()

    out = {
        "kind": KIND,
        "schema_version": SCHEMA_VERSION,
        "max_line_bytes": max_line_bytes,
        "shards": {"count": 1, "indexes": [0]},
    }
    for field in ("lines", "ids", "empty_lines", "crlf_lines", "invalid_utf8_lines", "overlong_lines"):
        out[field] = str(counts[field] or 0)
    out["multiplicities"] = count_map(multiplicities)
    out["lengths"] = count_map(lengths)
    out["symbols"] = "".join(sorted((r["c"] for r in symbols), key=ord))
    by_position = [{} for _ in range(max((r["pos"] + 1 for r in positions), default=0))]
    for r in sorted(positions, key=lambda r: (r["pos"], ord(r["col"]))):
        by_position[r["pos"]][r["col"]] = str(r["n"])
    out["positions"] = by_position
    out["time_formats"] = {}
    for f in FORMATS:
        r = per_format.get(f)
        truncated = r is not None and r["keys"] > BUCKET_KEY_LIMIT
        out["time_formats"][f] = {
            "ids": str(r["ids"] if r else 0),
            "buckets": {} if truncated else count_map(
                [(b["bucket"], b["ids"]) for b in bucket_rows if b["format"] == f]),
            "truncated": truncated,
        }
    groups = {}
    for r in sorted(group_rows, key=lambda r: (r["n"], r["m"])):
        groups.setdefault(r["n"], {"multiplicities": {}, "positions": [{} for _ in range(min(r["n"], POSITIONS))]})
        groups[r["n"]]["multiplicities"][str(r["m"])] = str(r["count"])
    for r in sorted(group_positions, key=lambda r: (r["n"], r["pos"], ord(r["col"]))):
        groups[r["n"]]["positions"][r["pos"]][r["col"]] = str(r["k"])
    out["groups"] = {str(n): g for n, g in sorted(groups.items())}
    if counts["placeholder_lines"]:
        out["placeholder_lines"] = str(counts["placeholder_lines"])
    if counts["quoted_lines"]:
        out["quoted_lines"] = str(counts["quoted_lines"])
    if per_format.get("ksuid") is not None:
        bits = ["0"] * 128
        for r in ksuid_bits:
            bits[r["pos"]] = str(r["k"])
        out["ksuid_payload_bits"] = bits
    out["sample"] = [bytes(r["id"]).decode("utf-8") for r in sample]
    return out


# ---------------------------------------------------------------- CLI

def parse_args(argv=None):
    p = argparse.ArgumentParser(description="The audit summary (docs/audit-summary.md) of a stream of ids, by Spark.")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--input", help="a text file of ids (or, with --column, a parquet/orc/... path)")
    source.add_argument("--table", help="a Spark table name (needs --column)")
    p.add_argument("--column", help="the id column of a table input")
    p.add_argument("--input-format", default="parquet", help="format of --input with --column (default parquet)")
    p.add_argument("--output", required=True, help="where to write the summary JSON ('-' for stdout)")
    p.add_argument("--max-line-bytes", type=int, default=4096)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    if args.table and not args.column:
        p.error("--table needs --column")
    if args.max_line_bytes < 1:
        p.error("--max-line-bytes must be positive")
    return args


def read_input(spark, args):
    """The classified lines (or rows) of the input the arguments name."""
    if args.column:
        frame = spark.table(args.table) if args.table else spark.read.format(args.input_format).load(args.input)
        return classify_rows(frame, args.column)
    return classify_lines(text_lines(spark, args.input), args.max_line_bytes)


def write_summary(summary, path):
    # One top-level field a line: readable in a diff, still plain JSON.
    text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                             for k, v in summary.items()) + "\n}\n"
    if path == "-":
        sys.stdout.write(text)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main(argv=None):
    args = parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the UDF's workers: this Python
    builder = (SparkSession.builder.master(args.master).appName("idbudget-audit-summary")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false"))
    if args.master.startswith("local"):
        builder = builder.config("spark.sql.shuffle.partitions", "4")  # not 200 tiny tasks per GROUP BY
    for kv in args.conf:
        key, _, value = kv.partition("=")
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        summary = summarise(read_input(spark, args), args.max_line_bytes)
    finally:
        spark.stop()
    write_summary(summary, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
