//! The experience record and its enums, shared by every store, the API and the CLI.

use serde::{Deserialize, Serialize};

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
string_enum!(
    /// What happened when an agent used an experience it found.
    FeedbackOutcome { Helped => "helped", Failed => "failed", Irrelevant => "irrelevant" }
);

/// Outcome votes on a record: one per caller, a caller's second vote replacing its first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedbackCounts {
    pub helped: u32,
    pub failed: u32,
    pub irrelevant: u32,
    /// Failed votes a reviewer has already seen and kept the record anyway: a dispute counts
    /// only the failures after them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reviewed_failed: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl FeedbackCounts {
    /// Disputed: at least `threshold` callers reported a failure since the last review, and
    /// failures outnumber successes.
    pub fn disputed(&self, threshold: u32) -> bool {
        threshold > 0 && self.failed.saturating_sub(self.reviewed_failed) >= threshold && self.failed > self.helped
    }
}

/// One caller's vote, as stored and exported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Vote {
    /// The key's name with auth on, else the agent id (`anonymous` without one).
    pub voter: String,
    pub outcome: FeedbackOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub at: String,
}

/// What a sync peer gets beside one changed record (`Store::sync_context`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncContext {
    /// The version this hub and the peer last agreed on.
    pub base: Option<String>,
    pub confirmed_by: Vec<Confirmation>,
    pub votes: Vec<Vote>,
}

/// One distinct caller that submitted (or re-submitted) a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Confirmation {
    pub by: String,
    pub at: String,
}

/// A stored experience, as the API returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Experience {
    pub id: String,
    pub task: String,
    pub resource: String,
    pub result: String,
    pub score: u8,
    pub outcome: Outcome,
    pub agent_id: String,
    /// Who is responsible for the submitting agent. With auth on, shown to reviewers and admins
    /// only (an agent key gets it omitted); omitted when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub submitted_by: String,
    pub session_key: Option<String>,
    pub source: Source,
    pub status: Status,
    /// Who may read it (`org`, `team/<name>`, `project/<name>`, `private/<owner>`; see `scope`).
    #[serde(default = "org_scope")]
    pub scope: String,
    pub confidence: Option<f64>,
    pub language: String,
    pub content_hash: String,
    /// Distinct callers (keys, or agent ids without auth) that submitted this experience.
    pub confirmations: u32,
    /// The resource's version the experience holds for (`vitest 3.2`), when the submitter said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Its last confirmation or `helped` vote (its creation before any): temporal decay counts from here.
    #[serde(default)]
    pub last_confirmed_at: String,
    #[serde(default)]
    pub feedback: FeedbackCounts,
    /// Records with the same task and resource and the opposite outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested_with: Vec<String>,
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
    /// Where it came from beyond `agent_id` and `session_key`: the key that wrote it, the
    /// extraction job that found it.
    #[serde(default, skip_serializing_if = "Provenance::is_empty")]
    pub provenance: Provenance,
    /// Held out of agents' results because an admin quarantined the key or agent that wrote it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quarantined: bool,
    /// When it stops being shown to agents unless re-confirmed (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Past `expires_at` and not renewed: out of agents' results, waiting to be re-confirmed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub expired: bool,
    /// How far a re-confirmation pushes `expires_at` (seconds from the renewal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_secs: Option<i64>,
}

/// Where a record came from, for tracing and rolling back what one writer did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Provenance {
    /// The API key that wrote it (auth on); empty without keys.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// The extraction job that found it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    /// The hub it was first written on, when it came here by sync (that hub's id); empty when
    /// it was written here.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hub: String,
}

impl Provenance {
    pub fn is_empty(&self) -> bool {
        self.key.is_empty() && self.job_id.is_none() && self.hub.is_empty()
    }
}

/// Why a record is held out of agents' results, as the stores keep it (a bit set).
pub mod hold {
    /// An admin quarantined the key or agent that wrote it.
    pub const QUARANTINED: i64 = 1;
    /// Its `expires_at` passed and nobody re-confirmed it.
    pub const EXPIRED: i64 = 2;
}

/// One change to a record, as its history and the hub's change feed show it. `seq` orders every
/// event of the hub.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Event {
    pub seq: i64,
    pub experience_id: String,
    /// submitted, confirmed, merged, edited, approved, rejected, voted, disputed, scope_changed,
    /// quarantined, released, expired, renewed, deleted.
    pub kind: String,
    /// Who made the change (a key's name, a voter, `system` for the expiry sweep).
    pub by: String,
    pub at: String,
    /// What changed (for `edited`: the fields before and after).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub detail: Option<serde_json::Value>,
}

string_enum!(
    /// What a quarantine is on: an API key, or an agent id.
    QuarantineKind { Key => "key", Agent => "agent" }
);

/// Whose writes a quarantine holds: everything written with one API key, or by one agent id
/// (as stored: `key/agent` with auth on).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum QuarantineTarget {
    Key(String),
    Agent(String),
}

