//! The embedded KnowHub store: one SQLite file (WAL, `synchronous=FULL`) in the data dir.
//!
//! - Writes go through one writer thread that groups concurrent requests into a single
//!   transaction (group commit): every acknowledged write is fsync'ed, yet throughput does not
//!   collapse to one fsync per submit.
//! - Reads use a small pool of connections on the blocking thread pool.
//! - Full text: an FTS5 table over jieba/identifier-segmented text (`knowhub_core::text`).
//! - Vectors: stored as blobs with their model id and dimension, and held in memory in a
//!   [`FlatIndex`] for brute-force search, which is fast enough below ~1M records.

mod evidence;
mod flat;
mod fts;
mod huge;
mod insight;
mod meta;
mod migrations;
mod quant;
mod queue;
mod reindex;
mod rows;
mod terms;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use knowhub_core::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use knowhub_core::store::ImportOutcome;
use knowhub_core::{
    text, ApiKey, BlockScores, Content, CoreError, DisputeDecision, Experience, ExportRecord, InsertOutcome, NewApiKey,
    NewExperience, Result, Review, SearchFilter, Status, Store, Vote,
};
use parking_lot::{Condvar, Mutex, RwLock};
use rusqlite::{params, Connection, OptionalExtension};

pub use flat::{decode as decode_vector, FlatIndex};
pub use reindex::{reindex, EmbedFn, ReindexProgress, ReindexStats};
pub use terms::TermIndex;

pub const DB_FILE: &str = "knowhub.db";
const LOCK_FILE: &str = "knowhub.lock";
const READERS: usize = 4;

/// Why opening failed in a way the CLI should explain to a person.
pub fn db_path(dir: &Path) -> PathBuf {
    dir.join(DB_FILE)
}

/// Options fixed when the store opens.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// The embedding model whose vectors are loaded into the in-memory index.
    pub vector_model: Option<String>,
    /// Take the data dir's exclusive lock (a server does; `export` does not need to).
    pub exclusive: bool,
}

pub struct SqliteStore {
    inner: Arc<Inner>,
    writer: writer::Writer,
    _lock: Option<std::fs::File>,
}

pub(crate) struct Inner {
    pub(crate) path: PathBuf,
    readers: Mutex<Vec<Connection>>,
    readers_cv: Condvar,
    pub(crate) index: RwLock<FlatIndex>,
    /// In-memory BM25 index; loaded for exclusive opens (server, import, benchmarks).
    terms: RwLock<Option<TermIndex>>,
}

/// Column `i` of a row as text borrowed from SQLite's row buffer (the index loads read millions
/// of rows, and copying each string was most of their time).
pub(crate) fn row_str<'a>(r: &'a rusqlite::Row<'_>, i: usize) -> Result<&'a str> {
    r.get_ref(i).map_err(sql_err)?.as_str().map_err(|e| CoreError::Internal(e.to_string()))
}

pub(crate) fn sql_err(e: rusqlite::Error) -> CoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy
                    | rusqlite::ErrorCode::DatabaseLocked
                    | rusqlite::ErrorCode::DiskFull
                    | rusqlite::ErrorCode::CannotOpen
            ) =>
        {
            CoreError::Unavailable(e.to_string())
        }
        other => CoreError::Internal(format!("sqlite: {other}")),
    }
}

