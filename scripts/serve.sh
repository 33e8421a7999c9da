#!/usr/bin/env bash
# Builds idbudget-serve (the Server/ package, release) and execs it: the calculator page at / and the
# JSON API at /api/v1 (docs/server.md). Default 127.0.0.1:8080 (loopback only). exec: the server's PID
# is this script's, so SIGTERM reaches it (in-flight requests finish, then it exits 0).
set -euo pipefail
cd "$(dirname "$0")/.."
host=127.0.0.1
port=8080
extra=()
usage() {
  cat <<'USAGE'
usage: scripts/serve.sh [--host H] [--port P] [--audits N]

Builds and starts idbudget-serve: the calculator page at /, the JSON API at /api/v1
(described at /openapi.json), /healthz. One log line per request on stdout.
  --host H   address to bind (default 127.0.0.1: loopback only; 0.0.0.0 for every interface)
  --port P   port (default 8080)
  --audits N audit uploads at once (default: one core fewer than the machine has, at least 1)
  --help     this help
USAGE
}
while [ "$#" -gt 0 ]; do
  case "$1" in
    --host) [ "$#" -ge 2 ] || { echo "serve.sh: --host needs a value" >&2; exit 64; }; host=$2; shift 2 ;;
    --port) [ "$#" -ge 2 ] || { echo "serve.sh: --port needs a value" >&2; exit 64; }; port=$2; shift 2 ;;
    --audits) [ "$#" -ge 2 ] || { echo "serve.sh: --audits needs a value" >&2; exit 64; }; extra+=(--audits "$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "serve.sh: unknown argument '$1'; see --help" >&2; exit 64 ;;
  esac
done
scripts/setup.sh
swift build -c release --package-path Server --product idbudget-serve >&2
exec Server/.build/release/idbudget-serve --host "$host" --port "$port" ${extra[@]+"${extra[@]}"}
