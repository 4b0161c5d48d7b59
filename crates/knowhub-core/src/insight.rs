//! What the hub knows about itself: per-resource track records and day-by-day activity, for the
//! review console, `/api/resources` and the dashboard. Stores return small aggregates (grouped in
//! SQL); the service folds them into weeks, totals and per-agent rows.

use serde::Serialize;

/// A LIKE pattern for "contains `text`" (with `ESCAPE '\'`): the user's `%`, `_` and `\` taken
/// literally, lower-cased in ASCII only, as SQLite's `lower()` and PostgreSQL's
/// `lower(x COLLATE "C")` fold, so both stores match the same records.
pub fn contains_pattern(text: &str) -> String {
    let mut p = String::with_capacity(text.len() + 2);
    p.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c.to_ascii_lowercase());
    }
    p.push('%');
    p
}

/// Which resources to summarise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceFilter {
    /// Every resource, most-used first.
    All,
    /// Resources whose name contains this text (case-insensitive), most-used first.
    Matching(String),
    /// The one resource with this `resource_key` (see `text::resource_key`).
    Key(String),
}

/// A playbook a model wrote for one resource, as the store keeps it: the service owns the
/// document (JSON: its lines, the records it was written from, who drafted and reviewed it); the
/// store keeps one per resource key, with its review status so the pending ones can be listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPlaybook {
    /// The resource's version-free key (`text::resource_key`).
    pub key: String,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    pub doc: String,
    /// RFC 3339, when it was last drafted or reviewed.
    pub updated_at: String,
}

/// One resource's track record over its **approved** records.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResourceSummary {
    /// `text::resource_key` of the name (and version): what groups spellings of one resource.
    pub key: String,
    /// The name as most recently written in an approved record.
    pub resource: String,
    pub records: u64,
    pub successes: u64,
    pub failures: u64,
    pub partials: u64,
    /// Outcome votes on those records.
    pub helped: u64,
    pub failed_votes: u64,
    /// `created_at` of the newest approved success, if any.
    pub last_success_at: Option<String>,
    /// `created_at` of the newest approved record.
    pub last_seen_at: String,
}

/// A count of something on one UTC day (`YYYY-MM-DD`) for one agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayCount {
    pub day: String,
    pub agent_id: String,
    /// What is counted: a record status (`pending` | `approved` | `rejected`), a feedback outcome
    /// (`helped` | `failed` | `irrelevant`) or a job status (`queued` | `running` | `done` | `failed`).
    pub kind: String,
    pub n: u64,
}

/// Searches one agent ran on one day, and how many of them returned at least one result (the
/// rest abstained: nothing relevant enough was known).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayUsage {
    pub day: String,
    pub agent_id: String,
    pub searches: u64,
    pub found: u64,
}

/// Extraction jobs created on one day for one agent, by status, with the LLM tokens they used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayJobs {
    pub day: String,
    pub agent_id: String,
    pub status: String,
    pub jobs: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Everything the dashboard reads, from `since` (a `YYYY-MM-DD` day, inclusive) on.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Activity {
    /// Records by the day they were created, their agent and their current status.
    pub records: Vec<DayCount>,
    /// Feedback votes by the day they were cast, the voted record's agent and the outcome.
    pub votes: Vec<DayCount>,
    pub usage: Vec<DayUsage>,
    pub jobs: Vec<DayJobs>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn contains_pattern_escapes_wildcards() {
        assert_eq!(super::contains_pattern("Pg_Bouncer 100%\\x"), "%pg\\_bouncer 100\\%\\\\x%");
        assert_eq!(super::contains_pattern(""), "%%");
    }
}
