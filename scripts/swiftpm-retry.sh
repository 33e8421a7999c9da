# Sourced by scripts that run `swift package` plugins (bench.sh, docs.sh).
#
# Swift 6.3.1's swift-package has been seen to crash inside libdispatch at random (CI, 2026-11-29: a
# backtrace whose first image is /usr/bin/swift-package, no line of ours on its stack), failing a run
# whose benchmarks and docs were fine. `swiftpm_retry LOG cmd…` runs cmd with its output in LOG and, only
# when the process that crashed is the SwiftPM tool itself, says so and runs it once more. Any other
# failure (a benchmark that crashes, a DocC warning) fails at once, as before.
swiftpm_retry() {
  local log=$1; shift
  local attempt
  for attempt in 1 2; do
    if "$@" > "$log" 2>&1; then return 0; fi
    if [ "$attempt" = 1 ] && swiftpm_tool_crashed "$log"; then
      echo "swiftpm-retry: swift-package itself crashed (toolchain); running once more: $*" >&2
      continue
    fi
    return 1
  done
}

# True when LOG holds a Swift runtime backtrace whose first image (the crashed executable) is
# swift-package or swift-build.
swiftpm_tool_crashed() {
  grep -q "Program crashed" "$1" || return 1
  awk '/^Images/ {found = 1; next} found && NF {print; exit}' "$1" | grep -Eq '/swift-(package|build)$'
}
