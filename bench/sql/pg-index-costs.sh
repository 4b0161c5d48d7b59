#!/usr/bin/env bash
# Costs behind the PostgreSQL vector index choices (docs/postgres.md), measured in SQL on a hub
# that `knowhub-bench scopes --database-url URL` built (100k records of the local embedder's
# 768-dimension vectors, scopes `org` and `team/t1`..`team/t49`):
#   1. an exact scan of a scope's vectors (the E5 head) against a search of its own head index,
#      p50 over 50 queries made from pairs of records' E5 blocks;
#   2. the cost of rewriting 300 vectors with both shared indexes, and with each alone (each in a
#      transaction rolled back: the hub is left as it was; run it while both exist).
# Usage: PSQL="psql" bench/sql/pg-index-costs.sh postgres://knowhub@127.0.0.1:PORT/knowhub
# It builds two temporary scope indexes (dropped at the end) if the scopes have none.
set -euo pipefail
URL=$1
PSQL=${PSQL:-psql}
q() { $PSQL "$URL" -q "$@"; }
p50() { grep -E 'Execution Time' | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int(NR/2)+1] " ms (n=" NR ")"}'; }
HEAD='subvector(v.embedding, 1, 384)::vector(384)'
queries() {
  for s in $(seq 1017 1999 99000); do
    echo "SELECT l2_normalize(subvector(a.embedding,1,384) + subvector(b.embedding,1,384))::vector(384) AS q FROM vectors a, vectors b WHERE a.seq = $s AND b.seq = $((s+777)) \\gset"
    echo "$1"
  done
}
for scope in team/t8 team/t4; do
  name="bench_costs_$(echo "$scope" | tr -c 'a-z0-9\n' '_')"
  q -c "CREATE INDEX IF NOT EXISTS $name ON vectors USING hnsw ((subvector(embedding, 1, 384)::vector(384)) vector_ip_ops) WHERE dim = 768 AND scope = '$scope'"
  n=$(q -At -c "SELECT count(*) FROM vectors WHERE scope = '$scope'")
  exact="EXPLAIN (ANALYZE, SUMMARY ON) SELECT v.seq FROM vectors v WHERE v.scope = '$scope' AND v.dim = 768 ORDER BY ($HEAD <#> :'q'::vector(384)) + 0 LIMIT 80;"
  own="SET hnsw.ef_search = 80; SET enable_sort = off; EXPLAIN (ANALYZE, SUMMARY ON) SELECT v.seq FROM vectors v WHERE v.scope = '$scope' AND v.dim = 768 ORDER BY $HEAD <#> :'q'::vector(384) LIMIT 40;"
  echo "$scope ($n records): exact scan $(queries "$exact" | q 2>&1 | p50); own head index $(queries "$own" | q 2>&1 | p50)"
  q -c "DROP INDEX IF EXISTS $name"
done
# The same 300 vectors each time, of scopes too small for an index of their own (so only the
# shared indexes are updated); a first, untimed pass warms the pages.
ROWS="seq IN (SELECT seq FROM vectors WHERE scope IN (SELECT scope FROM vectors GROUP BY scope HAVING count(*) < 500) ORDER BY seq LIMIT 300)"
rewrite() {
  $PSQL "$URL" -c "\\timing on" -c "BEGIN" ${1:+-c "$1"} -c "UPDATE vectors SET embedding = embedding WHERE $ROWS" -c "ROLLBACK" 2>&1 \
    | grep -A1 '^UPDATE' | paste - - | awk '{printf "%s vectors in %s ms: %.2f ms a vector\n", $2, $4, $4 / $2}'
}
rewrite "" > /dev/null
for i in 1 2; do
  echo "rewrite, both shared indexes: $(rewrite "")"
  echo "rewrite, the whole vector's only: $(rewrite "DROP INDEX IF EXISTS vectors_hnsw_ip_768_h384")"
  echo "rewrite, the head's only: $(rewrite "DROP INDEX IF EXISTS vectors_hnsw_ip_768")"
done
