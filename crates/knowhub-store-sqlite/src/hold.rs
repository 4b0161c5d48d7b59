//! Records held out of search (`knowhub_core::hold` bits in `experiences.held`): quarantines of a
//! key or an agent, and expiry. Writes run on the writer thread; the in-memory indexes learn of
//! each held or released record once the change is committed.

use knowhub_core::{hold, now_rfc3339, Experience, Quarantine, QuarantineTarget, Release, Result};
use rusqlite::{params, Connection, OptionalExtension};

use crate::db::{sql_err, SqliteStore};
use crate::index::{self, IndexChange};
use crate::records::QUARANTINED_WRITER;
use crate::rows::{self, EXP_COLS};

/// SQL over `experiences` (unaliased) for the records `target` wrote; its value is `?1`.
fn written_by(target: &QuarantineTarget) -> &'static str {
    match target {
        QuarantineTarget::Key(_) => "experiences.origin_key = ?1 AND experiences.origin_key != ''",
        QuarantineTarget::Agent(_) => "experiences.agent_id = ?1",
    }
}

/// The in-memory view of the given records as they are now.
fn changes(c: &Connection, seqs: &[i64]) -> Result<Vec<IndexChange>> {
    seqs.iter()
        .map(|&seq| {
            let e = rows::get_by_seq(c, seq)?;
            Ok(IndexChange::of(seq, &e))
        })
        .collect()
}

