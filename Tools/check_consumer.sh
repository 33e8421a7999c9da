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
"$bin" > /dev/null
echo "consumer: an IDTokens-only package builds with no warnings, resolves $(ls "$work/.build/checkouts" 2>/dev/null | tr '\n' ' ')and links no GMP"
