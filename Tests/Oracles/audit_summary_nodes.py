"""The node-id formats of the audit summary's plain-Python reference (audit_summary_ref.py): each
layout's fields (time, node, sequence) read from an id's text, and `node_formats` for a stream of ids
in line order, as docs/audit-summary.md specifies them (Node-id formats). Split out of
audit_summary_ref.py, which imports it; standard library only."""

HEX = set("0123456789abcdefABCDEF")
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

NODE_FORMATS = ("snowflake", "discord", "instagram", "sonyflake", "tsid", "xid", "objectid")
# The published layouts: (epoch ms, tick ms, node, sequence) from a 64-bit number.
EPOCHS = {"snowflake": 1288834974657, "discord": 1420070400000, "instagram": 1314220021721,
          "sonyflake": 1409529600000, "tsid": 1577836800000}
NODE_LIMIT = 65536
YEAR_2005_MS = 1104537600000
DAY_MS = 86400000
BASE32HEX = "0123456789abcdefghijklmnopqrstuv"
# The lengths, in characters, of each layout's ids: a line of another length is no miss for it.
LENGTHS = {f: range(1, 20) for f in ("snowflake", "discord", "instagram", "sonyflake")}
LENGTHS.update(tsid=(13,), xid=(20,), objectid=(24,))


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


def block_ends(line_ends, n, block_size):
    """Where the auditor's blocks end (docs/audit-summary.md, Node-id formats): the input (after an
    opening byte-order mark) is read `block_size` bytes at a time, each block cut after its last
    newline and the rest carried into the next; a full block without a newline is an overlong line,
    skipped to its newline, no block. `line_ends`: the offset just past each b"\n", ascending; `n`:
    the bytes in all. The offset each processed block ends at, the last one `n` when it holds bytes."""
    import bisect
    ends, start = [], 0
    while n - start >= block_size:
        limit = start + block_size
        j = bisect.bisect_right(line_ends, limit) - 1
        if j < 0 or line_ends[j] <= start:
            k = bisect.bisect_right(line_ends, limit)
            if k == len(line_ends):
                return ends
            start = line_ends[k]
            continue
        ends.append(line_ends[j])
        start = line_ends[j]
    if n > start:
        ends.append(n)
    return ends


def node_formats(ids_in_order, now_ms, blocks=None):
    """`node_formats`: each layout that reads the ids at plausible times, with the statistics of those
    it reads. A line of the layout's length it cannot read is a miss (another length is none); after each block (`blocks[i]`: the block of id i; None:
    one block) a layout whose misses pass 1,000 and outnumber the ids it read stops, and is absent."""
    out = {}
    for fmt in NODE_FORMATS:
        low = max(EPOCHS.get(fmt, 0) + DAY_MS if fmt in EPOCHS else 0, YEAR_2005_MS)
        counted = fmt in ("snowflake", "discord", "instagram", "sonyflake")
        stats = {"ids": 0, "first": None, "last": None, "nodes": set(), "truncated": False, "seq": 0, "reg": 0}
        last = {}
        alive = bool(ids_in_order)
        misses = 0
        block = blocks[0] if blocks else 0
        for i, s in enumerate(ids_in_order):
            if blocks and blocks[i] != block:
                block = blocks[i]
                if misses > 1000 and misses > stats["ids"]:
                    alive = False
                    break
            f = node_fields(fmt, s)
            if f is None and len(s) not in LENGTHS[fmt]:
                continue  # another length than the layout's ids: no id of it, and no miss
            if f is None or not (low <= f[0] <= now_ms + DAY_MS):
                misses += 1
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
        if alive and misses > 1000 and misses > stats["ids"]:  # after the last block
            alive = False
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
