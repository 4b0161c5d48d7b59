//! Records: submits (insert, with dedup on content decided by the database), imports, reads,
//! long content, counts and deletes.

use knowhub_core::store::ImportOutcome;
use knowhub_core::{
    hold, new_id, now_rfc3339, text as core_text, Content, CoreError, Experience, ExportRecord, History, InsertOutcome,
    NewExperience, Result, Status,
};
use sqlx::{AssertSqlSafe, PgPool, Row};

use crate::db::db_err;
use crate::rows::{self, Exp, EXP_COLS};
use crate::{evidence, text};

/// Parameters of one experience row, shared by insert and import.
struct RowValues {
    id: String,
    created: String,
    updated: String,
    language: &'static str,
    hash: String,
    tr_hash: String,
    body: String,
    resource_key: String,
    last_confirmed: String,
    /// What an import restores (empty for a new submit).
    history: History,
}

fn row_values(new: &NewExperience) -> RowValues {
    let now = now_rfc3339();
    let created = new.created_at.clone().unwrap_or_else(|| now.clone());
    let history = new.history.clone().unwrap_or_default();
    RowValues {
        id: new.id.clone().unwrap_or_else(new_id),
        last_confirmed: history.last_confirmed_at.clone().unwrap_or_else(|| created.clone()),
        created,
        updated: new.updated_at.clone().unwrap_or(now),
        language: core_text::detect_language(&new.search_text()),
        hash: new.content_hash(),
        tr_hash: new.task_resource_hash(),
        body: text::body(&new.task, &new.resource, &new.result),
        resource_key: new.resource_key(),
        history,
    }
}

/// The insert of a record; what a quarantined key ($32) or agent ($7) writes is held (the
/// `hold::QUARANTINED` bit, 1) like what it wrote before.
const INSERT_COLS: &str =
    "INSERT INTO experiences (id, task, resource, result, score, outcome, agent_id, submitted_by, \
    session_key, source, status, confidence, language, content_hash, task_resource_hash, confirmations, created_at, \
    updated_at, source_from, source_to, flags, review_by, review_at, review_note, tsv, resource_version, resource_key, \
    last_confirmed_at, reviewed_failed, contested_with, scope, origin_key, origin_job, expires_at, ttl_secs, held, \
    origin_hub) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25::tsvector,$26,\
    $27,$28,$29,$30,$31,$32,$33,$34,$35,\
    $36 | CASE WHEN EXISTS (SELECT 1 FROM quarantines q WHERE (q.kind = 'key' AND q.value = $32 AND $32 <> '') \
    OR (q.kind = 'agent' AND q.value = $7)) THEN 1 ELSE 0 END, $37)";

fn bind_row<'q>(
    q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    new: &'q NewExperience,
    v: &'q RowValues,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    q.bind(&v.id)
        .bind(&new.task)
        .bind(&new.resource)
        .bind(&new.result)
        .bind(new.score as i16)
        .bind(new.outcome.as_str())
        .bind(&new.agent_id)
        .bind(&new.submitted_by)
        .bind(&new.session_key)
        .bind(new.source.as_str())
        .bind(new.status.as_str())
        .bind(new.confidence)
        .bind(v.language)
        .bind(&v.hash)
        .bind(&v.tr_hash)
        .bind(new.confirmations.max(1) as i32)
        .bind(&v.created)
        .bind(&v.updated)
        .bind(new.source_range.map(|r| r.from as i32))
        .bind(new.source_range.map(|r| r.to as i32))
        .bind(&new.flags)
        .bind(new.review.as_ref().map(|r| r.by.clone()))
        .bind(new.review.as_ref().map(|r| r.at.clone()))
        .bind(new.review.as_ref().and_then(|r| r.note.clone()))
        .bind(&v.body)
        .bind(&new.resource_version)
        .bind(&v.resource_key)
        .bind(&v.last_confirmed)
        .bind(v.history.reviewed_failed.min(i32::MAX as u32) as i32)
        .bind(&v.history.contested_with)
        .bind(&new.scope)
        .bind(&new.provenance.key)
        .bind(&new.provenance.job_id)
        .bind(&new.expires_at)
        .bind(new.ttl_secs)
        .bind(if new.expires_at.as_deref().is_some_and(|t| t <= now_rfc3339().as_str()) {
            hold::EXPIRED as i32
        } else {
            0
        })
        .bind(&new.provenance.hub)
}

/// SQL over `experiences e`: the record's key or agent is under quarantine.
pub(crate) const QUARANTINED_WRITER: &str = "EXISTS (SELECT 1 FROM quarantines q WHERE \
    (q.kind = 'key' AND q.value = e.origin_key AND e.origin_key <> '') OR (q.kind = 'agent' AND q.value = e.agent_id))";

