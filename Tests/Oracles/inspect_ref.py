#!/usr/bin/env python3
"""Reference readings for `idbudget inspect`, from the formats' own libraries and specs — never
idbudget's code.

    python3 inspect_ref.py mint        ids minted by the reference libraries, with the fields those
                                       libraries report (JSON: {"cases": [{format, id, fields}]})
    python3 inspect_ref.py mint-many F N   N ids of format F (xid, objectid, tsid) from its library, a line each
    python3 inspect_ref.py read        lines "FORMAT ID" on stdin, each decoded by its library, or
                                       for the Snowflake family and Firebase by its published layout
                                       (JSON lines of fields; {"error": …} when the library refuses it)

Libraries: Python's uuid (v1, v3, v4, v5), uuid6 (v6, v7, v8), python-ulid, cyksuid, typeid-python,
epyxid (xid), pymongo's bson (ObjectId), tsidpy, cuid2, nanoid. The Snowflake family and the Firebase
push id have no Python library: their fields come from the layouts their documents publish (Discord's
worked example, 175928847299117063, is checked against the numbers in Discord's docs).
"""
import datetime
import json
import sys
import uuid
import warnings

warnings.filterwarnings("ignore")

UTC = datetime.timezone.utc


def iso(seconds, fraction=0, digits=0):
    t = datetime.datetime(1970, 1, 1, tzinfo=UTC) + datetime.timedelta(seconds=seconds)
    text = t.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{fraction:0{digits}d}" if digits else "") + "Z"


