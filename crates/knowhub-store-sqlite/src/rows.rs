//! Row <-> struct mapping for `experiences`.

use knowhub_core::{CoreError, Experience, ExportRecord, MessageRange, Outcome, Result, ReviewMark, Source, Status};
use rusqlite::{Connection, OptionalExtension, Row};

use crate::sql_err;

/// Column list every experience query selects, in `from_row` order.
pub(crate) const EXP_COLS: &str =
    "e.id, e.task, e.resource, e.result, e.score, e.outcome, e.agent_id, e.submitted_by, \
    e.session_key, e.source, e.status, e.confidence, e.language, e.content_hash, e.confirmations, e.created_at, \
    e.updated_at, EXISTS (SELECT 1 FROM contents c WHERE c.experience_id = e.id), e.source_from, e.source_to, \
    e.flags, e.review_by, e.review_at, e.review_note";

/// Flags are stored comma-separated (they are short identifiers).
pub(crate) fn flags_text(flags: &[String]) -> String {
    flags.join(",")
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
        flags: r.get::<_, String>(20)?.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect(),
        review: match (r.get::<_, Option<String>>(21)?, r.get::<_, Option<String>>(22)?) {
            (Some(by), Some(at)) => Some(ReviewMark { by, at, note: r.get(23)? }),
            _ => None,
        },
    })
}

pub(crate) fn get(c: &Connection, id: &str) -> Result<Option<Experience>> {
    c.query_row(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = ?1"), [id], from_row)
        .optional()
        .map_err(sql_err)
}

pub(crate) fn get_by_seq(c: &Connection, seq: i64) -> Result<Experience> {
    c.query_row(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.seq = ?1"), [seq], from_row)
        .map_err(|e| CoreError::Internal(format!("read back row {seq}: {e}")))
}

pub(crate) fn get_many(c: &Connection, ids: &[String]) -> Result<Vec<Experience>> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(500) {
        let marks = vec!["?"; chunk.len()].join(",");
        let mut st =
            c.prepare(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id IN ({marks})")).map_err(sql_err)?;
        let rows = st.query_map(rusqlite::params_from_iter(chunk.iter()), from_row).map_err(sql_err)?;
        for r in rows {
            out.push(r.map_err(sql_err)?);
        }
    }
    Ok(out)
}

pub(crate) fn export_page(c: &Connection, after: &str, limit: usize) -> Result<Vec<ExportRecord>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS}, c.content, c.content_type FROM experiences e LEFT JOIN contents c ON c.experience_id = e.id \
             WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"
        ))
        .map_err(sql_err)?;
    let rows = st
        .query_map(rusqlite::params![after, limit as i64], |r| {
            Ok(ExportRecord { experience: from_row(r)?, content: r.get(24)?, content_type: r.get(25)? })
        })
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
}
