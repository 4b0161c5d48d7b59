//! The search filter (`SearchFilter`: status, minimum rating, agent, scopes) as this store applies it:
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
    pub scope: u32,
    /// Quarantined or expired (`hold` bits set): never passes a filter.
    pub held: bool,
}

/// What a record is filtered on, as a writer or loader hands it to the indexes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Facets<'a> {
    pub score: u8,
    pub status: Status,
    pub agent: &'a str,
    pub scope: &'a str,
    pub held: bool,
}

impl<'a> Facets<'a> {
    /// A stored record's facets.
    pub fn of(e: &'a knowhub_core::Experience) -> Self {
        Facets {
            score: e.score,
            status: e.status,
            agent: &e.agent_id,
            scope: &e.scope,
            held: e.quarantined || e.expired,
        }
    }
}

/// Interns agent ids and scopes so each record carries small integers.
#[derive(Debug, Default)]
pub(crate) struct Agents {
    agents: HashMap<String, u32>,
    scopes: HashMap<String, u32>,
}

fn intern(map: &mut HashMap<String, u32>, s: &str) -> u32 {
    // `entry_ref` allocates the key only for a new string.
    let next = map.len() as u32;
    *map.entry_ref(s).or_insert(next)
}

impl Agents {
    pub fn meta(&mut self, f: Facets<'_>) -> Meta {
        Meta {
            score: f.score,
            status: f.status,
            agent: intern(&mut self.agents, f.agent),
            scope: intern(&mut self.scopes, f.scope),
            held: f.held,
        }
    }

    /// The interned ids of `filter`'s scopes that are known (`None`: every scope).
    pub fn scope_ids(&self, filter: &SearchFilter) -> Option<Vec<u32>> {
        filter.scopes.as_ref().map(|v| v.iter().filter_map(|s| self.scopes.get(s.as_str()).copied()).collect())
    }

    /// A predicate for `filter`, or `None` when nothing can pass (an unknown agent, or no
    /// known scope).
    pub fn matcher(&self, filter: &SearchFilter) -> Option<impl Fn(&Meta) -> bool + '_ + use<'_>> {
        let agent = match &filter.agent_id {
            Some(a) => Some(*self.agents.get(a)?),
            None => None,
        };
        // A table indexed by interned scope: one load per row, however many scopes are listed.
        let scopes: Option<Vec<bool>> = match &filter.scopes {
            Some(v) => {
                let mut allowed = vec![false; self.scopes.len()];
                for id in v.iter().filter_map(|s| self.scopes.get(s)) {
                    allowed[*id as usize] = true;
                }
                if !allowed.contains(&true) {
                    return None;
                }
                Some(allowed)
            }
            None => None,
        };
        let (status, min_score) = (filter.status, filter.min_score);
        Some(move |m: &Meta| {
            !m.held
                && m.status == status
                && m.score >= min_score
                && agent.is_none_or(|a| a == m.agent)
                && scopes.as_ref().is_none_or(|v| v.get(m.scope as usize).copied().unwrap_or(false))
        })
    }
}

/// The records a search with `f` may read at all, whatever it narrows them to: its status, scopes
/// and nothing held, at any rating and of any agent. Full-text statistics describe these, so
/// that records the caller cannot read weigh nothing in its ranking.
pub(crate) fn corpus(f: &SearchFilter) -> SearchFilter {
    SearchFilter { min_score: 0, agent_id: None, ..f.clone() }
}

/// Whether a record read back from the database passes `f`.
pub(crate) fn passes(f: &SearchFilter, status: &str, score: u8, agent: &str, scope: &str, held: i64) -> bool {
    held == 0
        && status == f.status.as_str()
        && score >= f.min_score
        && f.agent_id.as_ref().is_none_or(|a| *a == agent)
        && f.allows_scope(scope)
}

/// The filter over `experiences e` as SQL: parameters `?{first}` status, `?{first + 1}` minimum
/// rating, `?{first + 2}` agent id or NULL, `?{first + 3}` the scopes as a JSON array or NULL
/// (bound by [`params`]).
pub(crate) fn sql(first: usize) -> String {
    let (status, score, agent, scopes) = (first, first + 1, first + 2, first + 3);
    format!(
        "e.held = 0 AND e.status = ?{status} AND e.score >= ?{score} AND (?{agent} IS NULL OR e.agent_id = ?{agent}) \
         AND (?{scopes} IS NULL OR e.scope IN (SELECT value FROM json_each(?{scopes})))"
    )
}

/// The values for [`sql`]'s parameters, in order.
pub(crate) fn params(f: &SearchFilter) -> (&'static str, u8, Option<&str>, Option<String>) {
    (f.status.as_str(), f.min_score, f.agent_id.as_deref(), scopes_json(f.scopes.as_deref()))
}

/// A scope list as the JSON array `json_each` reads (`None` stays NULL: every scope).
pub(crate) fn scopes_json(scopes: Option<&[String]>) -> Option<String> {
    scopes.map(|v| serde_json::to_string(v).unwrap_or_else(|_| "[]".into()))
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
            SearchFilter { status: Status::Pending, agent_id: Some("b".into()), min_score: 3, scopes: None },
            SearchFilter { scopes: Some(vec!["team/x".into(), "nowhere".into()]), ..Default::default() },
            SearchFilter { scopes: Some(vec!["org".into(), "team/x".into()]), min_score: 2, ..Default::default() },
        ];
        // Agents and scopes known before any filter names one (unknown ones are the cases below).
        for (agent, scope) in [("a", "org"), ("b", "team/x")] {
            agents.meta(Facets { score: 1, status: Status::Approved, agent, scope, held: false });
        }
        let mut cases = 0;
        for status in [Status::Approved, Status::Pending, Status::Rejected] {
            for score in 1..=5u8 {
                for agent in ["a", "b"] {
                    for (scope, held) in [("org", false), ("team/x", false), ("org", true)] {
                        let m = agents.meta(Facets { score, status, agent, scope, held });
                        for f in &filters {
                            let pass = agents.matcher(f).expect("known agents and scopes")(&m);
                            let want = passes(f, status.as_str(), score, agent, scope, i64::from(held));
                            assert_eq!(pass, want, "{f:?} {status} {score} {agent} {scope} {held}");
                            assert!(!(pass && held), "a held record never passes");
                            cases += usize::from(pass);
                        }
                    }
                }
            }
        }
        assert!(cases > 0, "some records pass");
        let unknown = SearchFilter { agent_id: Some("nobody".into()), ..Default::default() };
        assert!(agents.matcher(&unknown).is_none(), "an unknown agent matches nothing");
        let nowhere = SearchFilter { scopes: Some(vec!["team/none".into()]), ..Default::default() };
        assert!(agents.matcher(&nowhere).is_none(), "no known scope matches nothing");
        let empty = SearchFilter { scopes: Some(vec![]), ..Default::default() };
        assert!(agents.matcher(&empty).is_none(), "an empty scope list matches nothing");
    }
}
