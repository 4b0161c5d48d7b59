//! Row -> struct mapping for `experiences`.

use knowhub_core::{CoreError, Experience, MessageRange, Outcome, Result, ReviewMark, Source, Status};
use sqlx::postgres::PgRow;
use sqlx::Row;

use crate::db_err;

/// Columns every experience query selects, in `experience` order (`seq` last, for updates).
pub(crate) const EXP_COLS: &str =
    "e.id, e.task, e.resource, e.result, e.score, e.outcome, e.agent_id, e.submitted_by, \
    e.session_key, e.source, e.status, e.confidence, e.language, e.content_hash, e.confirmations, e.created_at, \
    e.updated_at, EXISTS (SELECT 1 FROM contents c WHERE c.experience_id = e.id) AS has_content, e.source_from, \
    e.source_to, e.flags, e.review_by, e.review_at, e.review_note, e.seq";

/// An experience with its row number.
pub(crate) struct Exp {
    pub seq: i64,
    pub e: Experience,
}

fn bad(col: &str, v: &str) -> CoreError {
    CoreError::Internal(format!("postgres: bad {col} {v:?}"))
}

pub(crate) fn experience(r: &PgRow) -> Result<Experience> {
    let g = |i: usize| -> Result<String> { r.try_get::<String, _>(i).map_err(db_err) };
    let outcome = g(5)?;
    let source = g(9)?;
    let status = g(10)?;
    let from: Option<i32> = r.try_get(18).map_err(db_err)?;
    let to: Option<i32> = r.try_get(19).map_err(db_err)?;
    let review_by: Option<String> = r.try_get(21).map_err(db_err)?;
    let review_at: Option<String> = r.try_get(22).map_err(db_err)?;
    Ok(Experience {
        id: g(0)?,
        task: g(1)?,
        resource: g(2)?,
        result: g(3)?,
        score: r.try_get::<i16, _>(4).map_err(db_err)? as u8,
        outcome: Outcome::parse(&outcome).ok_or_else(|| bad("outcome", &outcome))?,
        agent_id: g(6)?,
        submitted_by: g(7)?,
        session_key: r.try_get(8).map_err(db_err)?,
        source: Source::parse(&source).ok_or_else(|| bad("source", &source))?,
        status: Status::parse(&status).ok_or_else(|| bad("status", &status))?,
        confidence: r.try_get(11).map_err(db_err)?,
        language: g(12)?,
        content_hash: g(13)?,
        confirmations: r.try_get::<i32, _>(14).map_err(db_err)? as u32,
        created_at: g(15)?,
        updated_at: g(16)?,
        has_content: r.try_get(17).map_err(db_err)?,
        source_range: match (from, to) {
            (Some(f), Some(t)) => Some(MessageRange { from: f as u32, to: t as u32 }),
            _ => None,
        },
        flags: r.try_get(20).map_err(db_err)?,
        review: match (review_by, review_at) {
            (Some(by), Some(at)) => Some(ReviewMark { by, at, note: r.try_get(23).map_err(db_err)? }),
            _ => None,
        },
    })
}

pub(crate) fn exp_with_seq(r: &PgRow) -> Result<Exp> {
    Ok(Exp { seq: r.try_get(24).map_err(db_err)?, e: experience(r)? })
}
