//! API keys. Only hashes are stored; "one active key per name" is a partial unique index. Write
//! paths run on the writer thread (inside its savepoints).

use knowhub_core::{now_rfc3339, ApiKey, CoreError, NewApiKey, Result, Role};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::db::sql_err;

const KEY_COLS: &str = "id, name, role, prefix, created_at, revoked_at, read_scopes, write_scope";

/// A key's read scopes are stored comma-separated (`*` for all): names never contain a comma.
fn scopes_text(v: &[String]) -> String {
    v.join(",")
}

fn key_row(r: &Row<'_>) -> rusqlite::Result<ApiKey> {
    let role: String = r.get(2)?;
    Ok(ApiKey {
        id: r.get(0)?,
        name: r.get(1)?,
        role: Role::parse(&role).unwrap_or(Role::Agent),
        prefix: r.get(3)?,
        created_at: r.get(4)?,
        revoked_at: r.get(5)?,
        read_scopes: r.get::<_, String>(6)?.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect(),
        write_scope: r.get(7)?,
    })
}

pub(crate) fn create_tx(c: &Connection, k: NewApiKey) -> Result<ApiKey> {
    let now = now_rfc3339();
    c.execute(
        "INSERT INTO api_keys (id, name, role, prefix, hash, created_at, read_scopes, write_scope) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![k.id, k.name, k.role.as_str(), k.prefix, k.hash, now, scopes_text(&k.read_scopes), k.write_scope],
    )
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            CoreError::Conflict(format!("an active key named {:?} already exists; revoke it first", k.name))
        }
        other => sql_err(other),
    })?;
    Ok(ApiKey {
        id: k.id,
        name: k.name,
        role: k.role,
        prefix: k.prefix,
        created_at: now,
        revoked_at: None,
        read_scopes: k.read_scopes,
        write_scope: k.write_scope,
    })
}

pub(crate) fn by_hash(c: &Connection, hash: &str) -> Result<Option<ApiKey>> {
    c.prepare_cached(&format!("SELECT {KEY_COLS} FROM api_keys WHERE hash = ?1"))
        .and_then(|mut st| st.query_row([hash], key_row).optional())
        .map_err(sql_err)
}

pub(crate) fn list(c: &Connection) -> Result<Vec<ApiKey>> {
    let mut st = c.prepare(&format!("SELECT {KEY_COLS} FROM api_keys ORDER BY created_at, id")).map_err(sql_err)?;
    let rows = st.query_map([], key_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn revoke_tx(c: &Connection, id_or_name: &str) -> Result<Option<ApiKey>> {
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

/// Adds `delta` to `caller`'s count in the current fixed window of each size in `windows`,
/// dropping the caller's windows before the previous one. On the writer thread, so counts never race.
pub(crate) fn count_writes_tx(
    c: &Connection,
    caller: &str,
    windows: &[u64],
    now: i64,
    delta: i64,
) -> Result<Vec<(u64, u64)>> {
    let mut out = Vec::with_capacity(windows.len());
    for &w in windows {
        let w = w.clamp(1, i64::MAX as u64) as i64;
        let start = now.div_euclid(w) * w;
        c.prepare_cached("DELETE FROM write_counts WHERE caller = ?1 AND window_secs = ?2 AND start < ?3")
            .and_then(|mut st| st.execute(params![caller, w, start.saturating_sub(w)]))
            .map_err(sql_err)?;
        let n: i64 = c
            .prepare_cached(
                "INSERT INTO write_counts (caller, window_secs, start, n) VALUES (?1, ?2, ?3, max(?4, 0)) \
                 ON CONFLICT (caller, window_secs, start) DO UPDATE SET n = max(n + ?4, 0) RETURNING n",
            )
            .and_then(|mut st| st.query_row(params![caller, w, start, delta], |r| r.get(0)))
            .map_err(sql_err)?;
        let prev: i64 = c
            .prepare_cached("SELECT n FROM write_counts WHERE caller = ?1 AND window_secs = ?2 AND start = ?3")
            .and_then(|mut st| st.query_row(params![caller, w, start.saturating_sub(w)], |r| r.get(0)).optional())
            .map_err(sql_err)?
            .unwrap_or(0);
        out.push((n.max(0) as u64, prev.max(0) as u64));
    }
    Ok(out)
}