pub(crate) fn open_connection(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).map_err(|e| CoreError::Unavailable(format!("open {}: {e}", path.display())))?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(sql_err)?;
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY;",
    )
    .map_err(sql_err)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the store in `dir` and runs pending migrations.
    pub fn open(dir: &Path, opts: OpenOptions) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CoreError::Unavailable(format!("create data dir {}: {e}", dir.display())))?;
        let lock = if opts.exclusive { Some(lock_dir(dir)?) } else { None };
        let path = db_path(dir);
        let mut conn = open_connection(&path)?;
        migrations::migrate(&mut conn)?;
        let model = opts.vector_model.clone().unwrap_or_default();
        // The two in-memory indexes load side by side, each on its own connection: at 1M
        // records each takes seconds, and startup is the longer of the two, not their sum.
        let t = std::time::Instant::now();
        let (index, terms) = std::thread::scope(|s| {
            let terms = opts.exclusive.then(|| {
                s.spawn(|| {
                    let conn = open_connection(&path)?;
                    let terms = TermIndex::load(&conn)?;
                    tracing::info!(records = terms.len(), secs = t.elapsed().as_secs_f64(), "term index loaded");
                    Ok::<_, CoreError>(terms)
                })
            });
            let index = FlatIndex::load(&conn, &model);
            tracing::info!(
                vectors = index.as_ref().map_or(0, FlatIndex::len),
                secs = t.elapsed().as_secs_f64(),
                "vector index loaded"
            );
            let terms =
                terms.map(|h| h.join().unwrap_or_else(|_| Err(CoreError::Internal("term index load panicked".into()))));
            (index, terms)
        });
        let (index, terms) = (index?, terms.transpose()?);
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            readers.push(open_connection(&path)?);
        }
        let inner = Arc::new(Inner {
            path,
            readers: Mutex::new(readers),
            readers_cv: Condvar::new(),
            index: RwLock::new(index),
            terms: RwLock::new(terms),
        });
        let writer = writer::Writer::start(conn, inner.clone())?;
        Ok(SqliteStore { inner, writer, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Vector models present in the database with their counts (to detect a model change).
    pub async fn vector_models(&self) -> Result<Vec<(String, u64)>> {
        self.read(|c| {
            let mut st =
                c.prepare("SELECT model, COUNT(*) FROM vectors GROUP BY model ORDER BY 2 DESC").map_err(sql_err)?;
            let rows =
                st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))).map_err(sql_err)?;
            rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
        })
        .await
    }

    /// Mirrors a committed review or delete in the in-memory indexes.
    fn apply(&self, ch: &queue::IndexChange) {
        if let Some(t) = self.inner.terms.write().as_mut() {
            match &ch.body {
                Some((old, new)) => {
                    t.remove(ch.seq, old);
                    if let Some(new) = new {
                        t.add(ch.seq, &ch.id, new, ch.score, ch.status, &ch.agent_id);
                    }
                }
                None => t.set_meta(ch.seq, ch.score, ch.status, &ch.agent_id),
            }
        }
        let mut index = self.inner.index.write();
        match &ch.body {
            Some((_, None)) => index.remove(ch.seq),
            // An edited record keeps its old vector in memory until the worker replaces it.
            _ => index.set_meta(ch.seq, ch.score, ch.status, &ch.agent_id),
        }
    }

    /// Runs `f` on a pooled read connection on the blocking pool.
    async fn read<T: Send + 'static>(&self, f: impl FnOnce(&Connection) -> Result<T> + Send + 'static) -> Result<T> {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            let conn = {
                let mut pool = inner.readers.lock();
                loop {
                    if let Some(c) = pool.pop() {
                        break c;
                    }
                    inner.readers_cv.wait(&mut pool);
                }
            };
            let out = f(&conn);
            inner.readers.lock().push(conn);
            inner.readers_cv.notify_one();
            out
        })
        .await
        .map_err(|e| CoreError::Internal(format!("reader task: {e}")))?
    }
}

