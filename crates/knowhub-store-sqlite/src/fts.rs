//! Full-text candidate retrieval over the FTS5 index.
//!
//! FTS5 has no top-k pruning: an OR query scores every document that contains any term, so the
//! cost grows with the posting lists of the query's common terms. Two measures keep it bounded
//! without changing what a user would call the right answer:
//!
//! 1. Terms in more than ~40% of a large corpus (BM25 IDF < 0.4, near-zero weight) are dropped
//!    while a rarer term remains.
//! 2. When the remaining terms' posting lists are long, candidates come from the rarest terms
//!    only (up to `POSTING_BUDGET` postings), and those candidates are then re-scored with the
//!    exact BM25 of the whole query. A document matching *only* common terms can be missed; it
//!    would rank low anyway, and when nothing rare matches the full query runs as usual.
//!
//! Ranking happens inside FTS5; status/rating/agent filters are applied to the ranked list
//! afterwards (they rarely remove much), with an exact filtered join as the last resort.

use knowhub_core::{Result, SearchFilter};
use rusqlite::{params, Connection, OptionalExtension};

use crate::sql_err;

const MIN_IDF: f64 = 0.4;
/// Terms with fewer documents than this are never dropped (cheap, and they widen recall).
const MIN_DF: i64 = 2_000;
/// Postings scanned to find candidates before exact re-scoring kicks in.
const POSTING_BUDGET: i64 = 12_000;

/// Query terms that occur in the index, with their document frequency, rarest first.
fn term_stats(c: &Connection, tokens: &[String]) -> Result<Vec<(String, i64)>> {
    let n = c
        .query_row("SELECT MAX(seq) FROM experiences", [], |r| r.get::<_, Option<i64>>(0))
        .map_err(sql_err)?
        .unwrap_or(0);
    let mut st = c.prepare_cached("SELECT doc FROM experiences_fts_vocab WHERE term = ?1").map_err(sql_err)?;
    let mut terms = Vec::with_capacity(tokens.len());
    for t in tokens {
        let df: i64 = st.query_row([t], |r| r.get(0)).optional().map_err(sql_err)?.unwrap_or(0);
        if df > 0 {
            terms.push((t.clone(), df));
        }
    }
    let idf = |df: i64| ((n - df) as f64 + 0.5).max(0.5).ln() - (df as f64 + 0.5).ln();
    let negligible = |df: i64| df >= MIN_DF && idf(df) < MIN_IDF;
    if terms.iter().any(|(_, df)| !negligible(*df)) {
        terms.retain(|(_, df)| !negligible(*df));
    }
    terms.sort_by_key(|(_, df)| *df);
    Ok(terms)
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

/// Exact BM25 of `expr` for the given rows only, best first.
fn rescore(c: &Connection, expr: &str, rows: &[i64]) -> Result<Vec<(i64, f64)>> {
    let list = rows.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let mut st = c
        .prepare(&format!(
            "SELECT rowid, -bm25(experiences_fts) FROM experiences_fts WHERE experiences_fts MATCH ?1 AND rowid IN ({list})"
        ))
        .map_err(sql_err)?;
    let mut out: Vec<(i64, f64)> = st
        .query_map([expr], |r| Ok((r.get(0)?, r.get(1)?)))
        .map_err(sql_err)?
        .collect::<std::result::Result<_, _>>()
        .map_err(sql_err)?;
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(out)
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
    let terms = term_stats(c, tokens)?;
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let full = match_expr(terms.iter().map(|t| &t.0));
    let mut postings = 0;
    let rare = terms.iter().take_while(|(_, df)| {
        postings += df;
        postings <= POSTING_BUDGET
    });
    let rare: Vec<&String> = rare.map(|t| &t.0).collect();
    if !rare.is_empty() && rare.len() < terms.len() {
        let pool = (limit * 4).max(200);
        let cands: Vec<i64> = ranked(c, &match_expr(rare.into_iter()), pool)?.into_iter().map(|r| r.0).collect();
        let out = filtered(c, rescore(c, &full, &cands)?, f, limit)?;
        if out.len() == limit || cands.len() < pool {
            return Ok(out);
        }
        return exact_join(c, &full, f, limit);
    }
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
