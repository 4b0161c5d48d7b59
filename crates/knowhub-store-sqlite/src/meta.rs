//! Per-record metadata the in-memory indexes filter on, so a search never needs a database
//! round trip to apply `status`, `min_score` and `agent_id`.

use std::collections::HashMap;

use knowhub_core::{SearchFilter, Status};

#[derive(Debug, Clone, Copy)]
pub(crate) struct Meta {
    pub score: u8,
    pub status: Status,
    pub agent: u32,
}

/// Interns agent ids so each record carries a small integer.
#[derive(Debug, Default)]
pub(crate) struct Agents(HashMap<String, u32>);

impl Agents {
    pub fn meta(&mut self, score: u8, status: Status, agent: &str) -> Meta {
        let next = self.0.len() as u32;
        let agent = *self.0.entry(agent.to_string()).or_insert(next);
        Meta { score, status, agent }
    }

    /// A predicate for `filter`, or `None` when nothing can pass (unknown agent).
    pub fn matcher(&self, filter: &SearchFilter) -> Option<impl Fn(&Meta) -> bool + '_ + use<'_>> {
        let agent = match &filter.agent_id {
            Some(a) => Some(*self.0.get(a)?),
            None => None,
        };
        let (status, min_score) = (filter.status, filter.min_score);
        Some(move |m: &Meta| m.status == status && m.score >= min_score && agent.is_none_or(|a| a == m.agent))
    }
}

/// The record table both in-memory indexes keep: row i is record `ids[i]` with `meta[i]`,
/// found by row number (`seq`) or by id.
#[derive(Debug, Default)]
pub(crate) struct Rows {
    pub ids: Vec<String>,
    pub meta: Vec<Meta>,
    pos: HashMap<i64, usize>,
    by_id: HashMap<String, usize>,
    pub agents: Agents,
}

impl Rows {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn row_of_seq(&self, seq: i64) -> Option<usize> {
        self.pos.get(&seq).copied()
    }

    pub fn row_of_id(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// Appends a record; returns its row.
    pub fn push(&mut self, seq: i64, id: &str, score: u8, status: Status, agent: &str) -> usize {
        let row = self.ids.len();
        let meta = self.agents.meta(score, status, agent);
        self.pos.insert(seq, row);
        self.by_id.insert(id.to_string(), row);
        self.ids.push(id.to_string());
        self.meta.push(meta);
        row
    }

    pub fn set_meta(&mut self, row: usize, score: u8, status: Status, agent: &str) {
        self.meta[row] = self.agents.meta(score, status, agent);
    }

    pub fn set_status(&mut self, seq: i64, status: Status) {
        if let Some(row) = self.row_of_seq(seq) {
            self.meta[row].status = status;
        }
    }

    /// Retires a record's row (deleted, or about to be re-added with new text): it can no longer
    /// be found, never passes a filter, and its `seq` may be reused. Returns the old row.
    pub fn forget(&mut self, seq: i64) -> Option<usize> {
        let row = self.pos.remove(&seq)?;
        if self.by_id.get(&self.ids[row]) == Some(&row) {
            self.by_id.remove(&self.ids[row]);
        }
        self.meta[row].status = Status::Rejected;
        self.meta[row].score = 0; // below any min_score, so no filter passes it
        Some(row)
    }
}
