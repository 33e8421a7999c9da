#!/usr/bin/env bash
# Installs what a fresh machine lacks.
#   scripts/setup.sh                     GMP and MPFR headers (Debian, with apt), for the Swift build
#   scripts/setup.sh --python [DIST...]  the Python packages DIST (default: all of requirements.txt),
#                                        at the versions requirements.txt pins, when one is missing
#                                        (for $PYTHON when set, else python3)
# Each says what it installs; with everything present it installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--python" ]; then
  shift
  # The pinned lines of requirements.txt for the missing ones among DIST (or among all).
  py=${PYTHON:-python3}
  missing=$("$py" - "$@" <<'PY'
import importlib.metadata, re, sys
wanted = {n.lower().replace("_", "-") for n in sys.argv[1:]}
pins = {}
for line in open("requirements.txt", encoding="utf-8"):
    spec = line.split("#", 1)[0].strip()
    if spec:
        pins[re.split(r"[=<>!~;\[\s]", spec, maxsplit=1)[0].lower().replace("_", "-")] = spec
unknown = wanted - pins.keys()
if unknown:
    sys.exit(f"setup: not in requirements.txt: {' '.join(sorted(unknown))}")
for name in sorted(wanted or pins.keys()):
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        print(pins[name])
PY
)
  if [ -n "$missing" ]; then
    echo "setup: pip install" $missing >&2
    # A Debian python3 refuses pip outside a virtualenv (PEP 668) unless told otherwise.
    # shellcheck disable=SC2086
    "$py" -m pip install -q $missing 2>/dev/null || "$py" -m pip install -q --break-system-packages $missing
  fi
  exit 0
fi
if ! dpkg -s libgmp-dev libmpfr-dev >/dev/null 2>&1; then
  echo "setup: installing libgmp-dev libmpfr-dev" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq libgmp-dev libmpfr-dev >/dev/null
fi