/// Takes the data dir's exclusive lock so two servers (or a server and `reindex`) never share it.
pub fn lock_dir(dir: &Path) -> Result<std::fs::File> {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(LOCK_FILE))
        .map_err(|e| CoreError::Unavailable(format!("lock file in {}: {e}", dir.display())))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(CoreError::Conflict(format!(
            "data dir {} is in use by another knowhub process (a running server?); stop it first",
            dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(CoreError::Unavailable(format!("lock {}: {e}", dir.display()))),
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn insert(&self, new: NewExperience) -> Result<InsertOutcome> {
        let body = text::tokenize(&new.search_text()).join(" ");
        let (out, seq) = self.writer.insert(new, body.clone()).await?;
        if let (Some(seq), InsertOutcome::Created(e)) = (seq, &out) {
            if let Some(t) = self.inner.terms.write().as_mut() {
                t.add(seq, &e.id, &body, e.score, e.status, &e.agent_id);
            }
        }
        Ok(out)
    }

    async fn import(&self, record: NewExperience) -> Result<ImportOutcome> {
        let body = text::tokenize(&record.search_text()).join(" ");
        let (score, status, agent) = (record.score, record.status, record.agent_id.clone());
        let (out, row) = self.writer.import(record, body.clone()).await?;
        if let Some((seq, id)) = row {
            if let Some(t) = self.inner.terms.write().as_mut() {
                t.add(seq, &id, &body, score, status, &agent);
            }
        }
        Ok(out)
    }

    async fn get(&self, id: &str) -> Result<Option<Experience>> {
        let id = id.to_string();
        self.read(move |c| rows::get(c, &id)).await
    }

    async fn get_many(&self, ids: &[String]) -> Result<Vec<Experience>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = ids.to_vec();
        self.read(move |c| rows::get_many(c, &ids)).await
    }

    async fn content(&self, id: &str) -> Result<Option<Content>> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT experience_id, content, content_type FROM contents WHERE experience_id = ?1",
                [&id],
                |r| Ok(Content { experience_id: r.get(0)?, content: r.get(1)?, content_type: r.get(2)? }),
            )
            .optional()
            .map_err(sql_err)
        })
        .await
    }

    async fn count(&self) -> Result<u64> {
        self.read(|c| {
            c.query_row("SELECT COUNT(*) FROM experiences", [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(sql_err)
        })
        .await
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
        if let Some(t) = self.inner.terms.read().as_ref() {
            return Ok(t.search(tokens, filter, limit));
        }
        let tokens = tokens.to_vec();
        let f = filter.clone();
        self.read(move |c| fts::text_search(c, &tokens, &f, limit)).await
    }

    async fn vector_candidates(
        &self,
        model: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        let index = self.inner.index.read();
        if index.model() != model {
            return Ok(Vec::new());
        }
        Ok(index.search(query, filter, limit))
    }

    async fn text_scores(&self, tokens: &[String], ids: &[String]) -> Result<Vec<(String, f64)>> {
        match self.inner.terms.read().as_ref() {
            Some(t) => Ok(t.score_ids(tokens, ids)),
            // Without the in-memory index (read-only opens) fusion falls back to the lists as returned.
            None => Ok(Vec::new()),
        }
    }

    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, BlockScores)>> {
        let index = self.inner.index.read();
        if index.model() != model {
            return Ok(Vec::new());
        }
        Ok(index.score_ids(query, ids))
    }

    async fn vectors(&self, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let (model, ids) = (model.to_string(), ids.to_vec());
        self.read(move |c| {
            let mut st = c
                .prepare_cached(
                    "SELECT e.id, v.data FROM vectors v JOIN experiences e ON e.seq = v.seq \
                     WHERE v.model = ?1 AND e.id IN (SELECT value FROM json_each(?2))",
                )
                .map_err(sql_err)?;
            let ids = serde_json::to_string(&ids).map_err(|e| CoreError::Internal(e.to_string()))?;
            let rows = st
                .query_map(params![model, ids], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?)))
                .map_err(sql_err)?;
            rows.map(|r| {
                let (id, blob) = r.map_err(sql_err)?;
                Ok((id, flat::decode(&blob)?))
            })
            .collect()
        })
        .await
    }

    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
        self.writer.set_vectors(model.to_string(), items.to_vec()).await
    }

    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
        let model = model.to_string();
        self.read(move |c| {
            let mut st = c
                .prepare_cached(
                    "SELECT e.id, e.task, e.resource, e.result FROM experiences e LEFT JOIN vectors v ON v.seq = e.seq AND v.model = ?1 \
                     WHERE v.seq IS NULL AND e.status != 'rejected' ORDER BY e.seq LIMIT ?2",
                )
                .map_err(sql_err)?;
            let rows = st
                .query_map(params![model, limit as i64], |r| {
                    Ok((r.get::<_, String>(0)?, knowhub_core::search_text(&r.get::<_, String>(1)?, &r.get::<_, String>(2)?, &r.get::<_, String>(3)?)))
                })
                .map_err(sql_err)?;
            rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
        })
        .await
    }

    async fn vector_count(&self, model: &str) -> Result<u64> {
        let model = model.to_string();
        self.read(move |c| {
            c.query_row("SELECT COUNT(*) FROM vectors WHERE model = ?1", [&model], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(sql_err)
        })
        .await
    }

    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| rows::export_page(c, &after, limit)).await
    }

    async fn confirm(&self, id: &str, confirmer: &str) -> Result<Experience> {
        let (id, who) = (id.to_string(), confirmer.to_string());
        self.writer.run(move |c| evidence::confirm_tx(c, &id, &who)).await
    }

    async fn by_resource_key(&self, key: &str, limit: usize) -> Result<Vec<Experience>> {
        let key = key.to_string();
        self.read(move |c| evidence::by_resource_key(c, &key, limit)).await
    }

    async fn contest(&self, a: &str, b: &str) -> Result<()> {
        let (a, b) = (a.to_string(), b.to_string());
        self.writer.run(move |c| evidence::contest_tx(c, &a, &b)).await
    }

    async fn vote(&self, id: &str, vote: Vote) -> Result<Experience> {
        let id = id.to_string();
        self.writer.run(move |c| evidence::vote_tx(c, &id, vote)).await
    }

    async fn votes(&self, id: &str) -> Result<Vec<Vote>> {
        let id = id.to_string();
        self.read(move |c| evidence::votes_of(c, &id)).await
    }

    async fn disputed(&self, threshold: u32, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| evidence::disputed(c, threshold, &after, limit)).await
    }

    async fn count_disputed(&self, threshold: u32) -> Result<u64> {
        self.read(move |c| evidence::count_disputed(c, threshold)).await
    }

    async fn resolve_dispute(&self, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience> {
        let (id, who) = (id.to_string(), reviewer.to_string());
        let (e, change) = self.writer.run(move |c| evidence::resolve_tx(c, &id, decision, &who)).await?;
        if let Some(ch) = &change {
            self.apply(ch);
        }
        Ok(e)
    }

    async fn pending(&self, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| queue::pending(c, &after, limit)).await
    }

    async fn count_status(&self, status: Status) -> Result<u64> {
        self.read(move |c| {
            c.query_row("SELECT COUNT(*) FROM experiences WHERE status = ?1", [status.as_str()], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(sql_err)
        })
        .await
    }

    async fn review(&self, id: &str, review: Review) -> Result<Experience> {
        let id = id.to_string();
        let (e, change) = self.writer.run(move |c| queue::review_tx(c, &id, review)).await?;
        self.apply(&change);
        Ok(e)
    }

    async fn delete(&self, id: &str) -> Result<bool> {
        let id = id.to_string();
        let change = self.writer.run(move |c| queue::delete_tx(c, &id)).await?;
        if let Some(ch) = &change {
            self.apply(ch);
        }
        Ok(change.is_some())
    }

    async fn set_content(&self, id: &str, content: &str, content_type: &str) -> Result<()> {
        let (id, content, ct) = (id.to_string(), content.to_string(), content_type.to_string());
        self.writer
            .run(move |c| {
                let n = c
                    .execute(
                        "UPDATE experiences SET updated_at = ?2 WHERE id = ?1",
                        rusqlite::params![id, knowhub_core::now_rfc3339()],
                    )
                    .map_err(sql_err)?;
                if n == 0 {
                    return Err(CoreError::NotFound(format!("experience {id}")));
                }
                c.execute(
                    "INSERT INTO contents (experience_id, content, content_type) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (experience_id) DO UPDATE SET content = excluded.content, content_type = excluded.content_type",
                    rusqlite::params![id, content, ct],
                )
                .map_err(sql_err)?;
                Ok(())
            })
            .await
    }

    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey> {
        self.writer.run(move |c| queue::create_key_tx(c, key)).await
    }

    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>> {
        let hash = hash.to_string();
        self.read(move |c| queue::key_by_hash(c, &hash)).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>> {
        self.read(queue::list_keys).await
    }

    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>> {
        let key = id_or_name.to_string();
        self.writer.run(move |c| queue::revoke_key_tx(c, &key)).await
    }

    async fn enqueue_extraction(&self, new: NewExtraction) -> Result<Enqueued> {
        self.writer.run(move |c| queue::enqueue_tx(c, new)).await
    }

    async fn claim_extraction(&self, lease_secs: u64) -> Result<Option<ExtractJob>> {
        self.writer.run(move |c| queue::claim_tx(c, lease_secs)).await
    }

    async fn finish_extraction(&self, id: &str, finish: JobFinish) -> Result<()> {
        let id = id.to_string();
        self.writer.run(move |c| queue::finish_tx(c, &id, finish)).await
    }

    async fn extraction(&self, id: &str) -> Result<Option<ExtractJob>> {
        let id = id.to_string();
        self.read(move |c| queue::job(c, &id)).await
    }

    async fn resources(
        &self,
        filter: &knowhub_core::ResourceFilter,
        limit: usize,
    ) -> Result<Vec<knowhub_core::ResourceSummary>> {
        let filter = filter.clone();
        self.read(move |c| insight::resources(c, &filter, limit)).await
    }

    async fn confirmed_by(&self, id: &str) -> Result<Vec<knowhub_core::Confirmation>> {
        let id = id.to_string();
        self.read(move |c| insight::confirmed_by(c, &id)).await
    }

    async fn set_source(&self, id: &str, text: &str) -> Result<()> {
        let (id, text) = (id.to_string(), text.to_string());
        self.writer.run(move |c| insight::set_source_tx(c, &id, &text)).await
    }

    async fn source(&self, id: &str) -> Result<Option<String>> {
        let id = id.to_string();
        self.read(move |c| insight::source(c, &id)).await
    }

    async fn record_usage(&self, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
        let (day, agent) = (day.to_string(), agent_id.to_string());
        self.writer.run(move |c| insight::record_usage_tx(c, &day, &agent, searches, found)).await
    }

    async fn activity(&self, since_day: &str) -> Result<knowhub_core::Activity> {
        let since = since_day.to_string();
        self.read(move |c| insight::activity(c, &since)).await
    }
}
