#!/usr/bin/env python3
"""Checks `idbudget generate --output raw`: back-to-back binary ids, decoded with Python's uuid and the
formats' published layouts (never idbudget's code).

    python3 check_raw.py SIZE FORMAT FILE      prints "ok", or the first id that fails and why
"""
import sys
import time
import uuid


def main():
    size, fmt, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    data = open(path, "rb").read()
    assert len(data) % size == 0, "not whole ids"
    now = time.time()
    for i in range(0, len(data), size):
        c = data[i:i + size]
        if fmt in ("uuid7", "typeid"):
            u = uuid.UUID(bytes=c)
            assert u.version == 7 and u.variant == uuid.RFC_4122, u
            assert abs((u.int >> 80) / 1000 - now) < 600, u
        elif fmt == "snowflake":  # 41 bits of ms since 1288834974657, 10 worker, 12 sequence
            v = int.from_bytes(c, "big")
            assert v >> 63 == 0 and abs(((v >> 22) + 1288834974657) / 1000 - now) < 600, v
        elif fmt == "xid":  # 4-byte seconds first
            assert abs(int.from_bytes(c[:4], "big") - now) < 600, c.hex()
        elif fmt == "ksuid":  # 4-byte seconds since 1400000000 first
            assert abs(int.from_bytes(c[:4], "big") + 1400000000 - now) < 600, c.hex()
        else:
            raise SystemExit(f"unknown format {fmt}")
    print("ok")


if __name__ == "__main__":
    main()
