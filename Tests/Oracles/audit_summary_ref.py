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
    counts, one trailing b"\\r" is removed (crlf_lines), a JSON string's quotes (b'"' at each end,
    none and no backslash between: quoted_lines), then empty / longer than max_line_bytes /
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
KSUID_PAYLOAD_BITS = 128


def is_placeholder(raw):
    """The nil or the max UUID (RFC 9562 §5.9, §5.10), either case, with its hyphens or without."""
    s = raw.decode("ascii", errors="replace").lower()
    if len(s) == 36:
        if any(s[i] != "-" for i in (8, 13, 18, 23)):
            return False
        s = s.replace("-", "")
    return len(s) == 32 and (s == "0" * 32 or s == "f" * 32)


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
        value = _base62_value(s)
        if value is not None and value < 1 << 160:
            return "ksuid", value >> 128
    return None


def _base62_value(s):
    value = 0
    for c in s:
        d = BASE62.find(c) if c.isascii() else -1
        if d < 0:
            return None
        value = value * 62 + d
    return value


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

from audit_summary_nodes import NODE_LIMIT, block_ends, node_formats  # noqa: E402 (the layouts, split out)


# ---------------------------------------------------------------- summarising

class Summariser:
    def __init__(self, max_line_bytes=DEFAULT_MAX_LINE_BYTES):
        self.max_line_bytes = max_line_bytes
        self.counts = dict.fromkeys(COUNT_FIELDS, 0)
        self.placeholders = 0  # nil and max UUIDs: not ids (placeholder_lines)
        self.quoted = 0  # JSON strings read as the bytes between their quotes (quoted_lines)
        self.ids = collections.Counter()  # id bytes -> occurrences
        self.order = []  # id bytes in line order (node-id formats count clock regressions)
        # The input's bytes as the auditor reads them: where each line ends, and each id's line end
        # (its node-id layouts are judged after each block, node_formats).
        self.fed = 0
        self.line_ends = []
        self.id_ends = []

    def line(self, raw, newline=True):
        """One line of a text input, without its b"\\n" (`newline`: whether one followed it)."""
        self.fed += len(raw) + (1 if newline else 0)
        if newline:
            self.line_ends.append(self.fed)
        self._line(raw)

    def _line(self, raw):
        self.counts["lines"] += 1
        if raw.endswith(b"\r"):
            raw = raw[:-1]
            self.counts["crlf_lines"] += 1
        if len(raw) >= 2 and raw[:1] == b'"' and raw[-1:] == b'"' and b'"' not in raw[1:-1] and b"\\" not in raw[1:-1]:
            raw = raw[1:-1]
            self.quoted += 1
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
        if is_placeholder(raw):
            self.placeholders += 1
            return
        self.counts["ids"] += 1
        self.ids[raw] += 1
        self.order.append(raw)
        self.id_ends.append(self.fed)

    def row(self, value):
        """One row of a table input: a str, or None."""
        self.counts["lines"] += 1
        if value is None or value == "":
            self.counts["empty_lines"] += 1
            return
        if is_placeholder(value.encode("utf-8")):
            self.placeholders += 1
            return
        self.counts["ids"] += 1
        self.ids[value.encode("utf-8")] += 1
        self.order.append(value.encode("utf-8"))
        # A row's blocks as one line of its bytes (exact while no row holds a line break).
        self.fed += len(value.encode("utf-8")) + 1
        self.line_ends.append(self.fed)
        self.id_ends.append(self.fed)

    def summary(self, shards=(1, [0])):
        multiplicities = collections.Counter()
        lengths = collections.Counter()
        symbols = set()
        positions = []
        formats = {f: {"ids": 0, "buckets": collections.Counter()} for f in FORMATS}
        ksuid_bits = [0] * KSUID_PAYLOAD_BITS
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
                if fmt == "ksuid":
                    payload = _base62_value(s) & ((1 << 128) - 1)
                    for i in range(KSUID_PAYLOAD_BITS):  # from the top: index 0 is bit 127
                        if payload >> (127 - i) & 1:
                            ksuid_bits[i] += n
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
        if self.placeholders:
            out["placeholder_lines"] = str(self.placeholders)
        if self.quoted:
            out["quoted_lines"] = str(self.quoted)
        if formats["ksuid"]["ids"]:
            out["ksuid_payload_bits"] = [str(n) for n in ksuid_bits]
        import time
        import bisect
        ends = block_ends(self.line_ends, self.fed, (1 << 20) + self.max_line_bytes + 4)
        blocks = [bisect.bisect_left(ends, e) for e in self.id_ends]
        nodes = node_formats([raw.decode("utf-8") for raw in self.order], int(time.time() * 1000), blocks)
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


BOM = b"\xef\xbb\xbf"


def summarise_bytes(data, max_line_bytes=DEFAULT_MAX_LINE_BYTES, shards=(1, [0])):
    s = Summariser(max_line_bytes)
    if data.startswith(BOM):  # a byte-order mark that opens the input is not part of the first id
        data = data[len(BOM):]
    pieces = data.split(b"\n")
    ended = pieces[-1] == b""
    if ended:  # the input ended with "\n" (or was empty): no line after it
        pieces.pop()
    for i, raw in enumerate(pieces):
        s.line(raw, newline=ended or i < len(pieces) - 1)
    return s.summary(shards)


def summarise_files(paths, max_line_bytes=DEFAULT_MAX_LINE_BYTES, shards=(1, [0])):
    s = Summariser(max_line_bytes)
    for path in paths:
        with open(path, "rb") as f:
            first = True
            for raw in f:  # binary mode: only b"\n" ends a line; the last one may lack it
                if first and raw.startswith(BOM):  # a BOM that opens a file is not part of an id
                    raw = raw[len(BOM):]
                    if not raw:  # the file was just the BOM: no line at all
                        break
                first = False
                s.line(raw[:-1] if raw.endswith(b"\n") else raw, newline=raw.endswith(b"\n"))
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
    placeholders = int(a.get("placeholder_lines", "0")) + int(b.get("placeholder_lines", "0"))
    if placeholders:
        out["placeholder_lines"] = str(placeholders)
    quoted = int(a.get("quoted_lines", "0")) + int(b.get("quoted_lines", "0"))
    if quoted:
        out["quoted_lines"] = str(quoted)
    # ksuid_payload_bits: summed; unknown (absent) when a part with KSUIDs did not count them.
    ka, kb = (int(x["time_formats"].get("ksuid", {"ids": "0"})["ids"]) for x in (a, b))
    ba, bb = a.get("ksuid_payload_bits"), b.get("ksuid_payload_bits")
    if not ((ka and ba is None) or (kb and bb is None)) and (ba or bb):
        zero = ["0"] * KSUID_PAYLOAD_BITS
        out["ksuid_payload_bits"] = [str(int(x) + int(y)) for x, y in zip(ba or zero, bb or zero)]
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
    # declared: the lines of a declared shape, kept when both parts were made under the same one.
    # Lines set aside under a declaration are not ids: parts that set lines aside under different
    # declarations (or one under none) do not count the same lines, and are refused.
    da, db = a.get("declared"), b.get("declared")
    if da and db and da["shape"] == db["shape"]:
        out["declared"] = {k: str(int(da[k]) + int(db[k]))
                           for k in ("lines", "lines_other_case", "other_length", "other_symbols")}
        out["declared"]["shape"] = da["shape"]
    elif any(d and int(d["other_length"]) + int(d["other_symbols"]) > 0 for d in (da, db)):
        raise ValueError("the parts were made under different declarations, and lines were set aside")
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
        from audit_summary_selftest import selftest
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