fn seqs_where(c: &Connection, cond: &str, value: &str) -> Result<Vec<i64>> {
    let mut st = c.prepare(&format!("SELECT seq FROM experiences WHERE {cond}")).map_err(sql_err)?;
    let rows = st.query_map([value], |r| r.get(0)).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

fn apply(s: &SqliteStore, changes: Vec<IndexChange>) {
    for ch in &changes {
        index::apply(&s.inner, ch);
    }
}

pub(crate) async fn quarantine(s: &SqliteStore, target: &QuarantineTarget, by: &str) -> Result<Quarantine> {
    let (t, by) = (target.clone(), by.to_string());
    let (q, changed) = s
        .writer
        .run(move |c| {
            let at = now_rfc3339();
            c.execute(
                "INSERT OR IGNORE INTO quarantines (kind, value, by, at) VALUES (?1, ?2, ?3, ?4)",
                params![t.kind(), t.value(), by, at],
            )
            .map_err(sql_err)?;
            let cond = written_by(&t);
            let fresh = format!("{cond} AND held & {} = 0", hold::QUARANTINED);
            c.execute(&crate::events::add_where("quarantined", "?2", &fresh), params![t.value(), by])
                .map_err(sql_err)?;
            let newly = seqs_where(c, &fresh, t.value())?;
            c.execute(&format!("UPDATE experiences SET held = held | {} WHERE {cond}", hold::QUARANTINED), [t.value()])
                .map_err(sql_err)?;
            let q = get_tx(c, &t)?.ok_or_else(|| knowhub_core::CoreError::Internal("quarantine vanished".into()))?;
            Ok((q, changes(c, &newly)?))
        })
        .await?;
    apply(s, changed);
    Ok(q)
}

fn get_tx(c: &Connection, t: &QuarantineTarget) -> Result<Option<Quarantine>> {
    let row: Option<(String, String)> = c
        .query_row("SELECT by, at FROM quarantines WHERE kind = ?1 AND value = ?2", params![t.kind(), t.value()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()
        .map_err(sql_err)?;
    let Some((by, at)) = row else { return Ok(None) };
    let records: i64 = c
        .query_row(
            &format!("SELECT COUNT(*) FROM experiences WHERE {} AND held & {} != 0", written_by(t), hold::QUARANTINED),
            [t.value()],
            |r| r.get(0),
        )
        .map_err(sql_err)?;
    Ok(Some(Quarantine { kind: t.kind().into(), value: t.value().into(), by, at, records: records as u64 }))
}

pub(crate) async fn release(
    s: &SqliteStore,
    target: &QuarantineTarget,
    release: Release,
    reviewer: &str,
) -> Result<u64> {
    let (t, reviewer) = (target.clone(), reviewer.to_string());
    let (n, changed) = s
        .writer
        .run(move |c| {
            let gone = c
                .execute("DELETE FROM quarantines WHERE kind = ?1 AND value = ?2", params![t.kind(), t.value()])
                .map_err(sql_err)?;
            if gone == 0 {
                return Err(knowhub_core::CoreError::NotFound(format!("quarantine of {} {:?}", t.kind(), t.value())));
            }
            let cond = written_by(&t);
            let held_cond = format!("{cond} AND held & {} != 0", hold::QUARANTINED);
            let held = seqs_where(c, &held_cond, t.value())?;
            let kind = if matches!(release, Release::Restore) { "released" } else { "rejected" };
            c.execute(&crate::events::add_where(kind, "?2", &held_cond), params![t.value(), reviewer])
                .map_err(sql_err)?;
            match &release {
                // Records another quarantine still covers stay held.
                Release::Restore => c.execute(
                    &format!(
                        "UPDATE experiences SET held = held & ~{q} WHERE {cond} AND held & {q} != 0 \
                         AND NOT {QUARANTINED_WRITER}",
                        q = hold::QUARANTINED
                    ),
                    [t.value()],
                ),
                Release::Reject { reason } => c.execute(
                    &format!(
                        "UPDATE experiences SET held = held & ~{q}, status = 'rejected', review_by = ?2, review_at = ?3, \
                         review_note = ?4, updated_at = ?3 WHERE {cond} AND held & {q} != 0",
                        q = hold::QUARANTINED
                    ),
                    params![t.value(), reviewer, now_rfc3339(), reason],
                ),
            }
            .map_err(sql_err)?;
            Ok((held.len() as u64, changes(c, &held)?))
        })
        .await?;
    apply(s, changed);
    Ok(n)
}

pub(crate) fn list(c: &Connection) -> Result<Vec<Quarantine>> {
    let mut st = c.prepare("SELECT kind, value FROM quarantines ORDER BY at, kind, value").map_err(sql_err)?;
    let targets: Vec<(String, String)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(sql_err)?
        .collect::<std::result::Result<_, _>>()
        .map_err(sql_err)?;
    let mut out = Vec::with_capacity(targets.len());
    for (kind, value) in targets {
        if let Some(t) = QuarantineTarget::from_parts(&kind, value) {
            out.extend(get_tx(c, &t)?);
        }
    }
    Ok(out)
}

pub(crate) fn held(
    c: &Connection,
    mask: i64,
    scopes: Option<&[String]>,
    after: &str,
    limit: usize,
) -> Result<Vec<Experience>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.held & ?1 != 0 AND e.id > ?2 \
             AND (?4 IS NULL OR e.scope IN (SELECT value FROM json_each(?4))) ORDER BY e.id LIMIT ?3"
        ))
        .map_err(sql_err)?;
    let scopes = crate::filter::scopes_json(scopes);
    let rows = st.query_map(params![mask, after, limit as i64, scopes], rows::from_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) async fn expire_due(s: &SqliteStore, now: &str) -> Result<u64> {
    let now = now.to_string();
    let changed = s
        .writer
        .run(move |c| {
            let cond = format!("expires_at IS NOT NULL AND expires_at <= ?1 AND held & {} = 0", hold::EXPIRED);
            let due = seqs_where(c, &cond, &now)?;
            c.execute(&crate::events::add_where("expired", "'system'", &cond), [&now]).map_err(sql_err)?;
            c.execute(&format!("UPDATE experiences SET held = held | {} WHERE {cond}", hold::EXPIRED), [&now])
                .map_err(sql_err)?;
            changes(c, &due)
        })
        .await?;
    let n = changed.len() as u64;
    apply(s, changed);
    Ok(n)
}

pub(crate) async fn set_expiry(s: &SqliteStore, id: &str, expires_at: Option<&str>, now: &str) -> Result<Experience> {
    let (id, expires_at, now) = (id.to_string(), expires_at.map(str::to_string), now.to_string());
    let (e, change) = s
        .writer
        .run(move |c| {
            let seq = rows::seq_of(c, &id)?;
            let expired = expires_at.as_deref().is_some_and(|t| t <= now.as_str());
            c.execute(
                &format!(
                    "UPDATE experiences SET expires_at = ?2, held = (held & ~{e}) | ?3, updated_at = ?4 WHERE seq = ?1",
                    e = hold::EXPIRED
                ),
                params![seq, expires_at, if expired { hold::EXPIRED } else { 0 }, now_rfc3339()],
            )
            .map_err(sql_err)?;
            let e = rows::get_by_seq(c, seq)?;
            Ok((e.clone(), IndexChange::of(seq, &e)))
        })
        .await?;
    index::apply(&s.inner, &change);
    Ok(e)
}
