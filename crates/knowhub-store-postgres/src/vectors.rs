//! Vectors: pgvector, column `vector` without a fixed dimension plus one partial HNSW index per
//! dimension in use (created on first use, see `ensure_vector_index`), so changing the embedding model
//! needs no migration. Candidates come from the index, or, for a filter that only a few records
//! pass, from an exact scan of those records (see `candidates`); block scores from `subvector`s.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use knowhub_core::{BlockScores, CoreError, Result, SearchFilter, VECTOR_BLOCK};
use sqlx::{AssertSqlSafe, PgPool, Row};

use crate::db::{db_err, PgStore};
use crate::filter;
use crate::rows::scored;

/// HNSW's candidate list for a usual search (pgvector's default); see `candidates`.
pub(crate) const SESSION_EF_SEARCH: usize = 40;

/// HNSW on `vector` supports at most 2,000 dimensions; larger vectors are searched exactly.
const MAX_HNSW_DIM: usize = 2000;

/// Records (of the filter's scopes) up to which candidates come from an exact scan of the
/// scopes' vectors rather than from HNSW. HNSW filters after its index scan, so for a small
/// scope its iterative scan walks on until enough neighbours pass (1,000 tuples or more for a 3%
/// scope, the whole `hnsw.max_scan_tuples` for a 1% one); the exact scan costs a fixed amount per
/// vector of the scopes, read through their scope index without a join. At 100k records on a
/// loaded 2-core machine the two cost about the same near 7,000 records (a 5.8% scope: exact
/// 18 ms, HNSW 39 ms; a 9% one: exact 30 ms, HNSW 25 ms).
const EXACT_MAX: u64 = 7000;

/// An exact scan joins its nearest `EXACT_POOL * limit` vectors to their records for the filter
/// (see `exact`): room for the few records the filter drops (pending, held, below a rating).
const EXACT_POOL: usize = 2;

/// The largest HNSW candidate list a scoped search asks for (see `candidates`).
const SCOPED_EF_MAX: usize = 400;

/// How long the per-scope record counts are reused: they only choose a plan, so a minute's drift
/// costs at most a slower plan, never a wrong result.
const SCOPE_COUNTS_TTL: Duration = Duration::from_secs(60);

fn check_vector(v: &[f32]) -> Result<()> {
    if v.is_empty() || v.len() > 16_000 {
        return Err(CoreError::invalid("vector", format!("dimension {} not supported (1..16000)", v.len())));
    }
    Ok(())
}

pub(crate) use memo::{KnownDims, ScopeCounts};

/// A tiny set behind a std mutex; avoids another dependency for one memo.
mod memo {
    use std::collections::{HashMap, HashSet};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    #[derive(Default)]
    pub struct KnownDims(Mutex<HashSet<usize>>);

    impl KnownDims {
        pub fn contains(&self, d: usize) -> bool {
            self.0.lock().map(|s| s.contains(&d)).unwrap_or(false)
        }
        pub fn insert(&self, d: usize) {
            if let Ok(mut s) = self.0.lock() {
                s.insert(d);
            }
        }
    }

    type Counts = Arc<HashMap<String, u64>>;

    /// Records per scope, as last counted, and when.
    #[derive(Default)]
    pub struct ScopeCounts(Mutex<Option<(Instant, Counts)>>);

    impl ScopeCounts {
        /// The counts if taken less than `ttl` ago.
        pub fn fresh(&self, ttl: Duration) -> Option<Counts> {
            let g = self.0.lock().unwrap_or_else(|p| p.into_inner());
            g.as_ref().filter(|(at, _)| at.elapsed() < ttl).map(|(_, c)| c.clone())
        }
        pub fn set(&self, counts: HashMap<String, u64>) -> Counts {
            let c = Arc::new(counts);
            *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), c.clone()));
            c
        }
    }
}

/// The partial HNSW index for vectors of one dimension, by inner product: vectors are unit
/// length (where inner product ranks as cosine) except the local embedder's composite ones,
/// whose E5 half must be scored unscaled (knowhub-ai `compose`). Replaces the cosine index of
/// earlier versions. Public so benchmarks can time exactly the index the store creates. The
/// dimension is a number rendered here: no injection.
pub fn hnsw_index_sql(dim: usize) -> String {
    format!(
        "DROP INDEX IF EXISTS vectors_hnsw_{dim}; \
         CREATE INDEX IF NOT EXISTS vectors_hnsw_ip_{dim} ON vectors USING hnsw ((embedding::vector({dim})) vector_ip_ops) \
         WHERE dim = {dim}"
    )
}

