//! Evidence on records: distinct confirmers, outcome votes, contests and dispute decisions.
//! Write paths run on the writer thread (inside its savepoints), so counts and rows change
//! together.

use knowhub_core::store::{self, NeighbourRow};
use knowhub_core::{
    now_rfc3339, DisputeDecision, Experience, FeedbackOutcome, History, Neighbour, NeighbourQuery, Result, Status, Vote,
};
use rusqlite::{params, Connection};

use crate::db::{sql_err, SqliteStore};
use crate::index::{self, IndexChange};
use crate::rows::{self, EXP_COLS};

/// Adds a distinct confirmer; returns whether it was new (then the count and
/// `last_confirmed_at` move too).
pub(crate) fn add_confirmer(c: &Connection, seq: i64, confirmer: &str, at: &str) -> Result<bool> {
    let who = if confirmer.trim().is_empty() { "anonymous" } else { confirmer.trim() };
    let n = c
        .prepare_cached("INSERT OR IGNORE INTO confirmations (seq, confirmer, at) VALUES (?1, ?2, ?3)")
        .and_then(|mut st| st.execute(params![seq, who, at]))
        .map_err(sql_err)?;
    if n > 0 {
        c.prepare_cached(
            "UPDATE experiences SET confirmations = (SELECT COUNT(*) FROM confirmations WHERE seq = ?1), \
             last_confirmed_at = MAX(last_confirmed_at, ?2), updated_at = ?3 WHERE seq = ?1",
        )
        .and_then(|mut st| st.execute(params![seq, at, now_rfc3339()]))
        .map_err(sql_err)?;
    }
    Ok(n > 0)
}

/// An imported record's confirmers and votes, with the counts they imply.
pub(crate) fn restore(c: &Connection, seq: i64, h: &History) -> Result<()> {
    for k in &h.confirmed_by {
        c.prepare_cached("INSERT OR IGNORE INTO confirmations (seq, confirmer, at) VALUES (?1, ?2, ?3)")
            .and_then(|mut st| st.execute(params![seq, k.by, k.at]))
            .map_err(sql_err)?;
    }
    for v in &h.votes {
        c.prepare_cached("INSERT OR REPLACE INTO votes (seq, voter, outcome, note, at) VALUES (?1, ?2, ?3, ?4, ?5)")
            .and_then(|mut st| st.execute(params![seq, v.voter, v.outcome.as_str(), v.note, v.at]))
            .map_err(sql_err)?;
    }
    // Records exported before confirmers were kept bring none: their count stays as exported.
    if !h.confirmed_by.is_empty() {
        c.execute(
            "UPDATE experiences SET confirmations = (SELECT COUNT(*) FROM confirmations WHERE seq = ?1) WHERE seq = ?1",
            [seq],
        )
        .map_err(sql_err)?;
    }
    recount_votes(c, seq)
}

fn recount_votes(c: &Connection, seq: i64) -> Result<()> {
    c.prepare_cached(
        "UPDATE experiences SET \
         helped = (SELECT COUNT(*) FROM votes WHERE seq = ?1 AND outcome = 'helped'), \
         failed = (SELECT COUNT(*) FROM votes WHERE seq = ?1 AND outcome = 'failed'), \
         irrelevant = (SELECT COUNT(*) FROM votes WHERE seq = ?1 AND outcome = 'irrelevant') WHERE seq = ?1",
    )
    .and_then(|mut st| st.execute([seq]))
    .map_err(sql_err)?;
    Ok(())
}

pub(crate) fn confirm_tx(c: &Connection, id: &str, confirmer: &str) -> Result<Experience> {
    let seq = rows::seq_of(c, id)?;
    add_confirmer(c, seq, confirmer, &now_rfc3339())?;
    rows::get_by_seq(c, seq)
}

