"""The self-test of the audit summary's plain-Python reference (audit_summary_ref.py selftest): the
doc's example byte for byte, the line rules, time formats, merging and comparing, each against values
written down here from docs/audit-summary.md, not from idbudget. Split out of audit_summary_ref.py,
which runs it; standard library only."""
import json
import uuid

from audit_summary_ref import MergeError, compare, merge, summarise_bytes, summarise_rows, time_bucket

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
    check("crlf", s["crlf_lines"] == "4")  # "a\r" (the opening BOM dropped), "\r", "\r\r", "yyyyy\r"
    check("empty", s["empty_lines"] == "1")
    check("invalid", s["invalid_utf8_lines"] == "1")
    check("overlong", s["overlong_lines"] == "1")  # 6 z's; 5 y's + CR is fine
    check("ids", s["ids"] == "4")  # "a", "\r", "yyyyy", "last"
    check("sample order", s["sample"] == ["\r", "a", "last", "yyyyy"])
    check("opening bom dropped", s["symbols"] == "\ralsty")
    check("bom elsewhere kept", summarise_bytes(b"a\n\xef\xbb\xbfb\n")["symbols"] == "ab\ufeff")
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
