#!/usr/bin/env python3
"""Reference implementation of the audit summary (docs/audit-summary.md), standard library only.

It is the oracle the tests compare other implementations against (the Spark job in
examples/spark/audit_summary.py, `idbudget audit --emit-summary`), so it is written plainly: one
pass over the lines, a Counter of the ids, and the fields computed from that. It keeps every
distinct id in memory; it is for test-sized inputs, not for production streams.

Usage:
  audit_summary_ref.py summarise FILE [FILE ...] [-o S.json] [--max-line-bytes N] [--label-shard k/K]
  audit_summary_ref.py summarise --rows ROWS.jsonl [-o S.json]
  audit_summary_ref.py merge A.json B.json [...] -o C.json
  audit_summary_ref.py compare A.json B.json [--ignore FIELD ...]
  audit_summary_ref.py selftest

summarise FILE [FILE ...]
    The lines of the files (each file's last line ends with the file). The contract's line
    rules, byte for byte: only b"\\n" ends a line, a last line without one
    counts, one trailing b"\\r" is removed (crlf_lines), then empty / longer than max_line_bytes /
    not valid UTF-8 / id, in that order. A UTF-8 byte order mark is not special: it is part of
    the first line.
--rows ROWS.jsonl
    Table semantics (what the Spark job does for `--column`): each line of ROWS.jsonl is one JSON
    value, a string (one row, one id) or null. No line rules: no CR stripping, no length limit,
    a row may contain "\\n"; "" and null count as empty_lines; `lines` counts rows.
--label-shard k/K
    Only writes {"count": K, "indexes": [k]} into `shards`. It does not select ids: sharding by
    the fingerprint is the Swift tool's business. The caller splits the input (every id wholly
    in one part, non-id lines in part 0) so that the parts merge to the whole.
merge
    Merges summaries per the contract's merge column; refuses different kind, schema_version,
    max_line_bytes or shard count, and overlapping shard indexes. Exact only for parts that
    share no id (shards by fingerprint): for parts that split the lines anywhere else, an id
    seen in both counts as two ids in `multiplicities`, and nothing in a summary can tell.
compare
    Exit 0 if the two summaries are equal field by field (after JSON parsing; key order and
    whitespace don't matter, but "3" and 3 differ); otherwise prints one line per differing
    field, naming it, and exits 1.
selftest
    Known answers (the doc's example and hand-checked edge cases, groups by length included),
    merge (groups' rules too), and a deliberately wrong summary that compare must report.
"""
import argparse
import collections
import json
import sys
import uuid

KIND = "idbudget-audit-summary"
SCHEMA_VERSION = 1
DEFAULT_MAX_LINE_BYTES = 4096
POSITIONS = 64
SAMPLE_SIZE = 32
SAMPLE_MAX_BYTES = 256  # longer ids are never sampled: the sample stays small whatever the ids
BUCKET_KEY_LIMIT = 1_048_576
GROUP_MAX_LENGTH = 4096  # a length past this gets no group
GROUP_MAX_LENGTHS = 64   # a summary with more distinct lengths than this has no groups at all
FORMATS = ("uuid7", "ulid", "ksuid", "uuid1", "typeid", "uuid6")
TYPEID_SUFFIX = "0123456789abcdefghjkmnpqrstvwxyz"  # TypeID spec v0.3, lower case only
TYPEID_PREFIX = set("abcdefghijklmnopqrstuvwxyz_")

HEX = set("0123456789abcdefABCDEF")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
COUNT_FIELDS = ("lines", "ids", "empty_lines", "crlf_lines", "invalid_utf8_lines", "overlong_lines")


# ---------------------------------------------------------------- time formats

def _hex_value(text):
    value = 0
    for c in text:
        if c not in HEX:
            return None
        value = value * 16 + int(c, 16)
    return value


def _uuid_parts(s):
    """(version char, text) if s has the 8-4-4-4-12 hex shape with variant 8/9/a/b at 19."""
    if len(s) != 36:
        return None
    for i, c in enumerate(s):
        if i in (8, 13, 18, 23):
            if c != "-":
                return None
        elif c not in HEX:
            return None
    if s[19] not in "89abAB":
        return None
    return s[14]


