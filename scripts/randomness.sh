#!/usr/bin/env bash
# A statistical battery on real output: bytes decoded from `idbudget generate --alphabet hex`, judged
# by Debian's `ent` (entropy, χ², serial correlation) and a short `dieharder` subset. Fails on any
# FAILED (p < 1e-6 in dieharder's terms) or an ent χ² outside 0.01%–99.99%; WEAK results are printed.
#   scripts/randomness.sh [IDBUDGET_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v ent >/dev/null || ! command -v dieharder >/dev/null; then
  echo "randomness: installing ent dieharder" >&2
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq ent dieharder >/dev/null
fi
bin=${1:-}
if [ -z "$bin" ]; then
  swift build -c release --product idbudget >&2
  bin=.build/release/idbudget
fi
# Hex text → raw bytes (tokens of 64 hex digits = 32 bytes each).
# The reader stops the stream by closing the pipe, so this pipeline's status is not an error.
bytes() { ("$bin" generate --alphabet hex --length 64 --count 1000000000000 | tr -d '\n' | tr a-f A-F | basenc --base16 -d) || true; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0

# ent's verdict on a file: exit 0 when it looks uniform.
judge() {
  ent -t "$1" | tail -1 > "$tmp/ent.csv"
  # 0,File-bytes,Entropy,Chi-square,Mean,Monte-Carlo-Pi,Serial-Correlation
  IFS=, read -r _ n entropy chi mean pi serial < "$tmp/ent.csv"
  chi_p=$(ent "$1" | sed -n 's/.*would exceed this value \([0-9.]*\) percent.*/\1/p')
  echo "ent ($2): $n bytes, entropy $entropy bits/byte, chi-square $chi (exceeded ${chi_p}% of the time), mean $mean, pi $pi, serial correlation $serial"
  python3 - "$entropy" "$chi_p" "$mean" "$serial" <<'PY'
import sys
entropy, chi_p, mean, serial = map(float, sys.argv[1:])
bad = []
if entropy < 7.9998: bad.append(f"entropy {entropy} < 7.9998")
if not 0.01 <= chi_p <= 99.99: bad.append(f"chi-square percentile {chi_p} outside 0.01..99.99")
if abs(mean - 127.5) > 0.1: bad.append(f"mean {mean} not within 0.1 of 127.5")
if abs(serial) > 0.002: bad.append(f"serial correlation {serial} beyond ±0.002")
if bad: sys.exit("ent: FAILED: " + "; ".join(bad))
print("ent: ok")
PY
}

bytes | head -c $((16 << 20)) > "$tmp/sample.bin"
judge "$tmp/sample.bin" "idbudget generate --alphabet hex" || status=1
# The control: kernel bytes with 0xff folded onto 0x00 (one value in 256 doubled) must fail.
head -c $((16 << 20)) /dev/urandom | tr '\377' '\000' > "$tmp/control.bin"
if judge "$tmp/control.bin" "control: biased bytes" >/dev/null 2>&1; then
  echo "randomness: the control passed, so these checks cannot fail" >&2; status=1
else
  echo "ent (control: biased bytes): rejected, as it must be"
fi

# dieharder tests by number: birthdays, 6x8 binary rank, count-the-1s (stream), runs, STS monobit, STS runs.
for d in 0 3 8 15 100 101; do
  line=$(bytes | dieharder -g 200 -d "$d" 2>/dev/null | grep -E 'PASSED|WEAK|FAILED' || true)
  echo "dieharder: ${line:-no result for test $d}"
  case "$line" in
    *FAILED*|"") status=1 ;;
  esac
done
[ "$status" -eq 0 ] && echo "randomness: all passed" || echo "randomness: FAILED" >&2
exit "$status"
