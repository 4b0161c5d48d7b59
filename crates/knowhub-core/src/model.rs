//! The experience record and its enums, shared by every store, the API and the CLI.

use serde::{Deserialize, Serialize};

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum $name { $($variant),+ }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub fn as_str(self) -> &'static str { match self { $($name::$variant => $s),+ } }
            pub fn parse(s: &str) -> Option<Self> { match s { $($s => Some($name::$variant),)+ _ => None } }
            /// Human list of accepted values, for error messages.
            pub fn expected() -> String { [$($s),+].join(" | ") }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str(self.as_str()) }
        }
    };
}

string_enum!(
    /// Failures are lessons too, so they are first-class.
    Outcome { Success => "success", Failure => "failure", Partial => "partial" }
);
string_enum!(
    /// Where a record came from: an agent's submit, an LLM extraction, or an import.
    Source { Manual => "manual", Extracted => "extracted", Imported => "imported" }
);
string_enum!(
    /// Only `approved` records are ever returned by search.
    Status { Approved => "approved", Pending => "pending", Rejected => "rejected" }
);

/// A stored experience, as the API returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Experience {
    pub id: String,
    pub task: String,
    pub resource: String,
    pub result: String,
    pub score: u8,
    pub outcome: Outcome,
    pub agent_id: String,
    pub submitted_by: String,
    pub session_key: Option<String>,
    pub source: Source,
    pub status: Status,
    pub confidence: Option<f64>,
    pub language: String,
    pub content_hash: String,
    pub confirmations: u32,
    pub created_at: String,
    pub updated_at: String,
    pub has_content: bool,
    /// For extracted records: which messages of the session they came from (0-based, inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_range: Option<MessageRange>,
    /// Warnings a reviewer should see, e.g. `suspected_injection`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// Who approved or rejected the record, when, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewMark>,
}

/// A span of a session's messages, counted over everything uploaded for that `session_key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageRange {
    pub from: u32,
    pub to: u32,
}

/// The reviewer's decision as stored on the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewMark {
    pub by: String,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Long detail attached to an experience (commands, code, logs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Content {
    pub experience_id: String,
    pub content: String,
    pub content_type: String,
}

/// A validated experience ready to be written. Built by `validate`, or by import/extraction code
/// that sets the provenance fields itself.
#[derive(Debug, Clone, PartialEq)]
pub struct NewExperience {
    /// Preset id (import keeps ids stable); `None` mints a UUIDv7.
    pub id: Option<String>,
    pub task: String,
    pub resource: String,
    pub result: String,
    pub score: u8,
    pub outcome: Outcome,
    pub agent_id: String,
    pub submitted_by: String,
    pub session_key: Option<String>,
    pub source: Source,
    pub status: Status,
    pub confidence: Option<f64>,
    /// RFC 3339; `None` means now.
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    /// Starting confirmation count (imports carry theirs; new submits start at 1).
    pub confirmations: u32,
    pub content: Option<(String, String)>,
    pub source_range: Option<MessageRange>,
    pub flags: Vec<String>,
    /// Carried by imports only; new records are unreviewed.
    pub review: Option<ReviewMark>,
}

impl NewExperience {
    pub fn content_hash(&self) -> String {
        crate::text::content_hash(&self.task, &self.resource, &self.result)
    }

    /// The text that full-text and vector search see for this record.
    pub fn search_text(&self) -> String {
        search_text(&self.task, &self.resource, &self.result)
    }

    /// Identity for near-duplicate detection of extracted items: task + resource only.
    pub fn task_resource_hash(&self) -> String {
        crate::text::task_resource_hash(&self.task, &self.resource)
    }
}

/// Joins the three searchable fields. One function so every store and the embedder agree.
pub fn search_text(task: &str, resource: &str, result: &str) -> String {
    format!("{task}\n{resource}\n{result}")
}

impl Experience {
    pub fn search_text(&self) -> String {
        search_text(&self.task, &self.resource, &self.result)
    }
}

/// One line of `knowhub export`: the record plus its content, so an import restores everything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportRecord {
    #[serde(flatten)]
    pub experience: Experience,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content_type: Option<String>,
}

/// A search result as the API returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub id: String,
    pub task: String,
    pub resource: String,
    pub result: String,
    pub score: u8,
    pub outcome: Outcome,
    pub relevance: f64,
    pub agent_id: String,
    pub submitted_by: String,
    pub created_at: String,
    pub confirmations: u32,
    pub has_content: bool,
}

impl SearchHit {
    pub fn from_experience(e: &Experience, relevance: f64) -> Self {
        SearchHit {
            id: e.id.clone(),
            task: e.task.clone(),
            resource: e.resource.clone(),
            result: e.result.clone(),
            score: e.score,
            outcome: e.outcome,
            relevance,
            agent_id: e.agent_id.clone(),
            submitted_by: e.submitted_by.clone(),
            created_at: e.created_at.clone(),
            confirmations: e.confirmations,
            has_content: e.has_content,
        }
    }
}

/// Current time as RFC 3339 UTC with second precision.
pub fn now_rfc3339() -> String {
    format_rfc3339(time::OffsetDateTime::now_utc())
}

pub fn format_rfc3339(t: time::OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC).replace_nanosecond(0).unwrap_or(t);
    t.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

pub fn parse_rfc3339(s: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
}

/// Mints a time-sortable id.
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
