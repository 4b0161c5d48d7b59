//! Records held out of search (`knowhub_core::hold` bits in `experiences.held`): quarantines of a
//! key or an agent, and expiry. As SQLite's `hold.rs`; each change is one transaction, so every
//! replica sees a quarantine whole.

use knowhub_core::{hold, now_rfc3339, CoreError, Experience, Quarantine, QuarantineTarget, Release, Result};
use sqlx::{AssertSqlSafe, PgConnection, PgPool, Row};

use crate::db::db_err;
use crate::records::QUARANTINED_WRITER;
use crate::rows::{self, EXP_COLS};

/// SQL over `experiences e` for the records `target` wrote; its value is `$1`.
fn written_by(target: &QuarantineTarget) -> &'static str {
    match target {
        QuarantineTarget::Key(_) => "e.origin_key = $1 AND e.origin_key <> ''",
        QuarantineTarget::Agent(_) => "e.agent_id = $1",
    }
}

pub(crate) async fn quarantine(pool: &PgPool, t: &QuarantineTarget, by: &str) -> Result<Quarantine> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    crate::events::writing(&mut tx).await?;
    sqlx::query("INSERT INTO quarantines (kind, value, by, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
        .bind(t.kind())
        .bind(t.value())
        .bind(by)
        .bind(now_rfc3339())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let fresh = format!("{} AND held & {} = 0", written_by(t), hold::QUARANTINED);
    sqlx::query(AssertSqlSafe(crate::events::add_where("quarantined", "$2", &fresh)))
        .bind(t.value())
        .bind(by)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    sqlx::query(AssertSqlSafe(format!(
        "UPDATE experiences e SET held = held | {} WHERE {}",
        hold::QUARANTINED,
        written_by(t)
    )))
    .bind(t.value())
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    let q = get(&mut tx, t).await?.ok_or_else(|| CoreError::Internal("quarantine vanished".into()))?;
    tx.commit().await.map_err(db_err)?;
    Ok(q)
}

async fn get(conn: &mut PgConnection, t: &QuarantineTarget) -> Result<Option<Quarantine>> {
    let r = sqlx::query("SELECT by, at FROM quarantines WHERE kind = $1 AND value = $2")
        .bind(t.kind())
        .bind(t.value())
        .fetch_optional(&mut *conn)
        .await
        .map_err(db_err)?;
    let Some(r) = r else { return Ok(None) };
    let records: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM experiences e WHERE {} AND held & {} <> 0",
        written_by(t),
        hold::QUARANTINED
    )))
    .bind(t.value())
    .fetch_one(&mut *conn)
    .await
    .map_err(db_err)?;
    Ok(Some(Quarantine {
        kind: t.kind().into(),
        value: t.value().into(),
        by: r.try_get(0).map_err(db_err)?,
        at: r.try_get(1).map_err(db_err)?,
        records: records as u64,
    }))
}

pub(crate) async fn release(pool: &PgPool, t: &QuarantineTarget, release: Release, reviewer: &str) -> Result<u64> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    crate::events::writing(&mut tx).await?;
    let gone = sqlx::query("DELETE FROM quarantines WHERE kind = $1 AND value = $2")
        .bind(t.kind())
        .bind(t.value())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    if gone.rows_affected() == 0 {
        return Err(CoreError::NotFound(format!("quarantine of {} {:?}", t.kind(), t.value())));
    }
    let (cond, q) = (written_by(t), hold::QUARANTINED);
    let held: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM experiences e WHERE {cond} AND held & {q} <> 0"
    )))
    .bind(t.value())
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    let kind = if matches!(release, Release::Restore) { "released" } else { "rejected" };
    sqlx::query(AssertSqlSafe(crate::events::add_where(kind, "$2", &format!("{cond} AND held & {q} <> 0"))))
        .bind(t.value())
        .bind(reviewer)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    match release {
        // Records another quarantine still covers stay held.
        Release::Restore => sqlx::query(AssertSqlSafe(format!(
            "UPDATE experiences e SET held = held & ~{q} WHERE {cond} AND held & {q} <> 0 AND NOT {QUARANTINED_WRITER}"
        )))
        .bind(t.value())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?,
        Release::Reject { reason } => sqlx::query(AssertSqlSafe(format!(
            "UPDATE experiences e SET held = held & ~{q}, status = 'rejected', review_by = $2, review_at = $3, \
             review_note = $4, updated_at = $3 WHERE {cond} AND held & {q} <> 0"
        )))
        .bind(t.value())
        .bind(reviewer)
        .bind(now_rfc3339())
        .bind(reason)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?,
    };
    tx.commit().await.map_err(db_err)?;
    Ok(held as u64)
}