impl PgStore {
    /// Vector models present with their counts (to detect a model change).
    pub async fn vector_models(&self) -> Result<Vec<(String, u64)>> {
        let rows = sqlx::query("SELECT model, COUNT(*) FROM vectors GROUP BY model ORDER BY 2 DESC")
            .fetch_all(&self.pool)
            .await
            .map_err(db_err)?;
        rows.iter()
            .map(|r| Ok((r.try_get(0).map_err(db_err)?, r.try_get::<i64, _>(1).map_err(db_err)? as u64)))
            .collect()
    }

    /// Creates the partial HNSW index for vectors of `dim`, once per database. Why partial and
    /// per dimension: an HNSW index needs a fixed dimension, and a fixed-dimension column would
    /// make an embedding model change a schema migration. Creation is serialised across
    /// replicas by an advisory lock (CREATE INDEX IF NOT EXISTS alone races on the catalog).
    pub(crate) async fn ensure_vector_index(&self, dim: usize) -> Result<()> {
        if dim > MAX_HNSW_DIM || self.dims.contains(dim) {
            return Ok(());
        }
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        sqlx::query("SELECT pg_advisory_xact_lock(7264, $1)")
            .bind(dim as i32)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        // Building over rows already stored may take longer than the statement timeout allows.
        sqlx::query("SET LOCAL statement_timeout = 0").execute(&mut *tx).await.map_err(db_err)?;
        sqlx::raw_sql(AssertSqlSafe(hnsw_index_sql(dim))).execute(&mut *tx).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        self.dims.insert(dim);
        Ok(())
    }

    /// Records in the given scopes (any status) and in all, from counts at most
    /// `SCOPE_COUNTS_TTL` old: one `GROUP BY` over the scope index per refresh.
    async fn records_in(&self, scopes: &[String]) -> Result<(u64, u64)> {
        let counts = match self.scope_counts.fresh(SCOPE_COUNTS_TTL) {
            Some(c) => c,
            None => {
                let rows = sqlx::query("SELECT scope, COUNT(*) FROM experiences GROUP BY scope")
                    .fetch_all(&self.pool)
                    .await
                    .map_err(db_err)?;
                let mut m = HashMap::with_capacity(rows.len());
                for r in &rows {
                    m.insert(
                        r.try_get::<String, _>(0).map_err(db_err)?,
                        r.try_get::<i64, _>(1).map_err(db_err)? as u64,
                    );
                }
                self.scope_counts.set(m)
            }
        };
        let mut seen = HashSet::new();
        let n = scopes.iter().filter(|s| seen.insert(s.as_str())).map(|s| counts.get(s).copied().unwrap_or(0)).sum();
        Ok((n, counts.values().sum()))
    }
}

/// Nearest records to `query` of `model` passing `filter`, as `(id, inner product)`.
pub(crate) async fn candidates(
    s: &PgStore,
    model: &str,
    query: &[f32],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    check_vector(query)?;
    let dim = query.len();
    let q = pgvector::Vector::from(query.to_vec());
    // The session's settings (`connect_options`) serve a usual search in one round trip; a
    // larger candidate list raises `ef_search` for one transaction.
    let mut ef = (limit * 2).clamp(SESSION_EF_SEARCH, 1000);
    if let Some(scopes) = &filter.scopes {
        let (n, all) = s.records_in(scopes).await?;
        if n <= EXACT_MAX {
            return exact(s, model, query, filter, limit).await;
        }
        ef = scoped_ef(ef, n, all);
    }
    // The cast and the `dim = N` literal match the partial index's expression and predicate.
    // The vectors' own scope drops other scopes' candidates before any join to their records.
    let sql = format!(
        "WITH c AS MATERIALIZED (SELECT e.id, v.embedding::vector({dim}) <#> $1::vector({dim}) AS d \
         FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE v.dim = {dim} AND v.model = $2 AND (${s}::text[] IS NULL OR v.scope = ANY(${s}::text[])) AND {} \
         ORDER BY d LIMIT ${}) SELECT id, (-d)::float8 FROM c ORDER BY d",
        filter::sql(3),
        3 + filter::PARAMS,
        s = filter::scopes_param(3),
    );
    let query = filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(q).bind(model), filter).bind(limit as i64);
    if ef <= SESSION_EF_SEARCH {
        return scored(query.fetch_all(&s.pool).await.map_err(db_err)?);
    }
    let mut tx = s.pool.begin().await.map_err(db_err)?;
    sqlx::query("SELECT set_config('hnsw.ef_search', $1, true)")
        .bind(ef.to_string())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let rows = query.fetch_all(&mut *tx).await.map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    scored(rows)
}

