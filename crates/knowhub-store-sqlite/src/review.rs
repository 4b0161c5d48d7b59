//! Review decisions on pending records and the review queue. Write paths run on the writer
//! thread (inside its savepoints).

use knowhub_core::review::{Decision, Review};
use knowhub_core::{now_rfc3339, store, text, CoreError, Experience, Result, Status};
use rusqlite::{params, Connection, OptionalExtension};

use crate::db::{sql_err, SqliteStore};
use crate::index::{self, IndexChange};
use crate::rows::{self, EXP_COLS};

/// Approves (possibly with edits) or rejects a pending record, and mirrors it in memory.
pub(crate) async fn review(s: &SqliteStore, id: &str, review: Review) -> Result<Experience> {
    let id = id.to_string();
    let (e, change) = s.writer.run(move |c| review_tx(c, &id, review)).await?;
    index::apply(&s.inner, &change);
    Ok(e)
}

pub(crate) fn review_tx(c: &Connection, id: &str, review: Review) -> Result<(Experience, IndexChange)> {
    let seq: i64 = c
        .query_row("SELECT seq FROM experiences WHERE id = ?1", [id], |r| r.get(0))
        .optional()
        .map_err(sql_err)?
        .ok_or_else(|| store::not_found(id))?;
    let cur = rows::get_by_seq(c, seq)?;
    let revising = matches!(review.decision, Decision::Revise(_));
    if revising && cur.status != Status::Approved {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not approved", cur.status)));
    }
    if !revising && cur.status != Status::Pending {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not pending", cur.status)));
    }
    // The source messages were kept for this review only.
    c.execute("DELETE FROM sources WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    let now = now_rfc3339();
    let mut body = None;
    match review.decision {
        Decision::Reject { reason } => {
            c.execute(
                "UPDATE experiences SET status = 'rejected', review_by = ?2, review_at = ?3, review_note = ?4, updated_at = ?3 \
                 WHERE seq = ?1",
                params![seq, review.reviewer, now, reason],
            )
            .map_err(sql_err)?;
        }
        Decision::Approve(edits) | Decision::Revise(edits) => {
            let task = edits.task.unwrap_or(cur.task.clone());
            let resource = edits.resource.unwrap_or(cur.resource.clone());
            let result = edits.result.unwrap_or(cur.result.clone());
            let score = edits.score.unwrap_or(cur.score);
            let outcome = edits.outcome.unwrap_or(cur.outcome);
            let hash = knowhub_core::scoped_hash(
                &cur.scope,
                text::content_hash(&task, &resource, &result, cur.resource_version.as_deref()),
            );
            if hash != cur.content_hash {
                let other: Option<String> = c
                    .query_row(
                        "SELECT id FROM experiences WHERE content_hash = ?1 AND seq != ?2",
                        params![hash, seq],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(sql_err)?;
                if let Some(other) = other {
                    return Err(CoreError::Conflict(format!(
                        "the edited experience would be identical to {other}; reject this one instead"
                    )));
                }
            }
            let search_text = knowhub_core::search_text(&task, &resource, &result);
            c.execute(
                "UPDATE experiences SET task = ?2, resource = ?3, result = ?4, score = ?5, outcome = ?6, content_hash = ?7, \
                 task_resource_hash = ?8, language = ?9, status = 'approved', review_by = ?10, review_at = ?11, \
                 review_note = NULL, updated_at = ?11, resource_key = ?12 WHERE seq = ?1",
                params![
                    seq,
                    task,
                    resource,
                    result,
                    score,
                    outcome.as_str(),
                    hash,
                    text::task_resource_hash(&task, &resource),
                    text::detect_language(&search_text),
                    review.reviewer,
                    now,
                    text::resource_key(&resource, cur.resource_version.as_deref())
                ],
            )
            .map_err(sql_err)?;
            if search_text != cur.search_text() {
                let old = crate::text::body(c, seq)?;
                let new = text::tokenize(&search_text).join(" ");
                c.execute("UPDATE experiences_fts SET body = ?2 WHERE rowid = ?1", params![seq, new])
                    .map_err(sql_err)?;
                // The old vector describes the old text: the embedding worker recomputes it.
                c.execute("DELETE FROM vectors WHERE seq = ?1", [seq]).map_err(sql_err)?;
                body = Some((old, Some(new)));
            }
        }
    }
    let e = rows::get_by_seq(c, seq)?;
    let change = IndexChange { body, ..IndexChange::of(seq, &e) };
    Ok((e, change))
}
pub(crate) fn pending(c: &Connection, scopes: Option<&[String]>, after: &str, limit: usize) -> Result<Vec<Experience>> {
    let mut st = c
        .prepare_cached(&format!(
            "SELECT {EXP_COLS} FROM experiences e WHERE e.status = 'pending' AND e.id > ?1 \
             AND (?3 IS NULL OR e.scope IN (SELECT value FROM json_each(?3))) ORDER BY e.id LIMIT ?2"
        ))
        .map_err(sql_err)?;
    let scopes = crate::filter::scopes_json(scopes);
    let rows = st.query_map(params![after, limit as i64, scopes], rows::from_row).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}
