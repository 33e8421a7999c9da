#!/usr/bin/env bash
# CI's check of idbudget-serve as users meet it: the Server package's tests (with the real CLI beside
# them: IDBUDGET_CLI), the served OpenAPI document is docs/openapi.yaml's, then scripts/serve.sh on a
# loopback port — /healthz, the seed article's question answered 23 by the API and the page, a 400
# naming the argument, a 405, a 413 for a chunked upload past 64 MiB, schemathesis against /openapi.json,
# the page in headless Chromium (Tools/browser_check.py) — and SIGTERM ends it with status 0.
# Everything is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18080}
base="http://127.0.0.1:$port"
python3 Server/Tools/openapi.py --check
cli=${IDBUDGET_CLI:-.build/release/idbudget}
[ -x "$cli" ] || swift build -c release --product idbudget
IDBUDGET_CLI=$PWD/$cli timeout -k 30 1200 swift test --package-path Server
swift format lint --strict --recursive Server/Sources Server/Tests Server/Package.swift

log=$(mktemp)
# Two audit slots: the SIGTERM check below holds two uploads open at once.
scripts/serve.sh --port "$port" --audits 2 >"$log" 2>&1 &
pid=$!
stop() { kill "$pid" 2>/dev/null || true; }
trap stop EXIT
# The server's last log lines, then the reason: the last line CI prints says what failed.
fail() { tail -20 "$log" >&2; echo "serve-check: $*" >&2; exit 1; }
# The release build may take minutes on a fresh clone; then the server answers at once.
for _ in $(seq 1 1200); do
  curl -sf --max-time 2 "$base/healthz" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || fail "the server exited before answering /healthz"
  sleep 0.5
