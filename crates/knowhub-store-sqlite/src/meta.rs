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
