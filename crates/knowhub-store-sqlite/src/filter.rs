//! The search filter (`SearchFilter`: status, minimum rating, agent) as this store applies it:
//! on the in-memory indexes' per-record metadata, on rows read back from FTS5's ranking, and as
//! SQL for the exact full-text join. The PostgreSQL store's `filter.rs` writes the same filter as
//! SQL for its queries.

use hashbrown::HashMap;

use knowhub_core::{SearchFilter, Status};

/// What the in-memory indexes keep per record to filter on.
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
        // `entry_ref` allocates the key only for a new agent.
        let next = self.0.len() as u32;
        let agent = *self.0.entry_ref(agent).or_insert(next);
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

/// Whether a record read back from the database passes `f`.
pub(crate) fn passes(f: &SearchFilter, status: &str, score: u8, agent: &str) -> bool {
    status == f.status.as_str() && score >= f.min_score && f.agent_id.as_ref().is_none_or(|a| *a == agent)
}

/// The filter over `experiences e` as SQL: parameters `?{first}` status, `?{first + 1}` minimum
/// rating, `?{first + 2}` agent id or NULL (bound by [`params`]).
pub(crate) fn sql(first: usize) -> String {
    let (status, score, agent) = (first, first + 1, first + 2);
    format!("e.status = ?{status} AND e.score >= ?{score} AND (?{agent} IS NULL OR e.agent_id = ?{agent})")
}

/// The values for [`sql`]'s parameters, in order.
pub(crate) fn params(f: &SearchFilter) -> (&'static str, u8, Option<&str>) {
    (f.status.as_str(), f.min_score, f.agent_id.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The in-memory predicate and the one for rows read back agree on every combination.
    #[test]
    fn matcher_and_passes_agree() {
        let mut agents = Agents::default();
        let filters = [
            SearchFilter::default(),
            SearchFilter { min_score: 4, ..Default::default() },
            SearchFilter { agent_id: Some("a".into()), ..Default::default() },
            SearchFilter { status: Status::Pending, agent_id: Some("b".into()), min_score: 3 },
        ];
        // Both agents known before any filter names one (an unknown agent is the case below).
        agents.meta(1, Status::Approved, "a");
        agents.meta(1, Status::Approved, "b");
        let mut cases = 0;
        for status in [Status::Approved, Status::Pending, Status::Rejected] {
            for score in 1..=5u8 {
                for agent in ["a", "b"] {
                    let m = agents.meta(score, status, agent);
                    for f in &filters {
                        let pass = agents.matcher(f).expect("known agents")(&m);
                        assert_eq!(pass, passes(f, status.as_str(), score, agent), "{f:?} {status} {score} {agent}");
                        cases += usize::from(pass);
                    }
                }
            }
        }
        assert!(cases > 0, "some records pass");
        let unknown = SearchFilter { agent_id: Some("nobody".into()), ..Default::default() };
        assert!(agents.matcher(&unknown).is_none(), "an unknown agent matches nothing");
    }
}