impl QuarantineTarget {
    /// `key` or `agent`, as stored and shown.
    pub fn kind(&self) -> &'static str {
        match self {
            QuarantineTarget::Key(_) => QuarantineKind::Key.as_str(),
            QuarantineTarget::Agent(_) => QuarantineKind::Agent.as_str(),
        }
    }

    pub fn value(&self) -> &str {
        match self {
            QuarantineTarget::Key(v) | QuarantineTarget::Agent(v) => v,
        }
    }

    /// From the stored `kind` and `value`.
    pub fn from_parts(kind: &str, value: String) -> Option<Self> {
        match QuarantineKind::parse(kind)? {
            QuarantineKind::Key => Some(QuarantineTarget::Key(value)),
            QuarantineKind::Agent => Some(QuarantineTarget::Agent(value)),
        }
    }
}

/// An active quarantine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Quarantine {
    /// `key` or `agent`.
    #[cfg_attr(feature = "openapi", schema(value_type = QuarantineKind))]
    pub kind: String,
    pub value: String,
    pub by: String,
    pub at: String,
    /// Records it holds now.
    pub records: u64,
}

/// What lifting a quarantine does to the records it held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    /// Back in search (unless another quarantine still holds them).
    Restore,
    /// Rejected by the reviewer who lifts it.
    Reject { reason: Option<String> },
}

/// A span of a session's messages, counted over everything uploaded for that `session_key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageRange {
    pub from: u32,
    pub to: u32,
}

/// The reviewer's decision as stored on the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReviewMark {
    pub by: String,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Long detail attached to an experience (commands, code, logs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Content {
    pub experience_id: String,
    pub content: String,
    pub content_type: String,
}

/// A validated experience ready to be written. Built by `validate`, or by import/extraction code
/// that sets the provenance fields itself.
#[derive(Debug, Clone, PartialEq)]
pub struct NewExperience {
    /// Who submits it (see `Vote::voter`): its first confirmation. Imports carry theirs in
    /// `confirmed_by` instead.
    pub confirmer: String,
    pub resource_version: Option<String>,
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
    /// Where it is stored (`scope::ORG` unless the writer chose another it may write).
    pub scope: String,
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
    /// Imports only: the record's history, restored as exported.
    pub history: Option<History>,
    pub provenance: Provenance,
    /// RFC 3339; `None`: it never expires.
    pub expires_at: Option<String>,
    /// How long a re-confirmation keeps it, in seconds (set with `expires_at`).
    pub ttl_secs: Option<i64>,
}

/// What an import restores beyond the record's own fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    pub last_confirmed_at: Option<String>,
    pub confirmed_by: Vec<Confirmation>,
    pub votes: Vec<Vote>,
    pub reviewed_failed: u32,
    pub contested_with: Vec<String>,
}

impl Default for NewExperience {
    /// An empty manual submit, pending, rated 3 (fill in at least task, resource and result).
    fn default() -> Self {
        NewExperience {
            confirmer: String::new(),
            resource_version: None,
            id: None,
            task: String::new(),
            resource: String::new(),
            result: String::new(),
            score: 3,
            outcome: Outcome::Success,
            agent_id: String::new(),
            submitted_by: String::new(),
            session_key: None,
            source: Source::Manual,
            status: Status::Pending,
            scope: crate::scope::ORG.to_string(),
            confidence: None,
            created_at: None,
            updated_at: None,
            confirmations: 1,
            content: None,
            source_range: None,
            flags: Vec::new(),
            review: None,
            history: None,
            provenance: Provenance::default(),
            expires_at: None,
            ttl_secs: None,
        }
    }
}

/// The flag of a pending record that proposes long content for a record a reviewer has already
/// seen: content reaches a reviewed record only when a reviewer accepts such a proposal.
pub const CONTENT_PROPOSAL: &str = "content_proposal";
/// How a proposal names its target in storage: a second flag, `content_for:<id>`. Stored this
/// way so existing databases need no new column; read and written only by the functions below.
const CONTENT_FOR: &str = "content_for:";

/// The record a content proposal is for, when `flags` mark one: the one reader of the stored form.
pub(crate) fn content_for(flags: &[String]) -> Option<&str> {
    if !flags.iter().any(|f| f == CONTENT_PROPOSAL) {
        return None;
    }
    flags.iter().find_map(|f| f.strip_prefix(CONTENT_FOR))
}

/// The flags that mark a record as a content proposal for `target`: the one writer of the stored form.
pub(crate) fn content_proposal_flags(target: &str) -> [String; 2] {
    [CONTENT_PROPOSAL.to_string(), format!("{CONTENT_FOR}{target}")]
}

impl NewExperience {
    /// The record this one proposes content for, when it is a content proposal.
    pub fn content_for(&self) -> Option<&str> {
        content_for(&self.flags)
    }

    /// Makes this record a content proposal for `target` (its content waits for a reviewer).
    pub fn propose_content_for(&mut self, target: &str) {
        self.flags.extend(content_proposal_flags(target));
    }

    pub fn content_hash(&self) -> String {
        scoped_hash(&self.scope, self.unscoped_hash())
    }