/// A record this transaction just inserted gets its history (an import) or its submitter as its
/// first confirmer, as in SQLite.
async fn first_evidence(conn: &mut sqlx::PgConnection, seq: i64, new: &NewExperience, v: &RowValues) -> Result<()> {
    match &new.history {
        Some(h) => evidence::restore(conn, seq, h).await,
        None => evidence::add_confirmer(conn, seq, &new.confirmer, &v.created).await.map(|_| ()),
    }
}

/// Stores a record's long content unless it already has some: a duplicate submit may bring the
/// content the first one lacked, and a new record gets its content in the same transaction.
async fn attach_content(conn: &mut sqlx::PgConnection, id: &str, content: &Option<(String, String)>) -> Result<()> {
    if let Some((content, ct)) = content {
        sqlx::query(
            "INSERT INTO contents (experience_id, content, content_type) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(content)
        .bind(ct)
        .execute(conn)
        .await
        .map_err(db_err)?;
    }
    Ok(())
}

/// Stores a new record, or adds the caller as a confirmer of the identical one already stored.
pub(crate) async fn insert(pool: &PgPool, new: NewExperience) -> Result<InsertOutcome> {
    let v = row_values(&new);
    let mut tx = pool.begin().await.map_err(db_err)?;
    // One statement decides insert vs. duplicate atomically, whichever replica wins. On a
    // duplicate the no-op update locks the existing row until commit, so that concurrent
    // confirmers of one record are counted one after another (see `evidence`).
    let sql = format!(
        "{INSERT_COLS} ON CONFLICT (content_hash) DO UPDATE SET updated_at = experiences.updated_at \
         RETURNING seq, id, (xmax = 0) AS inserted"
    );
    let r =
        bind_row(sqlx::query(AssertSqlSafe(sql)), &new, &v).fetch_one(&mut *tx).await.map_err(|e| match db_err(e) {
            CoreError::Conflict(_) => CoreError::Conflict(format!("experience {} already exists", v.id)),
            other => other,
        })?;
    let seq: i64 = r.try_get(0).map_err(db_err)?;
    let id: String = r.try_get(1).map_err(db_err)?;
    let inserted: bool = r.try_get(2).map_err(db_err)?;
    if inserted {
        first_evidence(&mut tx, seq, &new, &v).await?;
    } else {
        evidence::add_confirmer(&mut tx, seq, &new.confirmer, &now_rfc3339()).await?;
    }
    let e = rows::by_seq(&mut tx, seq).await?;
    // A duplicate may still bring the long content the first submit lacked, while a reviewer
    // has yet to see the record; an approved record's content never changes this way.
    let e = if inserted || e.status == knowhub_core::Status::Pending {
        attach_content(&mut tx, &id, &new.content).await?;
        rows::by_seq(&mut tx, seq).await?
    } else {
        e
    };
    tx.commit().await.map_err(db_err)?;
    Ok(if inserted { InsertOutcome::Created(e) } else { InsertOutcome::Duplicate(e) })
}

/// Stores an exported record as it was, unless its id or content is already here.
pub(crate) async fn import(pool: &PgPool, record: NewExperience) -> Result<ImportOutcome> {
    let v = row_values(&record);
    let mut tx = pool.begin().await.map_err(db_err)?;
    // No conflict target: an existing id or content hash both mean "already there".
    let sql = format!("{INSERT_COLS} ON CONFLICT DO NOTHING RETURNING seq, id");
    let row = bind_row(sqlx::query(AssertSqlSafe(sql)), &record, &v).fetch_optional(&mut *tx).await.map_err(db_err)?;
    let Some(row) = row else {
        return Ok(ImportOutcome::Skipped);
    };
    let seq: i64 = row.try_get(0).map_err(db_err)?;
    let id: String = row.try_get(1).map_err(db_err)?;
    attach_content(&mut tx, &id, &record.content).await?;
    first_evidence(&mut tx, seq, &record, &v).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(ImportOutcome::Inserted)
}

pub(crate) async fn get(pool: &PgPool, id: &str) -> Result<Option<Experience>> {
    let r = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = $1")))
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    r.as_ref().map(rows::experience).transpose()
}

pub(crate) async fn by_content_hash(pool: &PgPool, hash: &str) -> Result<Option<Experience>> {
    let r = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.content_hash = $1")))
        .bind(hash)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    r.as_ref().map(rows::experience).transpose()
}

pub(crate) async fn get_many(pool: &PgPool, ids: &[String]) -> Result<Vec<Experience>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rs = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = ANY($1)")))
        .bind(ids)
        .fetch_all(pool)
        .await
        .map_err(db_err)?;
    rs.iter().map(rows::experience).collect()
}

pub(crate) async fn content(pool: &PgPool, id: &str) -> Result<Option<Content>> {
    let r = sqlx::query("SELECT experience_id, content, content_type FROM contents WHERE experience_id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    r.map(|r| {
        Ok(Content {
            experience_id: r.try_get(0).map_err(db_err)?,
            content: r.try_get(1).map_err(db_err)?,
            content_type: r.try_get(2).map_err(db_err)?,
        })
    })
    .transpose()
}

