#!/usr/bin/env bash
# Tests of the Python client against a real `knowhub serve`: creates .venv here (once), installs
# the package with its langchain and test extras from PyPI, type-checks it (mypy --strict) and
# runs pytest. KNOWHUB_BIN names the server binary (default: the workspace's debug build).
set -euo pipefail
cd "$(dirname "$0")"

export KNOWHUB_BIN="$(realpath -m "${KNOWHUB_BIN:-../../target/debug/knowhub}")"
if [[ ! -x "$KNOWHUB_BIN" ]]; then
  echo "run-tests.sh: no knowhub binary at $KNOWHUB_BIN (cargo build -p knowhub, or set KNOWHUB_BIN)" >&2
  exit 2
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "run-tests.sh: needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2
  exit 2
fi
if [[ ! -x .venv/bin/python ]]; then
  "$PYTHON" -m venv .venv
fi
# Not editable: the tests import the package as a user would get it.
.venv/bin/python -m pip install --quiet --disable-pip-version-check ".[langchain,test]"

.venv/bin/python -m mypy --strict src/knowhub tests examples
.venv/bin/python -m pytest -q "$@"
