#!/usr/bin/env bash
# SQLite and PostgreSQL + pgvector side by side, one run, release build, local models:
# the same N records (real text, recombined as `load` does) with the same vectors
# (`--vectors-from`: real vectors of embedded benchmark hubs, mixed for recombined records),
# then submits over HTTP and searches (queries embedded live by the local models).
#
#   bench/backends.sh CACHE [N]   # CACHE: a `retrieval --cache-dir` folder with embedded hubs
#
# Prints each backend's `load` figures, then PostgreSQL's own memory (PSS of its processes).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE="$1"; N="${2:-100000}"
BENCH=target/release/knowhub-bench
[ -x "$BENCH" ] || cargo build --release -p knowhub-bench
HUBS=("$CACHE"/*local_multilingual-e5-small-q4+all-minilm-l6-v2-q8)
ARGS=(--records "$N" --embedder local --vectors-from "${HUBS[@]}" --submits 2000 --queries 300)
WORK="$(mktemp -d)"; chmod 755 "$WORK"   # PostgreSQL runs as nobody as root
PGDIR="$WORK/pg"
cleanup() { ./scripts/pg-test-server.sh destroy "$PGDIR" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

echo "## SQLite ($N records)"
"$BENCH" load "${ARGS[@]}" --keep "$WORK/sqlite"

echo "## PostgreSQL + pgvector ($N records)"
./scripts/pg-test-server.sh install >/dev/null
URL="$(KNOWHUB_PG_DURABLE=1 ./scripts/pg-test-server.sh start "$PGDIR" | head -1)"
"$BENCH" load "${ARGS[@]}" --database-url "$URL"

pss=0
for p in $(pgrep -u nobody -f "postgres"); do
  k=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
  pss=$((pss + ${k:-0}))
done
echo "PostgreSQL memory after the run: PSS $((pss / 1024)) MB over $(pgrep -u nobody -fc postgres) processes"
