"""The logs people really have, for the audit's calibration (Tools/fuzz/audit_calibration.py): honest
streams with the mess of real use — a CSV header line, a v4→v7 migration, TypeIDs beside other ids,
nil UUIDs, Snowflakes behind a header, declared formats — that must pass (no false alarm), and broken
ones hidden in the same mess that must fail (a stuck position, copies of one id — among node ids
too —, a planted duplicate in a migration, a KSUID payload that counts, too many nil UUIDs).

Every id is written here from the formats' specifications with random.Random (RFC 9562 for UUIDs,
the TypeID spec v0.3, segmentio's KSUID, Twitter's Snowflake layout, rs/xid's README, RFC 9562 §5.8
for a UUIDv8), not by idbudget.
"""
import base64
import time
import uuid

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
HEX = "0123456789abcdef"
TYPEID = "0123456789abcdefghjkmnpqrstvwxyz"
NIL = "00000000-0000-0000-0000-000000000000"
MAX = "ffffffff-ffff-ffff-ffff-ffffffffffff"
# A fixed start a year before the run (plausible: from 2005 to tomorrow), whole days so a run is stable.
NOW_MS = int(time.time() // 86400 * 86400 * 1000) - 365 * 86400 * 1000


def uuid7_value(rng, ms):
    return ms << 80 | 0x7 << 76 | rng.getrandbits(12) << 64 | 0b10 << 62 | rng.getrandbits(62)


def uuid7s(rng, n, start=NOW_MS):
    """One UUIDv7 a millisecond."""
    return [str(uuid.UUID(int=uuid7_value(rng, start + i))) for i in range(n)]


def uuid4s(rng, n):
    return [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(n)]


def uuid1s(rng, n):
    """One host's UUIDv1s (RFC 9562 §5.1): 100 ns ticks since 1582, a clock sequence, a constant node."""
    t, clock, node = 0x1EF_0000_0000_0000 + rng.getrandbits(40), rng.getrandbits(14), rng.getrandbits(48)
    out = []
    for _ in range(n):
        t += 1 + rng.randrange(20000)
        out.append(str(uuid.UUID(fields=(t & 0xFFFFFFFF, t >> 32 & 0xFFFF, t >> 48 & 0x0FFF | 0x1000,
                                         0x80 | clock >> 8, clock & 0xFF, node))))
    return out


def typeids(rng, n, prefix):
    """TypeIDs (spec v0.3): prefix, _, a UUIDv7 in 26 lower-case Crockford characters (one a millisecond)."""
    out = []
    for i in range(n):
        v = uuid7_value(rng, NOW_MS + i)
        out.append(prefix + "_" + "".join(TYPEID[v >> (125 - 5 * k) & 31] for k in range(26)))
    return out


def ulids(rng, n, lower_every=0):
    """ULIDs (ulid/spec): 48-bit ms and 80 random bits in 26 upper-case Crockford characters; every
    `lower_every`-th written in lower case, as some libraries write them."""
    out = []
    for i in range(n):
        v = (NOW_MS + i // 4) << 80 | rng.getrandbits(80)
        text = "".join(TYPEID[v >> (125 - 5 * k) & 31] for k in range(26)).upper()
        out.append(text.lower() if lower_every and i % lower_every == 0 else text)
    return out


def ksuid(seconds, payload):
    """segmentio/ksuid: 32 bits of seconds since 1400000000 above a 128-bit payload, 27 base62 characters."""
    v = seconds << 128 | payload
    out = []
    for _ in range(27):
        v, r = divmod(v, 62)
        out.append(B62[r])
    return "".join(reversed(out))


def ksuids(rng, n, per_second=100, counter=False):
    start = (NOW_MS // 1000) - 1_400_000_000
    return [ksuid(start + i // per_second, i if counter else rng.getrandbits(128)) for i in range(n)]


def snowflakes(rng, n):
    """Twitter Snowflakes in order: ms since 1288834974657 << 22 | worker (10 bits) << 12 | sequence."""
    node = rng.randrange(1024)
    out, ms, seq = [], NOW_MS - 1288834974657, 0
    for _ in range(n):
        if rng.random() < 0.7:
            ms += 1 + rng.randrange(3)
            seq = 0
        else:
            seq += 1
        out.append(str(ms << 22 | node << 12 | seq))
    return out


FIREBASE = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def firebase_ids(rng, n):
    """Firebase push ids (the 2015 post): 8 characters of milliseconds, 12 random, in bursts of up to
    20 a millisecond whose random part is counted up from one draw."""
    out, ms = [], NOW_MS
    while len(out) < n:
        ms += 1 + rng.randrange(5)
        r = rng.getrandbits(72)
        for _ in range(min(1 + rng.randrange(20), n - len(out))):
            v = ms << 72 | r
            out.append("".join(FIREBASE[v >> (6 * (19 - k)) & 63] for k in range(20)))
            r = (r + 1) % (1 << 72)
    return out


def uuid8s(rng, n):
    """A vendor's UUIDv8 (RFC 9562 §5.8 leaves its 122 bits to the vendor): here a millisecond clock
    in the top 48 bits, as many vendors lay it out, the rest random; one a millisecond."""
    out = []
    for i in range(n):
        v = (NOW_MS + i) << 80 | 0x8 << 76 | rng.getrandbits(12) << 64 | 0b10 << 62 | rng.getrandbits(62)
        out.append(str(uuid.UUID(int=v)))
    return out


def xids(rng, n):
    """rs/xid: 4 bytes of Unix seconds, 3 of machine id, 2 of pid, a 3-byte counter from a random
    start, 12 bytes in RFC 4648 base32hex, lower case, unpadded (20 characters)."""
    machine, pid, counter, sec = rng.getrandbits(24), rng.getrandbits(16), rng.getrandbits(24), NOW_MS // 1000
    out = []
    for _ in range(n):
        if rng.random() < 0.01:
            sec += 1
        v = sec << 64 | machine << 40 | pid << 24 | counter
        counter = (counter + 1) % (1 << 24)
        out.append(base64.b32hexencode(v.to_bytes(12, "big")).decode().lower().rstrip("="))
    return out


def objectids(rng, n):
    """MongoDB's BSON ObjectId spec: 4 bytes of Unix seconds, a 5-byte process random value, a 3-byte
    counter from a random start; 24 hex characters."""
    process, counter, sec = rng.getrandbits(40), rng.getrandbits(24), NOW_MS // 1000
    out = []
    for _ in range(n):
        if rng.random() < 0.01:
            sec += 1
        out.append("%08x%010x%06x" % (sec, process, counter))
        counter = (counter + 1) % (1 << 24)
    return out


def cuid2s(rng, n):
    """cuid2's shape (paralleldrive/cuid2): a lower-case letter, then 23 base36 characters of a hash,
    taken as uniform (the model idbudget's formats table counts)."""
    return [rng.choice("abcdefghijklmnopqrstuvwxyz") + "".join(rng.choices(B36, k=23)) for _ in range(n)]


def interleaved(rng, a, b):
    """Two services' logs merged by time: each keeps its own order."""
    out, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and rng.random() < len(a) / (len(a) + len(b))):
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out


def copied(rng, lines, among=None):
    """`lines` with one of `among` (default: of them) copied at a random place."""
    pick = (among or lines)[rng.randrange(len(among or lines))]
    at = rng.randrange(len(lines) + 1)
    return lines[:at] + [pick] + lines[at:]


def tokens(rng, n, alphabet, length):
    return ["".join(rng.choices(alphabet, k=length)) for _ in range(n)]


def stuck_hex8(rng, n):
    """hex x8 whose fifth character is always 0: a stuck position mid-token."""
    return [t[:4] + "0" + t[5:] for t in tokens(rng, n, HEX, 8)]


def shuffled(rng, lines):
    rng.shuffle(lines)
    return lines


# key -> generator(rng, n). The header line is a CSV's.
GENERATORS = {
    "log-v7-header": lambda rng, n: ["id"] + uuid7s(rng, n),
    "log-v7-nil": lambda rng, n: shuffled(rng, uuid7s(rng, n) + [NIL] * 5 + [MAX] * 2),
    "log-v4-v7": lambda rng, n: uuid4s(rng, n // 20) + uuid7s(rng, n),
    "log-v1-v4-v7": lambda rng, n: shuffled(rng, uuid1s(rng, n // 3) + uuid4s(rng, n // 3) + uuid7s(rng, n // 3)),
    "log-typeid-mix": lambda rng, n: ["id"] + shuffled(rng, typeids(rng, n, "user") + uuid4s(rng, 1)),
    "log-typeid-prefixes": lambda rng, n: shuffled(rng, typeids(rng, n // 2, "user") + typeids(rng, n // 2, "order_item")),
    "log-snowflake-header": lambda rng, n: ["id"] + snowflakes(rng, n),
    "log-ksuid": lambda rng, n: ksuids(rng, n),
    "log-declared-b62x22": lambda rng, n: tokens(rng, n, B62, 22),
    "log-v1-v4": lambda rng, n: ["id"] + shuffled(rng, uuid1s(rng, n // 2) + uuid4s(rng, n // 2)),
    "log-v4-test-uuid": lambda rng, n: uuid4s(rng, n) + ["00000000-0000-0000-0000-000000000001"],
    "log-firebase": lambda rng, n: ["id"] + firebase_ids(rng, n),
    "log-declared-uuid4": lambda rng, n: uuid4s(rng, n),
    "log-snowflake-v4s": lambda rng, n: ["id"] + interleaved(rng, snowflakes(rng, n), uuid4s(rng, n // 4)),
    "log-xid-v4s": lambda rng, n: interleaved(rng, xids(rng, n), uuid4s(rng, n // 4)),
    "log-typeid-lengths-tokens": lambda rng, n: ["id"] + shuffled(
        rng, typeids(rng, n // 2, "user") + typeids(rng, n // 2, "invoice_line") + tokens(rng, n // 4, B62, 22)),
    "log-v4-v8": lambda rng, n: shuffled(rng, uuid4s(rng, n // 2) + uuid8s(rng, n // 2)),
    "log-declared-crockford-lower": lambda rng, n: tokens(rng, n, TYPEID, 26),
    "log-objectid-cuid2": lambda rng, n: ["id"] + interleaved(rng, objectids(rng, n), cuid2s(rng, n // 20)),
    "log-objectid-then-cuid2": lambda rng, n: ["id"] + objectids(rng, n // 10) + cuid2s(rng, n),
    "log-cuid2-few-objectids": lambda rng, n: ["id"] + shuffled(rng, cuid2s(rng, n) + objectids(rng, 3)),
    "log-typeid-nulls": lambda rng, n: ["id"] + shuffled(rng, typeids(rng, n, "user") + ["null"] * 3 + ["-"] * 2),
    "log-ulid-cases": lambda rng, n: shuffled(rng, ulids(rng, n, lower_every=100)),
    "log-snowflake-typeids": lambda rng, n: ["id"] + shuffled(rng, snowflakes(rng, n) + typeids(rng, n // 4, "user")),
    "bad-snowflake-typeids-copy": lambda rng, n: (lambda s: copied(rng, shuffled(rng, s + typeids(rng, n // 4, "user")), s))(
        snowflakes(rng, n)),
    "log-ksuid-spread": lambda rng, n: ksuids(rng, n, per_second=1),
    "log-firebase-bare": lambda rng, n: firebase_ids(rng, n),
    # Two stray lines of different lengths, both long enough to hold a TypeID suffix, in a small log.
    "log-typeid-two-strays": lambda rng, n: (lambda t: t[:n // 3] + ["stray_line_number_one_x_28ch"] + t[n // 3:]
                                             + ["another stray line of a different length here"])(typeids(rng, n, "user")),
    # Spreadsheet exports joined with cat: a byte-order mark and a quoted header before each part, CRLF.
    "log-csv-merged-bom-quoted": lambda rng, n: [line for part in range(4) for line in
                                                 ['\ufeff"request_id",status\r'] + [t + ",200\r" for t in tokens(rng, n // 4, B62, 22)]],
    # Exports of two versions of a system joined with cat: the second header moved the column, dropped
    # one and added two; a `kind` column holds the column's name as a value now and then.
    "log-csv-schema-change": lambda rng, n: (lambda t: ["request_id,status,kind"]
                                             + [f"{x},200,{'request_id' if i % 50 == 0 else 'k'}" for i, x in enumerate(t[:n // 2])]
                                             + ["\ufeffts,kind,request_id,user"]
                                             + [f"{i},k,{x},u{i % 97}" for i, x in enumerate(t[n // 2:])])(tokens(rng, n, B62, 22)),
    # broken ones
    "bad-ksuid-stuck-char": lambda rng, n: [k[:15] + "Q" + k[16:] for k in ksuids(rng, n, per_second=1)],
    "bad-ksuid-narrowed": lambda rng, n: [k[:20] + B62[B62.index(k[20]) // 2 * 2] + k[21:] for k in ksuids(rng, n, per_second=1)],
    "bad-firebase-stuck": lambda rng, n: [f[:12] + "Q" + f[13:] for f in firebase_ids(rng, n)],
    "bad-21-copies": lambda rng, n: ["3fA9kQ2mZx81LpWcVb7NtR"] * 21,
    # A short token is no word: 15 copies of one with digits, within the strays' tolerance.
    "bad-v7-short-token-copies": lambda rng, n: (lambda t: ["id"] + uuid7s(rng, n) + [t] * 15)(
        "".join(rng.choice(B62) for _ in range(14)) + rng.choice("0123456789")),
    "bad-stuck-hex8": lambda rng, n: stuck_hex8(rng, n),
    "bad-v4-v7-planted": lambda rng, n: (lambda v7: uuid4s(rng, n // 20) + v7 + [v7[rng.randrange(len(v7))]])(uuid7s(rng, n)),
    "bad-v1-repeat": lambda rng, n: (lambda v1: v1 + [v1[rng.randrange(len(v1))]] + uuid7s(rng, n))(uuid1s(rng, n // 4)),
    "bad-ksuid-counter": lambda rng, n: ksuids(rng, n, counter=True),
    "bad-v7-nils": lambda rng, n: shuffled(rng, uuid7s(rng, n) + [NIL] * 100),
    "bad-firebase-copy": lambda rng, n: (lambda f: f + [f[rng.randrange(len(f))]])(firebase_ids(rng, n)),
    # A stuck token's copies hidden among node ids, within the strays a layout tolerates (1 in 1,000).
    "bad-snowflake-copies": lambda rng, n: (lambda t: ["id"] + snowflakes(rng, n) + [t] * 15)(
        "".join(rng.choice(B62) for _ in range(22))),
    "bad-snowflake-v4s-copy": lambda rng, n: (lambda s: copied(rng, interleaved(rng, s, uuid4s(rng, n // 4)), s))(snowflakes(rng, n)),
    "bad-xid-v4s-copy": lambda rng, n: (lambda u: copied(rng, interleaved(rng, xids(rng, n), u), u))(uuid4s(rng, n // 4)),
    "bad-typeid-lengths-copy": lambda rng, n: (lambda t: copied(rng, shuffled(rng, t + tokens(rng, n // 4, B62, 22)), t))(
        typeids(rng, n // 2, "user") + typeids(rng, n // 2, "invoice_line")),
    "bad-cuid2-stuck": lambda rng, n: interleaved(rng, objectids(rng, n), [c[:12] + "z" * 12 for c in cuid2s(rng, n // 20)]),
    "bad-objectid-then-cuid2-copy": lambda rng, n: (lambda o: copied(rng, o + cuid2s(rng, n), o))(objectids(rng, n // 10)),
    # cuid2s whose letters g-z are as they should be, but which write 0 for every symbol an ObjectId
    # writes too (0-9, a-f), or whose first letter is stuck.
    "bad-cuid2-shared-zero": lambda rng, n: interleaved(rng, objectids(rng, n // 20), [
        c[0] + "".join("0" if ch in "0123456789abcdef" else ch for ch in c[1:]) for c in cuid2s(rng, n)]),
    "bad-cuid2-first-stuck": lambda rng, n: interleaved(rng, objectids(rng, n // 20), ["a" + c[1:] for c in cuid2s(rng, n)]),
    "bad-v4-v8-copy": lambda rng, n: (lambda v8: copied(rng, shuffled(rng, uuid4s(rng, n // 2) + v8), v8))(uuid8s(rng, n // 2)),
    # A UUIDv4 stuck at one position where the other version writes one symbol (a v1's node, a v8's clock).
    "bad-v4-stuck-v1s": lambda rng, n: shuffled(rng, uuid1s(rng, n // 2) + [u[:30] + "0" + u[31:] for u in uuid4s(rng, n // 2)]),
    "bad-v4-stuck-v8s": lambda rng, n: shuffled(rng, uuid8s(rng, n // 2) + [u[:2] + "0" + u[3:] for u in uuid4s(rng, n // 2)]),
}

# Honest: (key, label, n, extra audit arguments): every stream must be `consistent`, exit 0.
HONEST = [
    ("log-v7-header", "CSV header + 20,000 UUIDv7", 20000, []),
    ("log-v7-nil", "20,000 UUIDv7 + 5 nil and 2 max UUIDs", 20000, []),
    ("log-v4-v7", "v4→v7 migration: 1,000 UUIDv4 then 20,000 UUIDv7", 20000, []),
    ("log-v1-v4-v7", "UUIDv1, v4 and v7, 10,000 of each, shuffled", 30000, []),
    ("log-typeid-mix", "CSV header + 10,000 TypeIDs + 1 UUIDv4", 10000, []),
    ("log-typeid-prefixes", "TypeIDs of two prefixes (user_, order_item_)", 10000, []),
    ("log-snowflake-header", "CSV header + 20,000 Snowflakes", 20000, []),
    ("log-ksuid", "20,000 KSUIDs, 100 a second", 20000, []),
    ("log-v1-v4", "CSV header + UUIDv1 and v4, 10,000 of each, shuffled", 20000, []),
    ("log-v4-test-uuid", "20,000 UUIDv4 + one test UUID (...0001)", 20000, []),
    ("log-firebase", "CSV header + 20,000 Firebase push ids in bursts", 20000, []),
    ("log-declared-b62x22", "declared --alphabet base62 --length 22", 20000, ["--alphabet", "base62", "--length", "22"]),
    ("log-declared-uuid4", "declared --scheme uuid4", 20000, ["--scheme", "uuid4"]),
    ("log-snowflake-v4s", "CSV header + 20,000 Snowflakes + 5,000 UUIDv4 of another service", 20000, []),
    ("log-xid-v4s", "20,000 xids + 5,000 UUIDv4 of another service", 20000, []),
    ("log-typeid-lengths-tokens", "CSV header + TypeIDs of two prefix lengths + 5,000 base62x22", 20000, []),
    ("log-v4-v8", "UUIDv4 and a vendor's clocked UUIDv8, 10,000 each, shuffled", 20000, []),
    ("log-objectid-cuid2", "CSV header + 20,000 ObjectIds + 1,000 cuid2s (a move off MongoDB)", 20000, []),
    ("log-objectid-then-cuid2", "CSV header + 2,000 ObjectIds, then 20,000 cuid2s (the move done)", 20000, []),
    ("log-cuid2-few-objectids", "CSV header + 20,000 cuid2s + 3 ObjectIds (a test's), shuffled", 20000, []),
    ("log-declared-crockford-lower", "lower-case Crockford, declared --alphabet base32 --length 26", 20000,
     ["--alphabet", "base32", "--length", "26"]),
    ("log-typeid-nulls", "CSV header + 10,000 TypeIDs + 3 nulls and 2 dashes", 10000, []),
    ("log-ulid-cases", "20,000 ULIDs, 1 in 100 written in lower case", 20000, []),
    ("log-snowflake-typeids", "CSV header + 20,000 Snowflakes + 5,000 TypeIDs, shuffled", 20000, []),
    ("log-ksuid-spread", "20,000 KSUIDs, one a second", 20000, []),
    ("log-ksuid", "20,000 KSUIDs, 100 a second, declared --scheme ksuid", 20000, ["--scheme", "ksuid"]),
    ("log-firebase-bare", "20,000 Firebase push ids in bursts, declared --scheme firebase", 20000, ["--scheme", "firebase"]),
    ("log-typeid-two-strays", "300 TypeIDs + two stray lines of 28 and 45 characters", 300, []),
    ("log-csv-merged-bom-quoted", "4 CSV exports joined, each with a BOM and a quoted header, CRLF; --column request_id",
     20000, ["--column", "request_id"]),
    ("log-csv-schema-change", "2 CSV exports of two schemas joined (the column moved, a kind column holding its name); --column request_id",
     20000, ["--column", "request_id"]),
]

# Broken: (key, label, n, extra, verdicts any of which detects it): every stream must fail, exit 1.
BROKEN = [
    ("bad-21-copies", "21 copies of one base58 id", 21, [], {"too-many-duplicates"}),
    ("bad-v7-short-token-copies", "CSV header + 20,000 UUIDv7 + 15 copies of a 15-character base62 token", 20000, [],
     {"too-many-duplicates"}),
    # Undeclared, a constant position mid-token is structure (a UUID's version is one): declared, it fails
    # for the position, though its duplicates over the declared space (16^8) are proven too at this n.
    ("bad-stuck-hex8", "hex x8, position 5 stuck at 0, n=100,000, declared --alphabet hex --length 8", 100000,
     ["--alphabet", "hex", "--length", "8"], {"non-uniform-positions"}),
    ("bad-stuck-hex8", "the same, n=5,000", 5000, ["--alphabet", "hex", "--length", "8"], {"non-uniform-positions"}),
    ("bad-v4-v7-planted", "v4→v7 migration with one planted duplicate", 20000, [], {"too-many-duplicates"}),
    ("bad-v1-repeat", "UUIDv1 then UUIDv7, one UUIDv1 repeated", 20000, [], {"too-many-duplicates"}),
    ("bad-ksuid-counter", "KSUIDs whose payload counts", 20000, [], {"non-uniform-positions"}),
    ("bad-v7-nils", "20,000 UUIDv7 + 100 nil UUIDs", 20000, [], {"too-many-duplicates"}),
    ("bad-firebase-copy", "Firebase push ids, one copied", 20000, [], {"too-many-duplicates"}),
    ("bad-snowflake-copies", "CSV header + 20,000 Snowflakes + 15 copies of one base62 token", 20000, [], {"too-many-duplicates"}),
    ("bad-snowflake-v4s-copy", "20,000 Snowflakes + 5,000 UUIDv4, one Snowflake copied", 20000, [], {"too-many-duplicates"}),
    ("bad-xid-v4s-copy", "20,000 xids + 5,000 UUIDv4, one UUIDv4 copied", 20000, [], {"too-many-duplicates"}),
    ("bad-typeid-lengths-copy", "TypeIDs of two prefix lengths + base62x22, one TypeID copied", 20000, [],
     {"too-many-duplicates"}),
    ("bad-v4-v8-copy", "UUIDv4 and UUIDv8, one UUIDv8 copied", 20000, [], {"too-many-duplicates"}),
    ("bad-v4-stuck-v1s", "UUIDv1 and UUIDv4, 10,000 each, the v4s' position 31 stuck", 20000, [], {"non-uniform-positions"}),
    ("bad-v4-stuck-v8s", "clocked UUIDv8 and UUIDv4, 10,000 each, the v4s' position 3 stuck", 20000, [], {"non-uniform-positions"}),
    ("bad-cuid2-stuck", "20,000 ObjectIds + 1,000 cuid2s stuck past their 12th character", 20000, [], {"non-uniform-positions"}),
    ("bad-objectid-then-cuid2-copy", "2,000 ObjectIds then 20,000 cuid2s, one ObjectId copied", 20000, [],
     {"too-many-duplicates"}),
    ("bad-cuid2-shared-zero", "1,000 ObjectIds + 20,000 cuid2s writing 0 for each symbol ObjectIds write", 20000, [],
     {"non-uniform-positions"}),
    ("bad-cuid2-first-stuck", "1,000 ObjectIds + 20,000 cuid2s all starting with a", 20000, [], {"non-uniform-positions"}),
    ("bad-snowflake-typeids-copy", "20,000 Snowflakes + 5,000 TypeIDs, one Snowflake copied", 20000, [], {"too-many-duplicates"}),
    ("bad-ksuid-stuck-char", "20,000 KSUIDs one a second, character 16 stuck", 20000, [], {"non-uniform-positions"}),
    ("bad-ksuid-stuck-char", "the same, declared --scheme ksuid", 20000, ["--scheme", "ksuid"], {"non-uniform-positions"}),
    ("bad-ksuid-narrowed", "5,000 KSUIDs one a second, character 21 on half of base62", 5000, [], {"non-uniform-positions"}),
    ("bad-firebase-stuck", "Firebase push ids, character 13 stuck, declared --scheme firebase", 20000, ["--scheme", "firebase"],
     {"non-uniform-positions"}),
]
