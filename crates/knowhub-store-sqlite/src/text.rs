//! Full-text candidates straight from FTS5's own BM25. The server answers from the in-memory
//! `TermIndex` (same formula, much faster); this path serves stores opened without it and
//! is the reference the term index is tested against.
//!
//! Ranking happens inside FTS5; status/rating/agent filters are applied to the ranked list
//! afterwards (they rarely remove much), with an exact filtered join as the last resort.

use knowhub_core::{Result, SearchFilter};
use rusqlite::{params, Connection, OptionalExtension};

use crate::sql_err;

fn match_expr<'a>(terms: impl Iterator<Item = &'a String>) -> String {
    // Tokens hold only letters, digits and `_` (see knowhub_core::text); quoting is still done
    // properly so nothing a user types can become FTS5 syntax.
    terms.map(|t| format!("\"{}\"", t.replace('"', "\"\""))).collect::<Vec<_>>().join(" OR ")
}

fn ranked(c: &Connection, expr: &str, page: usize) -> Result<Vec<(i64, f64)>> {
    let mut st = c
        .prepare_cached(
            "SELECT rowid, -rank FROM experiences_fts WHERE experiences_fts MATCH ?1 ORDER BY rank LIMIT ?2",
        )
        .map_err(sql_err)?;
    let rows = st.query_map(params![expr, page as i64], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

/// Keeps ranked rows passing the filter, up to `limit`, mapped to ids.
fn filtered(c: &Connection, ranked: Vec<(i64, f64)>, f: &SearchFilter, limit: usize) -> Result<Vec<(String, f64)>> {
    let mut st =
        c.prepare_cached("SELECT id, status, score, agent_id FROM experiences WHERE seq = ?1").map_err(sql_err)?;
    let mut out = Vec::with_capacity(limit);
    for (seq, s) in ranked {
        let row: Option<(String, String, u8, String)> =
            st.query_row([seq], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).optional().map_err(sql_err)?;
        if let Some((id, status, score, agent)) = row {
            if status == f.status.as_str() && score >= f.min_score && f.agent_id.as_ref().is_none_or(|a| *a == agent) {
                out.push((id, s));
                if out.len() == limit {
                    break;
                }
            }
        }
    }
    Ok(out)
}

fn exact_join(c: &Connection, expr: &str, f: &SearchFilter, limit: usize) -> Result<Vec<(String, f64)>> {
    let mut st = c
        .prepare_cached(
            "SELECT e.id, -bm25(experiences_fts) AS s FROM experiences_fts JOIN experiences e ON e.seq = experiences_fts.rowid \
             WHERE experiences_fts MATCH ?1 AND e.status = ?2 AND e.score >= ?3 AND (?4 IS NULL OR e.agent_id = ?4) \
             ORDER BY s DESC LIMIT ?5",
        )
        .map_err(sql_err)?;
    let rows = st
        .query_map(params![expr, f.status.as_str(), f.min_score, f.agent_id, limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
}

/// BM25 candidates passing `f`, best first, as `(id, bm25)`.
pub(crate) fn text_search(
    c: &Connection,
    tokens: &[String],
    f: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    let full = match_expr(tokens.iter());
    let mut page = limit * 2;
    for _ in 0..3 {
        let r = ranked(c, &full, page)?;
        let exhausted = r.len() < page;
        let out = filtered(c, r, f, limit)?;
        if out.len() == limit || exhausted {
            return Ok(out);
        }
        page *= 8;
    }
    exact_join(c, &full, f, limit)
}
