#!/usr/bin/env bash
# The generator on the portable system layer (the one macOS and the BSDs build), forced on Linux: builds
# into .build-portable with -DIDTOKENS_PORTABLE for both compilers and runs IDTokensTests, fork safety
# included. Then checks the build is what it claims to be:
# - our portable object references getentropy and no getrandom (strace cannot tell: glibc's getentropy
#   makes the getrandom syscall itself, and so does the Swift runtime for its hashing seed), and the
#   Linux object compiled to nothing;
# - its CLI says so (--version), and under strace a generate asks for no MADV_WIPEONFORK page.
# Controls, on the Linux fast path's build in .build: its object references getrandom, its CLI says
# "linux", and its generate asks.
#   scripts/test-portable.sh    (CI runs it after scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
# The format tests decode minted ids with independent Python decoders (as scripts/test.sh).
python3 -c "from ulid import ULID; from cyksuid.v2 import parse" 2>/dev/null || \
  python3 -m pip install -q python-ulid cyksuid
flags=(--scratch-path .build-portable -Xswiftc -DIDTOKENS_PORTABLE -Xcc -DIDTOKENS_PORTABLE)
swift test "${flags[@]}" --filter IDTokensTests
swift build --product idbudget >/dev/null  # the controls (already built after scripts/test.sh)

fail() { echo "test-portable: $*" >&2; exit 1; }
obj() { find "$1" -path "*/debug/CTokens.build/$2.c.o" | head -1; }
portable=$(obj .build-portable platform_portable)
linux_off=$(obj .build-portable platform_linux)
linux=$(obj .build platform_linux)
[ -n "$portable" ] && [ -n "$linux_off" ] && [ -n "$linux" ] || fail "object files not found"
undefined_portable=$(nm -u "$portable"); undefined_linux=$(nm -u "$linux")
grep -qw getrandom <<<"$undefined_portable" && fail "$portable references getrandom"
grep -qw getentropy <<<"$undefined_portable" || fail "$portable does not reference getentropy"
[ -z "$(nm "$linux_off" 2>/dev/null)" ] || fail "$linux_off is not empty in the portable build"
grep -qw getrandom <<<"$undefined_linux" || fail "control: $linux does not reference getrandom"

if ! command -v strace >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq strace >/dev/null
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# (swift test built the CLI for CLITests.) A generate maps generator state with the default protection,
# which asks for wipe-on-fork where the build can.
for build in portable linux; do
  bin=.build-$build/debug/idbudget; [ $build = linux ] && bin=.build/debug/idbudget
  version=$("$bin" --version)
  [[ $version == *"system layer: $build)"* ]] || fail "$bin --version does not say $build: $version"
  strace -f -qq -e trace=madvise -o "$tmp/$build" "$bin" generate --count 10 >/dev/null
done
grep -q MADV_WIPEONFORK "$tmp/portable" && fail "the portable CLI asked for MADV_WIPEONFORK"
grep -q MADV_WIPEONFORK "$tmp/linux" || fail "control: the Linux CLI did not ask for MADV_WIPEONFORK"
echo "test-portable: the portable path passed IDTokensTests; it references no getrandom and asks for no MADV_WIPEONFORK (controls seen)"
