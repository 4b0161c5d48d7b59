//! Row -> struct mapping for `experiences`, and the row readers every module shares: a record by
//! row number, and the confirmers and votes that go with it.

use knowhub_core::{
    hold, Confirmation, CoreError, Experience, FeedbackCounts, FeedbackOutcome, MessageRange, Outcome, Provenance,
    Result, ReviewMark, Source, Status, Vote,
};
use sqlx::postgres::PgRow;
use sqlx::{PgConnection, Row};

use crate::db::db_err;

/// Columns every experience query selects, in `experience` order (`seq` at 24, for updates).
pub(crate) const EXP_COLS: &str =
    "e.id, e.task, e.resource, e.result, e.score, e.outcome, e.agent_id, e.submitted_by, \
    e.session_key, e.source, e.status, e.confidence, e.language, e.content_hash, e.confirmations, e.created_at, \
    e.updated_at, EXISTS (SELECT 1 FROM contents c WHERE c.experience_id = e.id) AS has_content, e.source_from, \
    e.source_to, e.flags, e.review_by, e.review_at, e.review_note, e.seq, e.resource_version, e.last_confirmed_at, \
    e.helped, e.failed, e.irrelevant, e.reviewed_failed, e.contested_with, e.scope, e.origin_key, e.origin_job, \
    e.held, e.expires_at, e.ttl_secs, e.origin_hub";

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
    let n = |i: usize| -> Result<u32> { Ok(r.try_get::<i32, _>(i).map_err(db_err)?.max(0) as u32) };
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
        confirmations: n(14)?,
        resource_version: r.try_get(25).map_err(db_err)?,
        created_at: g(15)?,
        updated_at: g(16)?,
        last_confirmed_at: g(26)?,
        feedback: FeedbackCounts { helped: n(27)?, failed: n(28)?, irrelevant: n(29)?, reviewed_failed: n(30)? },
        contested_with: r.try_get(31).map_err(db_err)?,
        scope: g(32)?,
        provenance: Provenance { key: g(33)?, job_id: r.try_get(34).map_err(db_err)?, hub: g(38)? },
        quarantined: i64::from(r.try_get::<i32, _>(35).map_err(db_err)?) & hold::QUARANTINED != 0,
        expired: i64::from(r.try_get::<i32, _>(35).map_err(db_err)?) & hold::EXPIRED != 0,
        expires_at: r.try_get(36).map_err(db_err)?,
        ttl_secs: r.try_get(37).map_err(db_err)?,
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

fn vote(r: &PgRow) -> Result<Vote> {
    let o: String = r.try_get(2).map_err(db_err)?;
    Ok(Vote {
        voter: r.try_get(1).map_err(db_err)?,
        outcome: FeedbackOutcome::parse(&o).ok_or_else(|| bad("vote outcome", &o))?,
        note: r.try_get(3).map_err(db_err)?,
        at: r.try_get(4).map_err(db_err)?,
    })
}

/// The votes on the given records, newest first per record (ties by voter, in byte order as in
/// SQLite), as `(seq, vote)`.
pub(crate) async fn votes(conn: &mut PgConnection, seqs: &[i64]) -> Result<Vec<(i64, Vote)>> {
    let rs = sqlx::query(
        "SELECT seq, voter, outcome, note, at FROM votes WHERE seq = ANY($1) \
         ORDER BY seq, at COLLATE \"C\" DESC, voter COLLATE \"C\"",
    )
    .bind(seqs)
    .fetch_all(conn)
    .await
    .map_err(db_err)?;
    rs.iter().map(|r| Ok((r.try_get(0).map_err(db_err)?, vote(r)?))).collect()
}

/// The confirmers of the given records, oldest first per record, as `(seq, confirmation)`.
pub(crate) async fn confirmations(conn: &mut PgConnection, seqs: &[i64]) -> Result<Vec<(i64, Confirmation)>> {
    let rs = sqlx::query(
        "SELECT seq, confirmer, at FROM confirmations WHERE seq = ANY($1) \
         ORDER BY seq, at COLLATE \"C\", confirmer COLLATE \"C\"",
    )
    .bind(seqs)
    .fetch_all(conn)
    .await
    .map_err(db_err)?;
    rs.iter()
        .map(|r| {
            Ok((
                r.try_get(0).map_err(db_err)?,
                Confirmation { by: r.try_get(1).map_err(db_err)?, at: r.try_get(2).map_err(db_err)? },
            ))
        })
        .collect()
}

/// The record in row `seq` (which must exist: callers hold its lock or just wrote it).
pub(crate) async fn by_seq(conn: &mut PgConnection, seq: i64) -> Result<Experience> {
    let r = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.seq = $1")))
        .bind(seq)
        .fetch_one(conn)
        .await
        .map_err(db_err)?;
    experience(&r)
}

/// `(id, score)` rows, as candidate and score queries select them.
pub(crate) fn scored(rows: Vec<PgRow>) -> Result<Vec<(String, f64)>> {
    rows.iter().map(|r| Ok((r.try_get(0).map_err(db_err)?, r.try_get(1).map_err(db_err)?))).collect()
}
