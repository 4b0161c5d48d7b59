//! Review decisions on pending records and the review queue.

use knowhub_core::review::{Decision, Review};
use knowhub_core::store::not_found;
use knowhub_core::{now_rfc3339, text as core_text, CoreError, Experience, Result, Status};
use sqlx::{AssertSqlSafe, PgPool};

use crate::db::db_err;
use crate::rows::{self, Exp, EXP_COLS};
use crate::text;

/// Approves (possibly with edits) or rejects a pending record.
pub(crate) async fn review(pool: &PgPool, id: &str, review: Review) -> Result<Experience> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    // The row lock makes a concurrent second review wait, then see it is no longer pending.
    let row = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = $1 FOR UPDATE")))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(db_err)?;
    let Some(row) = row else { return Err(not_found(id)) };
    let cur: Exp = rows::exp_with_seq(&row)?;
    let revising = matches!(review.decision, Decision::Revise(_));
    if revising && cur.e.status != Status::Approved {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not approved", cur.e.status)));
    }
    if !revising && cur.e.status != Status::Pending {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not pending", cur.e.status)));
    }
    // The source messages were kept for this review only.
    sqlx::query("DELETE FROM sources WHERE experience_id = $1").bind(id).execute(&mut *tx).await.map_err(db_err)?;
    let now = now_rfc3339();
    match review.decision {
        Decision::Reject { reason } => {
            sqlx::query(
                "UPDATE experiences SET status = 'rejected', review_by = $2, review_at = $3, review_note = $4, \
                 updated_at = $3 WHERE seq = $1",
            )
            .bind(cur.seq)
            .bind(&review.reviewer)
            .bind(&now)
            .bind(reason)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        Decision::Approve(edits) | Decision::Revise(edits) => {
            let e = &cur.e;
            let task = edits.task.clone().unwrap_or_else(|| e.task.clone());
            let resource = edits.resource.clone().unwrap_or_else(|| e.resource.clone());
            let result = edits.result.clone().unwrap_or_else(|| e.result.clone());
            let text_changed = task != e.task || resource != e.resource || result != e.result;
            let hash = knowhub_core::scoped_hash(
                &e.scope,
                core_text::content_hash(&task, &resource, &result, e.resource_version.as_deref()),
            );
            if hash != e.content_hash {
                let other: Option<String> =
                    sqlx::query_scalar("SELECT id FROM experiences WHERE content_hash = $1 AND seq <> $2")
                        .bind(&hash)
                        .bind(cur.seq)
                        .fetch_optional(&mut *tx)
                        .await
                        .map_err(db_err)?;
                if let Some(other) = other {
                    return Err(CoreError::Conflict(format!("the edits make {id} identical to experience {other}")));
                }
            }
            let search = knowhub_core::search_text(&task, &resource, &result);
            sqlx::query(
                "UPDATE experiences SET task = $2, resource = $3, result = $4, score = $5, outcome = $6, \
                 content_hash = $7, task_resource_hash = $8, language = $9, tsv = $10::tsvector, status = 'approved', \
                 review_by = $11, review_at = $12, review_note = NULL, updated_at = $12, resource_key = $13 \
                 WHERE seq = $1",
            )
            .bind(cur.seq)
            .bind(&task)
            .bind(&resource)
            .bind(&result)
            .bind(edits.score.unwrap_or(e.score) as i16)
            .bind(edits.outcome.unwrap_or(e.outcome).as_str())
            .bind(&hash)
            .bind(core_text::task_resource_hash(&task, &resource))
            .bind(core_text::detect_language(&search))
            .bind(text::body(&task, &resource, &result))
            .bind(&review.reviewer)
            .bind(&now)
            .bind(core_text::resource_key(&resource, e.resource_version.as_deref()))
            .execute(&mut *tx)
            .await
            .map_err(|err| match db_err(err) {
                CoreError::Conflict(_) => {
                    CoreError::Conflict(format!("the edits make {id} identical to another experience"))
                }
                other => other,
            })?;
            if text_changed {
                // The embedding worker picks it up again through `missing_vectors`.
                sqlx::query("DELETE FROM vectors WHERE seq = $1")
                    .bind(cur.seq)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
        }
    }
    let e = rows::by_seq(&mut tx, cur.seq).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(e)
}

pub(crate) async fn pending(
    pool: &PgPool,
    scopes: Option<&[String]>,
    after: &str,
    limit: usize,
) -> Result<Vec<Experience>> {
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {EXP_COLS} FROM experiences e WHERE e.status = 'pending' AND e.id > $1 \
         AND ($3::text[] IS NULL OR e.scope = ANY($3::text[])) ORDER BY e.id LIMIT $2"
    )))
    .bind(after)
    .bind(limit as i64)
    .bind(scopes)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter().map(rows::experience).collect()
}