    /// The identity of the text alone, whatever the scope.
    fn unscoped_hash(&self) -> String {
        let h = crate::text::content_hash(&self.task, &self.resource, &self.result, self.resource_version.as_deref());
        // A content proposal repeats its target's text: its identity is the target plus the content,
        // so it is stored beside the target, and two different proposals stay apart.
        match self.content_for() {
            Some(target) => {
                let content = self.content.as_ref().map_or("", |(c, _)| c.as_str());
                crate::text::content_hash(&h, target, content, Some("content-proposal"))
            }
            None => h,
        }
    }

    /// The text that full-text and vector search see for this record.
    pub fn search_text(&self) -> String {
        search_text(&self.task, &self.resource, &self.result)
    }

    /// Identity for near-duplicate detection of extracted items: task + resource only.
    pub fn task_resource_hash(&self) -> String {
        crate::text::task_resource_hash(&self.task, &self.resource)
    }

    /// Which records are "the same resource" (see `text::resource_key`).
    pub fn resource_key(&self) -> String {
        crate::text::resource_key(&self.resource, self.resource_version.as_deref())
    }
}

/// A record's identity within its scope: the same text in two scopes is two records, so a repeat
/// is never counted on (or revealed through) a record of another scope. `org` keeps the bare hash.
pub fn scoped_hash(scope: &str, hash: String) -> String {
    if scope == crate::scope::ORG {
        hash
    } else {
        crate::text::content_hash(&hash, scope, "", Some("scope"))
    }
}

fn org_scope() -> String {
    crate::scope::ORG.to_string()
}

/// Joins the three searchable fields. One function so every store and the embedder agree.
pub fn search_text(task: &str, resource: &str, result: &str) -> String {
    format!("{task}\n{resource}\n{result}")
}

impl Experience {
    /// The record this one proposes content for, when it is a content proposal.
    pub fn content_for(&self) -> Option<&str> {
        content_for(&self.flags)
    }

    pub fn search_text(&self) -> String {
        search_text(&self.task, &self.resource, &self.result)
    }

    pub fn resource_key(&self) -> String {
        crate::text::resource_key(&self.resource, self.resource_version.as_deref())
    }

    /// Its `content_hash` were it stored in `scope` (not for content proposals, whose identity
    /// includes content this record does not carry).
    pub fn content_hash_in(&self, scope: &str) -> String {
        let h = crate::text::content_hash(&self.task, &self.resource, &self.result, self.resource_version.as_deref());
        scoped_hash(scope, h)
    }
}

/// One line of `knowhub export`: the record plus its content, so an import restores everything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExportRecord {
    #[serde(flatten)]
    pub experience: Experience,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content_type: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub confirmed_by: Vec<Confirmation>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub votes: Vec<Vote>,
}

/// A search result as the API returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchHit {
    pub id: String,
    pub task: String,
    pub resource: String,
    pub result: String,
    pub score: u8,
    pub outcome: Outcome,
    pub relevance: f64,
    pub agent_id: String,
    /// As on the record: reviewers and admins only with auth on; omitted when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub submitted_by: String,
    pub created_at: String,
    pub last_confirmed_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    pub confirmations: u32,
    pub feedback: HitFeedback,
    /// Who may read it (`org`, `team/<name>`, ...).
    #[serde(default = "org_scope")]
    pub scope: String,
    /// `disputed` (agents report it failed), `contested` (another record says the opposite).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// The records that contest this one (same task and resource, opposite outcome).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested_with: Vec<String>,
    pub has_content: bool,
    /// The hub it was first written on, when it came here by sync (that hub's id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub origin_hub: String,
    /// The hit's resource has a playbook the caller can read: its name, for
    /// `GET /api/playbooks/{resource}` or `kb_playbook`. Omitted when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playbook: Option<String>,
}

/// The outcome votes a search result shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HitFeedback {
    pub helped: u32,
    pub failed: u32,
}

impl SearchHit {
    /// `flags` are the flags the caller computed for it (disputed, contested).
    pub fn from_experience(e: &Experience, relevance: f64, flags: Vec<String>) -> Self {
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
            last_confirmed_at: e.last_confirmed_at.clone(),
            resource_version: e.resource_version.clone(),
            confirmations: e.confirmations,
            feedback: HitFeedback { helped: e.feedback.helped, failed: e.feedback.failed },
            scope: e.scope.clone(),
            flags,
            contested_with: e.contested_with.clone(),
            has_content: e.has_content,
            origin_hub: e.provenance.hub.clone(),
            playbook: None,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_content_proposal_names_its_target_in_the_stored_flags() {
        let mut p = NewExperience { flags: vec!["dangerous_command".into()], ..Default::default() };
        assert_eq!(p.content_for(), None);
        p.propose_content_for("abc123");
        assert_eq!(p.content_for(), Some("abc123"));
        // The form databases already hold: two flags beside any others.
        assert_eq!(p.flags, ["dangerous_command", "content_proposal", "content_for:abc123"]);
        // A target flag without the proposal flag does not make a record a proposal.
        assert_eq!(content_for(&["content_for:abc123".to_string()]), None);
    }
}
