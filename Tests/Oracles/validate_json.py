#!/usr/bin/env python3
"""Validates idbudget's --format json output (stdin) against docs/schema/idbudget-output.schema.json with
a real validator (jsonschema, Draft 2020-12). Exit 0 when valid; otherwise one line per problem.

    idbudget plan --count 1e9 --max-probability 1e-9 --format json | python3 Tests/Oracles/validate_json.py
"""
import json
import pathlib
import sys

import jsonschema

schema = json.loads((pathlib.Path(__file__).resolve().parents[2] / "docs/schema/idbudget-output.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
document = json.load(sys.stdin)
validator = jsonschema.Draft202012Validator(schema)
if validator.is_valid(document):
    print(f"validate_json: {document.get('command')}: valid against schema version {document.get('schema_version')}")
    sys.exit(0)
# Say what is wrong against the branch for this command (oneOf alone only says "matches none").
branch = next((b for b in schema["oneOf"] if b["properties"]["command"].get("const") == document.get("command")), None)
if branch is None:
    print(f"validate_json: (root): command {document.get('command')!r} is not one the schema knows")
else:
    for e in jsonschema.Draft202012Validator({**branch, "$defs": schema["$defs"]}).iter_errors(document):
        print(f"validate_json: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}")
sys.exit(1)
