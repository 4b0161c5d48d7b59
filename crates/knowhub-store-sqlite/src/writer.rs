//! The single writer thread with group commit.
//!
//! SQLite allows one writer at a time. Rather than let request threads contend for the write lock
//! and each pay an fsync, requests are queued to one thread that takes everything waiting (up to
//! `MAX_BATCH`), runs each in its own savepoint (one bad request cannot fail its neighbours), and
//! commits once. Callers are answered only after that commit returned, so an acknowledged write is
//! on disk (`synchronous=FULL`).

use std::sync::Arc;

use knowhub_core::store::ImportOutcome;
use knowhub_core::{new_id, now_rfc3339, text, CoreError, InsertOutcome, NewExperience, Result, Status};
use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

use crate::{rows, sql_err, Inner};

const MAX_BATCH: usize = 512;
const QUEUE: usize = 4096;

/// Called with the commit's outcome once the batch is committed (or failed).
type Deferred = Box<dyn FnOnce(Result<()>) + Send>;
type Job = Box<dyn FnOnce(&Connection) -> Deferred + Send>;

pub(crate) struct Writer {
    tx: mpsc::Sender<Job>,
    inner: Arc<Inner>,
}

/// A vector row as written, for the in-memory index.
pub(crate) struct WrittenVector {
    pub seq: i64,
    pub id: String,
    pub score: u8,
    pub status: Status,
    pub agent_id: String,
    pub vector: Vec<f32>,
}

impl Writer {
    pub(crate) fn start(conn: Connection, inner: Arc<Inner>) -> Result<Self> {
        let (tx, rx) = mpsc::channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("knowhub-sqlite-writer".into())
            .spawn(move || run(conn, rx))
            .map_err(|e| CoreError::Internal(format!("spawn writer: {e}")))?;
        Ok(Writer { tx, inner })
    }

    pub(crate) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (tx, rx) = oneshot::channel::<Result<T>>();
        let job: Job = Box::new(move |conn| {
            let r = savepoint(conn, f);
            Box::new(move |commit: Result<()>| {
                let _ = tx.send(commit.and(r));
            })
        });
        self.tx.send(job).await.map_err(|_| CoreError::Unavailable("sqlite writer stopped".into()))?;
        rx.await
            .map_err(|_| CoreError::Unavailable("write aborted: sqlite writer could not start a transaction".into()))?
    }

    /// Returns the outcome and, for a new record, its row number (for the in-memory indexes).
    pub(crate) async fn insert(&self, new: NewExperience, body: String) -> Result<(InsertOutcome, Option<i64>)> {
        self.run(move |c| insert_tx(c, new, &body)).await
    }

    pub(crate) async fn import(
        &self,
        new: NewExperience,
        body: String,
    ) -> Result<(ImportOutcome, Option<(i64, String)>)> {
        self.run(move |c| import_tx(c, new, &body)).await
    }

    pub(crate) async fn set_vectors(&self, model: String, items: Vec<(String, Vec<f32>)>) -> Result<()> {
        let m = model.clone();
        let written = self.run(move |c| set_vectors_tx(c, &m, items)).await?;
        let mut index = self.inner.index.write();
        if index.model() == model {
            for w in written {
                index.upsert(w.seq, &w.id, w.score, w.status, &w.agent_id, &w.vector);
            }
        }
        Ok(())
    }
}

fn run(conn: Connection, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.blocking_recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            tracing::error!(error = %e, "sqlite: cannot begin write transaction");
            drop(jobs); // callers see "write aborted"
            continue;
        }
        let deferred: Vec<Deferred> = jobs.into_iter().map(|j| j(&conn)).collect();
        let commit = conn.execute_batch("COMMIT").map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            tracing::error!(error = %e, "sqlite: commit failed");
            CoreError::Unavailable(format!("commit failed: {e}"))
        });
        for d in deferred {
            d(match &commit {
                Ok(()) => Ok(()),
                Err(e) => Err(CoreError::Unavailable(e.to_string())),
            });
        }
    }
}

fn savepoint<T>(conn: &Connection, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
    conn.execute_batch("SAVEPOINT job").map_err(sql_err)?;
    let r = f(conn);
    if r.is_err() {
        let _ = conn.execute_batch("ROLLBACK TO job");
    }
    conn.execute_batch("RELEASE job").map_err(sql_err)?;
    r
}

