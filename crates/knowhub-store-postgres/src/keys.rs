//! API keys. Only hashes are stored; "one active key per name" is a partial unique index.

use knowhub_core::access::{ApiKey, NewApiKey, Role};
use knowhub_core::{now_rfc3339, CoreError, Result};
use sqlx::postgres::PgRow;
use sqlx::AssertSqlSafe;
use sqlx::{PgPool, Row};

use crate::db::db_err;

const COLS: &str = "id, name, role, prefix, created_at, revoked_at, read_scopes, write_scope";

fn key(r: &PgRow) -> Result<ApiKey> {
    let role: String = r.try_get(2).map_err(db_err)?;
    Ok(ApiKey {
        id: r.try_get(0).map_err(db_err)?,
        name: r.try_get(1).map_err(db_err)?,
        role: Role::parse(&role).ok_or_else(|| CoreError::Internal(format!("postgres: bad role {role:?}")))?,
        prefix: r.try_get(3).map_err(db_err)?,
        created_at: r.try_get(4).map_err(db_err)?,
        revoked_at: r.try_get(5).map_err(db_err)?,
        read_scopes: r.try_get(6).map_err(db_err)?,
        write_scope: r.try_get(7).map_err(db_err)?,
    })
}

pub(crate) async fn create(pool: &PgPool, k: NewApiKey) -> Result<ApiKey> {
    let r = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO api_keys (id, name, role, prefix, hash, created_at, read_scopes, write_scope) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLS}"
    )))
    .bind(&k.id)
    .bind(&k.name)
    .bind(k.role.as_str())
    .bind(&k.prefix)
    .bind(&k.hash)
    .bind(now_rfc3339())
    .bind(&k.read_scopes)
    .bind(&k.write_scope)
    .fetch_one(pool)
    .await
    .map_err(|e| match db_err(e) {
        CoreError::Conflict(_) => CoreError::Conflict(format!("an active key named {:?} already exists", k.name)),
        other => other,
    })?;
    key(&r)
}

pub(crate) async fn by_hash(pool: &PgPool, hash: &str) -> Result<Option<ApiKey>> {
    let r = sqlx::query(AssertSqlSafe(format!("SELECT {COLS} FROM api_keys WHERE hash = $1")))
        .bind(hash)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    r.as_ref().map(key).transpose()
}

pub(crate) async fn list(pool: &PgPool) -> Result<Vec<ApiKey>> {
    let rs = sqlx::query(AssertSqlSafe(format!("SELECT {COLS} FROM api_keys ORDER BY seq")))
        .fetch_all(pool)
        .await
        .map_err(db_err)?;
    rs.iter().map(key).collect()
}

pub(crate) async fn revoke(pool: &PgPool, id_or_name: &str) -> Result<Option<ApiKey>> {
    // An id match wins over a name match.
    let r = sqlx::query(AssertSqlSafe(format!(
        "UPDATE api_keys SET revoked_at = $2 WHERE id = (SELECT id FROM api_keys WHERE revoked_at IS NULL \
         AND (id = $1 OR name = $1) ORDER BY (id = $1) DESC LIMIT 1) AND revoked_at IS NULL RETURNING {COLS}"
    )))
    .bind(id_or_name)
    .bind(now_rfc3339())
    .fetch_optional(pool)
    .await
    .map_err(db_err)?;
    r.as_ref().map(key).transpose()
}

/// Adds `delta` to `caller`'s count in the current fixed window of each size in `windows`,
/// dropping the caller's windows before the previous one. `ON CONFLICT .. DO UPDATE` takes the
/// row lock, so replicas counting at once each see their own change.
pub(crate) async fn count_writes(
    pool: &PgPool,
    caller: &str,
    windows: &[u64],
    now: i64,
    delta: i64,
) -> Result<Vec<(u64, u64)>> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    let mut out = Vec::with_capacity(windows.len());
    for &w in windows {
        let w = w.clamp(1, i64::MAX as u64) as i64;
        let start = now.div_euclid(w) * w;
        sqlx::query("DELETE FROM write_counts WHERE caller = $1 AND window_secs = $2 AND start < $3")
            .bind(caller)
            .bind(w)
            .bind(start.saturating_sub(w))
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let n: i64 = sqlx::query_scalar(
            "INSERT INTO write_counts (caller, window_secs, start, n) VALUES ($1, $2, $3, GREATEST($4, 0)) \
             ON CONFLICT (caller, window_secs, start) DO UPDATE SET n = GREATEST(write_counts.n + $4, 0) RETURNING n",
        )
        .bind(caller)
        .bind(w)
        .bind(start)
        .bind(delta)
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
        let prev: Option<i64> =
            sqlx::query_scalar("SELECT n FROM write_counts WHERE caller = $1 AND window_secs = $2 AND start = $3")
                .bind(caller)
                .bind(w)
                .bind(start.saturating_sub(w))
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
        out.push((n.max(0) as u64, prev.unwrap_or(0).max(0) as u64));
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
}
