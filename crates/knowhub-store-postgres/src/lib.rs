//! KnowHub on PostgreSQL + pgvector, for running several server replicas on one database.
//!
//! - Everything lives in the database; this store keeps no in-memory index or cache of records,
//!   because another replica may write at any time. All retrieval is SQL.
//! - Dedup is enforced by the database (unique `content_hash`, `INSERT .. ON CONFLICT`), so
//!   concurrent identical submits from any number of processes add confirmers, never rows.
//!   Confirmers and votes are rows keyed by caller, and the counts on the record are recomputed
//!   from them under the record's row lock (see `evidence`).
//! - Full text: a `tsvector` built in the app from the same tokens the SQLite store indexes
//!   (`knowhub_core::text::tokenize`), because PostgreSQL has no Chinese parser; ranked by
//!   IDF-weighted `ts_rank_cd`, selecting through the selective tokens only (see `fts`).
//! - Vectors: pgvector, column `vector` without a fixed dimension plus one partial HNSW index per
//!   dimension in use, so changing the embedding model needs no migration.
//! - Outages: a pool with a short acquire timeout and a statement timeout, so requests fail fast
//!   with `CoreError::Unavailable` (HTTP 503) while the database is down, and later requests get
//!   fresh connections by themselves once it is back.

mod evidence;
mod extract;
mod fts;
mod insight;
mod keys;
mod migrations;
mod rows;
pub mod test_support;

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use knowhub_core::access::{ApiKey, NewApiKey};
use knowhub_core::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use knowhub_core::review::{Decision, Review};
use knowhub_core::store::{not_found, ImportOutcome};
use knowhub_core::{
    new_id, now_rfc3339, text, BlockScores, Content, CoreError, DisputeDecision, Experience, ExportRecord, History,
    InsertOutcome, NewExperience, Result, SearchFilter, Status, Store, Vote, VECTOR_BLOCK,
};
use memo::KnownDims;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::AssertSqlSafe;
use sqlx::{Connection, PgPool, Row};

pub use migrations::latest_version;
pub use sqlx;

use crate::rows::{Exp, EXP_COLS};

/// HNSW's candidate list for a usual search (pgvector's default); see `vector_candidates`.
const SESSION_EF_SEARCH: usize = 40;

/// HNSW on `vector` supports at most 2,000 dimensions; larger vectors are searched exactly.
const MAX_HNSW_DIM: usize = 2000;

/// Connection settings. The defaults suit a server: fail fast while the database is away.
#[derive(Debug, Clone)]
pub struct PgOptions {
    pub max_connections: u32,
    /// How long a request waits for a connection before answering `Unavailable`.
    pub acquire_timeout: Duration,
    /// Server-side limit for any one statement (`statement_timeout`).
    pub statement_timeout: Duration,
    /// Records from which full-text search ranks at most a budget of records and counts rare
    /// tokens exactly (`fts::BOUNDED_FROM`); tests set 0 to run that path on small tables.
    pub fts_bounded_from: u64,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            max_connections: 16,
            acquire_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(30),
            fts_bounded_from: fts::BOUNDED_FROM,
        }
    }
}

pub struct PgStore {
    pool: PgPool,
    /// Dimensions whose HNSW index this process has already ensured (a memo, not data).
    dims: KnownDims,
    /// Full-text word statistics, reused for a few seconds (see `fts`).
    stats: fts::StatsCache,
}

/// Maps database errors to the core's: connection trouble and timeouts become `Unavailable`
/// (the server answers 503 and the client may retry), the rest `Internal`.
pub(crate) fn db_err(e: sqlx::Error) -> CoreError {
    use sqlx::Error as E;
    match &e {
        E::PoolTimedOut | E::PoolClosed | E::Io(_) | E::Tls(_) | E::WorkerCrashed | E::Protocol(_) => {
            CoreError::Unavailable(format!("postgres: {e}"))
        }
        E::Database(d) => {
            let code = d.code().unwrap_or_default();
            // 08: connection exceptions; 57P0x: shutdown / cannot connect now; 57014: statement
            // timeout; 53: insufficient resources; 40001/40P01: serialisation failure / deadlock.
            if code.starts_with("08")
                || code.starts_with("57P")
                || code == "57014"
                || code.starts_with("53")
                || code == "40001"
                || code == "40P01"
            {
                CoreError::Unavailable(format!("postgres: {e}"))
            } else if code == "23505" {
                CoreError::Conflict(format!("postgres: {}", d.message()))
            } else {
                CoreError::Internal(format!("postgres: {e}"))
            }
        }
        _ => CoreError::Internal(format!("postgres: {e}")),
    }
}

