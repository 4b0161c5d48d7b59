//! The in-memory indexes the server searches (this store only: PostgreSQL searches in SQL).
//!
//! - [`FlatIndex`] (`flat`): brute-force vector search over int8 codes (`quant`), the codes on
//!   huge pages where the system offers them (`huge`).
//! - [`TermIndex`] (`terms`): BM25 over the tokens stored in FTS5, the same formula as FTS5's.
//! - `table`: the record table both keep (ids, row numbers and the metadata searches filter on).
//!
//! Both are loaded when the store opens and updated after each commit, never before it.

mod flat;
mod huge;
mod quant;
mod table;
mod terms;

use knowhub_core::Status;

pub use flat::FlatIndex;
pub use terms::TermIndex;

use crate::db::Inner;
pub(crate) use crate::filter::Facets;

/// What a committed review or delete changes in the in-memory indexes.
pub(crate) struct IndexChange {
    pub seq: i64,
    pub id: String,
    pub score: u8,
    pub status: Status,
    pub agent_id: String,
    pub scope: String,
    pub held: bool,
    /// `(old body, new body)` when the searchable text changed; new is `None` for a delete.
    pub body: Option<(String, Option<String>)>,
}

impl IndexChange {
    /// A record's new filter facets, its text unchanged.
    pub(crate) fn of(seq: i64, e: &knowhub_core::Experience) -> Self {
        IndexChange {
            seq,
            id: e.id.clone(),
            score: e.score,
            status: e.status,
            agent_id: e.agent_id.clone(),
            scope: e.scope.clone(),
            held: e.quarantined || e.expired,
            body: None,
        }
    }
}

/// Mirrors a committed review or delete in the in-memory indexes.
pub(crate) fn apply(inner: &Inner, ch: &IndexChange) {
    let facets = Facets { score: ch.score, status: ch.status, agent: &ch.agent_id, scope: &ch.scope, held: ch.held };
    if let Some(t) = inner.terms.write().as_mut() {
        match &ch.body {
            Some((old, new)) => {
                t.remove(ch.seq, old);
                if let Some(new) = new {
                    t.add(ch.seq, &ch.id, new, facets);
                }
            }
            None => t.set_meta(ch.seq, facets),
        }
    }
    let mut index = inner.index.write();
    match &ch.body {
        Some((_, None)) => index.remove(ch.seq),
        // An edited record keeps its old vector in memory until the worker replaces it.
        _ => index.set_meta(ch.seq, facets),
    }
}
