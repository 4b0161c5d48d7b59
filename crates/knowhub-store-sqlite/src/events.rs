//! A record's history: one row per change, numbered across the hub. Appends run on the writer
//! thread.

use knowhub_core::{now_rfc3339, Event, Result};
use rusqlite::{params, Connection};

use crate::db::sql_err;

pub(crate) fn add_tx(c: &Connection, id: &str, kind: &str, by: &str, detail: Option<&serde_json::Value>) -> Result<()> {
    c.prepare_cached("INSERT INTO events (experience_id, kind, by, at, detail) VALUES (?1, ?2, ?3, ?4, ?5)")
        .and_then(|mut st| st.execute(params![id, kind, by, now_rfc3339(), detail.map(|d| d.to_string())]))
        .map_err(sql_err)?;
    Ok(())
}

/// SQL that appends a `kind` event by `?{by}` for every record `experiences` matching `cond`.
pub(crate) fn add_where(kind: &str, by: &str, cond: &str) -> String {
    format!(
        "INSERT INTO events (experience_id, kind, by, at) SELECT id, '{kind}', {by}, strftime('%Y-%m-%dT%H:%M:%SZ', 'now') \
         FROM experiences WHERE {cond}"
    )
}

pub(crate) fn list(c: &Connection, id: &str) -> Result<Vec<Event>> {
    let mut st = c
        .prepare_cached(
            "SELECT seq, experience_id, kind, by, at, detail FROM events WHERE experience_id = ?1 ORDER BY seq",
        )
        .map_err(sql_err)?;
    let rows = st.query_map([id], event).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

/// The hub's events after `after`, in order.
pub(crate) fn after(c: &Connection, after: i64, limit: usize) -> Result<Vec<Event>> {
    let mut st = c
        .prepare_cached(
            "SELECT seq, experience_id, kind, by, at, detail FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
        )
        .map_err(sql_err)?;
    let rows = st.query_map(params![after, limit.min(i64::MAX as usize) as i64], event).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

fn event(r: &rusqlite::Row<'_>) -> rusqlite::Result<Event> {
    let detail: Option<String> = r.get(5)?;
    Ok(Event {
        seq: r.get(0)?,
        experience_id: r.get(1)?,
        kind: r.get(2)?,
        by: r.get(3)?,
        at: r.get(4)?,
        detail: detail.and_then(|d| serde_json::from_str(&d).ok()),
    })
}

pub(crate) fn last(c: &Connection) -> Result<i64> {
    c.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0)).map_err(sql_err)
}

pub(crate) fn hub_id(c: &Connection) -> Result<String> {
    c.query_row("SELECT id FROM hub LIMIT 1", [], |r| r.get(0)).map_err(sql_err)
}

pub(crate) fn cursor(c: &Connection, name: &str) -> Result<Option<i64>> {
    use rusqlite::OptionalExtension;
    c.query_row("SELECT seq FROM cursors WHERE name = ?1", [name], |r| r.get(0)).optional().map_err(sql_err)
}

pub(crate) fn set_cursor_tx(c: &Connection, name: &str, seq: i64) -> Result<()> {
    c.execute(
        "INSERT INTO cursors (name, seq) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq",
        params![name, seq],
    )
    .map_err(sql_err)?;
    Ok(())
}

pub(crate) fn sync_base(c: &Connection, peer: &str, id: &str) -> Result<Option<String>> {
    use rusqlite::OptionalExtension;
    c.query_row("SELECT version FROM sync_bases WHERE peer = ?1 AND experience_id = ?2", [peer, id], |r| r.get(0))
        .optional()
        .map_err(sql_err)
}

/// `Store::sync_context`: one read of the database for a page of changes.
pub(crate) fn sync_context(
    c: &Connection,
    peer: &str,
    ids: &[String],
    evidence: bool,
) -> Result<std::collections::HashMap<String, knowhub_core::SyncContext>> {
    let mut out = std::collections::HashMap::with_capacity(ids.len());
    for id in ids {
        let seq = match crate::rows::seq_of(c, id) {
            Ok(seq) => seq,
            Err(knowhub_core::CoreError::NotFound(_)) => continue,
            Err(e) => return Err(e),
        };
        let mut ctx = knowhub_core::SyncContext { base: sync_base(c, peer, id)?, ..Default::default() };
        if evidence {
            ctx.confirmed_by = crate::rows::confirmations(c, seq)?;
            ctx.votes = crate::rows::votes(c, seq)?;
        }
        out.insert(id.clone(), ctx);
    }
    Ok(out)
}

pub(crate) fn set_sync_base_tx(c: &Connection, peer: &str, id: &str, version: &str) -> Result<()> {
    c.execute(
        "INSERT INTO sync_bases (peer, experience_id, version) VALUES (?1, ?2, ?3) \
         ON CONFLICT (peer, experience_id) DO UPDATE SET version = excluded.version",
        params![peer, id, version],
    )
    .map_err(sql_err)?;
    Ok(())
}

/// A deleted record keeps a tombstone alone: what its events said goes with it.
pub(crate) fn tombstone_tx(c: &Connection, id: &str) -> Result<()> {
    c.execute("DELETE FROM events WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    add_tx(c, id, "deleted", "", None)
}