/// The HNSW candidate list for a search whose filter passes `n` of `all` records: HNSW filters
/// after its scan, so a list sized for about `ef` passing records keeps recall at the unscoped
/// search's (the iterative scan's later rounds rank worse), up to `SCOPED_EF_MAX`; never below `ef`.
fn scoped_ef(ef: usize, n: u64, all: u64) -> usize {
    let wide = (ef as u64).saturating_mul(all).div_ceil(n.max(1));
    (wide.min(SCOPED_EF_MAX as u64) as usize).max(ef)
}

/// `candidates` by an exact scan of the scopes' vectors: the nearest `EXACT_POOL` times `limit`
/// of them through the vectors' own scope index (no join per row), then only those joined to
/// their records for the rest of the filter. When fewer than `limit` of those pass and the scopes
/// hold more, `exact_filtered` answers instead. The result is exact either way: a record outside
/// the nearest `EXACT_POOL * limit` is farther than every one inside, passing or not. The `+ 0`
/// makes the ordering an expression the HNSW index cannot serve, so the planner cannot turn the
/// plan around into an index scan filtered afterwards.
async fn exact(
    s: &PgStore,
    model: &str,
    query: &[f32],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    let dim = query.len();
    let pool = limit.saturating_mul(EXACT_POOL).max(1);
    let sql = format!(
        "WITH c AS MATERIALIZED (SELECT v.seq, (v.embedding::vector({dim}) <#> $1::vector({dim})) + 0 AS d \
         FROM vectors v WHERE v.scope = ANY(${}::text[]) AND v.dim = {dim} AND v.model = $2 ORDER BY d LIMIT ${}) \
         SELECT e.id, (-c.d)::float8, ({}) FROM c JOIN experiences e ON e.seq = c.seq ORDER BY c.d",
        filter::scopes_param(3),
        3 + filter::PARAMS,
        filter::sql(3),
    );
    let q = pgvector::Vector::from(query.to_vec());
    let rows = filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(q).bind(model), filter)
        .bind(pool as i64)
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    let mut out = Vec::with_capacity(limit);
    for r in &rows {
        if out.len() == limit {
            break;
        }
        if r.try_get::<bool, _>(2).map_err(db_err)? {
            out.push((r.try_get(0).map_err(db_err)?, r.try_get(1).map_err(db_err)?));
        }
    }
    if out.len() < limit && rows.len() == pool {
        return exact_filtered(s, model, query, filter, limit).await;
    }
    Ok(out)
}

/// `exact` for a filter that drops many of the scopes' nearest records (an agent's own records,
/// a minimum rating, many held): the records passing the whole filter first (through the scope
/// index of `experiences`), then their vectors.
async fn exact_filtered(
    s: &PgStore,
    model: &str,
    query: &[f32],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    let dim = query.len();
    let sql = format!(
        "WITH f AS MATERIALIZED (SELECT e.seq, e.id FROM experiences e WHERE {}), \
         c AS MATERIALIZED (SELECT f.id, (v.embedding::vector({dim}) <#> $1::vector({dim})) + 0 AS d \
         FROM f JOIN vectors v ON v.seq = f.seq WHERE v.dim = {dim} AND v.model = $2 ORDER BY d LIMIT ${}) \
         SELECT id, (-d)::float8 FROM c ORDER BY d",
        filter::sql(3),
        3 + filter::PARAMS
    );
    let q = pgvector::Vector::from(query.to_vec());
    let query = filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(q).bind(model), filter).bind(limit as i64);
    scored(query.fetch_all(&s.pool).await.map_err(db_err)?)
}

