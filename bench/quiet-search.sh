#!/usr/bin/env bash
# Search latency on a quiet hub: `knowhub serve` on an existing hub, one search every GAP seconds
# (distinct real queries: CoSQA and ATEC, alternating), after one warm-up search. What a hub
# searched now and then costs per search, caches and refreshes included; `load` measures
# back-to-back searches instead.
#
#   bench/quiet-search.sh postgres://...  [GAP] [N]   # a PostgreSQL hub (e.g. one `load` built)
#   bench/quiet-search.sh DATA_DIR        [GAP] [N]   # a SQLite hub (`load --keep DATA_DIR`)
#   KNOWHUB_BIN=path/to/knowhub bench/quiet-search.sh ...   # another build
#
# Prints N, the HTTP p50 / p90 / max and every time (ms). Listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
HUB="$1"; GAP="${2:-11}"; N="${3:-20}"
BIN="${KNOWHUB_BIN:-target/release/knowhub}"
[ -x "$BIN" ] || cargo build --release -p knowhub
PORT="${KNOWHUB_QUIET_PORT:-18123}"
case "$HUB" in
  postgres://*|postgresql://*) export KNOWHUB_DATABASE_URL="$HUB" ;;
  *) export KNOWHUB_DATA_DIR="$HUB" ;;
esac
LOG="$(mktemp)"
"$BIN" serve --bind "127.0.0.1:$PORT" >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 240); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
curl -sf "127.0.0.1:$PORT/healthz" >/dev/null || { cat "$LOG" >&2; exit 1; }
python3 - "$PORT" "$GAP" "$N" ../shared/data/retrieval/en_cosqa/beir/queries.jsonl ../shared/data/retrieval/zh_atec/queries.jsonl <<'PY'
import itertools, json, statistics, sys, time, urllib.parse, urllib.request
port, gap, n = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
sets = [[json.loads(l)["text"] for l in itertools.islice(open(f), 100, 100 + n)] for f in sys.argv[4:6]]
queries = [q for pair in zip(*sets) for q in pair][:n]
def search(q):
    url = f"http://127.0.0.1:{port}/api/search?q=" + urllib.parse.quote(q)
    urllib.request.urlopen(url, timeout=60).read()
search("warm up: load the models and open a connection")
ts = []
for q in queries:
    time.sleep(gap)
    t = time.perf_counter()
    search(q)
    ts.append((time.perf_counter() - t) * 1000)
s = sorted(ts)
print(f"{len(s)} searches, one every {gap:g} s: HTTP p50 {statistics.median(s):.2f} ms, "
      f"p90 {s[max(0, int(len(s) * 0.9) - 1)]:.2f} ms, max {s[-1]:.2f} ms; all: {[round(x, 1) for x in ts]}")
PY
