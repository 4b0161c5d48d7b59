//! A record's history: one row per change, numbered across the hub, as SQLite's `events.rs`.
//!
//! The change feed reads the events in `seq` order from a cursor, so it must never see an event
//! before every event with a smaller `seq` is visible. SQLite commits one write at a time, in
//! order. Here a sequence number is taken when a row is inserted, not when its transaction
//! commits: a transaction that took 50 and commits after one that took 51 would let a reader
//! move its cursor past 50 and never see it (a quarantine's events, written at the start of a
//! transaction that then updates a thousand records, against a submit's). So every transaction
//! that writes events first takes `FEED_LOCK` shared ([`writing`]; writers do not wait on each
//! other), and a feed read takes it exclusively ([`reading`]): it waits for the writers in flight
//! to commit, and any writer after it takes a larger number than any it saw. Writers take the
//! lock before any row lock, and readers hold none, so the two cannot deadlock.

use knowhub_core::{now_rfc3339, Event, Result};
use sqlx::{PgConnection, PgPool, Row};

use crate::db::db_err;

/// The advisory lock that orders event writers against feed readers (see above).
pub const FEED_LOCK: i64 = 0x006b_6e6f_7766_6565;

/// Marks this transaction as one that writes events: call it first in the transaction.
pub(crate) async fn writing(conn: &mut PgConnection) -> Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock_shared($1)").bind(FEED_LOCK).execute(&mut *conn).await.map_err(db_err)?;
    Ok(())
}

/// Waits, in this transaction, until no transaction that writes events is in flight, and keeps
/// new ones out until it ends: the feed's next statement then sees every event below the
/// largest `seq` it sees.
async fn reading(conn: &mut PgConnection) -> Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(FEED_LOCK).execute(&mut *conn).await.map_err(db_err)?;
    Ok(())
}

pub(crate) async fn add(
    pool: &PgPool,
    id: &str,
    kind: &str,
    by: &str,
    detail: Option<&serde_json::Value>,
) -> Result<()> {
    // One statement, so one round trip: its own transaction takes the lock, then the number (the
    // number's CTE reads the lock's, so it is drawn after), and commits.
    sqlx::query(
        "WITH l AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared($6)), \
         n AS MATERIALIZED (SELECT nextval(pg_get_serial_sequence('events', 'seq')) AS seq FROM l) \
         INSERT INTO events (seq, experience_id, kind, by, at, detail) SELECT n.seq, $1, $2, $3, $4, $5 FROM n",
    )
    .bind(id)
    .bind(kind)
    .bind(by)
    .bind(now_rfc3339())
    .bind(detail.map(|d| d.to_string()))
    .bind(FEED_LOCK)
    .execute(pool)
    .await
    .map_err(db_err)?;
    Ok(())
}

/// Appends an event in a transaction that took [`writing`] first.
pub(crate) async fn add_on(
    conn: &mut PgConnection,
    id: &str,
    kind: &str,
    by: &str,
    detail: Option<&serde_json::Value>,
) -> Result<()> {
    sqlx::query("INSERT INTO events (experience_id, kind, by, at, detail) VALUES ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(kind)
        .bind(by)
        .bind(now_rfc3339())
        .bind(detail.map(|d| d.to_string()))
        .execute(&mut *conn)
        .await
        .map_err(db_err)?;
    Ok(())
}

/// SQL that appends a `kind` event by `{by}` for every record `experiences e` matching `cond`.
pub(crate) fn add_where(kind: &str, by: &str, cond: &str) -> String {
    format!(
        "INSERT INTO events (experience_id, kind, by, at) SELECT e.id, '{kind}', {by}, \
         to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM experiences e WHERE {cond}"
    )
}

pub(crate) async fn list(pool: &PgPool, id: &str) -> Result<Vec<Event>> {
    let rs = sqlx::query(
        "SELECT seq, experience_id, kind, by, at, detail FROM events WHERE experience_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rs.iter().map(event).collect()
}

/// The hub's events after `after`, in order, with none missing below the last (see [`reading`]).
pub(crate) async fn after(pool: &PgPool, after: i64, limit: usize) -> Result<Vec<Event>> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    reading(&mut tx).await?;
    let rs =
        sqlx::query("SELECT seq, experience_id, kind, by, at, detail FROM events WHERE seq > $1 ORDER BY seq LIMIT $2")
            .bind(after)
            .bind(limit.min(i64::MAX as usize) as i64)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    rs.iter().map(event).collect()
}

fn event(r: &sqlx::postgres::PgRow) -> Result<Event> {
    let detail: Option<String> = r.try_get(5).map_err(db_err)?;
    Ok(Event {
        seq: r.try_get(0).map_err(db_err)?,
        experience_id: r.try_get(1).map_err(db_err)?,
        kind: r.try_get(2).map_err(db_err)?,
        by: r.try_get(3).map_err(db_err)?,
        at: r.try_get(4).map_err(db_err)?,
        detail: detail.and_then(|d| serde_json::from_str(&d).ok()),
    })
}

/// The newest event's `seq`: a cursor from which the feed misses nothing (see [`reading`]).
pub(crate) async fn last(pool: &PgPool) -> Result<i64> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    reading(&mut tx).await?;
    let last = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0)::bigint FROM events")
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    Ok(last)
}

