//! Records: submits (insert, with dedup on content), imports, reads, long content, counts and
//! deletes. Write paths run on the writer thread (inside its savepoints); the in-memory indexes
//! learn of a change only once it is committed.

use knowhub_core::store::ImportOutcome;
use knowhub_core::{
    hold, new_id, now_rfc3339, text, Content, CoreError, Experience, ExportRecord, InsertOutcome, NewExperience,
    Result, Status,
};
use rusqlite::{params, Connection, OptionalExtension};

use crate::db::{sql_err, SqliteStore};
use crate::index::{self, IndexChange};
use crate::rows::{self, from_row, EXP_COLS, EXP_NCOLS};

/// SQL over `experiences` (unaliased): the record's key or agent is under quarantine.
pub(crate) const QUARANTINED_WRITER: &str = "EXISTS (SELECT 1 FROM quarantines q WHERE \
    (q.kind = 'key' AND q.value = experiences.origin_key AND experiences.origin_key != '') \
    OR (q.kind = 'agent' AND q.value = experiences.agent_id))";

/// Stores a new record, or adds the caller as a confirmer of the identical one already stored.
pub(crate) async fn insert(s: &SqliteStore, new: NewExperience) -> Result<InsertOutcome> {
    let body = text::tokenize(&new.search_text()).join(" ");
    let b = body.clone();
    let (out, seq) = s.writer.run(move |c| insert_tx(c, new, &b)).await?;
    if let (Some(seq), InsertOutcome::Created(e)) = (seq, &out) {
        if let Some(t) = s.inner.terms.write().as_mut() {
            t.add(seq, &e.id, &body, index::Facets::of(e));
        }
    }
    Ok(out)
}

/// Stores an exported record as it was, unless its id or content is already here.
pub(crate) async fn import(s: &SqliteStore, record: NewExperience) -> Result<ImportOutcome> {
    let body = text::tokenize(&record.search_text()).join(" ");
    let b = body.clone();
    let (out, row) = s.writer.run(move |c| import_tx(c, record, &b)).await?;
    if let Some((seq, e)) = row {
        if let Some(t) = s.inner.terms.write().as_mut() {
            t.add(seq, &e.id, &body, index::Facets::of(&e));
        }
    }
    Ok(out)
}

/// Deletes a record with its text, vector, content and sources; false if there was none.
pub(crate) async fn delete(s: &SqliteStore, id: &str) -> Result<bool> {
    let id = id.to_string();
    let change = s.writer.run(move |c| delete_tx(c, &id)).await?;
    if let Some(ch) = &change {
        index::apply(&s.inner, ch);
    }
    Ok(change.is_some())
}

fn insert_row(c: &Connection, new: &NewExperience, hash: &str, body: &str) -> Result<(i64, String)> {
    let now = now_rfc3339();
    let id = new.id.clone().unwrap_or_else(new_id);
    let created = new.created_at.clone().unwrap_or_else(|| now.clone());
    let updated = new.updated_at.clone().unwrap_or_else(|| now.clone());
    let history = new.history.clone().unwrap_or_default();
    let last_confirmed = history.last_confirmed_at.clone().unwrap_or_else(|| created.clone());
    let language = text::detect_language(&new.search_text());
    // What a quarantined key (?31) or agent (?7) writes is held like what it wrote before.
    c.prepare_cached(&format!(
        "INSERT INTO experiences (id, task, resource, result, score, outcome, agent_id, submitted_by, session_key, source, status, \
         confidence, language, content_hash, confirmations, created_at, updated_at, task_resource_hash, source_from, source_to, \
         flags, review_by, review_at, review_note, resource_version, resource_key, last_confirmed_at, reviewed_failed, \
         contested_with, scope, origin_key, origin_job, expires_at, ttl_secs, held, origin_hub) VALUES (?1,?2,?3,?4,?5,?6,?7,\
         ?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,?32,?33,?34,\
         ?35 | CASE WHEN EXISTS (SELECT 1 FROM quarantines q WHERE (q.kind = 'key' AND q.value = ?31 AND ?31 != '') \
         OR (q.kind = 'agent' AND q.value = ?7)) THEN {} ELSE 0 END, ?36)",
        hold::QUARANTINED
    ))
    .and_then(|mut st| {
        st.execute(params![
            id,
            new.task,
            new.resource,
            new.result,
            new.score,
            new.outcome.as_str(),
            new.agent_id,
            new.submitted_by,
            new.session_key,
            new.source.as_str(),
            new.status.as_str(),
            new.confidence,
            language,
            hash,
            new.confirmations.max(1),
            created,
            updated,
            new.task_resource_hash(),
            new.source_range.map(|r| r.from),
            new.source_range.map(|r| r.to),
            rows::flags_text(&new.flags),
            new.review.as_ref().map(|r| r.by.as_str()),
            new.review.as_ref().map(|r| r.at.as_str()),
            new.review.as_ref().and_then(|r| r.note.as_deref()),
            new.resource_version,
            new.resource_key(),
            last_confirmed,
            history.reviewed_failed,
            rows::flags_text(&history.contested_with),
            new.scope,
            new.provenance.key,
            new.provenance.job_id,
            new.expires_at,
            new.ttl_secs,
            if new.expires_at.as_deref().is_some_and(|t| t <= now.as_str()) { hold::EXPIRED } else { 0 },
            new.provenance.hub,
        ])
    })
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            CoreError::Conflict(format!("experience {id} already exists"))
        }
        other => sql_err(other),
    })?;
    let seq = c.last_insert_rowid();
    c.prepare_cached("INSERT INTO experiences_fts (rowid, body) VALUES (?1, ?2)")
        .and_then(|mut st| st.execute(params![seq, body]))
        .map_err(sql_err)?;
    if let Some((content, ct)) = &new.content {
        c.prepare_cached("INSERT INTO contents (experience_id, content, content_type) VALUES (?1, ?2, ?3)")
            .and_then(|mut st| st.execute(params![id, content, ct]))
            .map_err(sql_err)?;
    }
    match new.history {
        // An import restores its confirmers and votes as exported.
        Some(_) => crate::evidence::restore(c, seq, &history)?,
        None => {
            crate::evidence::add_confirmer(c, seq, &new.confirmer, &created)?;
        }
    }
    Ok((seq, id))
}

