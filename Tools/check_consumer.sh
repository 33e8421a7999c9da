#!/usr/bin/env bash
# A package that depends on idbudget's IDTokens product alone (by path, as a user's package would):
# it must build with no warnings, resolve neither package-benchmark nor the DocC plugin, and link
# neither GMP nor MPFR. Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build-consumer
rm -rf "$work"
mkdir -p "$work/Sources/TokensOnly"
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "tokens-only",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "TokensOnly", dependencies: [.product(name: "IDTokens", package: "$identity")])
    ]
)
SWIFT
cat > "$work/Sources/TokensOnly/main.swift" <<'SWIFT'
import IDTokens

let tokens = try TokenGenerator(alphabet: .base62, length: 22)
print(tokens.next(), IDGenerator(.uuid7).next(), IDFormat.uuid7.randomBits)
// One identity per process, as a user's code meets it (issue 36): 200 xid generators minting in turns
// and 10,000 pairs of Snowflake generators share no id.
var seen = Set<String>()
let xids = (0..<200).map { _ in IDGenerator(.xid) }
for _ in 0..<50 { for g in xids { seen.insert(g.next()) } }
guard seen.count == 200 * 50 else { fatalError("200 xid generators in one process shared \(200 * 50 - seen.count) ids") }
seen.removeAll()
for _ in 0..<10_000 {
    let a = IDGenerator(.snowflake), b = IDGenerator(.snowflake)
    for _ in 0..<20 { seen.insert(a.next()); seen.insert(b.next()) }
}
guard seen.count == 10_000 * 40 else { fatalError("10,000 Snowflake pairs in one process shared \(10_000 * 40 - seen.count) ids") }
SWIFT
log=$(cd "$work" && swift build 2>&1) || { echo "$log"; echo "consumer: the IDTokens-only package does not build" >&2; exit 1; }
if echo "$log" | grep -q "warning:"; then
  echo "$log" | grep "warning:" >&2
  echo "consumer: building against IDTokens prints warnings" >&2; exit 1
fi
for dep in benchmark swift-docc-plugin; do
  if grep -q "\"identity\" : \"$dep\"" "$work/Package.resolved" 2>/dev/null || [ -d "$work/.build/checkouts/$dep" ]; then
    echo "consumer: an IDTokens-only package resolves $dep" >&2; exit 1
  fi
done
bin=$(cd "$work" && swift build --show-bin-path)/TokensOnly
if ldd "$bin" | grep -Eq "libgmp|libmpfr"; then
  ldd "$bin" >&2; echo "consumer: an IDTokens-only binary links GMP/MPFR" >&2; exit 1
fi
"$bin" > /dev/null || { echo "consumer: the IDTokens-only program failed (a shared id across generators?)" >&2; exit 1; }
echo "consumer: 200 xid generators and 10,000 Snowflake pairs in one process shared no id"
echo "consumer: an IDTokens-only package builds with no warnings, resolves $(ls "$work/.build/checkouts" 2>/dev/null | tr '\n' ' ')and links no GMP"