pub(crate) async fn hub_id(pool: &PgPool) -> Result<String> {
    sqlx::query_scalar("SELECT id FROM hub LIMIT 1").fetch_one(pool).await.map_err(db_err)
}

pub(crate) async fn cursor(pool: &PgPool, name: &str) -> Result<Option<i64>> {
    sqlx::query_scalar("SELECT seq FROM cursors WHERE name = $1").bind(name).fetch_optional(pool).await.map_err(db_err)
}

pub(crate) async fn set_cursor(pool: &PgPool, name: &str, seq: i64) -> Result<()> {
    sqlx::query("INSERT INTO cursors (name, seq) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET seq = EXCLUDED.seq")
        .bind(name)
        .bind(seq)
        .execute(pool)
        .await
        .map_err(db_err)?;
    Ok(())
}

pub(crate) async fn sync_base(pool: &PgPool, peer: &str, id: &str) -> Result<Option<String>> {
    sqlx::query_scalar("SELECT version FROM sync_bases WHERE peer = $1 AND experience_id = $2")
        .bind(peer)
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(db_err)
}

/// `Store::sync_context`: four queries for a page of changes, whatever its length.
pub(crate) async fn sync_context(
    pool: &PgPool,
    peer: &str,
    ids: &[String],
    evidence: bool,
) -> Result<std::collections::HashMap<String, knowhub_core::SyncContext>> {
    use std::collections::HashMap;
    let mut conn = pool.acquire().await.map_err(db_err)?;
    let seqs: Vec<(String, i64)> = sqlx::query_as("SELECT id, seq FROM experiences WHERE id = ANY($1)")
        .bind(ids)
        .fetch_all(&mut *conn)
        .await
        .map_err(db_err)?;
    let mut out: HashMap<String, knowhub_core::SyncContext> =
        seqs.iter().map(|(id, _)| (id.clone(), knowhub_core::SyncContext::default())).collect();
    let bases: Vec<(String, String)> =
        sqlx::query_as("SELECT experience_id, version FROM sync_bases WHERE peer = $1 AND experience_id = ANY($2)")
            .bind(peer)
            .bind(ids)
            .fetch_all(&mut *conn)
            .await
            .map_err(db_err)?;
    for (id, version) in bases {
        if let Some(c) = out.get_mut(&id) {
            c.base = Some(version);
        }
    }
    if evidence {
        let id_of: HashMap<i64, &String> = seqs.iter().map(|(id, seq)| (*seq, id)).collect();
        let all: Vec<i64> = seqs.iter().map(|(_, seq)| *seq).collect();
        let confirmations: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT seq, confirmer, at FROM confirmations WHERE seq = ANY($1) \
             ORDER BY seq, at COLLATE \"C\", confirmer COLLATE \"C\"",
        )
        .bind(&all)
        .fetch_all(&mut *conn)
        .await
        .map_err(db_err)?;
        for (seq, by, at) in confirmations {
            if let Some(c) = id_of.get(&seq).and_then(|id| out.get_mut(*id)) {
                c.confirmed_by.push(knowhub_core::Confirmation { by, at });
            }
        }
        for (seq, vote) in crate::rows::votes(&mut conn, &all).await? {
            if let Some(c) = id_of.get(&seq).and_then(|id| out.get_mut(*id)) {
                c.votes.push(vote);
            }
        }
    }
    Ok(out)
}

pub(crate) async fn set_sync_base(pool: &PgPool, peer: &str, id: &str, version: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO sync_bases (peer, experience_id, version) VALUES ($1, $2, $3) \
         ON CONFLICT (peer, experience_id) DO UPDATE SET version = EXCLUDED.version",
    )
    .bind(peer)
    .bind(id)
    .bind(version)
    .execute(pool)
    .await
    .map_err(db_err)?;
    Ok(())
}

/// A deleted record keeps a tombstone alone: what its events said goes with it. In a
/// transaction that took [`writing`] first.
pub(crate) async fn tombstone(conn: &mut PgConnection, id: &str) -> Result<()> {
    sqlx::query("DELETE FROM events WHERE experience_id = $1").bind(id).execute(&mut *conn).await.map_err(db_err)?;
    add_on(conn, id, "deleted", "", None).await
}