def time_bucket(s):
    """(format, bucket) if the id parses as one of the time formats, else None.

    uuid1 is read as "the uuid7 shape with 1 at 14": it needs the variant 8/9/a/b at 19 too.
    """
    version = _uuid_parts(s)
    if version == "7":
        return "uuid7", _hex_value(s[0:8] + s[9:13])
    if version == "1":
        time_low, time_mid, time_hi = _hex_value(s[0:8]), _hex_value(s[9:13]), _hex_value(s[14:18])
        return "uuid1", (time_hi & 0x0FFF) << 48 | time_mid << 32 | time_low
    if version == "6":  # RFC 9562 §5.6: the same 60-bit time, its high bits first
        time_high, time_mid, time_low = _hex_value(s[0:8]), _hex_value(s[9:13]), _hex_value(s[14:18])
        return "uuid6", time_high << 28 | time_mid << 12 | (time_low & 0x0FFF)
    if len(s) == 26 and s[0] in "01234567":
        digits = [CROCKFORD.find(c.upper()) if c.isascii() else -1 for c in s]
        if all(d >= 0 for d in digits):
            value = 0
            for d in digits[:10]:
                value = value * 32 + d
            return "ulid", value
    if 28 <= len(s) <= 27 + 63 and s[-27] == "_":
        return _typeid_v7(s)
    if len(s) == 27:
        value = 0
        for c in s:
            d = BASE62.find(c) if c.isascii() else -1
            if d < 0:
                return None
            value = value * 62 + d
        if value < 1 << 160:
            return "ksuid", value >> 128
    return None


