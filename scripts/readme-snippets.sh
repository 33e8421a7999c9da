#!/usr/bin/env bash
# Every ```swift block in README.md is a complete program: this builds each one as an executable in a
# scratch consumer package that depends on idbudget's library products only (as a user's package
# would, by path), then runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=.build-snippets
rm -rf "$work/pkg"
mkdir -p "$work/pkg/Sources"
python3 - "$work/pkg" <<'PY'
import re, sys, pathlib
pkg = pathlib.Path(sys.argv[1])
blocks = re.findall(r"```swift\n(.*?)```", pathlib.Path("README.md").read_text(), re.S)
if not blocks:
    sys.exit("readme-snippets: README.md has no ```swift blocks")
names = []
for i, code in enumerate(blocks, 1):
    name = f"snippet{i}"
    names.append(name)
    (pkg / "Sources" / name).mkdir(parents=True)
    (pkg / "Sources" / name / "main.swift").write_text(code)
# A path dependency's package identity is its folder's name, whatever the clone was called.
identity = pathlib.Path.cwd().name.lower()
targets = ",\n".join(
    f'        .executableTarget(name: "{n}", dependencies: [.product(name: "IDBudget", package: "{identity}"), '
    f'.product(name: "IDAudit", package: "{identity}"), .product(name: "IDTokens", package: "{identity}")])' for n in names)
(pkg / "Package.swift").write_text(f'''// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "readme-snippets",
    dependencies: [.package(path: "{pathlib.Path.cwd()}")],
    targets: [
{targets}
    ]
)
''')
print(" ".join(names))
PY
swift build --package-path "$work/pkg" --scratch-path "$work/build" >&2
status=0
for dir in "$work"/pkg/Sources/*/; do
  name=$(basename "$dir")
  if timeout 60 "$work/build/debug/$name" > "$work/$name.out" 2>&1; then
    echo "readme-snippets: $name ran ($(wc -l < "$work/$name.out") lines of output)"
  else
    echo "readme-snippets: $name FAILED:"; cat "$work/$name.out"; status=1
  fi
done
exit "$status"