/// Moves a record to another scope, where `hash` is its identity, and its vector with it (the
/// vector's row carries the scope that scoped vector search filters on). The record's row lock,
/// taken first, orders this against a vector being written meanwhile (`vectors::set`).
pub(crate) async fn set_scope(pool: &PgPool, id: &str, scope: &str, hash: &str) -> Result<Experience> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    let r = sqlx::query(AssertSqlSafe(format!(
        "UPDATE experiences e SET scope = $2, content_hash = $3, updated_at = $4 WHERE e.id = $1 RETURNING {EXP_COLS}"
    )))
    .bind(id)
    .bind(scope)
    .bind(hash)
    .bind(knowhub_core::now_rfc3339())
    .fetch_optional(&mut *tx)
    .await
    .map_err(|e| match db_err(e) {
        CoreError::Conflict(_) => CoreError::Conflict(format!("the same experience is already in scope {scope}")),
        other => other,
    })?;
    let Some(r) = r else { return Err(knowhub_core::store::not_found(id)) };
    sqlx::query("UPDATE vectors SET scope = $2 WHERE seq = (SELECT seq FROM experiences WHERE id = $1)")
        .bind(id)
        .bind(scope)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let e = crate::rows::experience(&r)?;
    tx.commit().await.map_err(db_err)?;
    Ok(e)
}

pub(crate) async fn set_content(pool: &PgPool, id: &str, content: &str, content_type: &str) -> Result<()> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    let n = sqlx::query("UPDATE experiences SET updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(knowhub_core::now_rfc3339())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    if n.rows_affected() == 0 {
        return Err(CoreError::NotFound(format!("experience {id}")));
    }
    sqlx::query(
        "INSERT INTO contents (experience_id, content, content_type) VALUES ($1, $2, $3) \
         ON CONFLICT (experience_id) DO UPDATE SET content = EXCLUDED.content, content_type = EXCLUDED.content_type",
    )
    .bind(id)
    .bind(content)
    .bind(content_type)
    .execute(&mut *tx)
    .await
    .map_err(db_err)?;
    tx.commit().await.map_err(db_err)
}

pub(crate) async fn count(pool: &PgPool) -> Result<u64> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM experiences").fetch_one(pool).await.map_err(db_err)?;
    Ok(n as u64)
}

pub(crate) async fn count_status(pool: &PgPool, status: Status, scopes: Option<&[String]>) -> Result<u64> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM experiences WHERE status = $1 AND ($2::text[] IS NULL OR scope = ANY($2::text[]))",
    )
    .bind(status.as_str())
    .bind(scopes)
    .fetch_one(pool)
    .await
    .map_err(db_err)?;
    Ok(n as u64)
}

/// Deletes a record; false if there was none.
pub(crate) async fn delete(pool: &PgPool, id: &str) -> Result<bool> {
    // Contents, vectors, confirmers and votes go with it (ON DELETE CASCADE); its history leaves
    // a tombstone alone.
    let mut tx = pool.begin().await.map_err(db_err)?;
    crate::events::writing(&mut tx).await?;
    let n = sqlx::query("DELETE FROM experiences WHERE id = $1").bind(id).execute(&mut *tx).await.map_err(db_err)?;
    if n.rows_affected() == 0 {
        return Ok(false);
    }
    crate::events::tombstone(&mut tx, id).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(true)
}

pub(crate) async fn export_page(pool: &PgPool, after: &str, limit: usize) -> Result<Vec<ExportRecord>> {
    // One snapshot for the records and their confirmers and votes, so counts and lists agree.
    let mut tx = pool.begin().await.map_err(db_err)?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let rs = sqlx::query(AssertSqlSafe(format!(
        "SELECT {EXP_COLS}, c.content, c.content_type FROM experiences e LEFT JOIN contents c ON c.experience_id = e.id \
         WHERE e.id > $1 ORDER BY e.id LIMIT $2"
    )))
    .bind(after)
    .bind(limit as i64)
    .fetch_all(&mut *tx)
    .await
    .map_err(db_err)?;
    let mut out = Vec::with_capacity(rs.len());
    let mut at = std::collections::HashMap::with_capacity(rs.len());
    for r in &rs {
        let Exp { seq, e } = rows::exp_with_seq(r)?;
        at.insert(seq, out.len());
        out.push(ExportRecord {
            experience: e,
            content: r.try_get("content").map_err(db_err)?,
            content_type: r.try_get("content_type").map_err(db_err)?,
            confirmed_by: Vec::new(),
            votes: Vec::new(),
        });
    }
    let seqs: Vec<i64> = at.keys().copied().collect();
    if !seqs.is_empty() {
        for (seq, c) in rows::confirmations(&mut tx, &seqs).await? {
            out[at[&seq]].confirmed_by.push(c);
        }
        for (seq, v) in rows::votes(&mut tx, &seqs).await? {
            out[at[&seq]].votes.push(v);
        }
    }
    tx.commit().await.map_err(db_err)?;
    Ok(out)
}