/// The given records' block scores against `query`.
pub(crate) async fn scores(
    pool: &PgPool,
    model: &str,
    query: &[f32],
    ids: &[String],
) -> Result<Vec<(String, BlockScores)>> {
    check_vector(query)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // One dot product per column block, from `subvector`s of the stored vector and the query.
    let dim = query.len();
    let dots: Vec<String> = (0..dim.div_ceil(VECTOR_BLOCK))
        .map(|b| {
            let (from, len) = (b * VECTOR_BLOCK + 1, VECTOR_BLOCK.min(dim - b * VECTOR_BLOCK));
            format!("(-(subvector(v.embedding, {from}, {len}) <#> subvector($1, {from}, {len})))::float8")
        })
        .collect();
    let sql = format!(
        "SELECT e.id, ARRAY[{}], v.block_norms::float8[] FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE e.id = ANY($2) AND v.model = $3 AND v.dim = $4",
        dots.join(", ")
    );
    let rows = sqlx::query(AssertSqlSafe(sql))
        .bind(pgvector::Vector::from(query.to_vec()))
        .bind(ids)
        .bind(model)
        .bind(dim as i32)
        .fetch_all(pool)
        .await
        .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let id: String = r.try_get(0).map_err(db_err)?;
            Ok((id, BlockScores { dots: r.try_get(1).map_err(db_err)?, norms: r.try_get(2).map_err(db_err)? }))
        })
        .collect()
}

/// The stored vectors of `model` for the given records.
pub(crate) async fn by_ids(pool: &PgPool, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT e.id, v.embedding FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE e.id = ANY($1) AND v.model = $2",
    )
    .bind(ids)
    .bind(model)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let v: pgvector::Vector = r.try_get(1).map_err(db_err)?;
            Ok((r.try_get(0).map_err(db_err)?, v.to_vec()))
        })
        .collect()
}

/// Stores vectors (records deleted meanwhile are skipped), creating the index for a new dimension.
pub(crate) async fn set(s: &PgStore, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
    let mut dims: Vec<usize> = items.iter().map(|(_, v)| v.len()).collect();
    dims.sort_unstable();
    dims.dedup();
    for d in dims {
        if d == 0 || d > 16_000 {
            return Err(CoreError::invalid("vector", format!("dimension {d} not supported (1..16000)")));
        }
        s.ensure_vector_index(d).await?;
    }
    let mut tx = s.pool.begin().await.map_err(db_err)?;
    for (id, v) in items {
        // Records deleted meanwhile are skipped (no row to join), like in SQLite. The record's
        // scope goes with its vector; the share lock makes a concurrent scope move
        // (`records::set_scope`) either wait for this row or be seen by it.
        sqlx::query(
            "INSERT INTO vectors (seq, model, dim, embedding, block_norms, scope) \
             SELECT seq, $2, $3, $4, $5, scope FROM experiences WHERE id = $1 FOR SHARE \
             ON CONFLICT (seq) DO UPDATE SET model = EXCLUDED.model, dim = EXCLUDED.dim, embedding = EXCLUDED.embedding, \
             block_norms = EXCLUDED.block_norms, scope = EXCLUDED.scope",
        )
        .bind(id)
        .bind(model)
        .bind(v.len() as i32)
        .bind(pgvector::Vector::from(v.clone()))
        .bind(knowhub_core::store::block_norms(v).into_iter().map(|n| n as f32).collect::<Vec<f32>>())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)
}

/// Records not rejected that have no vector of `model` yet, oldest first, with their text.
pub(crate) async fn missing(pool: &PgPool, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query(
        "SELECT e.id, e.task, e.resource, e.result FROM experiences e WHERE e.status <> 'rejected' \
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = e.seq AND v.model = $1) ORDER BY e.seq LIMIT $2",
    )
    .bind(model)
    .bind(limit as i64)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let (id, t, rs, res): (String, String, String, String) = (
                r.try_get(0).map_err(db_err)?,
                r.try_get(1).map_err(db_err)?,
                r.try_get(2).map_err(db_err)?,
                r.try_get(3).map_err(db_err)?,
            );
            Ok((id, knowhub_core::search_text(&t, &rs, &res)))
        })
        .collect()
}

pub(crate) async fn count(pool: &PgPool, model: &str) -> Result<u64> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM vectors WHERE model = $1")
        .bind(model)
        .fetch_one(pool)
        .await
        .map_err(db_err)?;
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::{scoped_ef, SCOPED_EF_MAX};

    #[test]
    fn scoped_candidate_list_grows_with_what_the_filter_drops() {
        assert_eq!(scoped_ef(80, 25_000, 100_000), 320, "a quarter passes: four times the list");
        assert_eq!(scoped_ef(80, 100_000, 100_000), 80, "everything passes");
        assert_eq!(scoped_ef(80, 5_000, 100_000), SCOPED_EF_MAX, "capped");
        assert_eq!(scoped_ef(800, 5_000, 100_000), 800, "a larger list asked for stays");
        assert_eq!(scoped_ef(80, 0, 0), 80, "no records counted");
    }
}