done
curl -sf --max-time 5 "$base/healthz" | grep -q '"ok"' || fail "/healthz did not answer"
# Settings: options, or the environment; a value out of range stops it at once (64), naming the option
# or the variable; an option wins over the environment.
serve=Server/.build/release/idbudget-serve
st=0; out=$(timeout 10 "$serve" --port 70000 2>&1) || st=$?
[ "$st" = 64 ] && grep -q -- "--port" <<<"$out" || fail "--port 70000 was not refused with 64 naming --port ($st): $out"
st=0; out=$(IDBUDGET_SERVE_LIGHT_SLOTS=many timeout 10 "$serve" 2>&1) || st=$?
[ "$st" = 64 ] && grep -q "IDBUDGET_SERVE_LIGHT_SLOTS" <<<"$out" || fail "a bad IDBUDGET_SERVE_LIGHT_SLOTS was not refused naming it ($st): $out"
"$serve" --help | grep -q -- "--minimum-upload-rate" || fail "--help does not list every setting"
st=0; out=$(timeout 10 "$serve" --port -1 2>&1) || st=$?
[ "$st" = 64 ] && grep -q -- "--port: -1 is out of range" <<<"$out" || fail "--port -1 was not refused as out of range ($st): $out"
st=0; out=$(timeout 10 "$serve" --port 1 --port 2 2>&1) || st=$?
[ "$st" = 64 ] && grep -q -- "--port: given more than once" <<<"$out" || fail "a repeated --port was not refused ($st): $out"
eport=$((port + 1))
IDBUDGET_SERVE_PORT=$eport IDBUDGET_SERVE_DEADLINE=3 timeout 20 "$serve" >/dev/null 2>&1 &
epid=$!
for _ in $(seq 1 40); do curl -sf --max-time 1 "http://127.0.0.1:$eport/healthz" >/dev/null && break; sleep 0.25; done
curl -sf --max-time 2 "http://127.0.0.1:$eport/healthz" >/dev/null || fail "IDBUDGET_SERVE_PORT=$eport was not the port"
kill "$epid"; wait "$epid" 2>/dev/null || true
seed=$(curl -sf --max-time 10 "$base/api/v1/length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11")
[ "$(printf '%s' "$seed" | python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])')" = 23 ] || fail "the seed question was not answered 23"
# Read whole, then searched: `curl | grep -q` fails under pipefail when grep stops reading first.
page=$(curl -sf --max-time 10 "$base/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11")
grep -q '<output id="headline">23 symbols of base62</output>' <<<"$page" || fail "the page did not answer 23"
headers=$(curl -s --max-time 5 -D - -o /dev/null "$base/")
grep -qi "^content-security-policy: default-src 'self'; frame-ancestors 'none'" <<<"$headers" || fail "no CSP header"
bad=$(curl -s --max-time 5 -w '\n%{http_code}' "$base/api/v1/length?alphabet=base62&rate=1e6/x&lifetime=10y&max-probability=1e-11")
[ "$(tail -1 <<<"$bad")" = 400 ] && grep -q '"argument":"rate"' <<<"$bad" || fail "a bad rate was not a 400 naming rate: $bad"
[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' -X DELETE "$base/api/v1/length")" = 405 ] || fail "DELETE was not a 405"
big=$(head -c $((65 << 20)) /dev/zero | tr '\0' 'a' \
  | curl -s --max-time 60 -o /dev/null -w '%{http_code}' -X POST -H 'Transfer-Encoding: chunked' --data-binary @- "$base/api/v1/audit" || true)
[ "$big" = 413 ] || fail "a chunked upload over 64 MiB was answered $big, not 413"
# schemathesis against the served document, fixed seed, bounded: every check on every operation
# (positive_data_acceptance: what the document allows, the server answers; negative_data_rejection:
# what it forbids, the server refuses).
scripts/setup.sh --python schemathesis >/dev/null
timeout 300 python3 -m schemathesis.cli run "$base/openapi.json" --url "$base" --checks all \
  --max-examples 30 --seed 1 --generation-database none || fail "schemathesis found failures"
curl -sf --max-time 5 "$base/healthz" >/dev/null || fail "the server did not stay up"
# A real browser: headless Chromium (Debian's chromium and chromium-driver) driven by selenium, with and
# without JavaScript; the screenshot is CI's artefact (results/page.png).
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi
scripts/setup.sh --python selenium >/dev/null
mkdir -p results results/screens
# One more try when it fails, its findings printed: a machine too slow for a wait tells itself apart
# from a broken page, which fails both (the findings name what, in the failure line).
browser=$(mktemp)
if ! timeout 240 python3 Tools/browser_check.py --base "$base" --screenshot results/page.png --screens results/screens >"$browser" 2>&1; then
  cat "$browser" >&2
  echo "serve-check: the browser check failed (above); trying it once more" >&2
  timeout 240 python3 Tools/browser_check.py --base "$base" --screenshot results/page.png --screens results/screens >"$browser" 2>&1 \
    || fail "the page failed in headless Chromium twice: $(tail -3 "$browser" | tr '\n' ' ' | cut -c1-600)"
fi
cat "$browser"
curl -sf --max-time 5 "$base/healthz" >/dev/null || fail "the server did not stay up after the browser"
grep -q 'method=GET path=/api/v1/length status=400' "$log" || fail "no log line for the 400"
# What the HTTP parser refuses (an unknown method) and a CONNECT get their log line too.
python3 -c "
import socket
for raw in (b'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', b'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
            b'CONNECT / HTTP/1.1\r\nHost: evil status=200 method=GET path=/healthz\r\n\r\n'):
    s = socket.create_connection(('127.0.0.1', $port)); s.settimeout(5); s.sendall(raw)
    while s.recv(4096): pass
"
sleep 0.2
grep -q 'refused_by=parser.*status=400\|status=400.*refused_by=parser' "$log" || fail "no log line for a request the parser refused"
grep -q 'method=CONNECT path=example.com:443' "$log" || fail "no log line naming the CONNECT's target"
# A client's text can not forge a field: a Host with spaces and = stays one field, percent-encoded.
grep -q 'path=evil%20status%3D200%20method%3DGET' "$log" && ! grep -q 'path=evil status=200' "$log" \
  || fail "a Host with spaces and = was logged as several fields: $(grep evil "$log" | head -2)"
# HEAD is answered as GET, and logged as the HEAD it was; a refused method's connection is closed.
curl -s --max-time 5 -I -o /dev/null "$base/no-such-page"
sleep 0.2
grep -q 'method=HEAD path=/no-such-page status=404' "$log" || fail "no log line naming the HEAD"
deleted=$(curl -s --max-time 5 -D - -o /dev/null -X DELETE "$base/healthz" | tr -d '\r')
grep -qi '^connection: close' <<<"$deleted" || fail "a 405 did not close its connection: $deleted"
# SIGTERM: a graceful stop, status 0; a question in flight (a heavy one, well under the 2 s deadline)
# is answered, and the server takes no new ones.
marks=$(mktemp -d)
# A client stalled mid-upload (4 of 1000 bytes sent, the socket held open) must not hold the server:
# its connection is closed after 10 s of silence.
python3 -c "
import socket, sys, time
s = socket.create_connection(('127.0.0.1', $port))
s.sendall(b'POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabcd')
open('$marks/stalled', 'w').close()
time.sleep(60)
" &
stalled=$!
# A client trickling its upload (10 bytes every 2 s) is refused (408) once it falls below the minimum
# rate, so it can not hold the server past its grace period either.
python3 -c "
import socket, sys, time
s = socket.create_connection(('127.0.0.1', $port))
s.sendall(b'POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n')
open('$marks/trickle', 'w').close()
try:
    for _ in range(30):
        s.sendall(b'abcdefghi\n')
        time.sleep(2)
except OSError:
    pass
" &
trickle=$!
# A client uploading steadily above the minimum rate (40 KB/s, for a minute) is refused (503) at its
# next chunk once the server stops: it can not hold the shutdown open either.
python3 -c "
import socket, sys, time
s = socket.create_connection(('127.0.0.1', $port))
s.sendall(b'POST /api/v1/audit HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: 60000000\\r\\n\\r\\n')
open('$marks/steady', 'w').close()
try:
    for _ in range(600):
        s.sendall(b'0123456789abcdef0123\\n' * 190)
        time.sleep(0.1)
except OSError:
    pass
" &
steady=$!
inflight=$(mktemp)
curl -s --max-time 30 -o /dev/null -w '%{http_code}' "$base/api/v1/probability?bits=2097152&count=1e600000" >"$inflight" &
curlpid=$!
# Both uploads under way (their heads sent) before the signal.
for _ in $(seq 1 250); do [ -e "$marks/stalled" ] && [ -e "$marks/trickle" ] && [ -e "$marks/steady" ] && break; sleep 0.02; done
[ -e "$marks/stalled" ] && [ -e "$marks/trickle" ] && [ -e "$marks/steady" ] || fail "the stalled, trickling and steady uploads did not connect"
for _ in $(seq 1 50); do grep -q . <(ss -tn state established "( dport = :$port )" 2>/dev/null | tail -n +2) && break; sleep 0.02; done
sleep 0.05
kill -TERM "$pid"
term=$(date +%s)
wait "$curlpid" || true
[ "$(cat "$inflight")" = 200 ] || fail "the question in flight at SIGTERM was answered $(cat "$inflight"), not 200"
status=0
for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "still running 15 s after SIGTERM (a stalled, trickling or steady upload held it?)"
echo "serve-check: the server ended $(( $(date +%s) - term )) s after SIGTERM, a stalled, a trickling and a steady upload open"
kill "$stalled" "$trickle" "$steady" 2>/dev/null || true
wait "$pid" || status=$?
trap - EXIT
[ "$status" = 0 ] || fail "exited $status after SIGTERM, not 0"
[ "$(curl -s --max-time 2 -o /dev/null -w '%{http_code}' "$base/healthz" || true)" = 000 ] || fail "a new request was answered after SIGTERM"
echo "serve-check: tests, document, seed 23 (API, page, headless Chromium with and without JavaScript), 400, 405, 413, schemathesis, SIGTERM (the question in flight answered, a stalled, a trickling and a steady upload cut off, within 15 s) → 0: all passed"