pub(crate) async fn list(pool: &PgPool) -> Result<Vec<Quarantine>> {
    let mut conn = pool.acquire().await.map_err(db_err)?;
    let rs = sqlx::query("SELECT kind, value FROM quarantines ORDER BY at, kind, value")
        .fetch_all(&mut *conn)
        .await
        .map_err(db_err)?;
    let mut out = Vec::with_capacity(rs.len());
    for r in rs {
        let kind: String = r.try_get(0).map_err(db_err)?;
        if let Some(t) = QuarantineTarget::from_parts(&kind, r.try_get(1).map_err(db_err)?) {
            out.extend(get(&mut conn, &t).await?);
        }
    }
    Ok(out)
}

pub(crate) async fn held(
    pool: &PgPool,
    mask: i64,
    scopes: Option<&[String]>,
    after: &str,
    limit: usize,
) -> Result<Vec<Experience>> {
    let rs = sqlx::query(AssertSqlSafe(format!(
        "SELECT {EXP_COLS} FROM experiences e WHERE e.held & $1 <> 0 AND e.id > $2 \
         AND ($4::text[] IS NULL OR e.scope = ANY($4::text[])) ORDER BY e.id LIMIT $3"
    )))
    .bind(mask as i32)
    .bind(after)
    .bind(limit.min(i64::MAX as usize) as i64)
    .bind(scopes)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rs.iter().map(rows::experience).collect()
}

pub(crate) async fn expire_due(pool: &PgPool, now: &str) -> Result<u64> {
    // One statement after the feed's lock: every replica sweeps, and a record is marked (and its
    // event written) once.
    let mut tx = pool.begin().await.map_err(db_err)?;
    crate::events::writing(&mut tx).await?;
    let n: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
        "WITH due AS (UPDATE experiences e SET held = held | {e} WHERE e.expires_at IS NOT NULL \
         AND e.expires_at <= $1 AND e.held & {e} = 0 RETURNING e.id), \
         ev AS (INSERT INTO events (experience_id, kind, by, at) SELECT id, 'expired', 'system', $2 FROM due) \
         SELECT COUNT(*) FROM due",
        e = hold::EXPIRED
    )))
    .bind(now)
    .bind(now_rfc3339())
    .fetch_one(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(n as u64)
}

pub(crate) async fn set_expiry(pool: &PgPool, id: &str, expires_at: Option<&str>, now: &str) -> Result<Experience> {
    let expired = expires_at.is_some_and(|t| t <= now);
    let r = sqlx::query(AssertSqlSafe(format!(
        "UPDATE experiences e SET expires_at = $2, held = (held & ~{e}) | $3, updated_at = $4 WHERE e.id = $1 \
         RETURNING {EXP_COLS}",
        e = hold::EXPIRED
    )))
    .bind(id)
    .bind(expires_at)
    .bind(if expired { hold::EXPIRED as i32 } else { 0 })
    .bind(now_rfc3339())
    .fetch_optional(pool)
    .await
    .map_err(db_err)?;
    match r {
        Some(r) => rows::experience(&r),
        None => Err(knowhub_core::store::not_found(id)),
    }
}