/// Every record with the resource key that is not rejected, as `(id, seq, same task)`: the
/// key's index finds them; their vectors are scored in the in-memory index (`neighbours`).
fn resource_rows(c: &Connection, key: &str, task_hash: &str, scope: &str) -> Result<Vec<(String, i64, bool)>> {
    // The unary `+` keeps the planner on the resource key's index: without statistics it took
    // the (scope, status) index, which in a hub with one scope reads every record per submit.
    let mut st = c
        .prepare_cached(
            "SELECT e.id, e.seq, e.task_resource_hash = ?2 FROM experiences e \
             WHERE e.resource_key = ?1 AND +e.status != 'rejected' AND +e.scope = ?3",
        )
        .map_err(sql_err)?;
    let rows =
        st.query_map(params![key, task_hash, scope], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

/// `Store::resource_neighbours`: the key's records from SQL, their cosines from the in-memory
/// index (int8 codes against the f32 query, within ~1e-3), the chosen rows loaded.
pub(crate) async fn neighbours(s: &SqliteStore, q: &NeighbourQuery) -> Result<Vec<Neighbour>> {
    let (key, hash, scope) = (q.resource_key.clone(), q.task_resource_hash.clone(), q.scope.clone());
    let rows = s.read(move |c| resource_rows(c, &key, &hash, &scope)).await?;
    let mut cosines = std::collections::HashMap::new();
    if !q.model.is_empty() && !q.vector.is_empty() {
        let index = s.inner.index.read();
        if index.model() == q.model {
            let ids: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
            let qn = knowhub_core::store::block_norms(&q.vector);
            cosines = index.score_ids(&q.vector, &ids).into_iter().map(|(id, b)| (id, b.cosine(&qn))).collect();
        }
    }
    let rows = rows
        .into_iter()
        .map(|(id, seq, same_task)| NeighbourRow { cosine: cosines.get(&id).copied(), id, seq, same_task })
        .collect();
    let picked = store::pick_neighbours(rows, q);
    if picked.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = picked.iter().map(|p| p.0.clone()).collect();
    let records = s.read(move |c| crate::records::get_many(c, &ids)).await?;
    Ok(store::order_neighbours(&picked, records))
}

pub(crate) fn by_resource_key(c: &Connection, key: &str, limit: usize) -> Result<Vec<Experience>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.resource_key = ?1 AND e.status != 'rejected' \
             ORDER BY e.seq LIMIT ?2"
        ))
        .map_err(sql_err)?;
    let rows = st.query_map(params![key, limit as i64], rows::from_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn contest_tx(c: &Connection, a: &str, b: &str) -> Result<()> {
    for (x, y) in [(a, b), (b, a)] {
        let seq = rows::seq_of(c, x)?;
        let cur = rows::get_by_seq(c, seq)?;
        if !cur.contested_with.iter().any(|o| o == y) {
            let mut all = cur.contested_with;
            all.push(y.to_string());
            c.execute(
                "UPDATE experiences SET contested_with = ?2 WHERE seq = ?1",
                params![seq, rows::flags_text(&all)],
            )
            .map_err(sql_err)?;
        }
    }
    Ok(())
}

pub(crate) fn vote_tx(c: &Connection, id: &str, vote: Vote) -> Result<Experience> {
    let seq = rows::seq_of(c, id)?;
    let cur = rows::get_by_seq(c, seq)?;
    if cur.status != Status::Approved {
        return Err(knowhub_core::CoreError::Conflict(format!(
            "experience {id} is {}: only approved experiences take feedback",
            cur.status
        )));
    }
    c.prepare_cached("INSERT OR REPLACE INTO votes (seq, voter, outcome, note, at) VALUES (?1, ?2, ?3, ?4, ?5)")
        .and_then(|mut st| st.execute(params![seq, vote.voter, vote.outcome.as_str(), vote.note, vote.at]))
        .map_err(sql_err)?;
    recount_votes(c, seq)?;
    if vote.outcome == FeedbackOutcome::Helped {
        c.execute(
            "UPDATE experiences SET last_confirmed_at = MAX(last_confirmed_at, ?2) WHERE seq = ?1",
            params![seq, vote.at],
        )
        .map_err(sql_err)?;
    }
    rows::get_by_seq(c, seq)
}

pub(crate) fn votes_of(c: &Connection, id: &str) -> Result<Vec<Vote>> {
    rows::votes(c, rows::seq_of(c, id)?)
}

/// SQL for `FeedbackCounts::disputed` (`?1` = threshold).
const DISPUTED: &str =
    "e.status = 'approved' AND ?1 > 0 AND e.failed - e.reviewed_failed >= ?1 AND e.failed > e.helped";

pub(crate) fn disputed(
    c: &Connection,
    threshold: u32,
    scopes: Option<&[String]>,
    after: &str,
    limit: usize,
) -> Result<Vec<Experience>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.failed > 0 AND {DISPUTED} AND e.id > ?2 \
             AND (?4 IS NULL OR e.scope IN (SELECT value FROM json_each(?4))) ORDER BY e.id LIMIT ?3"
        ))
        .map_err(sql_err)?;
    let scopes = crate::filter::scopes_json(scopes);
    let rows = st.query_map(params![threshold, after, limit as i64, scopes], rows::from_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

/// `scopes`: a JSON array (`filter::scopes_json`), or `None` for every scope.
pub(crate) fn count_disputed(c: &Connection, threshold: u32, scopes: Option<&str>) -> Result<u64> {
    c.query_row(
        &format!(
            "SELECT COUNT(*) FROM experiences e WHERE e.failed > 0 AND {DISPUTED} \
             AND (?2 IS NULL OR e.scope IN (SELECT value FROM json_each(?2)))"
        ),
        rusqlite::params![threshold, scopes],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as u64)
    .map_err(sql_err)
}

/// Keeps or rejects a disputed record, and mirrors a rejection in memory.
pub(crate) async fn resolve(
    s: &SqliteStore,
    id: &str,
    decision: DisputeDecision,
    reviewer: &str,
) -> Result<Experience> {
    let (id, who) = (id.to_string(), reviewer.to_string());
    let (e, change) = s.writer.run(move |c| resolve_tx(c, &id, decision, &who)).await?;
    if let Some(ch) = &change {
        index::apply(&s.inner, ch);
    }
    Ok(e)
}

pub(crate) fn resolve_tx(
    c: &Connection,
    id: &str,
    decision: DisputeDecision,
    reviewer: &str,
) -> Result<(Experience, Option<IndexChange>)> {
    let seq = rows::seq_of(c, id)?;
    let cur = rows::get_by_seq(c, seq)?;
    if cur.status != Status::Approved {
        return Err(knowhub_core::CoreError::Conflict(format!("experience {id} is {}, not approved", cur.status)));
    }
    let now = now_rfc3339();
    let change = match decision {
        DisputeDecision::Keep => {
            c.execute(
                "UPDATE experiences SET reviewed_failed = failed, review_by = ?2, review_at = ?3, review_note = NULL, \
                 updated_at = ?3 WHERE seq = ?1",
                params![seq, reviewer, now],
            )
            .map_err(sql_err)?;
            None
        }
        DisputeDecision::Reject { reason } => {
            c.execute(
                "UPDATE experiences SET status = 'rejected', review_by = ?2, review_at = ?3, review_note = ?4, \
                 updated_at = ?3 WHERE seq = ?1",
                params![seq, reviewer, now, reason],
            )
            .map_err(sql_err)?;
            Some(IndexChange { status: Status::Rejected, ..IndexChange::of(seq, &cur) })
        }
    };
    Ok((rows::get_by_seq(c, seq)?, change))
}