def _typeid_v7(s):
    """("typeid", bucket) for a TypeID (spec v0.3) with a non-empty prefix whose UUID is a v7."""
    prefix, suffix = s[:-27], s[-26:]
    if prefix[0] == "_" or prefix[-1] == "_" or not set(prefix) <= TYPEID_PREFIX:
        return None
    if suffix[0] not in "01234567" or not all(c in TYPEID_SUFFIX for c in suffix):
        return None
    value = 0
    for c in suffix:
        value = value * 32 + TYPEID_SUFFIX.index(c)
    if (value >> 76) & 0xF != 7 or (value >> 62) & 0x3 != 0b10:
        return None
    # The prefix group: the top 16 bits of the prefix's FNV-1a-64 above the 48-bit millisecond.
    h = 0xCBF29CE484222325
    for byte in prefix.encode("ascii"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "typeid", (h >> 48) << 48 | value >> 80


# ---------------------------------------------------------------- node-id formats

NODE_FORMATS = ("snowflake", "discord", "instagram", "sonyflake", "tsid", "xid", "objectid")
# The published layouts: (epoch ms, tick ms, node, sequence) from a 64-bit number.
EPOCHS = {"snowflake": 1288834974657, "discord": 1420070400000, "instagram": 1314220021721,
          "sonyflake": 1409529600000, "tsid": 1577836800000}
NODE_LIMIT = 65536
YEAR_2005_MS = 1104537600000
DAY_MS = 86400000
BASE32HEX = "0123456789abcdefghijklmnopqrstuv"


def node_fields(fmt, s):
    """(Unix ms, node, sequence) of an id in a node-id layout, or None when it is not one."""
    if fmt in EPOCHS and fmt != "tsid":
        if not (1 <= len(s) <= 19 and s.isascii() and s.isdigit()) or (len(s) > 1 and s[0] == "0"):
            return None
        v = int(s)
        if v >= 1 << 63:
            return None
        e = EPOCHS[fmt]
        if fmt == "instagram":
            return (v >> 23) + e, (v >> 10) & 0x1FFF, v & 0x3FF
        if fmt == "sonyflake":
            return (v >> 24) * 10 + e, v & 0xFFFF, (v >> 16) & 0xFF
        return (v >> 22) + e, (v >> 12) & 0x3FF, v & 0xFFF
    if fmt == "tsid":
        # Crockford's aliases, as TSID's libraries read them: O is 0, I and L are 1.
        s = s.upper().replace("O", "0").replace("I", "1").replace("L", "1") if s.isascii() else s
        if len(s) != 13 or not all(c in CROCKFORD for c in s if c.isascii()) or not s.isascii():
            return None
        v = 0
        for c in s:
            v = v * 32 + CROCKFORD.index(c)
        if v >= 1 << 64:
            return None
        return (v >> 22) + EPOCHS["tsid"], (v >> 12) & 0x3FF, v & 0xFFF
    if fmt == "xid":
        if len(s) != 20 or not all(c in BASE32HEX for c in s):
            return None
        v = 0
        for c in s:
            v = v * 32 + BASE32HEX.index(c)
        if v & 0xF:
            return None
        b = (v >> 4).to_bytes(12, "big")
        return int.from_bytes(b[0:4], "big") * 1000, int.from_bytes(b[4:9], "big"), int.from_bytes(b[9:12], "big")
    if fmt == "objectid":
        if len(s) != 24 or not all(c in HEX for c in s):
            return None
        b = bytes.fromhex(s)
        return int.from_bytes(b[0:4], "big") * 1000, int.from_bytes(b[4:9], "big"), int.from_bytes(b[9:12], "big")
    return None


def node_formats(ids_in_order, now_ms):
    """`node_formats`: each layout that reads the ids at plausible times, with the statistics of those
    it reads. A line it cannot read is a miss; it stops reading once its misses pass 1,000 and a
    thousandth of the lines it has seen, and is then absent."""
    out = {}
    for fmt in NODE_FORMATS:
        low = max(EPOCHS.get(fmt, 0) + DAY_MS if fmt in EPOCHS else 0, YEAR_2005_MS)
        counted = fmt in ("snowflake", "discord", "instagram", "sonyflake")
        stats = {"ids": 0, "first": None, "last": None, "nodes": set(), "truncated": False, "seq": 0, "reg": 0}
        last = {}
        alive = bool(ids_in_order)
        misses = 0
        for s in ids_in_order:
            f = node_fields(fmt, s)
            if f is None or not (low <= f[0] <= now_ms + DAY_MS):
                misses += 1
                if misses > 1000 and misses > (misses + stats["ids"]) // 1000:
                    alive = False
                    break
                continue
            ms, node, seq = f
            stats["ids"] += 1
            stats["first"] = ms if stats["first"] is None else min(stats["first"], ms)
            stats["last"] = ms if stats["last"] is None else max(stats["last"], ms)
            if counted:
                stats["seq"] = max(stats["seq"], seq)
                stats["starts"] = stats.get("starts", 0) + (1 if seq == 0 else 0)
            if not stats["truncated"]:
                stats["nodes"].add(node)
                if len(stats["nodes"]) > NODE_LIMIT:
                    stats["nodes"], stats["truncated"] = set(), True
            key = (ms, seq)
            if node in last:
                if key < last[node]:
                    stats["reg"] += 1
                last[node] = key
            elif len(last) < NODE_LIMIT:
                last[node] = key
        if alive and stats["ids"] > 0:
            entry = {"first_ms": str(stats["first"]), "ids": str(stats["ids"]), "last_ms": str(stats["last"])}
            if counted:
                entry["max_sequence"] = str(stats["seq"])
            entry.update(nodes=[str(n) for n in sorted(stats["nodes"])], nodes_truncated=stats["truncated"],
                         regressions=str(stats["reg"]))
            if counted:
                entry["tick_starts"] = str(stats.get("starts", 0))
            out[fmt] = entry
    return out


# ---------------------------------------------------------------- summarising

class Summariser:
    def __init__(self, max_line_bytes=DEFAULT_MAX_LINE_BYTES):
        self.max_line_bytes = max_line_bytes
        self.counts = dict.fromkeys(COUNT_FIELDS, 0)
        self.ids = collections.Counter()  # id bytes -> occurrences
        self.order = []  # id bytes in line order (node-id formats count clock regressions)

    def line(self, raw):
        """One line of a text input, without its b"\\n"."""
        self.counts["lines"] += 1
        if raw.endswith(b"\r"):
            raw = raw[:-1]
            self.counts["crlf_lines"] += 1
        if raw == b"":
            self.counts["empty_lines"] += 1
            return
        if len(raw) > self.max_line_bytes:
            self.counts["overlong_lines"] += 1
            return
        try:
            raw.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            self.counts["invalid_utf8_lines"] += 1
            return
        self.counts["ids"] += 1
        self.ids[raw] += 1
        self.order.append(raw)

    def row(self, value):
        """One row of a table input: a str, or None."""
        self.counts["lines"] += 1
        if value is None or value == "":
            self.counts["empty_lines"] += 1
            return
        self.counts["ids"] += 1
        self.ids[value.encode("utf-8")] += 1
        self.order.append(value.encode("utf-8"))

    def summary(self, shards=(1, [0])):
        multiplicities = collections.Counter()
        lengths = collections.Counter()
        symbols = set()
        positions = []
        formats = {f: {"ids": 0, "buckets": collections.Counter()} for f in FORMATS}
        # Per id length: multiplicities, positions, and whether every id of that length is ASCII.
        by_length = collections.defaultdict(lambda: {"ascii": True, "multiplicities": collections.Counter(),
                                                     "positions": None})
        for raw, n in self.ids.items():
            s = raw.decode("utf-8")
            multiplicities[n] += 1
            lengths[len(s)] += n
            g = by_length[len(s)]
            if g["ascii"] and (not raw.isascii() or len(s) > GROUP_MAX_LENGTH):
                g["ascii"], g["positions"] = False, None  # no group for this length: stop counting
            if g["ascii"]:
                g["multiplicities"][n] += 1
                if g["positions"] is None:
                    g["positions"] = [collections.Counter() for _ in range(min(len(s), POSITIONS))]
                for i, c in enumerate(s[:POSITIONS]):
                    g["positions"][i][c] += n
            symbols.update(s)
            for i, c in enumerate(s[:POSITIONS]):
                if i == len(positions):
                    positions.append(collections.Counter())
                positions[i][c] += n
            parsed = time_bucket(s)
            if parsed is not None:
                fmt, bucket = parsed
                formats[fmt]["ids"] += n
                formats[fmt]["buckets"][bucket] += n
        time_formats = {}
        for f in FORMATS:
            buckets = formats[f]["buckets"]
            truncated = len(buckets) > BUCKET_KEY_LIMIT
            time_formats[f] = {
                "ids": str(formats[f]["ids"]),
                "buckets": {} if truncated else _count_map(buckets),
                "truncated": truncated,
            }
        out = {
            "kind": KIND,
            "schema_version": SCHEMA_VERSION,
            "max_line_bytes": self.max_line_bytes,
            "shards": {"count": shards[0], "indexes": list(shards[1])},
        }
        for f in COUNT_FIELDS:
            out[f] = str(self.counts[f])
        out["multiplicities"] = _count_map(multiplicities)
        out["lengths"] = _count_map(lengths)
        out["symbols"] = "".join(sorted(symbols, key=ord))
        out["positions"] = [{c: str(n) for c, n in sorted(p.items(), key=lambda kv: ord(kv[0]))}
                            for p in positions]
        out["time_formats"] = time_formats
        import time
        nodes = node_formats([raw.decode("utf-8") for raw in self.order], int(time.time() * 1000))
        if nodes:
            out["node_formats"] = nodes
        groups = {}
        if len(lengths) <= GROUP_MAX_LENGTHS:
            for length in sorted(by_length):
                g = by_length[length]
                if g["ascii"]:
                    groups[str(length)] = {"multiplicities": _count_map(g["multiplicities"]),
                                           "positions": [_position_row(p) for p in g["positions"]]}
        out["groups"] = groups
        out["sample"] = [raw.decode("utf-8") for raw in sorted(r for r in self.ids if len(r) <= SAMPLE_MAX_BYTES)[:SAMPLE_SIZE]]
        return out


def _count_map(counter):
    return {str(k): str(v) for k, v in sorted(counter.items())}


def _position_row(counter):
    return {c: str(n) for c, n in sorted(counter.items(), key=lambda kv: ord(kv[0]))}


def summarise_bytes(data, max_line_bytes=DEFAULT_MAX_LINE_BYTES, shards=(1, [0])):
    s = Summariser(max_line_bytes)
    pieces = data.split(b"\n")
    if pieces[-1] == b"":  # the input ended with "\n" (or was empty): no line after it
        pieces.pop()
    for raw in pieces:
        s.line(raw)
    return s.summary(shards)


def summarise_files(paths, max_line_bytes=DEFAULT_MAX_LINE_BYTES, shards=(1, [0])):
    s = Summariser(max_line_bytes)
    for path in paths:
        with open(path, "rb") as f:
            for raw in f:  # binary mode: only b"\n" ends a line; the last one may lack it
                s.line(raw[:-1] if raw.endswith(b"\n") else raw)
    return s.summary(shards)


def summarise_rows(values, shards=(1, [0])):
    s = Summariser()
    for v in values:
        s.row(v)
    return s.summary(shards)


# ---------------------------------------------------------------- merging

class MergeError(ValueError):
    pass


def _sum_maps(a, b):
    out = collections.Counter({k: int(v) for k, v in a.items()})
    for k, v in b.items():
        out[k] += int(v)
    return out


def merge(a, b):
    for f in ("kind", "schema_version", "max_line_bytes"):
        if a[f] != b[f]:
            raise MergeError(f"{f} differs: {a[f]!r} vs {b[f]!r}")
    if a["shards"]["count"] != b["shards"]["count"]:
        raise MergeError(f"shards.count differs: {a['shards']['count']} vs {b['shards']['count']}")
    common = set(a["shards"]["indexes"]) & set(b["shards"]["indexes"])
    if common:
        raise MergeError(f"shard indexes overlap: {sorted(common)}")
    out = {f: a[f] for f in ("kind", "schema_version", "max_line_bytes")}
    out["shards"] = {"count": a["shards"]["count"],
                     "indexes": sorted(a["shards"]["indexes"] + b["shards"]["indexes"])}
    for f in COUNT_FIELDS:
        out[f] = str(int(a[f]) + int(b[f]))
    out["multiplicities"] = {str(k): str(v) for k, v in
                             sorted(_sum_maps(a["multiplicities"], b["multiplicities"]).items(), key=lambda kv: int(kv[0]))}
    out["lengths"] = {str(k): str(v) for k, v in
                      sorted(_sum_maps(a["lengths"], b["lengths"]).items(), key=lambda kv: int(kv[0]))}
    out["symbols"] = "".join(sorted(set(a["symbols"]) | set(b["symbols"]), key=ord))
    positions = []
    for i in range(max(len(a["positions"]), len(b["positions"]))):
        pa = a["positions"][i] if i < len(a["positions"]) else {}
        pb = b["positions"][i] if i < len(b["positions"]) else {}
        positions.append({c: str(n) for c, n in sorted(_sum_maps(pa, pb).items(), key=lambda kv: ord(kv[0]))})
    out["positions"] = positions
    out["time_formats"] = {}
    for f in FORMATS:
        empty = {"ids": "0", "buckets": {}, "truncated": False}  # typeid, uuid6: absent in older summaries
        ta, tb = a["time_formats"].get(f, empty), b["time_formats"].get(f, empty)
        truncated = ta["truncated"] or tb["truncated"]
        buckets = {} if truncated else _sum_maps(ta["buckets"], tb["buckets"])
        if len(buckets) > BUCKET_KEY_LIMIT:
            truncated, buckets = True, {}
        out["time_formats"][f] = {
            "ids": str(int(ta["ids"]) + int(tb["ids"])),
            "buckets": {k: str(v) for k, v in sorted(buckets.items(), key=lambda kv: int(kv[0]))},
            "truncated": truncated,
        }
    # node_formats: a layout both parts read every id in (a part without ids keeps the other's).
    na, nb = a.get("node_formats", {}), b.get("node_formats", {})
    nodes = {}
    if int(a["ids"]) == 0 or int(b["ids"]) == 0:
        nodes = na if int(b["ids"]) == 0 else nb
    else:
        for f in sorted(set(na) & set(nb)):
            x, y = na[f], nb[f]
            union = set(x["nodes"]) | set(y["nodes"])
            truncated = x["nodes_truncated"] or y["nodes_truncated"] or len(union) > NODE_LIMIT
            e = {"first_ms": str(min(int(x["first_ms"]), int(y["first_ms"]))), "ids": str(int(x["ids"]) + int(y["ids"])),
                 "last_ms": str(max(int(x["last_ms"]), int(y["last_ms"])))}
            if "max_sequence" in x or "max_sequence" in y:
                e["max_sequence"] = str(max(int(x.get("max_sequence", 0)), int(y.get("max_sequence", 0))))
            e.update(nodes=[] if truncated else sorted(union, key=int), nodes_truncated=truncated,
                     regressions=str(int(x["regressions"]) + int(y["regressions"])))
            if "tick_starts" in x or "tick_starts" in y:
                e["tick_starts"] = str(int(x.get("tick_starts", 0)) + int(y.get("tick_starts", 0)))
            nodes[f] = e
    if nodes:
        out["node_formats"] = nodes
    out["groups"] = merge_groups(a, b, out["lengths"])
    union = set(a["sample"]) | set(b["sample"])
    out["sample"] = sorted(union, key=lambda s: s.encode("utf-8"))[:SAMPLE_SIZE]
    return out


def merge_groups(a, b, merged_lengths):
    """The merged `groups` (an older summary without it has no group for any of its lengths).

    For each length: groups in both parts add up; a group in one part is kept when the other part
    has no id of that length; a length that some part has ids of but no group for gets none. More
    than 64 merged lengths: no groups at all.
    """
    if len(merged_lengths) > GROUP_MAX_LENGTHS:
        return {}
    ga, gb = a.get("groups", {}), b.get("groups", {})
    out = {}
    for key in sorted(set(ga) | set(gb), key=int):
        if key in ga and key in gb:
            x, y = ga[key], gb[key]
            rows = max(len(x["positions"]), len(y["positions"]))
            out[key] = {
                "multiplicities": {str(k): str(v) for k, v in sorted(
                    _sum_maps(x["multiplicities"], y["multiplicities"]).items(), key=lambda kv: int(kv[0]))},
                "positions": [_position_row(_sum_maps(x["positions"][i] if i < len(x["positions"]) else {},
                                                      y["positions"][i] if i < len(y["positions"]) else {}))
                              for i in range(rows)],
            }
        else:
            other = b if key in ga else a
            if int(_lookup(other["lengths"], key)) == 0:
                out[key] = (ga if key in ga else gb)[key]
    return out


def _lookup(count_map, key):
    """The count under a numeric key ("6" and "06" are the same key); "0" when absent."""
    for k, v in count_map.items():
        if int(k) == int(key):
            return v
    return "0"


# ---------------------------------------------------------------- comparing

def _show(v, limit=80):
    text = json.dumps(v, ensure_ascii=True)
    return text if len(text) <= limit else text[:limit] + "…"


def compare(a, b, ignore=()):
    """Differences between two summaries, one human-readable line each, naming the field."""
    diffs = []

    def walk(path, x, y):
        if type(x) is not type(y):
            diffs.append(f"{path}: {_show(x)} vs {_show(y)} (types differ)")
        elif isinstance(x, dict):
            for k in sorted(set(x) | set(y), key=str):
                name = json.dumps(k, ensure_ascii=True)[1:-1]  # "\r" or U+2028 shown escaped
                where = f"{path}.{name}" if path else name
                if path == "" and k in ignore:
                    continue
                if k not in x:
                    diffs.append(f"{where}: missing in the first, {_show(y[k])} in the second")
                elif k not in y:
                    diffs.append(f"{where}: {_show(x[k])} in the first, missing in the second")
                else:
                    walk(where, x[k], y[k])
        elif isinstance(x, list) and path != "sample" and path != "shards.indexes":
            if len(x) != len(y):
                diffs.append(f"{path}: {len(x)} entries vs {len(y)}")
            for i in range(min(len(x), len(y))):
                walk(f"{path}[{i}]", x[i], y[i])
        elif x != y:
            diffs.append(f"{path}: {_show(x)} vs {_show(y)}")

    walk("", a, b)
    return diffs


# ---------------------------------------------------------------- selftest

DOC_EXAMPLE = {
    "kind": "idbudget-audit-summary", "schema_version": 1, "max_line_bytes": 4096,
    "shards": {"count": 1, "indexes": [0]},
    "lines": "4", "ids": "3", "empty_lines": "1", "crlf_lines": "0", "invalid_utf8_lines": "0",
    "overlong_lines": "0",
    "multiplicities": {"1": "1", "2": "1"},
    "lengths": {"3": "3"},
    "symbols": "abcx",
    "positions": [{"a": "2", "x": "1"}, {"b": "2", "x": "1"}, {"c": "2", "x": "1"}],
    "time_formats": {
        "uuid7": {"ids": "0", "buckets": {}, "truncated": False},
        "ulid": {"ids": "0", "buckets": {}, "truncated": False},
        "ksuid": {"ids": "0", "buckets": {}, "truncated": False},
        "uuid1": {"ids": "0", "buckets": {}, "truncated": False},
        "typeid": {"ids": "0", "buckets": {}, "truncated": False},
        "uuid6": {"ids": "0", "buckets": {}, "truncated": False},
    },
    "groups": {"3": {"multiplicities": {"1": "1", "2": "1"},
                     "positions": [{"a": "2", "x": "1"}, {"b": "2", "x": "1"}, {"c": "2", "x": "1"}]}},
    "sample": ["abc", "xxx"],
}


def selftest():
    failures = []

    def check(name, cond):
        if not cond:
            failures.append(name)

    # The doc's example, byte for byte (and the same input as a file).
    got = summarise_bytes(b"abc\nxxx\n\nabc\n")
    check("doc example", compare(got, DOC_EXAMPLE) == [])

    # Line rules.
    s = summarise_bytes(b"\xef\xbb\xbfa\r\n\r\n\r\r\nx\xff\n" + b"y" * 5 + b"\r\n" + b"z" * 6 + b"\nlast",
                        max_line_bytes=5)
    check("lines", s["lines"] == "7")
    check("crlf", s["crlf_lines"] == "4")  # "\ufeffa\r", "\r", "\r\r", "yyyyy\r"
    check("empty", s["empty_lines"] == "1")
    check("invalid", s["invalid_utf8_lines"] == "1")
    check("overlong", s["overlong_lines"] == "1")  # 6 z's; 5 y's + CR is fine
    check("ids", s["ids"] == "4")  # "\ufeffa", "\r", "yyyyy", "last"
    check("sample order", s["sample"] == ["\r", "last", "yyyyy", "\ufeffa"])
    check("bom kept", s["symbols"] == "\ralsty\ufeff")
    check("no trailing line", summarise_bytes(b"a\n")["lines"] == "1")
    check("empty input", summarise_bytes(b"")["lines"] == "0" and summarise_bytes(b"")["positions"] == [])
    check("lone newline", summarise_bytes(b"\n")["empty_lines"] == "1")
    check("surrogate invalid", summarise_bytes(b"\xed\xa0\x80\n")["invalid_utf8_lines"] == "1")
    check("scalars", summarise_bytes("e\u0301\U0001F642\n".encode())["lengths"] == {"3": "1"})

    # Time formats (shapes and traps).
    check("uuid7", time_bucket("0189C2A4-5B6D-7ABC-8DEF-0123456789AB") == ("uuid7", 0x0189C2A45B6D))
    check("uuid7 variant", time_bucket("0189c2a4-5b6d-7abc-cdef-0123456789ab") is None)
    check("uuid7 underscore", time_bucket("0189c2a4-5b6d-7abc-8def-0123456789a_") is None)
    check("uuid1", time_bucket("c232ab00-9414-11ec-b3c8-9e6bdeced846")
          == ("uuid1", 0x1EC << 48 | 0x9414 << 32 | 0xC232AB00))
    u1 = "c232ab00-9414-11ec-b3c8-9e6bdeced846"
    check("uuid1 = stdlib time", time_bucket(u1)[1] == uuid.UUID(u1).time)
    check("uuid4 not timed", time_bucket("c232ab00-9414-41ec-b3c8-9e6bdeced846") is None)
    check("ulid", time_bucket("01arz3ndektsv4rrffq69g5fav") == ("ulid", 1469922850259))
    check("ulid overflow", time_bucket("8ZZZZZZZZZZZZZZZZZZZZZZZZZ") is None)
    check("ulid no I", time_bucket("01ARZ3NDEKTSV4RRFFQ69G5FAI") is None)
    check("ksuid max", time_bucket("aWgEPTl1tmebfsQzFP4bxwgy80V") == ("ksuid", 0xFFFFFFFF))
    check("ksuid 2^160", time_bucket("aWgEPTl1tmebfsQzFP4bxwgy80W") is None)
    check("ksuid zero", time_bucket("0" * 27) == ("ksuid", 0))
    check("ksuid space", time_bucket(" " + "0" * 26) is None)
    # TypeID: the spec's valid-uuidv7 vector (uuid 01890a5d-ac96-774b-bcce-b302099a8057).
    # FNV-1a-64's top 16 bits: "prefix" 0xba88, "abcdefghi" 0xfb32 (the FNV spec's parameters).
    check("typeid", time_bucket("prefix_01h455vb4pex5vsknk084sn02q") == ("typeid", 0xBA88 << 48 | 0x01890A5DAC96))
    check("typeid 9-char prefix", time_bucket("abcdefghi_01h455vb4pex5vsknk084sn02q") == ("typeid", 0xFB32 << 48 | 0x01890A5DAC96))
    check("typeid not v7", time_bucket("prefix_00000000000000000000000000") is None)
    check("typeid upper", time_bucket("prefix_01H455VB4PEX5VSKNK084SN02Q") is None)
    check("typeid prefix edge", time_bucket("prefix__01h455vb4pex5vsknk084sn02q") is None)
    check("typeid no prefix is a ulid", time_bucket("01h455vb4pex5vsknk084sn02q")[0] == "ulid")

    # Rows.
    r = summarise_rows(["a\nb", "", None, "x\r", "a\nb"])
    check("rows", (r["lines"], r["ids"], r["empty_lines"], r["crlf_lines"]) == ("5", "3", "2", "0"))
    check("rows multiplicities", r["multiplicities"] == {"1": "1", "2": "1"})

    # Merge: parts with disjoint ids merge to the whole (shards aside).
    whole = summarise_bytes(b"abc\nxxx\n\nabc\nq\xff\n")
    a = summarise_bytes(b"abc\n\nabc\nq\xff\n", shards=(2, [0]))
    b = summarise_bytes(b"xxx\n", shards=(2, [1]))
    m = merge(a, b)
    check("merge", compare(m, whole, ignore=("shards",)) == [])
    check("merge shards", m["shards"] == {"count": 2, "indexes": [0, 1]})
    try:
        merge(whole, whole)
        check("merge refuses overlapping shards", False)
    except MergeError:
        pass

    # Groups by id length: only lengths whose ids are all ASCII, at most 4096 characters, in a
    # stream of at most 64 lengths; multiplicities over the group's distinct ids, positions weighted.
    g = summarise_bytes(b"abc\nxy\nabc\nzz\n")["groups"]
    check("groups mixed", g == {
        "2": {"multiplicities": {"1": "2"}, "positions": [{"x": "1", "z": "1"}, {"y": "1", "z": "1"}]},
        "3": {"multiplicities": {"2": "1"}, "positions": [{"a": "2"}, {"b": "2"}, {"c": "2"}]}})
    g = summarise_bytes("ab\n\u00e9x\nabc\nab\r\n".encode())["groups"]
    check("groups non-ASCII length", list(g) == ["3"])
    check("groups empty input", summarise_bytes(b"")["groups"] == {})
    long = summarise_bytes(b"q" * 70 + b"\n" + b"m" * 4096 + b"\n" + b"o" * 4097 + b"\n", max_line_bytes=5000)
    check("groups long", sorted(long["groups"], key=int) == ["70", "4096"]
          and len(long["groups"]["70"]["positions"]) == 64 and "4097" in long["lengths"])
    check("groups 64 lengths", len(summarise_bytes(b"".join(b"a" * n + b"\n" for n in range(1, 65)))["groups"]) == 64)
    check("groups 65 lengths", summarise_bytes(b"".join(b"a" * n + b"\n" for n in range(1, 66)))["groups"] == {})
    check("groups rows", sorted(summarise_rows(["a\nb", "o" * 5000, "x\r", "é"])["groups"]) == ["2", "3"])
    # Merge: both groups add up; one part's group stays if the other has no id of that length; a
    # length the other part has ids of but no group for gets none; more than 64 lengths: none.
    pa = summarise_bytes(b"ab\nabc\nabc\n", shards=(2, [0]))
    pb = summarise_bytes("\u00e9x\nxyz\nqrst\n".encode(), shards=(2, [1]))
    gm = merge(pa, pb)["groups"]
    check("groups merge", gm == {
        "3": {"multiplicities": {"1": "1", "2": "1"}, "positions": [{"a": "2", "x": "1"}, {"b": "2", "y": "1"},
                                                                    {"c": "2", "z": "1"}]},
        "4": pb["groups"]["4"]}
          and gm == summarise_bytes("ab\nabc\nabc\n\u00e9x\nxyz\nqrst\n".encode())["groups"])
    old = {k: v for k, v in pb.items() if k != "groups"}  # an older summary: no groups for its lengths
    check("groups merge older", list(merge(pa, old)["groups"]) == [] and
          list(merge(pa, summarise_bytes(b"qrst\n", shards=(2, [1])))["groups"]) == ["2", "3", "4"])
    pa = summarise_bytes(b"".join(b"a" * n + b"\n" for n in range(1, 40)), shards=(2, [0]))
    pb = summarise_bytes(b"".join(b"b" * n + b"\n" for n in range(30, 66)), shards=(2, [1]))
    check("groups merge 65 lengths", len(pa["groups"]) == 39 and len(pb["groups"]) == 36
          and merge(pa, pb)["groups"] == {})
    wrong = json.loads(json.dumps(DOC_EXAMPLE))
    wrong["groups"]["3"]["positions"][1]["b"] = "3"
    diffs = compare(got, wrong)
    check("wrong groups reported", diffs == ['groups.3.positions[1].b: "2" vs "3"'])

    # A test must be able to fail: one count changed is reported, naming the field.
    for field, value in (("lines", "5"), ("multiplicities", {"1": "1", "2": "2"}),
                         ("positions", [{"a": "2", "x": "1"}, {"b": "2", "x": "1"}, {"c": "3", "x": "1"}])):
        wrong = json.loads(json.dumps(DOC_EXAMPLE))
        wrong[field] = value
        diffs = compare(got, wrong)
        check(f"wrong {field} reported", len(diffs) == 1 and diffs[0].startswith(field))
    wrong = json.loads(json.dumps(DOC_EXAMPLE))
    wrong["ids"] = 3  # a number where the contract wants a string
    check("type difference reported", compare(got, wrong) != [])
    wrong = json.loads(json.dumps(DOC_EXAMPLE))
    wrong["sample"] = ["xxx", "abc"]
    check("sample order reported", compare(got, wrong) != [])

    if failures:
        print("selftest FAILED: " + ", ".join(failures))
        return 1
    print("selftest: ok")
    return 0


# ---------------------------------------------------------------- CLI

def _write(summary, path):
    # One top-level field a line: readable in a diff, still plain JSON.
    text = "{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                               for k, v in summary.items()) + "\n}\n"
    if path in (None, "-"):
        sys.stdout.write(text)
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("summarise", help="summarise a file of ids (or --rows)")
    s.add_argument("files", nargs="*", metavar="FILE")
    s.add_argument("--rows", help="JSON lines, one string or null each: table semantics")
    s.add_argument("-o", "--output")
    s.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES)
    s.add_argument("--label-shard", metavar="k/K", help="only sets the shards field")
    m = sub.add_parser("merge", help="merge summaries")
    m.add_argument("inputs", nargs="+")
    m.add_argument("-o", "--output")
    c = sub.add_parser("compare", help="exit 1 and name the fields unless equal")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--ignore", action="append", default=[], help="a top-level field to skip")
    sub.add_parser("selftest")
    args = p.parse_args(argv)

    if args.cmd == "selftest":
        return selftest()
    if args.cmd == "summarise":
        shards = (1, [0])
        if args.label_shard:
            k, K = (int(x) for x in args.label_shard.split("/"))
            shards = (K, [k])
        if args.rows:
            with open(args.rows, encoding="utf-8") as f:
                values = [json.loads(line) for line in f if line.strip()]
            _write(summarise_rows(values, shards), args.output)
        elif args.files:
            _write(summarise_files(args.files, args.max_line_bytes, shards), args.output)
        else:
            p.error("summarise needs FILE or --rows")
        return 0
    if args.cmd == "merge":
        try:
            out = _load(args.inputs[0])
            for path in args.inputs[1:]:
                out = merge(out, _load(path))
        except MergeError as e:
            print(f"merge: {e}", file=sys.stderr)
            return 2
        _write(out, args.output)
        return 0
    if args.cmd == "compare":
        try:
            a, b = _load(args.a), _load(args.b)
        except (OSError, ValueError) as e:
            print(f"differs: cannot read a summary: {e}")
            return 1
        diffs = compare(a, b, ignore=set(args.ignore))
        for d in diffs[:50]:
            print(f"differs: {d}")
        if len(diffs) > 50:
            print(f"… and {len(diffs) - 50} more differences")
        return 1 if diffs else 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
