//! Review decisions, deletes, API keys and extraction jobs: the SQL behind the `Store` methods
//! added for the review queue. Write paths run on the writer thread (inside its savepoints).

use knowhub_core::extract::{overlap, ExtractJob, JobFinish, JobStatus, NewExtraction, MAX_MESSAGES};
use knowhub_core::review::{Decision, Review};
use knowhub_core::{
    format_rfc3339, now_rfc3339, store, text, ApiKey, CoreError, Enqueued, Experience, NewApiKey, Result, Role, Status,
};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::rows::{self, EXP_COLS};
use crate::sql_err;

/// What a committed review or delete changes in the in-memory indexes.
pub(crate) struct IndexChange {
    pub seq: i64,
    pub id: String,
    pub score: u8,
    pub status: Status,
    pub agent_id: String,
    /// `(old body, new body)` when the searchable text changed; new is `None` for a delete.
    pub body: Option<(String, Option<String>)>,
}

fn fts_body(c: &Connection, seq: i64) -> Result<String> {
    c.query_row("SELECT body FROM experiences_fts WHERE rowid = ?1", [seq], |r| r.get(0))
        .optional()
        .map_err(sql_err)
        .map(Option::unwrap_or_default)
}

pub(crate) fn review_tx(c: &Connection, id: &str, review: Review) -> Result<(Experience, IndexChange)> {
    let seq: i64 = c
        .query_row("SELECT seq FROM experiences WHERE id = ?1", [id], |r| r.get(0))
        .optional()
        .map_err(sql_err)?
        .ok_or_else(|| store::not_found(id))?;
    let cur = rows::get_by_seq(c, seq)?;
    if cur.status != Status::Pending {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not pending", cur.status)));
    }
    // The source messages were kept for this review only.
    c.execute("DELETE FROM sources WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    let now = now_rfc3339();
    let mut body = None;
    match review.decision {
        Decision::Reject { reason } => {
            c.execute(
                "UPDATE experiences SET status = 'rejected', review_by = ?2, review_at = ?3, review_note = ?4, updated_at = ?3 \
                 WHERE seq = ?1",
                params![seq, review.reviewer, now, reason],
            )
            .map_err(sql_err)?;
        }
        Decision::Approve(edits) => {
            let task = edits.task.unwrap_or(cur.task.clone());
            let resource = edits.resource.unwrap_or(cur.resource.clone());
            let result = edits.result.unwrap_or(cur.result.clone());
            let score = edits.score.unwrap_or(cur.score);
            let outcome = edits.outcome.unwrap_or(cur.outcome);
            let hash = text::content_hash(&task, &resource, &result, cur.resource_version.as_deref());
            if hash != cur.content_hash {
                let other: Option<String> = c
                    .query_row(
                        "SELECT id FROM experiences WHERE content_hash = ?1 AND seq != ?2",
                        params![hash, seq],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(sql_err)?;
                if let Some(other) = other {
                    return Err(CoreError::Conflict(format!(
                        "the edited experience would be identical to {other}; reject this one instead"
                    )));
                }
            }
            let search_text = knowhub_core::search_text(&task, &resource, &result);
            c.execute(
                "UPDATE experiences SET task = ?2, resource = ?3, result = ?4, score = ?5, outcome = ?6, content_hash = ?7, \
                 task_resource_hash = ?8, language = ?9, status = 'approved', review_by = ?10, review_at = ?11, \
                 review_note = NULL, updated_at = ?11, resource_key = ?12 WHERE seq = ?1",
                params![
                    seq,
                    task,
                    resource,
                    result,
                    score,
                    outcome.as_str(),
                    hash,
                    text::task_resource_hash(&task, &resource),
                    text::detect_language(&search_text),
                    review.reviewer,
                    now,
                    text::resource_key(&resource, cur.resource_version.as_deref())
                ],
            )
            .map_err(sql_err)?;
            if search_text != cur.search_text() {
                let old = fts_body(c, seq)?;
                let new = text::tokenize(&search_text).join(" ");
                c.execute("UPDATE experiences_fts SET body = ?2 WHERE rowid = ?1", params![seq, new])
                    .map_err(sql_err)?;
                // The old vector describes the old text: the embedding worker recomputes it.
                c.execute("DELETE FROM vectors WHERE seq = ?1", [seq]).map_err(sql_err)?;
                body = Some((old, Some(new)));
            }
        }
    }
    let e = rows::get_by_seq(c, seq)?;
    let change =
        IndexChange { seq, id: e.id.clone(), score: e.score, status: e.status, agent_id: e.agent_id.clone(), body };
    Ok((e, change))
}

pub(crate) fn delete_tx(c: &Connection, id: &str) -> Result<Option<IndexChange>> {
    let Some((seq, score, agent_id)) = c
        .query_row("SELECT seq, score, agent_id FROM experiences WHERE id = ?1", [id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?))
        })
        .optional()
        .map_err(sql_err)?
    else {
        return Ok(None);
    };
    let old = fts_body(c, seq)?;
    c.execute("DELETE FROM experiences_fts WHERE rowid = ?1", [seq]).map_err(sql_err)?;
    c.execute("DELETE FROM vectors WHERE seq = ?1", [seq]).map_err(sql_err)?;
    c.execute("DELETE FROM contents WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    c.execute("DELETE FROM sources WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    c.execute("DELETE FROM experiences WHERE seq = ?1", [seq]).map_err(sql_err)?;
    Ok(Some(IndexChange {
        seq,
        id: id.to_string(),
        score: score as u8,
        status: Status::Rejected,
        agent_id,
        body: Some((old, None)),
    }))
}

pub(crate) fn pending(c: &Connection, after: &str, limit: usize) -> Result<Vec<Experience>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.status = 'pending' AND e.id > ?1 ORDER BY e.id LIMIT ?2"
        ))
        .map_err(sql_err)?;
    let rows = st.query_map(params![after, limit as i64], rows::from_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

// --- API keys ---

const KEY_COLS: &str = "id, name, role, prefix, created_at, revoked_at";

fn key_row(r: &Row<'_>) -> rusqlite::Result<ApiKey> {
    let role: String = r.get(2)?;
    Ok(ApiKey {
        id: r.get(0)?,
        name: r.get(1)?,
        role: Role::parse(&role).unwrap_or(Role::Agent),
        prefix: r.get(3)?,
        created_at: r.get(4)?,
        revoked_at: r.get(5)?,
    })
}

pub(crate) fn create_key_tx(c: &Connection, k: NewApiKey) -> Result<ApiKey> {
    let now = now_rfc3339();
    c.execute(
        "INSERT INTO api_keys (id, name, role, prefix, hash, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![k.id, k.name, k.role.as_str(), k.prefix, k.hash, now],
    )
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            CoreError::Conflict(format!("an active key named {:?} already exists; revoke it first", k.name))
        }
        other => sql_err(other),
    })?;
    Ok(ApiKey { id: k.id, name: k.name, role: k.role, prefix: k.prefix, created_at: now, revoked_at: None })
}

