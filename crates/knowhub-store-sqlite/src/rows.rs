//! Row <-> struct mapping for `experiences`, and the row readers every module shares: a record
//! by row number, and the confirmers and votes that go with it.

use knowhub_core::{
    hold, Confirmation, CoreError, Experience, FeedbackCounts, FeedbackOutcome, MessageRange, Outcome, Provenance,
    Result, ReviewMark, Source, Status, Vote,
};
use rusqlite::{Connection, OptionalExtension, Row};

use crate::db::sql_err;

/// Column `i` of a row as text borrowed from SQLite's row buffer (the index loads read millions
/// of rows, and copying each string was most of their time).
pub(crate) fn row_str<'a>(r: &'a rusqlite::Row<'_>, i: usize) -> Result<&'a str> {
    r.get_ref(i).map_err(sql_err)?.as_str().map_err(|e| CoreError::Internal(e.to_string()))
}

/// Column list every experience query selects, in `from_row` order.
pub(crate) const EXP_COLS: &str =
    "e.id, e.task, e.resource, e.result, e.score, e.outcome, e.agent_id, e.submitted_by, \
    e.session_key, e.source, e.status, e.confidence, e.language, e.content_hash, e.confirmations, e.created_at, \
    e.updated_at, EXISTS (SELECT 1 FROM contents c WHERE c.experience_id = e.id), e.source_from, e.source_to, \
    e.flags, e.review_by, e.review_at, e.review_note, e.resource_version, e.last_confirmed_at, e.helped, e.failed, \
    e.irrelevant, e.reviewed_failed, e.contested_with, e.scope, e.origin_key, e.origin_job, e.held, e.expires_at, \
    e.ttl_secs, e.origin_hub";

/// Number of columns in `EXP_COLS` (extra selected columns follow).
pub(crate) const EXP_NCOLS: usize = 38;

/// Flags and contest links are stored comma-separated (short identifiers and ids).
pub(crate) fn flags_text(flags: &[String]) -> String {
    flags.join(",")
}

fn list(s: String) -> Vec<String> {
    s.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect()
}

fn bad(col: &str, v: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, format!("bad {col} {v:?}").into())
}

pub(crate) fn from_row(r: &Row<'_>) -> rusqlite::Result<Experience> {
    let outcome: String = r.get(5)?;
    let source: String = r.get(9)?;
    let status: String = r.get(10)?;
    Ok(Experience {
        id: r.get(0)?,
        task: r.get(1)?,
        resource: r.get(2)?,
        result: r.get(3)?,
        score: r.get::<_, i64>(4)? as u8,
        outcome: Outcome::parse(&outcome).ok_or_else(|| bad("outcome", &outcome))?,
        agent_id: r.get(6)?,
        submitted_by: r.get(7)?,
        session_key: r.get(8)?,
        source: Source::parse(&source).ok_or_else(|| bad("source", &source))?,
        status: Status::parse(&status).ok_or_else(|| bad("status", &status))?,
        scope: r.get(31)?,
        confidence: r.get(11)?,
        language: r.get(12)?,
        content_hash: r.get(13)?,
        confirmations: r.get::<_, i64>(14)? as u32,
        created_at: r.get(15)?,
        updated_at: r.get(16)?,
        has_content: r.get(17)?,
        source_range: match (r.get::<_, Option<i64>>(18)?, r.get::<_, Option<i64>>(19)?) {
            (Some(from), Some(to)) => Some(MessageRange { from: from as u32, to: to as u32 }),
            _ => None,
        },
        flags: list(r.get(20)?),
        review: match (r.get::<_, Option<String>>(21)?, r.get::<_, Option<String>>(22)?) {
            (Some(by), Some(at)) => Some(ReviewMark { by, at, note: r.get(23)? }),
            _ => None,
        },
        resource_version: r.get(24)?,
        last_confirmed_at: r.get(25)?,
        feedback: FeedbackCounts {
            helped: r.get::<_, i64>(26)? as u32,
            failed: r.get::<_, i64>(27)? as u32,
            irrelevant: r.get::<_, i64>(28)? as u32,
            reviewed_failed: r.get::<_, i64>(29)? as u32,
        },
        contested_with: list(r.get(30)?),
        provenance: Provenance { key: r.get(32)?, job_id: r.get(33)?, hub: r.get(37)? },
        quarantined: r.get::<_, i64>(34)? & hold::QUARANTINED != 0,
        expired: r.get::<_, i64>(34)? & hold::EXPIRED != 0,
        expires_at: r.get(35)?,
        ttl_secs: r.get(36)?,
    })
}

pub(crate) fn seq_of(c: &Connection, id: &str) -> Result<i64> {
    c.prepare_cached("SELECT seq FROM experiences WHERE id = ?1")
        .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
        .map_err(sql_err)?
        .ok_or_else(|| knowhub_core::store::not_found(id))
}

pub(crate) fn votes(c: &Connection, seq: i64) -> Result<Vec<Vote>> {
    let mut st = c
        .prepare_cached("SELECT voter, outcome, note, at FROM votes WHERE seq = ?1 ORDER BY at DESC, voter")
        .map_err(sql_err)?;
    let rows = st
        .query_map([seq], |r| {
            let o: String = r.get(1)?;
            Ok(Vote {
                voter: r.get(0)?,
                outcome: FeedbackOutcome::parse(&o).ok_or_else(|| bad("outcome", &o))?,
                note: r.get(2)?,
                at: r.get(3)?,
            })
        })
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn confirmations(c: &Connection, seq: i64) -> Result<Vec<Confirmation>> {
    let mut st = c
        .prepare_cached("SELECT confirmer, at FROM confirmations WHERE seq = ?1 ORDER BY at, confirmer")
        .map_err(sql_err)?;
    let rows = st.query_map([seq], |r| Ok(Confirmation { by: r.get(0)?, at: r.get(1)? })).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn get_by_seq(c: &Connection, seq: i64) -> Result<Experience> {
    c.query_row(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.seq = ?1"), [seq], from_row)
        .map_err(|e| CoreError::Internal(format!("read back row {seq}: {e}")))
}