def iso_ms(ms):
    return iso(ms // 1000, ms % 1000, 3)


def uuid_fields(u):
    f = {"version": u.version, "variant": {uuid.RFC_4122: "RFC 9562"}.get(u.variant, u.variant), "bytes": u.hex}
    if u.version in (1, 6):
        ticks = u.time - 122192928000000000
        f.update(timestamp=iso(ticks // 10**7, ticks % 10**7, 7), sequence=str(u.clock_seq), node=f"{u.node:012x}")
    if u.version == 7:
        f["timestamp"] = iso_ms(u.int >> 80)
    return f


def read(fmt, text):
    import uuid6
    if fmt in ("uuid1", "uuid3", "uuid4", "uuid5"):
        u = uuid.UUID(text)
        assert u.version == int(fmt[4:]), "version"
        return uuid_fields(u)
    if fmt in ("uuid6", "uuid7", "uuid8"):
        u = uuid6.UUID(text)
        assert u.version == int(fmt[4:]), "version"
        f = uuid_fields(u)
        if u.version == 6:
            ticks = u.time - 122192928000000000
            f["timestamp"] = iso(ticks // 10**7, ticks % 10**7, 7)
        if u.version == 7:
            f["timestamp"] = iso_ms(u.time)
        return f
    if fmt == "ulid":
        import ulid
        u = ulid.ULID.from_str(text)
        return {"timestamp": iso_ms(u.milliseconds), "bytes": bytes(u).hex()}
    if fmt == "ksuid":
        from cyksuid.v2 import parse
        k = parse(text)
        return {"timestamp": iso(k.timestamp), "random": k.payload.hex(), "bytes": bytes(k.bytes).hex()}
    if fmt == "typeid":
        from typeid import TypeID
        t = TypeID.from_string(text)
        u = uuid.UUID(str(t.uuid))
        f = {"prefix": t.prefix or "", "uuid": str(u), "version": u.version}
        if u.version == 7:
            f["timestamp"] = iso_ms(u.int >> 80)
        return f
    if fmt == "xid":
        import epyxid
        x = epyxid.xid_from_str(text)
        when = x.time if x.time.tzinfo else x.time.replace(tzinfo=UTC)
        return {"timestamp": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "node": bytes(x.machine).hex(), "pid": x.pid,
                "sequence": str(x.counter), "bytes": bytes(x.as_bytes()).hex()}
    if fmt == "objectid":
        import bson
        o = bson.ObjectId(text)
        b = o.binary
        return {"timestamp": o.generation_time.strftime("%Y-%m-%dT%H:%M:%SZ"), "node": b[4:9].hex(),
                "sequence": str(int.from_bytes(b[9:12], "big")), "bytes": b.hex()}
    if fmt == "tsid":
        import tsidpy
        t = tsidpy.TSID.from_string(text)
        return {"timestamp": iso_ms(int(t.timestamp)), "value": str(t.number)}
    if fmt == "cuid2":
        import cuid2
        assert cuid2.is_cuid(text), "is_cuid"
        return {}
    if fmt == "nanoid":
        assert len(text) == 21 and all(c.isalnum() or c in "_-" for c in text), "alphabet"
        return {"random_bits": 126}
    if fmt in ("snowflake", "discord", "instagram", "sonyflake"):
        assert text.isdigit() and (text == "0" or text[0] != "0"), "decimal"
        v = int(text)
        assert v < 2**63, "63 bits"
        return {"value": text, **snowflake(fmt, v)}
    if fmt == "firebase":
        assert len(text) == 20 and all(c in FIREBASE for c in text), "alphabet"
        ms = 0
        for c in text[:8]:
            ms = ms * 64 + FIREBASE.index(c)
        return {"timestamp": iso_ms(ms), "random_bits": 72}
    raise ValueError(fmt)


def snowflake(fmt, v):
    """The published layouts (see the module's docstring)."""
    if fmt == "snowflake":
        return {"timestamp": iso_ms((v >> 22) + 1288834974657), "node": str((v >> 12) & 0x3FF), "sequence": str(v & 0xFFF)}
    if fmt == "discord":
        return {"timestamp": iso_ms((v >> 22) + 1420070400000), "node": str((v >> 17) & 0x1F), "pid": (v >> 12) & 0x1F,
                "sequence": str(v & 0xFFF)}
    if fmt == "instagram":
        return {"timestamp": iso_ms((v >> 23) + 1314220021721), "node": str((v >> 10) & 0x1FFF), "sequence": str(v & 0x3FF)}
    ms = (v >> 24) * 10 + 1409529600000
    return {"timestamp": iso(ms // 1000, ms % 1000 // 10, 2), "sequence": str((v >> 16) & 0xFF), "node": str(v & 0xFFFF)}


FIREBASE = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def firebase_id(ms, rng):
    """The Firebase blog's generator: 8 characters of time, most significant first, then 12 random."""
    time = ""
    for _ in range(8):
        time = FIREBASE[ms % 64] + time
        ms //= 64
    return time + "".join(rng.choice(FIREBASE) for _ in range(12))


def mint():
    import random
    import uuid6
    import ulid
    import cyksuid.v2
    import typeid
    import epyxid
    import bson
    import tsidpy
    import cuid2
    import nanoid
    cases = []

    def add(fmt, text, fields):
        cases.append({"format": fmt, "id": text, "fields": fields})

    for _ in range(3):
        for u in (uuid.uuid1(), uuid.uuid4(), uuid.uuid3(uuid.NAMESPACE_DNS, "idbudget.example"),
                  uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/a"), uuid6.uuid6(), uuid6.uuid7(), uuid6.uuid8()):
            s = str(u)
            add(f"uuid{u.version}", s, read(f"uuid{u.version}", s))
        for s in (str(ulid.ULID()), str(cyksuid.v2.ksuid()), str(typeid.TypeID(prefix="user")), str(typeid.TypeID()),
                  str(epyxid.xid_create()), str(bson.ObjectId()), tsidpy.TSID.create().to_string(), cuid2.create_id(),
                  nanoid.generate()):
            fmt = {26: "ulid", 27: "ksuid", 20: "xid", 24: "objectid", 13: "tsid", 21: "nanoid"}.get(len(s))
            if s.startswith("user_") or (len(s) == 26 and s.islower()):
                fmt = "typeid"
            if len(s) == 24 and not all(c in "0123456789abcdef" for c in s):
                fmt = "cuid2"
            add(fmt, s, read(fmt, s))
    # Discord's worked example (discord.com/developers/docs/reference#snowflakes).
    add("discord", "175928847299117063", {"timestamp": "2016-04-30T11:18:25.796Z", "node": "1", "pid": 0, "sequence": "7"})
    rng = random.Random(24)
    for fmt in ("snowflake", "discord", "instagram", "sonyflake"):
        for _ in range(4):
            v = rng.getrandbits(63)
            add(fmt, str(v), {"value": str(v), **snowflake(fmt, v)})
    for ms in (0, 1449000000000, 1795650000123):
        s = firebase_id(ms, rng)
        add("firebase", s, {"timestamp": iso_ms(ms), "random_bits": 72})
    # 2^48 − 1 ms is past Python's datetime: the ULID spec gives it as 10889-08-02T05:31:50.655Z.
    add("firebase", firebase_id(2**48 - 1, rng), {"timestamp": "+10889-08-02T05:31:50.655Z", "random_bits": 72})
    add("ulid", "7ZZZZZZZZZZZZZZZZZZZZZZZZZ", {"timestamp": "+10889-08-02T05:31:50.655Z", "bytes": "f" * 32})
    print(json.dumps({"cases": cases}, indent=1))


def mint_many(fmt, n):
    """`n` ids of one format from its library, one a line (what a service using it would log)."""
    if fmt == "xid":
        import epyxid
        ids = (str(epyxid.xid_create()) for _ in range(n))
    elif fmt == "objectid":
        import bson
        ids = (str(bson.ObjectId()) for _ in range(n))
    elif fmt == "tsid":
        import tsidpy
        ids = (tsidpy.TSID.create().to_string() for _ in range(n))
    else:
        raise ValueError(fmt)
    print("\n".join(ids))


def main():
    if sys.argv[1:] == ["mint"]:
        return mint()
    if sys.argv[1:2] == ["mint-many"]:
        return mint_many(sys.argv[2], int(sys.argv[3]))
    for line in sys.stdin:
        fmt, _, text = line.rstrip("\n").partition(" ")
        try:
            print(json.dumps(read(fmt, text)))
        except Exception as e:  # the library refuses it: say so, don't stop
            print(json.dumps({"error": f"{type(e).__name__}: {e}"}))


if __name__ == "__main__":
    main()
