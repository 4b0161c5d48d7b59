//! Extraction sessions and the job queue.
//!
//! `enqueue` locks the session's row (`SELECT .. FOR UPDATE`), so uploads of one session from any
//! replicas are matched against the stored messages strictly one after another. `claim` uses
//! `FOR UPDATE SKIP LOCKED`, so concurrent workers never take the same job and never wait on
//! each other. Times for leases and retries come from the database's clock.

use knowhub_core::extract::{overlap, Enqueued, ExtractJob, JobFinish, JobStatus, NewExtraction, MAX_MESSAGES};
use knowhub_core::{now_rfc3339, CoreError, Result};
use sqlx::postgres::PgRow;
use sqlx::AssertSqlSafe;
use sqlx::{PgPool, Row};

use crate::db::db_err;

const COLS: &str = "id, session_key, agent_id, submitted_by, require_approval, status, first_index, message_count, \
    messages, attempts, error, result, created_at, updated_at, caller, scope, origin_key";

fn job(r: &PgRow) -> Result<ExtractJob> {
    let status: String = r.try_get(5).map_err(db_err)?;
    Ok(ExtractJob {
        id: r.try_get(0).map_err(db_err)?,
        session_key: r.try_get(1).map_err(db_err)?,
        agent_id: r.try_get(2).map_err(db_err)?,
        submitted_by: r.try_get(3).map_err(db_err)?,
        require_approval: r.try_get(4).map_err(db_err)?,
        status: JobStatus::parse(&status)
            .ok_or_else(|| CoreError::Internal(format!("postgres: bad job status {status:?}")))?,
        first_index: r.try_get::<i64, _>(6).map_err(db_err)? as u64,
        message_count: r.try_get::<i32, _>(7).map_err(db_err)? as u32,
        messages: r.try_get(8).map_err(db_err)?,
        attempts: r.try_get::<i32, _>(9).map_err(db_err)? as u32,
        error: r.try_get(10).map_err(db_err)?,
        result: r.try_get(11).map_err(db_err)?,
        created_at: r.try_get(12).map_err(db_err)?,
        updated_at: r.try_get(13).map_err(db_err)?,
        caller: r.try_get(14).map_err(db_err)?,
        scope: r.try_get(15).map_err(db_err)?,
        key: r.try_get(16).map_err(db_err)?,
    })
}

pub(crate) async fn enqueue(pool: &PgPool, new: NewExtraction) -> Result<Enqueued> {
    if new.hashes.len() != new.messages.len() {
        return Err(CoreError::invalid("messages", "hashes and messages differ in length"));
    }
    let now = now_rfc3339();
    let mut tx = pool.begin().await.map_err(db_err)?;
    sqlx::query(
        "INSERT INTO extract_sessions (session_key, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT DO NOTHING",
    )
    .bind(&new.session_key)
    .bind(&now)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    sqlx::query("SELECT 1 FROM extract_sessions WHERE session_key = $1 FOR UPDATE")
        .bind(&new.session_key)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let stored: Vec<(i64, String)> =
        sqlx::query_as("SELECT idx, hash FROM extract_messages WHERE session_key = $1 ORDER BY idx")
            .bind(&new.session_key)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
    // Numbering goes on past the kept window: the next index follows the newest kept message.
    let first = stored.last().map_or(0, |(i, _)| i + 1);
    let kept: Vec<String> = stored.into_iter().map(|(_, h)| h).collect();
    let skipped = overlap(&kept, &new.hashes);
    if skipped >= new.hashes.len() {
        tx.commit().await.map_err(db_err)?;
        return Ok(Enqueued { skipped, job: None });
    }
    let fresh_hashes = &new.hashes[skipped..];
    let idx: Vec<i64> = (0..fresh_hashes.len() as i64).map(|i| first + i).collect();
    sqlx::query(
        "INSERT INTO extract_messages (session_key, idx, hash) SELECT $1, i, h FROM UNNEST($2::bigint[], $3::text[]) AS t(i, h)",
    )
    .bind(&new.session_key)
    .bind(&idx)
    .bind(fresh_hashes)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    sqlx::query("DELETE FROM extract_messages WHERE session_key = $1 AND idx < $2")
        .bind(&new.session_key)
        .bind(first + fresh_hashes.len() as i64 - MAX_MESSAGES as i64)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    sqlx::query("UPDATE extract_sessions SET updated_at = $2 WHERE session_key = $1")
        .bind(&new.session_key)
        .bind(&now)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let messages = format!("[{}]", new.messages[skipped..].join(","));
    let r = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO extract_jobs (id, session_key, agent_id, submitted_by, require_approval, status, first_index, \
         message_count, messages, created_at, updated_at, caller, scope, origin_key) \
         VALUES ($1, $2, $3, $4, $5, 'queued', $6, $7, $8, $9, $9, $10, $11, $12) RETURNING {COLS}"
    )))
    .bind(&new.job_id)
    .bind(&new.session_key)
    .bind(&new.agent_id)
    .bind(&new.submitted_by)
    .bind(new.require_approval)
    .bind(first)
    .bind(fresh_hashes.len() as i32)
    .bind(messages)
    .bind(&now)
    .bind(&new.caller)
    .bind(&new.scope)
    .bind(&new.key)
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    let j = job(&r)?;
    tx.commit().await.map_err(db_err)?;
    Ok(Enqueued { skipped, job: Some(j) })
}

pub(crate) async fn claim(pool: &PgPool, lease_secs: u64) -> Result<Option<ExtractJob>> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "UPDATE extract_jobs SET status = 'running', attempts = attempts + 1, \
         lease_until = now() + make_interval(secs => $1), updated_at = $2 \
         WHERE seq = (SELECT seq FROM extract_jobs WHERE (status = 'queued' AND not_before <= now()) \
                      OR (status = 'running' AND lease_until < now()) ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED) \
         RETURNING {COLS}"
    )))
    .bind(lease_secs as f64)
    .bind(now_rfc3339())
    .fetch_optional(pool)
    .await
    .map_err(db_err)?;
    r.as_ref().map(job).transpose()
}

pub(crate) async fn finish(pool: &PgPool, id: &str, finish: JobFinish) -> Result<()> {
    let now = now_rfc3339();
    let q = match &finish {
        JobFinish::Done { result } => sqlx::query(
            "UPDATE extract_jobs SET status = 'done', result = $2, error = NULL, messages = '', lease_until = NULL, \
             updated_at = $3 WHERE id = $1",
        )
        .bind(id)
        .bind(result)
        .bind(&now),
        JobFinish::Retry { error, after_secs, result } => sqlx::query(
            "UPDATE extract_jobs SET status = 'queued', error = $2, lease_until = NULL, \
             not_before = now() + make_interval(secs => $4), updated_at = $3, result = $5 WHERE id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(&now)
        .bind(*after_secs as f64)
        .bind(result),
        JobFinish::Failed { error, result } => sqlx::query(
            "UPDATE extract_jobs SET status = 'failed', error = $2, result = $4, messages = '', lease_until = NULL, \
             updated_at = $3 WHERE id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(&now)
        .bind(result),
    };
    let n = q.execute(pool).await.map_err(db_err)?;
    if n.rows_affected() == 0 {
        return Err(CoreError::NotFound(format!("extraction job {id}")));
    }
    Ok(())
}

pub(crate) async fn get(pool: &PgPool, id: &str) -> Result<Option<ExtractJob>> {
    let r = sqlx::query(AssertSqlSafe(format!("SELECT {COLS} FROM extract_jobs WHERE id = $1")))
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    r.as_ref().map(job).transpose()
}