fn connect_options(url: &str, opts: &PgOptions) -> Result<PgConnectOptions> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(CoreError::invalid("database_url", "must start with postgres:// or postgresql://"));
    }
    let o = PgConnectOptions::from_str(url).map_err(|e| CoreError::invalid("database_url", e.to_string()))?;
    // HNSW's iterative scan: when the filter discards neighbours, the index keeps searching
    // instead of returning fewer than asked for (pgvector 0.8; relaxed order is re-sorted by the
    // query). Set for the session, so the usual search needs no transaction to set it.
    Ok(o.application_name("knowhub").options([
        ("statement_timeout", format!("{}", opts.statement_timeout.as_millis())),
        ("hnsw.iterative_scan", "relaxed_order".to_string()),
        ("hnsw.ef_search", SESSION_EF_SEARCH.to_string()),
    ]))
}

/// Space-separated `'token':position` list, the `tsvector` input format (no parser involved, so
/// tokens such as `err_connection_refused` stay whole).
pub(crate) fn tsvector_text(tokens: &[String]) -> String {
    let mut out = String::with_capacity(tokens.len() * 8);
    let mut counts = std::collections::HashMap::<&str, usize>::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.is_empty() || t.len() > 2000 {
            continue;
        }
        // PostgreSQL keeps at most 256 positions per lexeme; positions stop at 16383.
        let c = counts.entry(t.as_str()).or_default();
        *c += 1;
        if *c > 255 {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&quote_lexeme(t));
        out.push_str(&format!(":{}", (i + 1).min(16383)));
    }
    out
}

pub(crate) fn quote_lexeme(t: &str) -> String {
    format!("'{}'", t.replace('\\', "\\\\").replace('\'', "''"))
}

fn body(task: &str, resource: &str, result: &str) -> String {
    tsvector_text(&text::tokenize(&knowhub_core::search_text(task, resource, result)))
}

fn check_vector(v: &[f32]) -> Result<()> {
    if v.is_empty() || v.len() > 16_000 {
        return Err(CoreError::invalid("vector", format!("dimension {} not supported (1..16000)", v.len())));
    }
    Ok(())
}

/// A tiny set behind a std mutex; avoids another dependency for one memo.
mod memo {
    use std::collections::HashSet;
    use std::sync::Mutex;

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
    /// Records holding each token, counted up to `cap` (what bounded full-text search weighs
    /// rare tokens by); for tests.
    #[doc(hidden)]
    pub async fn fts_token_counts(&self, tokens: &[String], cap: i64) -> Result<Vec<f64>> {
        fts::count_tokens(&self.pool, tokens, cap).await
    }

    /// Connects, creates the `vector` extension if needed and runs pending migrations.
    pub async fn connect(url: &str, opts: PgOptions) -> Result<PgStore> {
        Self::migrate_with(url, &opts).await?;
        let pool = PgPoolOptions::new()
            .max_connections(opts.max_connections)
            .min_connections(0)
            .acquire_timeout(opts.acquire_timeout)
            .test_before_acquire(true)
            .idle_timeout(Duration::from_secs(300))
            .connect_lazy_with(connect_options(url, &opts)?);
        Ok(PgStore { pool, dims: KnownDims::default(), stats: fts::StatsCache::new(opts.fts_bounded_from) })
    }

    /// Runs pending migrations and returns (without keeping a pool).
    pub async fn migrate(url: &str) -> Result<i64> {
        Self::migrate_with(url, &PgOptions::default()).await?;
        Ok(latest_version())
    }