fn seq_by_hash(c: &Connection, hash: &str) -> Result<Option<i64>> {
    c.prepare_cached("SELECT seq FROM experiences WHERE content_hash = ?1")
        .and_then(|mut st| st.query_row([hash], |r| r.get(0)).optional())
        .map_err(sql_err)
}

fn insert_tx(c: &Connection, new: NewExperience, body: &str) -> Result<(InsertOutcome, Option<i64>)> {
    let hash = new.content_hash();
    if let Some(seq) = seq_by_hash(c, &hash)? {
        crate::evidence::add_confirmer(c, seq, &new.confirmer, &now_rfc3339())?;
        // A duplicate may still bring the long content the first submit lacked, while a reviewer
        // has yet to see the record; an approved record's content never changes this way.
        if let Some((content, ct)) = &new.content {
            c.execute(
                "INSERT OR IGNORE INTO contents (experience_id, content, content_type) \
                 SELECT id, ?2, ?3 FROM experiences WHERE seq = ?1 AND status = 'pending'",
                params![seq, content, ct],
            )
            .map_err(sql_err)?;
        }
        return Ok((InsertOutcome::Duplicate(rows::get_by_seq(c, seq)?), None));
    }
    let (seq, _) = insert_row(c, &new, &hash, body)?;
    Ok((InsertOutcome::Created(rows::get_by_seq(c, seq)?), Some(seq)))
}

fn import_tx(c: &Connection, new: NewExperience, body: &str) -> Result<(ImportOutcome, Option<(i64, Experience)>)> {
    let hash = new.content_hash();
    if let Some(id) = &new.id {
        let exists: Option<i64> = c
            .prepare_cached("SELECT 1 FROM experiences WHERE id = ?1")
            .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
            .map_err(sql_err)?;
        if exists.is_some() {
            return Ok((ImportOutcome::Skipped, None));
        }
    }
    if seq_by_hash(c, &hash)?.is_some() {
        return Ok((ImportOutcome::Skipped, None));
    }
    let (seq, _) = insert_row(c, &new, &hash, body)?;
    Ok((ImportOutcome::Inserted, Some((seq, rows::get_by_seq(c, seq)?))))
}

