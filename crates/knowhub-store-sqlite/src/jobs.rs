//! Extraction sessions and the job queue. Write paths run on the writer thread (inside its
//! savepoints), one at a time, so a session's uploads are matched against its stored messages
//! one after another and a job is claimed by one worker only.

use knowhub_core::extract::{overlap, ExtractJob, JobFinish, JobStatus, NewExtraction, MAX_MESSAGES};
use knowhub_core::{format_rfc3339, now_rfc3339, CoreError, Enqueued, Result};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::db::sql_err;

const JOB_COLS: &str =
    "id, session_key, agent_id, submitted_by, require_approval, status, first_index, message_count, \
    messages, attempts, error, result, created_at, updated_at, caller, scope, origin_key";

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
        scope: r.get(15)?,
        key: r.get(16)?,
    })
}

pub(crate) fn get(c: &Connection, id: &str) -> Result<Option<ExtractJob>> {
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
         message_count, messages, attempts, not_before, created_at, updated_at, caller, scope, origin_key) \
         VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, ?8, 0, ?9, ?9, ?9, ?10, ?11, ?12)",
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
            new.caller,
            new.scope,
            new.key
        ],
    )
    .map_err(sql_err)?;
    Ok(Enqueued { skipped, job: get(c, &new.job_id)? })
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
    get(c, &id)
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