fn insert_row(c: &Connection, new: &NewExperience, hash: &str, body: &str) -> Result<(i64, String)> {
    let now = now_rfc3339();
    let id = new.id.clone().unwrap_or_else(new_id);
    let created = new.created_at.clone().unwrap_or_else(|| now.clone());
    let updated = new.updated_at.clone().unwrap_or_else(|| now.clone());
    let history = new.history.clone().unwrap_or_default();
    let last_confirmed = history.last_confirmed_at.clone().unwrap_or_else(|| created.clone());
    let language = text::detect_language(&new.search_text());
    c.prepare_cached(
        "INSERT INTO experiences (id, task, resource, result, score, outcome, agent_id, submitted_by, session_key, source, status, \
         confidence, language, content_hash, confirmations, created_at, updated_at, task_resource_hash, source_from, source_to, \
         flags, review_by, review_at, review_note, resource_version, resource_key, last_confirmed_at, reviewed_failed, \
         contested_with) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,\
         ?25,?26,?27,?28,?29)",
    )
    .and_then(|mut st| {
        st.execute(params![
            id,
            new.task,
            new.resource,
            new.result,
            new.score,
            new.outcome.as_str(),
            new.agent_id,
            new.submitted_by,
            new.session_key,
            new.source.as_str(),
            new.status.as_str(),
            new.confidence,
            language,
            hash,
            new.confirmations.max(1),
            created,
            updated,
            new.task_resource_hash(),
            new.source_range.map(|r| r.from),
            new.source_range.map(|r| r.to),
            rows::flags_text(&new.flags),
            new.review.as_ref().map(|r| r.by.as_str()),
            new.review.as_ref().map(|r| r.at.as_str()),
            new.review.as_ref().and_then(|r| r.note.as_deref()),
            new.resource_version,
            new.resource_key(),
            last_confirmed,
            history.reviewed_failed,
            rows::flags_text(&history.contested_with),
        ])
    })
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            CoreError::Conflict(format!("experience {id} already exists"))
        }
        other => sql_err(other),
    })?;
    let seq = c.last_insert_rowid();
    c.prepare_cached("INSERT INTO experiences_fts (rowid, body) VALUES (?1, ?2)")
        .and_then(|mut st| st.execute(params![seq, body]))
        .map_err(sql_err)?;
    if let Some((content, ct)) = &new.content {
        c.prepare_cached("INSERT INTO contents (experience_id, content, content_type) VALUES (?1, ?2, ?3)")
            .and_then(|mut st| st.execute(params![id, content, ct]))
            .map_err(sql_err)?;
    }
    match new.history {
        // An import restores its confirmers and votes as exported.
        Some(_) => crate::evidence::restore(c, seq, &history)?,
        None => {
            crate::evidence::add_confirmer(c, seq, &new.confirmer, &created)?;
        }
    }
    Ok((seq, id))
}

fn seq_by_hash(c: &Connection, hash: &str) -> Result<Option<i64>> {
    c.prepare_cached("SELECT seq FROM experiences WHERE content_hash = ?1")
        .and_then(|mut st| st.query_row([hash], |r| r.get(0)).optional())
        .map_err(sql_err)
}

fn insert_tx(c: &Connection, new: NewExperience, body: &str) -> Result<(InsertOutcome, Option<i64>)> {
    let hash = new.content_hash();
    if let Some(seq) = seq_by_hash(c, &hash)? {
        crate::evidence::add_confirmer(c, seq, &new.confirmer, &now_rfc3339())?;
        // A duplicate may still bring the long content the first submit lacked, while a reviewer
        // has yet to see the record; an approved record's content never changes this way.
        if let Some((content, ct)) = &new.content {
            c.execute(
                "INSERT OR IGNORE INTO contents (experience_id, content, content_type) \
                 SELECT id, ?2, ?3 FROM experiences WHERE seq = ?1 AND status = 'pending'",
                params![seq, content, ct],
            )
            .map_err(sql_err)?;
        }
        return Ok((InsertOutcome::Duplicate(rows::get_by_seq(c, seq)?), None));
    }
    let (seq, _) = insert_row(c, &new, &hash, body)?;
    Ok((InsertOutcome::Created(rows::get_by_seq(c, seq)?), Some(seq)))
}

fn import_tx(c: &Connection, new: NewExperience, body: &str) -> Result<(ImportOutcome, Option<(i64, String)>)> {
    let hash = new.content_hash();
    if let Some(id) = &new.id {
        let exists: Option<i64> = c
            .prepare_cached("SELECT 1 FROM experiences WHERE id = ?1")
            .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
            .map_err(sql_err)?;
        if exists.is_some() {
            return Ok((ImportOutcome::Skipped, None));
        }
    }
    if seq_by_hash(c, &hash)?.is_some() {
        return Ok((ImportOutcome::Skipped, None));
    }
    let row = insert_row(c, &new, &hash, body)?;
    Ok((ImportOutcome::Inserted, Some(row)))
}

pub(crate) fn vector_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn set_vectors_tx(c: &Connection, model: &str, items: Vec<(String, Vec<f32>)>) -> Result<Vec<WrittenVector>> {
    let mut out = Vec::with_capacity(items.len());
    for (id, vector) in items {
        let row: Option<(i64, i64, String, String)> = c
            .prepare_cached("SELECT seq, score, status, agent_id FROM experiences WHERE id = ?1")
            .and_then(|mut st| st.query_row([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).optional())
            .map_err(sql_err)?;
        let Some((seq, score, status, agent_id)) = row else { continue };
        c.prepare_cached("INSERT OR REPLACE INTO vectors (seq, model, dim, data) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut st| st.execute(params![seq, model, vector.len() as i64, vector_blob(&vector)]))
            .map_err(sql_err)?;
        out.push(WrittenVector {
            seq,
            id,
            score: score as u8,
            status: Status::parse(&status).unwrap_or(Status::Pending),
            agent_id,
            vector,
        });
    }
    Ok(out)
}