pub(crate) fn delete_tx(c: &Connection, id: &str) -> Result<Option<IndexChange>> {
    let Some((seq, score, agent_id, scope)) = c
        .query_row("SELECT seq, score, agent_id, scope FROM experiences WHERE id = ?1", [id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
        })
        .optional()
        .map_err(sql_err)?
    else {
        return Ok(None);
    };
    let old = crate::text::body(c, seq)?;
    c.execute("DELETE FROM experiences_fts WHERE rowid = ?1", [seq]).map_err(sql_err)?;
    c.execute("DELETE FROM vectors WHERE seq = ?1", [seq]).map_err(sql_err)?;
    c.execute("DELETE FROM contents WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    c.execute("DELETE FROM sources WHERE experience_id = ?1", [id]).map_err(sql_err)?;
    c.execute("DELETE FROM experiences WHERE seq = ?1", [seq]).map_err(sql_err)?;
    crate::events::tombstone_tx(c, id)?;
    Ok(Some(IndexChange {
        seq,
        id: id.to_string(),
        score: score as u8,
        status: Status::Rejected,
        agent_id,
        scope,
        held: true,
        body: Some((old, None)),
    }))
}

pub(crate) fn get(c: &Connection, id: &str) -> Result<Option<Experience>> {
    c.query_row(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = ?1"), [id], from_row)
        .optional()
        .map_err(sql_err)
}

pub(crate) fn by_content_hash(c: &Connection, hash: &str) -> Result<Option<Experience>> {
    c.query_row(&format!("SELECT {EXP_COLS} FROM experiences e WHERE e.content_hash = ?1"), [hash], from_row)
        .optional()
        .map_err(sql_err)
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
            "SELECT {EXP_COLS}, c.content, c.content_type, e.seq FROM experiences e \
             LEFT JOIN contents c ON c.experience_id = e.id WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"
        ))
        .map_err(sql_err)?;
    let rows = st
        .query_map(rusqlite::params![after, limit as i64], |r| {
            let rec = ExportRecord {
                experience: from_row(r)?,
                content: r.get(EXP_NCOLS)?,
                content_type: r.get(EXP_NCOLS + 1)?,
                confirmed_by: Vec::new(),
                votes: Vec::new(),
            };
            Ok((rec, r.get::<_, i64>(EXP_NCOLS + 2)?))
        })
        .map_err(sql_err)?;
    let mut out = Vec::new();
    for row in rows {
        let (mut rec, seq) = row.map_err(sql_err)?;
        rec.confirmed_by = rows::confirmations(c, seq)?;
        rec.votes = rows::votes(c, seq)?;
        out.push(rec);
    }
    Ok(out)
}

pub(crate) fn content(c: &Connection, id: &str) -> Result<Option<Content>> {
    c.query_row("SELECT experience_id, content, content_type FROM contents WHERE experience_id = ?1", [id], |r| {
        Ok(Content { experience_id: r.get(0)?, content: r.get(1)?, content_type: r.get(2)? })
    })
    .optional()
    .map_err(sql_err)
}

/// Moves a record to another scope and mirrors it in the in-memory indexes.
pub(crate) async fn set_scope(s: &SqliteStore, id: &str, scope: &str, hash: &str) -> Result<Experience> {
    let (id, scope, hash) = (id.to_string(), scope.to_string(), hash.to_string());
    let (e, seq) = s.writer.run(move |c| set_scope_tx(c, &id, &scope, &hash)).await?;
    index::apply(&s.inner, &IndexChange::of(seq, &e));
    Ok(e)
}

fn set_scope_tx(c: &Connection, id: &str, scope: &str, hash: &str) -> Result<(Experience, i64)> {
    let seq = rows::seq_of(c, id)?;
    c.execute(
        "UPDATE experiences SET scope = ?2, content_hash = ?3, updated_at = ?4 WHERE seq = ?1",
        params![seq, scope, hash, now_rfc3339()],
    )
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation => {
            CoreError::Conflict(format!("the same experience is already in scope {scope}"))
        }
        other => sql_err(other),
    })?;
    Ok((rows::get_by_seq(c, seq)?, seq))
}

pub(crate) fn set_content_tx(c: &Connection, id: &str, content: &str, ct: &str) -> Result<()> {
    let n = c
        .execute(
            "UPDATE experiences SET updated_at = ?2 WHERE id = ?1",
            rusqlite::params![id, knowhub_core::now_rfc3339()],
        )
        .map_err(sql_err)?;
    if n == 0 {
        return Err(CoreError::NotFound(format!("experience {id}")));
    }
    c.execute(
        "INSERT INTO contents (experience_id, content, content_type) VALUES (?1, ?2, ?3) \
         ON CONFLICT (experience_id) DO UPDATE SET content = excluded.content, content_type = excluded.content_type",
        rusqlite::params![id, content, ct],
    )
    .map_err(sql_err)?;
    Ok(())
}

pub(crate) fn count(c: &Connection) -> Result<u64> {
    c.query_row("SELECT COUNT(*) FROM experiences", [], |r| r.get::<_, i64>(0)).map(|n| n as u64).map_err(sql_err)
}

/// `scopes`: a JSON array (`filter::scopes_json`), or `None` for every scope.
pub(crate) fn count_status(c: &Connection, status: Status, scopes: Option<&str>) -> Result<u64> {
    c.query_row(
        "SELECT COUNT(*) FROM experiences WHERE status = ?1 AND (?2 IS NULL OR scope IN (SELECT value FROM json_each(?2)))",
        rusqlite::params![status.as_str(), scopes],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n as u64)
    .map_err(sql_err)
}