    async fn migrate_with(url: &str, opts: &PgOptions) -> Result<()> {
        let co = connect_options(url, opts)?;
        let mut conn = tokio::time::timeout(
            opts.acquire_timeout.max(Duration::from_secs(10)),
            sqlx::PgConnection::connect_with(&co),
        )
        .await
        .map_err(|_| CoreError::Unavailable("postgres: connect timed out".into()))?
        .map_err(db_err)?;
        let r = migrations::migrate(&mut conn).await;
        let _ = conn.close().await;
        r
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

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
    async fn ensure_vector_index(&self, dim: usize) -> Result<()> {
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
}

/// Parameters of one experience row, shared by insert and import.
struct RowValues {
    id: String,
    created: String,
    updated: String,
    language: &'static str,
    hash: String,
    tr_hash: String,
    body: String,
    resource_key: String,
    last_confirmed: String,
    /// What an import restores (empty for a new submit).
    history: History,
}

fn row_values(new: &NewExperience) -> RowValues {
    let now = now_rfc3339();
    let created = new.created_at.clone().unwrap_or_else(|| now.clone());
    let history = new.history.clone().unwrap_or_default();
    RowValues {
        id: new.id.clone().unwrap_or_else(new_id),
        last_confirmed: history.last_confirmed_at.clone().unwrap_or_else(|| created.clone()),
        created,
        updated: new.updated_at.clone().unwrap_or(now),
        language: text::detect_language(&new.search_text()),
        hash: new.content_hash(),
        tr_hash: new.task_resource_hash(),
        body: body(&new.task, &new.resource, &new.result),
        resource_key: new.resource_key(),
        history,
    }
}

const INSERT_COLS: &str =
    "INSERT INTO experiences (id, task, resource, result, score, outcome, agent_id, submitted_by, \
    session_key, source, status, confidence, language, content_hash, task_resource_hash, confirmations, created_at, \
    updated_at, source_from, source_to, flags, review_by, review_at, review_note, tsv, resource_version, resource_key, \
    last_confirmed_at, reviewed_failed, contested_with) VALUES \
    ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25::tsvector,$26,$27,$28,\
    $29,$30)";

fn bind_row<'q>(
    q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    new: &'q NewExperience,
    v: &'q RowValues,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    q.bind(&v.id)
        .bind(&new.task)
        .bind(&new.resource)
        .bind(&new.result)
        .bind(new.score as i16)
        .bind(new.outcome.as_str())
        .bind(&new.agent_id)
        .bind(&new.submitted_by)
        .bind(&new.session_key)
        .bind(new.source.as_str())
        .bind(new.status.as_str())
        .bind(new.confidence)
        .bind(v.language)
        .bind(&v.hash)
        .bind(&v.tr_hash)
        .bind(new.confirmations.max(1) as i32)
        .bind(&v.created)
        .bind(&v.updated)
        .bind(new.source_range.map(|r| r.from as i32))
        .bind(new.source_range.map(|r| r.to as i32))
        .bind(&new.flags)
        .bind(new.review.as_ref().map(|r| r.by.clone()))
        .bind(new.review.as_ref().map(|r| r.at.clone()))
        .bind(new.review.as_ref().and_then(|r| r.note.clone()))
        .bind(&v.body)
        .bind(&new.resource_version)
        .bind(&v.resource_key)
        .bind(&v.last_confirmed)
        .bind(v.history.reviewed_failed.min(i32::MAX as u32) as i32)
        .bind(&v.history.contested_with)
}

/// A record this transaction just inserted gets its history (an import) or its submitter as its
/// first confirmer, as in SQLite.
async fn first_evidence(conn: &mut sqlx::PgConnection, seq: i64, new: &NewExperience, v: &RowValues) -> Result<()> {
    match &new.history {
        Some(h) => evidence::restore(conn, seq, h).await,
        None => evidence::add_confirmer(conn, seq, &new.confirmer, &v.created).await.map(|_| ()),
    }
}

/// Stores a record's long content unless it already has some: a duplicate submit may bring the
/// content the first one lacked, and a new record gets its content in the same transaction.
async fn attach_content(conn: &mut sqlx::PgConnection, id: &str, content: &Option<(String, String)>) -> Result<()> {
    if let Some((content, ct)) = content {
        sqlx::query(
            "INSERT INTO contents (experience_id, content, content_type) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(content)
        .bind(ct)
        .execute(conn)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn insert(&self, new: NewExperience) -> Result<InsertOutcome> {
        let v = row_values(&new);
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        // One statement decides insert vs. duplicate atomically, whichever replica wins. On a
        // duplicate the no-op update locks the existing row until commit, so that concurrent
        // confirmers of one record are counted one after another (see `evidence`).
        let sql = format!(
            "{INSERT_COLS} ON CONFLICT (content_hash) DO UPDATE SET updated_at = experiences.updated_at \
             RETURNING seq, id, (xmax = 0) AS inserted"
        );
        let r = bind_row(sqlx::query(AssertSqlSafe(sql)), &new, &v).fetch_one(&mut *tx).await.map_err(
            |e| match db_err(e) {
                CoreError::Conflict(_) => CoreError::Conflict(format!("experience {} already exists", v.id)),
                other => other,
            },
        )?;
        let seq: i64 = r.try_get(0).map_err(db_err)?;
        let id: String = r.try_get(1).map_err(db_err)?;
        let inserted: bool = r.try_get(2).map_err(db_err)?;
        if inserted {
            first_evidence(&mut tx, seq, &new, &v).await?;
        } else {
            evidence::add_confirmer(&mut tx, seq, &new.confirmer, &now_rfc3339()).await?;
        }
        let e = rows::by_seq(&mut tx, seq).await?;
        // A duplicate may still bring the long content the first submit lacked, while a reviewer
        // has yet to see the record; an approved record's content never changes this way.
        let e = if inserted || e.status == knowhub_core::Status::Pending {
            attach_content(&mut tx, &id, &new.content).await?;
            rows::by_seq(&mut tx, seq).await?
        } else {
            e
        };
        tx.commit().await.map_err(db_err)?;
        Ok(if inserted { InsertOutcome::Created(e) } else { InsertOutcome::Duplicate(e) })
    }

    async fn import(&self, record: NewExperience) -> Result<ImportOutcome> {
        let v = row_values(&record);
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        // No conflict target: an existing id or content hash both mean "already there".
        let sql = format!("{INSERT_COLS} ON CONFLICT DO NOTHING RETURNING seq, id");
        let row =
            bind_row(sqlx::query(AssertSqlSafe(sql)), &record, &v).fetch_optional(&mut *tx).await.map_err(db_err)?;
        let Some(row) = row else {
            return Ok(ImportOutcome::Skipped);
        };
        let seq: i64 = row.try_get(0).map_err(db_err)?;
        let id: String = row.try_get(1).map_err(db_err)?;
        attach_content(&mut tx, &id, &record.content).await?;
        first_evidence(&mut tx, seq, &record, &v).await?;
        tx.commit().await.map_err(db_err)?;
        Ok(ImportOutcome::Inserted)
    }

    async fn get(&self, id: &str) -> Result<Option<Experience>> {
        let r = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = $1")))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err)?;
        r.as_ref().map(rows::experience).transpose()
    }

    async fn get_many(&self, ids: &[String]) -> Result<Vec<Experience>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rs = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = ANY($1)")))
            .bind(ids)
            .fetch_all(&self.pool)
            .await
            .map_err(db_err)?;
        rs.iter().map(rows::experience).collect()
    }

    async fn content(&self, id: &str) -> Result<Option<Content>> {
        let r = sqlx::query("SELECT experience_id, content, content_type FROM contents WHERE experience_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err)?;
        r.map(|r| {
            Ok(Content {
                experience_id: r.try_get(0).map_err(db_err)?,
                content: r.try_get(1).map_err(db_err)?,
                content_type: r.try_get(2).map_err(db_err)?,
            })
        })
        .transpose()
    }

    async fn count(&self) -> Result<u64> {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM experiences").fetch_one(&self.pool).await.map_err(db_err)?;
        Ok(n as u64)
    }

    async fn text_candidates(
        &self,
        tokens: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        if tokens.is_empty() {
            return Ok(Vec::new());
        }
        fts::candidates(&self.stats, &self.pool, tokens, filter, limit).await
    }

    async fn vector_candidates(
        &self,
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
        let ef = (limit * 2).clamp(SESSION_EF_SEARCH, 1000);
        // The cast and the `dim = N` literal match the partial index's expression and predicate.
        let sql = format!(
            "WITH c AS MATERIALIZED (SELECT e.id, v.embedding::vector({dim}) <#> $1::vector({dim}) AS d \
             FROM vectors v JOIN experiences e ON e.seq = v.seq \
             WHERE v.dim = {dim} AND v.model = $2 AND e.status = $3 AND e.score >= $4 AND ($5::text IS NULL OR e.agent_id = $5) \
             ORDER BY d LIMIT $6) SELECT id, (-d)::float8 FROM c ORDER BY d"
        );
        let query = sqlx::query(AssertSqlSafe(sql))
            .bind(q)
            .bind(model)
            .bind(filter.status.as_str())
            .bind(filter.min_score as i16)
            .bind(&filter.agent_id)
            .bind(limit as i64);
        if ef <= SESSION_EF_SEARCH {
            return scored(query.fetch_all(&self.pool).await.map_err(db_err)?);
        }
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        sqlx::query("SELECT set_config('hnsw.ef_search', $1, true)")
            .bind(ef.to_string())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let rows = query.fetch_all(&mut *tx).await.map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        scored(rows)
    }

    async fn text_scores(&self, tokens: &[String], ids: &[String]) -> Result<Vec<(String, f64)>> {
        if tokens.is_empty() || ids.is_empty() {
            return Ok(Vec::new());
        }
        fts::scores(&self.stats, &self.pool, tokens, ids).await
    }

    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, BlockScores)>> {
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
            .fetch_all(&self.pool)
            .await
            .map_err(db_err)?;
        rows.iter()
            .map(|r| {
                let id: String = r.try_get(0).map_err(db_err)?;
                Ok((id, BlockScores { dots: r.try_get(1).map_err(db_err)?, norms: r.try_get(2).map_err(db_err)? }))
            })
            .collect()
    }

    async fn vectors(&self, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT e.id, v.embedding FROM vectors v JOIN experiences e ON e.seq = v.seq \
             WHERE e.id = ANY($1) AND v.model = $2",
        )
        .bind(ids)
        .bind(model)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err)?;
        rows.iter()
            .map(|r| {
                let v: pgvector::Vector = r.try_get(1).map_err(db_err)?;
                Ok((r.try_get(0).map_err(db_err)?, v.to_vec()))
            })
            .collect()
    }

    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
        let mut dims: Vec<usize> = items.iter().map(|(_, v)| v.len()).collect();
        dims.sort_unstable();
        dims.dedup();
        for d in dims {
            if d == 0 || d > 16_000 {
                return Err(CoreError::invalid("vector", format!("dimension {d} not supported (1..16000)")));
            }
            self.ensure_vector_index(d).await?;
        }
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        for (id, v) in items {
            // Records deleted meanwhile are skipped (no row to join), like in SQLite.
            sqlx::query(
                "INSERT INTO vectors (seq, model, dim, embedding, block_norms) SELECT seq, $2, $3, $4, $5 FROM experiences WHERE id = $1 \
                 ON CONFLICT (seq) DO UPDATE SET model = EXCLUDED.model, dim = EXCLUDED.dim, embedding = EXCLUDED.embedding, \
                 block_norms = EXCLUDED.block_norms",
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

    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
        let rows = sqlx::query(
            "SELECT e.id, e.task, e.resource, e.result FROM experiences e WHERE e.status <> 'rejected' \
             AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = e.seq AND v.model = $1) ORDER BY e.seq LIMIT $2",
        )
        .bind(model)
        .bind(limit as i64)
        .fetch_all(&self.pool)
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

    async fn vector_count(&self, model: &str) -> Result<u64> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM vectors WHERE model = $1")
            .bind(model)
            .fetch_one(&self.pool)
            .await
            .map_err(db_err)?;
        Ok(n as u64)
    }

    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>> {
        // One snapshot for the records and their confirmers and votes, so counts and lists agree.
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let rs = sqlx::query(AssertSqlSafe(format!(
            "SELECT {EXP_COLS}, c.content, c.content_type FROM experiences e LEFT JOIN contents c ON c.experience_id = e.id \
             WHERE e.id > $1 ORDER BY e.id LIMIT $2"
        )))
        .bind(after.unwrap_or(""))
        .bind(limit as i64)
        .fetch_all(&mut *tx)
        .await
        .map_err(db_err)?;
        let mut out = Vec::with_capacity(rs.len());
        let mut at = std::collections::HashMap::with_capacity(rs.len());
        for r in &rs {
            let Exp { seq, e } = rows::exp_with_seq(r)?;
            at.insert(seq, out.len());
            out.push(ExportRecord {
                experience: e,
                content: r.try_get("content").map_err(db_err)?,
                content_type: r.try_get("content_type").map_err(db_err)?,
                confirmed_by: Vec::new(),
                votes: Vec::new(),
            });
        }
        let seqs: Vec<i64> = at.keys().copied().collect();
        if !seqs.is_empty() {
            for (seq, c) in rows::confirmations(&mut tx, &seqs).await? {
                out[at[&seq]].confirmed_by.push(c);
            }
            for (seq, v) in rows::votes(&mut tx, &seqs).await? {
                out[at[&seq]].votes.push(v);
            }
        }
        tx.commit().await.map_err(db_err)?;
        Ok(out)
    }

    async fn confirm(&self, id: &str, confirmer: &str) -> Result<Experience> {
        evidence::confirm(&self.pool, id, confirmer).await
    }

    async fn by_resource_key(&self, key: &str, limit: usize) -> Result<Vec<Experience>> {
        evidence::by_resource_key(&self.pool, key, limit).await
    }

    async fn contest(&self, a: &str, b: &str) -> Result<()> {
        evidence::contest(&self.pool, a, b).await
    }

    async fn vote(&self, id: &str, vote: Vote) -> Result<Experience> {
        evidence::vote(&self.pool, id, vote).await
    }

    async fn votes(&self, id: &str) -> Result<Vec<Vote>> {
        evidence::votes_of(&self.pool, id).await
    }

    async fn disputed(&self, threshold: u32, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        evidence::disputed(&self.pool, threshold, after.unwrap_or(""), limit).await
    }

    async fn count_disputed(&self, threshold: u32) -> Result<u64> {
        evidence::count_disputed(&self.pool, threshold).await
    }

    async fn resolve_dispute(&self, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience> {
        evidence::resolve(&self.pool, id, decision, reviewer).await
    }

    async fn pending(&self, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.status = 'pending' AND e.id > $1 ORDER BY e.id LIMIT $2"
        )))
        .bind(after.unwrap_or(""))
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err)?;
        rows.iter().map(rows::experience).collect()
    }

    async fn count_status(&self, status: Status) -> Result<u64> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM experiences WHERE status = $1")
            .bind(status.as_str())
            .fetch_one(&self.pool)
            .await
            .map_err(db_err)?;
        Ok(n as u64)
    }

    async fn review(&self, id: &str, review: Review) -> Result<Experience> {
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        // The row lock makes a concurrent second review wait, then see it is no longer pending.
        let row =
            sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = $1 FOR UPDATE")))
                .bind(id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
        let Some(row) = row else { return Err(not_found(id)) };
        let cur: Exp = rows::exp_with_seq(&row)?;
        if cur.e.status != Status::Pending {
            return Err(CoreError::Conflict(format!("experience {id} is {}, not pending", cur.e.status)));
        }
        // The source messages were kept for this review only.
        sqlx::query("DELETE FROM sources WHERE experience_id = $1").bind(id).execute(&mut *tx).await.map_err(db_err)?;
        let now = now_rfc3339();
        match review.decision {
            Decision::Reject { reason } => {
                sqlx::query(
                    "UPDATE experiences SET status = 'rejected', review_by = $2, review_at = $3, review_note = $4, \
                     updated_at = $3 WHERE seq = $1",
                )
                .bind(cur.seq)
                .bind(&review.reviewer)
                .bind(&now)
                .bind(reason)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            Decision::Approve(edits) => {
                let e = &cur.e;
                let task = edits.task.clone().unwrap_or_else(|| e.task.clone());
                let resource = edits.resource.clone().unwrap_or_else(|| e.resource.clone());
                let result = edits.result.clone().unwrap_or_else(|| e.result.clone());
                let text_changed = task != e.task || resource != e.resource || result != e.result;
                let hash = text::content_hash(&task, &resource, &result, e.resource_version.as_deref());
                if hash != e.content_hash {
                    let other: Option<String> =
                        sqlx::query_scalar("SELECT id FROM experiences WHERE content_hash = $1 AND seq <> $2")
                            .bind(&hash)
                            .bind(cur.seq)
                            .fetch_optional(&mut *tx)
                            .await
                            .map_err(db_err)?;
                    if let Some(other) = other {
                        return Err(CoreError::Conflict(format!(
                            "the edits make {id} identical to experience {other}"
                        )));
                    }
                }
                let search = knowhub_core::search_text(&task, &resource, &result);
                sqlx::query(
                    "UPDATE experiences SET task = $2, resource = $3, result = $4, score = $5, outcome = $6, \
                     content_hash = $7, task_resource_hash = $8, language = $9, tsv = $10::tsvector, status = 'approved', \
                     review_by = $11, review_at = $12, review_note = NULL, updated_at = $12, resource_key = $13 \
                     WHERE seq = $1",
                )
                .bind(cur.seq)
                .bind(&task)
                .bind(&resource)
                .bind(&result)
                .bind(edits.score.unwrap_or(e.score) as i16)
                .bind(edits.outcome.unwrap_or(e.outcome).as_str())
                .bind(&hash)
                .bind(text::task_resource_hash(&task, &resource))
                .bind(text::detect_language(&search))
                .bind(body(&task, &resource, &result))
                .bind(&review.reviewer)
                .bind(&now)
                .bind(text::resource_key(&resource, e.resource_version.as_deref()))
                .execute(&mut *tx)
                .await
                .map_err(|err| match db_err(err) {
                    CoreError::Conflict(_) => CoreError::Conflict(format!("the edits make {id} identical to another experience")),
                    other => other,
                })?;
                if text_changed {
                    // The embedding worker picks it up again through `missing_vectors`.
                    sqlx::query("DELETE FROM vectors WHERE seq = $1")
                        .bind(cur.seq)
                        .execute(&mut *tx)
                        .await
                        .map_err(db_err)?;
                }
            }
        }
        let e = rows::by_seq(&mut tx, cur.seq).await?;
        tx.commit().await.map_err(db_err)?;
        Ok(e)
    }

    async fn delete(&self, id: &str) -> Result<bool> {
        // Contents, vectors, confirmers and votes go with it (ON DELETE CASCADE).
        let n =
            sqlx::query("DELETE FROM experiences WHERE id = $1").bind(id).execute(&self.pool).await.map_err(db_err)?;
        Ok(n.rows_affected() > 0)
    }

    async fn set_content(&self, id: &str, content: &str, content_type: &str) -> Result<()> {
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        let n = sqlx::query("UPDATE experiences SET updated_at = $2 WHERE id = $1")
            .bind(id)
            .bind(knowhub_core::now_rfc3339())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        if n.rows_affected() == 0 {
            return Err(CoreError::NotFound(format!("experience {id}")));
        }
        sqlx::query(
            "INSERT INTO contents (experience_id, content, content_type) VALUES ($1, $2, $3) \
             ON CONFLICT (experience_id) DO UPDATE SET content = EXCLUDED.content, content_type = EXCLUDED.content_type",
        )
        .bind(id)
        .bind(content)
        .bind(content_type)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
        tx.commit().await.map_err(db_err)
    }

    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey> {
        keys::create(&self.pool, key).await
    }

    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>> {
        keys::by_hash(&self.pool, hash).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>> {
        keys::list(&self.pool).await
    }

    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>> {
        keys::revoke(&self.pool, id_or_name).await
    }

    async fn enqueue_extraction(&self, new: NewExtraction) -> Result<Enqueued> {
        extract::enqueue(&self.pool, new).await
    }

    async fn claim_extraction(&self, lease_secs: u64) -> Result<Option<ExtractJob>> {
        extract::claim(&self.pool, lease_secs).await
    }

    async fn finish_extraction(&self, id: &str, finish: JobFinish) -> Result<()> {
        extract::finish(&self.pool, id, finish).await
    }

    async fn extraction(&self, id: &str) -> Result<Option<ExtractJob>> {
        extract::get(&self.pool, id).await
    }

    async fn resources(
        &self,
        filter: &knowhub_core::ResourceFilter,
        limit: usize,
    ) -> Result<Vec<knowhub_core::ResourceSummary>> {
        insight::resources(&self.pool, filter, limit).await
    }

    async fn confirmed_by(&self, id: &str) -> Result<Vec<knowhub_core::Confirmation>> {
        insight::confirmed_by(&self.pool, id).await
    }

    async fn set_source(&self, id: &str, text: &str) -> Result<()> {
        insight::set_source(&self.pool, id, text).await
    }

    async fn source(&self, id: &str) -> Result<Option<String>> {
        insight::source(&self.pool, id).await
    }

    async fn record_usage(&self, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
        insight::record_usage(&self.pool, day, agent_id, searches, found).await
    }

    async fn activity(&self, since_day: &str) -> Result<knowhub_core::Activity> {
        insight::activity(&self.pool, since_day).await
    }
}

fn scored(rows: Vec<sqlx::postgres::PgRow>) -> Result<Vec<(String, f64)>> {
    rows.iter().map(|r| Ok((r.try_get(0).map_err(db_err)?, r.try_get(1).map_err(db_err)?))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsvector_keeps_identifiers_and_quotes() {
        let t =
            vec!["err_connection_refused".to_string(), "it's".into(), "a\\b".into(), "err_connection_refused".into()];
        assert_eq!(tsvector_text(&t), "'err_connection_refused':1 'it''s':2 'a\\\\b':3 'err_connection_refused':4");
    }
}
