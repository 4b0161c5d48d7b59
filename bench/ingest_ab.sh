#!/usr/bin/env bash
# Ingest with both local models, several builds alternated on the same 1,500 records, so machine
# drift hits all alike: each build's `knowhub-bench load` imports and embeds into a fresh
# directory, and its `embedded N records in T s` line is printed per round.
# usage: bench/ingest_ab.sh ROUNDS LABEL=KNOWHUB_BENCH_BINARY ...
#   e.g. bench/ingest_ab.sh 3 old=/tmp/bench_old new=target/release/knowhub-bench
set -euo pipefail
rounds=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for r in $(seq 1 "$rounds"); do
  for spec in "$@"; do
    label=${spec%%=*}
    bin=${spec#*=}
    rm -rf "$dir/hub"
    line=$("$bin" load --records 1500 --embedder local --submits 0 --queries 10 --keep "$dir/hub" 2>&1 | grep embedded)
    echo "round $r $label: $line"
  done
done
