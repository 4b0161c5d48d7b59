#!/usr/bin/env bash
# KnowHub's MCP server against the official MCP SDK client (PyPI `mcp` 2.3.0), on both transports.
#
#   scripts/mcp-conformance.sh          (KNOWHUB_BIN defaults to target/debug/knowhub)
#
# 1. installs mcp==2.3.0 into a venv at .cache/mcp-sdk (once; set MCP_SDK_VENV to use another);
# 2. starts a real `knowhub serve` with auth on (temp data dir, --embedder none) and creates an
#    agent key and an admin key with `knowhub keys create`;
# 3. runs scripts/mcp_conformance.py: stdio (`knowhub mcp` as a client of that hub) and HTTP
#    (/mcp), each with both lifecycles; every tool, resources, bad arguments, unknown tool and id,
#    401 without a key, the agent key's limits, and a hub that is down (stdio).
# Exits non-zero on any failed check; the last line is `mcp-conformance: N passed, M failed`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KNOWHUB_BIN="${KNOWHUB_BIN:-$ROOT/target/debug/knowhub}"
VENV="${MCP_SDK_VENV:-$ROOT/.cache/mcp-sdk}"
MCP_PIN="mcp==2.3.0"

log() { printf '[mcp-conformance] %s\n' "$*"; }
die() { printf '[mcp-conformance] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$KNOWHUB_BIN" = /* ]] || KNOWHUB_BIN="$PWD/$KNOWHUB_BIN"
[[ -x "$KNOWHUB_BIN" ]] || die "knowhub binary not found at $KNOWHUB_BIN (cargo build -p knowhub, or set KNOWHUB_BIN)"
for v in $(compgen -e | grep '^KNOWHUB_' | grep -v '^KNOWHUB_BIN$' || true); do unset "$v"; done

# ---- the SDK, once --------------------------------------------------------------------------------
if ! "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("mcp") != "2.3.0")' 2>/dev/null; then
  log "installing $MCP_PIN (official MCP Python SDK) from PyPI into $VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$MCP_PIN" || die "pip install $MCP_PIN failed"
fi
log "$("$VENV/bin/python" -c 'import importlib.metadata as m; print("mcp", m.version("mcp"), "on python", __import__("sys").version.split()[0])')"

# ---- a hub with auth on, and keys -------------------------------------------------------------------
WORK="$(mktemp -d /tmp/knowhub-mcp-conformance.XXXXXX)"
PID_KH=""
cleanup() {
  local rc=$?
  [[ -n "$PID_KH" ]] && kill "$PID_KH" 2>/dev/null && wait "$PID_KH" 2>/dev/null
  if [[ $rc -eq 0 ]]; then rm -rf "$WORK"; else echo "[mcp-conformance] artifacts kept in $WORK"; fi
  exit $rc
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

AGENT_KEY="$("$KNOWHUB_BIN" keys create --role agent --name sdk-agent --data-dir "$WORK/data" 2>/dev/null | tail -1)"
ADMIN_KEY="$("$KNOWHUB_BIN" keys create --role admin --name sdk-admin --data-dir "$WORK/data" 2>/dev/null | tail -1)"
[[ "$AGENT_KEY" == kh_* && "$ADMIN_KEY" == kh_* ]] || die "knowhub keys create did not print keys"
KNOWHUB_AUTH=true "$KNOWHUB_BIN" serve --bind 127.0.0.1:0 --embedder none --data-dir "$WORK/data" >"$WORK/serve.out" 2>"$WORK/serve.err" &
PID_KH=$!
for _ in $(seq 1 100); do grep -q "listening on" "$WORK/serve.out" 2>/dev/null && break; sleep 0.1; done
HUB="$(sed -n 's/^knowhub listening on //p' "$WORK/serve.out")"
[[ -n "$HUB" ]] || { cat "$WORK/serve.err"; die "knowhub serve did not start"; }
DOWN="http://127.0.0.1:$(free_port)"
log "hub $HUB (auth on); a hub that is down: $DOWN"

# ---- the checks --------------------------------------------------------------------------------------
"$VENV/bin/python" "$ROOT/scripts/mcp_conformance.py" "$KNOWHUB_BIN" "$HUB" "$AGENT_KEY" "$ADMIN_KEY" "$DOWN"
