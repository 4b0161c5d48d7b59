//! Vectors: stored as blobs with their model and dimension, searched and scored in the in-memory
//! `FlatIndex` (which holds the current model's vectors only), and the records still waiting for
//! one.

use knowhub_core::{BlockScores, CoreError, Result, SearchFilter, Status};
use rusqlite::{params, Connection, OptionalExtension};

use crate::db::{sql_err, SqliteStore};
use crate::filter::Facets;

/// Nearest records to `query` passing `filter`, as `(id, inner product)`; none for another model.
pub(crate) fn candidates(
    s: &SqliteStore,
    model: &str,
    query: &[f32],
    filter: &SearchFilter,
    limit: usize,
) -> Vec<(String, f64)> {
    let index = s.inner.index.read();
    if index.model() != model {
        return Vec::new();
    }
    index.search(query, filter, limit)
}

/// The given records' block scores against `query`; none for another model.
pub(crate) fn scores(s: &SqliteStore, model: &str, query: &[f32], ids: &[String]) -> Vec<(String, BlockScores)> {
    let index = s.inner.index.read();
    if index.model() != model {
        return Vec::new();
    }
    index.score_ids(query, ids)
}

/// Stores vectors (records deleted meanwhile are skipped) and puts them in the in-memory index
/// if they are of its model.
pub(crate) async fn set(s: &SqliteStore, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
    let (m, items) = (model.to_string(), items.to_vec());
    let written = s.writer.run(move |c| set_tx(c, &m, items)).await?;
    let mut index = s.inner.index.write();
    if index.model() == model {
        for w in written {
            let facets = Facets { score: w.score, status: w.status, agent: &w.agent_id, scope: &w.scope, held: w.held };
            index.upsert(w.seq, &w.id, facets, &w.vector);
        }
    }
    Ok(())
}

impl SqliteStore {
    /// Vector models present in the database with their counts (to detect a model change).
    pub async fn vector_models(&self) -> Result<Vec<(String, u64)>> {
        self.read(|c| {
            let mut st =
                c.prepare("SELECT model, COUNT(*) FROM vectors GROUP BY model ORDER BY 2 DESC").map_err(sql_err)?;
            let rows =
                st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))).map_err(sql_err)?;
            rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
        })
        .await
    }
}

/// A vector row as written, for the in-memory index.
pub(crate) struct WrittenVector {
    pub seq: i64,
    pub id: String,
    pub score: u8,
    pub status: Status,
    pub agent_id: String,
    pub scope: String,
    pub held: bool,
    pub vector: Vec<f32>,
}

/// A vector as stored: little-endian f32s.
pub(crate) fn encode(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A stored vector blob: little-endian f32s.
pub fn decode(blob: &[u8]) -> Result<Vec<f32>> {
    let mut v = Vec::new();
    decode_into(blob, &mut v)?;
    Ok(v)
}

pub(crate) fn decode_into(blob: &[u8], out: &mut Vec<f32>) -> Result<()> {
    if !blob.len().is_multiple_of(4) {
        return Err(CoreError::Internal(format!("vector blob has {} bytes", blob.len())));
    }
    out.clear();
    out.extend(blob.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    Ok(())
}

fn set_tx(c: &Connection, model: &str, items: Vec<(String, Vec<f32>)>) -> Result<Vec<WrittenVector>> {
    let mut out = Vec::with_capacity(items.len());
    for (id, vector) in items {
        let row: Option<(i64, i64, String, String, String, i64)> = c
            .prepare_cached("SELECT seq, score, status, agent_id, scope, held FROM experiences WHERE id = ?1")
            .and_then(|mut st| {
                st.query_row([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
                    .optional()
            })
            .map_err(sql_err)?;
        let Some((seq, score, status, agent_id, scope, held)) = row else { continue };
        c.prepare_cached("INSERT OR REPLACE INTO vectors (seq, model, dim, data) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut st| st.execute(params![seq, model, vector.len() as i64, encode(&vector)]))
            .map_err(sql_err)?;
        out.push(WrittenVector {
            seq,
            id,
            score: score as u8,
            status: Status::parse(&status).unwrap_or(Status::Pending),
            agent_id,
            scope,
            held: held != 0,
            vector,
        });
    }
    Ok(out)
}

/// The stored vectors of `model` for the given records.
pub(crate) fn by_ids(c: &Connection, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
    let mut st = c
        .prepare_cached(
            "SELECT e.id, v.data FROM vectors v JOIN experiences e ON e.seq = v.seq \
             WHERE v.model = ?1 AND e.id IN (SELECT value FROM json_each(?2))",
        )
        .map_err(sql_err)?;
    let ids = serde_json::to_string(&ids).map_err(|e| CoreError::Internal(e.to_string()))?;
    let rows = st
        .query_map(params![model, ids], |r| Ok((r.get::<_, String>(0)?, r.get::<_, Vec<u8>>(1)?)))
        .map_err(sql_err)?;
    rows.map(|r| {
        let (id, blob) = r.map_err(sql_err)?;
        Ok((id, decode(&blob)?))
    })
    .collect()
}

/// Records not rejected that have no vector of `model` yet, oldest first, with their text.
pub(crate) fn missing(c: &Connection, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
    let mut st = c
        .prepare_cached(
            "SELECT e.id, e.task, e.resource, e.result FROM experiences e LEFT JOIN vectors v ON v.seq = e.seq AND v.model = ?1 \
             WHERE v.seq IS NULL AND e.status != 'rejected' ORDER BY e.seq LIMIT ?2",
        )
        .map_err(sql_err)?;
    let rows = st
        .query_map(params![model, limit as i64], |r| {
            Ok((
                r.get::<_, String>(0)?,
                knowhub_core::search_text(&r.get::<_, String>(1)?, &r.get::<_, String>(2)?, &r.get::<_, String>(3)?),
            ))
        })
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
}

pub(crate) fn count(c: &Connection, model: &str) -> Result<u64> {
    c.query_row("SELECT COUNT(*) FROM vectors WHERE model = ?1", [model], |r| r.get::<_, i64>(0))
        .map(|n| n as u64)
        .map_err(sql_err)
}
