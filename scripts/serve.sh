#!/usr/bin/env bash
# Builds idbudget-serve (the Server/ package, release) and execs it with the arguments given: the
# calculator page at / and the JSON API at /api/v1 (docs/server.md). Default 127.0.0.1:8080 (loopback
# only). exec: the server's PID is this script's, so SIGTERM reaches it (in-flight requests finish,
# then it exits 0).
set -euo pipefail
cd "$(dirname "$0")/.."
for argument in "$@"; do
  if [ "$argument" = "-h" ] || [ "$argument" = "--help" ]; then
    cat <<'USAGE'
usage: scripts/serve.sh [--host H] [--port P] [--audits N] [any other idbudget-serve option]

Builds and starts idbudget-serve: the calculator page at /, the JSON API at /api/v1
(described at /openapi.json), /healthz. One log line per request on stdout.
  --host H   address to bind (default 127.0.0.1: loopback only; 0.0.0.0 for every interface)
  --port P   port (default 8080)
  --audits N audit uploads at once (default: one core fewer than the machine has, at least 1)
Every setting (slots, deadline, body and upload limits, …) is an option or an IDBUDGET_SERVE_*
environment variable: Server/.build/release/idbudget-serve --help, once built, lists them.
USAGE
    exit 0
  fi
done
scripts/setup.sh
swift build -c release --package-path Server --product idbudget-serve >&2
exec Server/.build/release/idbudget-serve "$@"
