//! Full text: candidates and scores from the in-memory `TermIndex` where the store loaded it
//! (exclusive opens: the server), else straight from FTS5's own BM25 (same formula, much slower),
//! which is also the reference the term index is tested against; and the tokens stored in FTS5.
//!
//! On the FTS5 path, ranking happens inside FTS5; the search filter is applied to the ranked list
//! afterwards (it rarely removes much), with an exact filtered join as the last resort.

use knowhub_core::{Result, SearchFilter};
use rusqlite::{params, Connection, OptionalExtension};

use crate::db::{sql_err, SqliteStore};
use crate::filter;

/// BM25 candidates passing `filter`, best first, as `(id, bm25)`.
pub(crate) async fn candidates(
    s: &SqliteStore,
    tokens: &[String],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    if tokens.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(t) = s.inner.terms.read().as_ref() {
        return Ok(t.search(tokens, filter, limit));
    }
    let tokens = tokens.to_vec();
    let f = filter.clone();
    s.read(move |c| text_search(c, &tokens, &f, limit)).await
}

/// BM25 of the given records for `tokens`, weighed over the records `filter` may read.
pub(crate) fn scores(s: &SqliteStore, tokens: &[String], ids: &[String], filter: &SearchFilter) -> Vec<(String, f64)> {
    match s.inner.terms.read().as_ref() {
        Some(t) => t.score_ids(tokens, ids, filter),
        // Without the in-memory index (read-only opens) fusion falls back to the lists as returned.
        None => Vec::new(),
    }
}

/// A record's tokens as stored in FTS5 (what the in-memory index must forget when they change).
pub(crate) fn body(c: &Connection, seq: i64) -> Result<String> {
    c.query_row("SELECT body FROM experiences_fts WHERE rowid = ?1", [seq], |r| r.get(0))
        .optional()
        .map_err(sql_err)
        .map(Option::unwrap_or_default)
}

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
    let mut st = c
        .prepare_cached("SELECT id, status, score, agent_id, scope, held FROM experiences WHERE seq = ?1")
        .map_err(sql_err)?;
    let mut out = Vec::with_capacity(limit);
    for (seq, s) in ranked {
        let row: Option<(String, String, u8, String, String, i64)> = st
            .query_row([seq], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
            .optional()
            .map_err(sql_err)?;
        if let Some((id, status, score, agent, scope, held)) = row {
            if filter::passes(f, &status, score, &agent, &scope, held) {
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
        .prepare_cached(&format!(
            "SELECT e.id, -bm25(experiences_fts) AS s FROM experiences_fts JOIN experiences e ON e.seq = experiences_fts.rowid \
             WHERE experiences_fts MATCH ?1 AND {} ORDER BY s DESC LIMIT ?6",
            filter::sql(2)
        ))
        .map_err(sql_err)?;
    let (status, min_score, agent, scopes) = filter::params(f);
    let rows = st
        .query_map(params![expr, status, min_score, agent, scopes, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)
}

/// BM25 candidates passing `f` from FTS5, best first, as `(id, bm25)`.
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
