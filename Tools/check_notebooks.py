#!/usr/bin/env python3
"""Checks the figures the notebooks just made (in BUILD, .build-notebooks/images/ by scripts/notebooks.sh)
against the committed ones, or with --update makes them the committed ones.

    python3 Tools/check_notebooks.py .build-notebooks/images [--update]

A plot cannot be compared byte for byte (timings, live measurements, the renderer's stamp), so what is
deterministic is compared:
  * every committed docs/images/*.png has a regenerated one, and every regenerated one is committed;
  * the same pixel dimensions (the PNG's IHDR chunk, read here without any imaging library);
  * for the deterministic notebooks (1-budget-curves, 2-exact-vs-double, 5-growing-service), the plotted data the notebook
    writes beside its figure against notebooks/data/: strings (idbudget's digits) and integers exactly,
    floats (the float64 formula's answers) to 1e-12 relative.
Exit status 1 on any difference, each one named; --update copies BUILD's PNGs to docs/images/ and its
data files to notebooks/data/ (then commit them deliberately).
"""
import glob
import json
import math
import os
import shutil
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMAGES = os.path.join(ROOT, "docs", "images")
DATA = os.path.join(ROOT, "notebooks", "data")
# The plotted data of the deterministic notebooks, written beside their figures.
DATA_FILES = ["budget-curves.json", "exact-vs-double.json", "growing-service.json"]


def png_size(path):
    """(width, height) from the IHDR chunk, which the PNG format puts first."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def differences(a, b, where=""):
    """Where the committed value a and the regenerated value b differ (at most a few per list)."""
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
            if a == b or (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12 * max(abs(a), abs(b)):
                return []
        return [f"{where or '.'}: {a!r} (committed) vs {b!r} (now)"]
    if type(a) is not type(b):
        return [f"{where or '.'}: {a!r} (committed) vs {b!r} (now)"]
    if isinstance(a, dict):
        out = [f"{where}.{k}: only {'committed' if k in a else 'now'}" for k in sorted(set(a) ^ set(b))]
        for k in a:
            if k in b:
                out += differences(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list):
        out = [f"{where}: {len(a)} entries (committed) vs {len(b)} (now)"] if len(a) != len(b) else []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{where}[{i}]")
        return out
    return [] if a == b else [f"{where or '.'}: {a!r} (committed) vs {b!r} (now)"]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    update = "--update" in sys.argv[1:]
    if len(args) != 1:
        sys.exit(__doc__)
    build = args[0]
    made = sorted(os.path.basename(p) for p in glob.glob(os.path.join(build, "*.png")))
    if update:
        os.makedirs(IMAGES, exist_ok=True)
        for name in made:
            shutil.copyfile(os.path.join(build, name), os.path.join(IMAGES, name))
        for name in DATA_FILES:
            shutil.copyfile(os.path.join(build, name), os.path.join(DATA, name))
        print(f"notebooks: updated docs/images/ ({', '.join(made)}) and notebooks/data/ ({', '.join(DATA_FILES)})")
        return 0
    committed = sorted(os.path.basename(p) for p in glob.glob(os.path.join(IMAGES, "*.png")))
    problems = [f"docs/images/{n}: not made by any notebook" for n in committed if n not in made]
    problems += [f"{n}: made but not committed in docs/images/ (scripts/notebooks.sh --update)" for n in made
                 if n not in committed]
    for name in committed:
        if name in made:
            old, new = png_size(os.path.join(IMAGES, name)), png_size(os.path.join(build, name))
            if old != new:
                problems.append(f"docs/images/{name}: {old[0]}×{old[1]} committed, {new[0]}×{new[1]} now")
            else:
                print(f"notebooks: ok: {name} ({new[0]}×{new[1]})")
    for name in DATA_FILES:
        ours, theirs = os.path.join(DATA, name), os.path.join(build, name)
        if not os.path.exists(theirs):
            problems.append(f"{name}: the notebook did not write it")
        elif not os.path.exists(ours):
            problems.append(f"notebooks/data/{name}: not committed (scripts/notebooks.sh --update)")
        else:
            diff = differences(json.load(open(ours)), json.load(open(theirs)))
            problems += [f"notebooks/data/{name}{d}" for d in diff[:10]]
            if len(diff) > 10:
                problems.append(f"notebooks/data/{name}: {len(diff) - 10} more differences")
            if not diff:
                print(f"notebooks: ok: {name} (the plotted data, value for value)")
    for p in problems:
        print(f"notebooks: FAIL: {p}", file=sys.stderr)
    if problems:
        print("notebooks: the figures differ from the committed ones; if the change is meant, "
              "scripts/notebooks.sh --update and commit docs/images/ and notebooks/data/", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
