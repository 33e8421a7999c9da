#!/usr/bin/env python3
"""Checks the project's Markdown: every relative link in README.md, CONTRIBUTING.md, SECURITY.md,
CHANGELOG.md and docs/*.md resolves to a file or folder that exists (and a `#fragment` to a heading
of the file it names), and every ```swift block in docs/ is one of README's blocks (README's are
compiled by scripts/readme-snippets.sh; anything else belongs in ```text or ```sh).

    python3 Tools/check_links.py             # exit 0 when all is well; otherwise one line per problem
    python3 Tools/check_links.py --planned   # also accept the module map's paths not yet created

No dependencies beyond the standard library.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FILES = ["README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md"]
# The layout CONTRIBUTING.md describes, accepted with --planned while it is being built.
PLANNED = {
    "Sources/IDFormats", "Sources/IDTokens", "Sources/CTokens", "Sources/Precise", "Sources/CMPFR",
    "Sources/IDBudget", "Sources/IDBudgetCLI", "Tests", "Tests/Oracles", "Tools", "scripts", "Benchmarks",
}
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"<img\s[^>]*\bsrc=\"([^\"]+)\"")
FENCE = re.compile(r"^(```+|~~~+)")


def prose(text):
    """The text outside fenced code blocks and inline code spans."""
    out, fence = [], None
    for line in text.splitlines():
        m = FENCE.match(line.strip())
        if fence:
            if m and line.strip().startswith(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


CODE_PATH = re.compile(r"`((?:Sources|Tests|Tools|scripts|docs|notebooks|Benchmarks|examples)/[^`\s]*)`")


def code_free(text):
    """The lines outside fenced code blocks."""
    inside = False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            inside = not inside
            continue
        if not inside:
            yield line


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    text = prose(path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*)$", text, re.M)}


def swift_blocks(text):
    return re.findall(r"```swift\n(.*?)```", text, re.S)


def main(argv):
    planned = "--planned" in argv
    files = [ROOT / f for f in FILES] + sorted((ROOT / "docs").glob("*.md"))
    problems, checked = [], 0
    for md in files:
        if not md.exists():
            problems.append(f"{md.relative_to(ROOT)}: missing")
            continue
        text = prose(md.read_text(encoding="utf-8"))
        for target in LINK.findall(text) + IMAGE.findall(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # https:, mailto: …
            checked += 1
            path_part, _, fragment = target.partition("#")
            dest = (md.parent / path_part).resolve() if path_part else md
            rel = dest.relative_to(ROOT).as_posix() if dest.is_relative_to(ROOT) else str(dest)
            where = f"{md.relative_to(ROOT)}: ({target})"
            if not dest.exists():
                if not (planned and rel.rstrip("/") in PLANNED):
                    problems.append(f"{where}: {rel} does not exist")
                continue
            if fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                problems.append(f"{where}: no heading #{fragment} in {rel}")
    # Paths written in backticks (`Tools/fuzz/fuzz.py`) must exist too: repository paths only, outside
    # code blocks; generated folders (results/, .build*) and globs are left alone.
    for md in files + sorted(ROOT.glob("Sources/*/*.docc/*.md")):
        if not md.exists():
            continue
        text = "\n".join(l for l in code_free(md.read_text(encoding="utf-8")))
        for path in sorted(set(CODE_PATH.findall(text))):
            checked += 1
            clean = path.rstrip("/.,:;")
            if any(ch in clean for ch in "*<>{}…$") or not (ROOT / clean).exists():
                if any(ch in clean for ch in "*<>{}…$"):
                    continue
                problems.append(f"{md.relative_to(ROOT)}: `{path}` does not exist")
    readme_blocks = set(swift_blocks((ROOT / "README.md").read_text(encoding="utf-8")))
    for md in sorted((ROOT / "docs").glob("*.md")):
        for block in swift_blocks(md.read_text(encoding="utf-8")):
            if block not in readme_blocks:
                first = block.strip().splitlines()[0] if block.strip() else ""
                problems.append(f"{md.relative_to(ROOT)}: a ```swift block that is not one of README's "
                                f"(mark fragments ```text): {first}")
    for p in problems:
        print(p)
    print(f"check_links: {checked} links checked, {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
