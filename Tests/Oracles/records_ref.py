#!/usr/bin/env python3
"""Reference extraction for `idbudget audit --column/--field`, by Python's csv and json modules — never
idbudget's code.

    python3 records_ref.py DIR     writes DIR/t.csv, DIR/t.tsv, DIR/t.jsonl (real-log mess: a header,
                                   quoted commas and quotes, line breaks in fields, CRLF, a BOM, rows
                                   without the column, escapes, nested objects, numbers, nulls, lines
                                   that are not JSON) and, for each, DIR/NAME.ids (the ids Python reads,
                                   one a line, ending in CRLF where its record did: the audit counts
                                   those as CRLF lines) and DIR/NAME.counts (records, without the id,
                                   unreadable)
"""
import csv
import json
import random
import string
import sys


# A CSV field with no value: empty, or SQL's null as MySQL and PostgreSQL exports write it. The
# documented rule (docs/audit.md): such a record is without the id, not an id.
NULLS = ("", "NULL", "\\N")


def main(out):
    rnd = random.Random(20261129)
    alphabet = string.ascii_letters + string.digits
    ids = ["".join(rnd.choice(alphabet) for _ in range(10)) for _ in range(20000)]
    ids += [ids[i] for i in range(0, 40, 4)]  # repeats
    notes = ["plain", "has, comma", 'has "quotes"', "two\nlines", "", "tab\there", "\u00e9t\u00e9"]

    for name, delim in (("t.csv", ","), ("t.tsv", "\t")):
        with open(f"{out}/{name}", "w", newline="", encoding="utf-8") as f:
            f.write("\ufeff")  # a byte-order mark before the header, as spreadsheet exports write
            w = csv.writer(f, delimiter=delim, lineterminator="\r\n")
            w.writerow(["ts", "user, name", "id", "note"])
            for i, x in enumerate(ids):
                idv = x if i % 997 else f"bad\n{x}"  # now and then an id across a line break
                idv = NULLS[i // 1499 % 3] if i % 1499 == 5 else idv  # SQL's null, as exports write it
                w.writerow([i, f'u{i}, "q"', idv, notes[i % len(notes)]])
            f.write(f"1{delim}only two\r\n\r\n")  # a row without the id column, a blank line
        got, records, without, unreadable = [], 0, 0, 0
        with open(f"{out}/{name}", newline="", encoding="utf-8-sig") as f:
            rows = csv.reader(f, delimiter=delim)
            header = next(rows)
            col = header.index("id")
            for row in rows:
                if not row:
                    continue
                records += 1
                if len(row) <= col or row[col] in NULLS:
                    without += 1
                elif "\n" in row[col] or "\r" in row[col]:
                    unreadable += 1
                else:
                    got.append(row[col] + "\r")  # every record written with lineterminator CRLF
        write(out, name, got, records, without, unreadable)

    # A quoted header after the byte-order mark, lines holding only "" (one empty field), a record
    # with a long quoted field over many lines in another column.
    with open(f"{out}/t3.csv", "w", newline="", encoding="utf-8") as f:
        f.write('\ufeff"id","trace"\n')
        w = csv.writer(f, lineterminator="\n")
        for i, x in enumerate(ids[:5000]):
            if i % 1000 == 7:
                f.write('""\n')
            w.writerow([x, "".join(f"line{j},inj{j}\n" for j in range(200)) if i % 1000 == 9 else "t"])
    got, records, without, unreadable = [], 0, 0, 0
    with open(f"{out}/t3.csv", newline="", encoding="utf-8-sig") as f:
        rows = csv.reader(f)
        col = next(rows).index("id")
        for row in rows:
            if not row:
                continue
            records += 1
            if len(row) <= col or row[col] in NULLS:
                without += 1
            else:
                got.append(row[col])
    write(out, "t3.csv", got, records, without, unreadable)

    with open(f"{out}/t.jsonl", "w", encoding="utf-8") as f:
        for i, x in enumerate(ids):
            rec = {"ts": i, "req": {"path": '/a"b\\c', "n": [1, {"id": "no"}], "id": x}, "msg": "\u00e9\u2028"}
            if i % 500 == 1:
                rec["req"]["id"] = 1000000 + i  # a number
            if i % 701 == 2:
                rec["req"] = {"id": None}
            f.write(json.dumps(rec, ensure_ascii=i % 2 == 0) + ("\r\n" if i % 3 == 0 else "\n"))
        f.write('{"req": {}}\n\n   \nnot json\n[1, 2]\n{"req": {"id": {"deep": 1}}}\n{"req": {"id": true}}\n')
        # Not JSON, though an id can be seen in them; a repeated key (the last one counts).
        f.write('{"req": {"id": "cut"\n{"req": {"id": "comma",}}\n{"req": {"id": "tail"}} trailing\n')
        f.write('{"req": {"id": "one"}}{"req": {"id": "two"}}\n{"req": {"id": 012}}\n{"req": {"id": 1.}}\n')
        f.write('{"req": {"id": "first"}, "req": {"id": "lastkey"}}\n{"req": {"id": "gone"}, "req": null}\n')
    got, records, without, unreadable = [], 0, 0, 0
    with open(f"{out}/t.jsonl", encoding="utf-8", newline="") as f:
        for line in f.read().split("\n"):
            crlf = "\r" if line.endswith("\r") else ""
            line = line.rstrip("\r")
            if not line.strip():
                continue
            records += 1
            try:
                rec = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            v = rec.get("req") if isinstance(rec, dict) else "not an object"
            v = v.get("id") if isinstance(v, dict) else (None if v is None else "not an object")
            if not isinstance(rec, dict) or v == "not an object" and not isinstance(rec.get("req"), dict):
                if isinstance(rec, dict) and rec.get("req") is None:
                    without += 1
                else:
                    unreadable += 1
            elif v is None:
                without += 1
            elif isinstance(v, bool) or isinstance(v, (dict, list)):
                unreadable += 1
            else:
                got.append(str(v) + crlf)
    write(out, "t.jsonl", got, records, without, unreadable)


def write(out, name, got, records, without, unreadable):
    with open(f"{out}/{name}.ids", "w", encoding="utf-8", newline="") as f:
        f.write("".join(x + "\n" for x in got))
    with open(f"{out}/{name}.counts", "w") as f:
        f.write(f"{records} {without} {unreadable}\n")


if __name__ == "__main__":
    main(sys.argv[1])