pub(crate) fn key_by_hash(c: &Connection, hash: &str) -> Result<Option<ApiKey>> {
    c.prepare_cached(&format!("SELECT {KEY_COLS} FROM api_keys WHERE hash = ?1"))
        .and_then(|mut st| st.query_row([hash], key_row).optional())
        .map_err(sql_err)
}

pub(crate) fn list_keys(c: &Connection) -> Result<Vec<ApiKey>> {
    let mut st = c.prepare(&format!("SELECT {KEY_COLS} FROM api_keys ORDER BY created_at, id")).map_err(sql_err)?;
    let rows = st.query_map([], key_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn revoke_key_tx(c: &Connection, id_or_name: &str) -> Result<Option<ApiKey>> {
    let found: Option<String> = c
        .query_row(
            "SELECT id FROM api_keys WHERE revoked_at IS NULL AND (id = ?1 OR name = ?1) ORDER BY id = ?1 DESC LIMIT 1",
            [id_or_name],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql_err)?;
    let Some(id) = found else { return Ok(None) };
    c.execute("UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1", params![id, now_rfc3339()]).map_err(sql_err)?;
    c.query_row(&format!("SELECT {KEY_COLS} FROM api_keys WHERE id = ?1"), [&id], key_row).optional().map_err(sql_err)
}

// --- extraction jobs ---

const JOB_COLS: &str =
    "id, session_key, agent_id, submitted_by, require_approval, status, first_index, message_count, \
    messages, attempts, error, result, created_at, updated_at, caller";

fn job_row(r: &Row<'_>) -> rusqlite::Result<ExtractJob> {
    let status: String = r.get(5)?;
    Ok(ExtractJob {
        id: r.get(0)?,
        session_key: r.get(1)?,
        agent_id: r.get(2)?,
        submitted_by: r.get(3)?,
        require_approval: r.get(4)?,
        status: JobStatus::parse(&status).unwrap_or(JobStatus::Failed),
        first_index: r.get::<_, i64>(6)? as u64,
        message_count: r.get::<_, i64>(7)? as u32,
        messages: r.get(8)?,
        attempts: r.get::<_, i64>(9)? as u32,
        error: r.get(10)?,
        result: r.get(11)?,
        created_at: r.get(12)?,
        updated_at: r.get(13)?,
        caller: r.get(14)?,
    })
}

pub(crate) fn job(c: &Connection, id: &str) -> Result<Option<ExtractJob>> {
    c.prepare_cached(&format!("SELECT {JOB_COLS} FROM extract_jobs WHERE id = ?1"))
        .and_then(|mut st| st.query_row([id], job_row).optional())
        .map_err(sql_err)
}

pub(crate) fn enqueue_tx(c: &Connection, new: NewExtraction) -> Result<Enqueued> {
    if new.hashes.len() != new.messages.len() {
        return Err(CoreError::Internal("extraction: hashes and messages differ in length".into()));
    }
    let stored: Vec<(i64, String)> = {
        let mut st = c
            .prepare_cached("SELECT idx, hash FROM extract_messages WHERE session_key = ?1 ORDER BY idx")
            .map_err(sql_err)?;
        let it = st.query_map([&new.session_key], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql_err)?;
        it.collect::<std::result::Result<_, _>>().map_err(sql_err)?
    };
    // Numbering goes on past the kept window: the next index follows the newest kept message.
    let first = stored.last().map_or(0, |(i, _)| i + 1);
    let kept: Vec<String> = stored.into_iter().map(|(_, h)| h).collect();
    let skipped = overlap(&kept, &new.hashes);
    if skipped == new.hashes.len() {
        return Ok(Enqueued { skipped, job: None });
    }
    {
        let mut ins = c
            .prepare_cached("INSERT INTO extract_messages (session_key, idx, hash) VALUES (?1, ?2, ?3)")
            .map_err(sql_err)?;
        for (i, h) in new.hashes[skipped..].iter().enumerate() {
            ins.execute(params![new.session_key, first + i as i64, h]).map_err(sql_err)?;
        }
        let next = first + (new.hashes.len() - skipped) as i64;
        c.prepare_cached("DELETE FROM extract_messages WHERE session_key = ?1 AND idx < ?2")
            .and_then(|mut st| st.execute(params![new.session_key, next - MAX_MESSAGES as i64]))
            .map_err(sql_err)?;
    }
    let messages = format!("[{}]", new.messages[skipped..].join(","));
    let now = now_rfc3339();
    c.execute(
        "INSERT INTO extract_jobs (id, session_key, agent_id, submitted_by, require_approval, status, first_index, \
         message_count, messages, attempts, not_before, created_at, updated_at, caller) \
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, 0, ?9, ?9, ?9, ?10)",
        params![
            new.job_id,
            new.session_key,
            new.agent_id,
            new.submitted_by,
            new.require_approval,
            first,
            (new.hashes.len() - skipped) as i64,
            messages,
            now,
            new.caller
        ],
    )
    .map_err(sql_err)?;
    Ok(Enqueued { skipped, job: job(c, &new.job_id)? })
}

fn later(secs: u64) -> String {
    format_rfc3339(time::OffsetDateTime::now_utc() + time::Duration::seconds(secs.min(i64::MAX as u64) as i64))
}

pub(crate) fn claim_tx(c: &Connection, lease_secs: u64) -> Result<Option<ExtractJob>> {
    let now = now_rfc3339();
    let id: Option<String> = c
        .query_row(
            "SELECT id FROM extract_jobs WHERE (status = 'queued' AND not_before <= ?1) \
             OR (status = 'running' AND lease_until < ?1) ORDER BY created_at, id LIMIT 1",
            [&now],
            |r| r.get(0),
        )
        .optional()
        .map_err(sql_err)?;
    let Some(id) = id else { return Ok(None) };
    c.execute(
        "UPDATE extract_jobs SET status = 'running', attempts = attempts + 1, lease_until = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, later(lease_secs), now],
    )
    .map_err(sql_err)?;
    job(c, &id)
}

pub(crate) fn finish_tx(c: &Connection, id: &str, finish: JobFinish) -> Result<()> {
    let now = now_rfc3339();
    let n = match finish {
        JobFinish::Done { result } => c.execute(
            "UPDATE extract_jobs SET status = 'done', result = ?2, error = NULL, messages = '', lease_until = NULL, \
             updated_at = ?3 WHERE id = ?1",
            params![id, result, now],
        ),
        JobFinish::Retry { error, after_secs, result } => c.execute(
            "UPDATE extract_jobs SET status = 'queued', error = ?2, not_before = ?3, lease_until = NULL, updated_at = ?4, \
             result = ?5 WHERE id = ?1",
            params![id, error, later(after_secs), now, result],
        ),
        JobFinish::Failed { error, result } => c.execute(
            "UPDATE extract_jobs SET status = 'failed', error = ?2, result = ?4, messages = '', lease_until = NULL, \
             updated_at = ?3 WHERE id = ?1",
            params![id, error, now, result],
        ),
    }
    .map_err(sql_err)?;
    if n == 0 {
        return Err(CoreError::NotFound(format!("extraction job {id}")));
    }
    Ok(())
}
