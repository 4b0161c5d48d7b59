//! What each operation takes: one request type per operation, with the limits and defaults that
//! go with it, written here once. The REST API, MCP, the console and the CLI parse their
//! transport into these types and let `validate` decide, so they cannot drift apart; the MCP tool
//! schemas and the limits in `/openapi.json` are built from the same constants.
//!
//! Query-string operations (search, the queue, resources, the dashboard) take their parameters as
//! text, the form they arrive in from a URL or a form, so each bad value gets its own message
//! naming it. Bodies (submit, feedback, review decisions, keys) are typed JSON.

use std::time::Duration;

use knowhub_core::validate::{self, MAX_NOTE, MAX_SHORT};
use knowhub_core::{CoreError, Outcome, Result, Role, SearchFilter};
use serde::{Deserialize, Serialize};

pub use knowhub_core::access::MAX_KEY_NAME;
pub use knowhub_core::review::Edits as ApproveRequest;
pub use knowhub_core::validate::{
    SubmitRequest, MAX_CONTENT, MAX_CONTENT_TYPE, MAX_ID, MAX_RESOURCE, MAX_RESULT, MAX_TASK, MAX_VERSION,
};

use crate::review::QueueKind;
use crate::search::{SearchMode, SearchQuery};

/// Largest request body the REST API and `/mcp` accept, in bytes.
pub const MAX_BODY: usize = 1024 * 1024;
/// Longest search query, in characters.
pub const MAX_QUERY: usize = 2_000;
/// Longest agent id, submitter or session key, in characters.
pub const MAX_AGENT_ID: usize = MAX_SHORT;
/// Longest feedback note, in characters.
pub const MAX_FEEDBACK_NOTE: usize = MAX_NOTE;
/// Longest reason a reviewer gives for a rejection, in characters.
pub const MAX_REASON: usize = 2_000;
/// Longest text to match resource names against, in characters.
pub const MAX_RESOURCE_QUERY: usize = MAX_SHORT;
/// The relevance floor a search may ask for (roughly a probability).
pub const MIN_RELEVANCE: (f64, f64) = (0.0, 1.0);

/// An integer parameter's bounds and the value it takes when absent or blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRange {
    pub min: i64,
    pub max: i64,
    pub default: i64,
}

impl IntRange {
    /// The parameter given as a JSON number; absent is the default.
    pub fn value(&self, field: &str, v: Option<i64>) -> Result<i64> {
        match v {
            None => Ok(self.default),
            Some(n) if (self.min..=self.max).contains(&n) => Ok(n),
            Some(n) => {
                Err(CoreError::invalid(field, format!("must be an integer from {} to {}, got {n}", self.min, self.max)))
            }
        }
    }

    /// The parameter given as text; absent or blank is the default.
    pub fn parse(&self, field: &str, v: Option<&str>) -> Result<i64> {
        match v.map(str::trim) {
            None | Some("") => Ok(self.default),
            Some(s) => match s.parse::<i64>() {
                Ok(n) if (self.min..=self.max).contains(&n) => Ok(n),
                _ => Err(CoreError::invalid(
                    field,
                    format!("must be an integer from {} to {}, got {s:?}", self.min, self.max),
                )),
            },
        }
    }
}

/// An experience's rating (submit, review edits).
pub const SCORE: IntRange = IntRange { min: 1, max: 5, default: validate::DEFAULT_SCORE as i64 };
/// Search hits wanted.
pub const TOP_K: IntRange = IntRange { min: 1, max: 50, default: 5 };
/// Longest scope name, in characters (`private/` and a key name of the longest).
pub const MAX_SCOPE: usize = 8 + knowhub_core::scope::MAX_SCOPE_NAME;

/// An optional `scope` parameter: absent or blank is none; otherwise a scope's name, checked.
pub(crate) fn optional_scope(scope: Option<String>) -> Result<Option<String>> {
    match scope.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
        Some(s) if s.contains('\0') || s.chars().count() > MAX_SCOPE => {
            Err(CoreError::invalid("scope", format!("must be a scope of at most {MAX_SCOPE} characters")))
        }
        Some(s) => Ok(Some(knowhub_core::scope::parse("scope", &s)?)),
        None => Ok(None),
    }
}
/// Lowest rating of the successes a search returns (failure lessons pass whatever their rating).
pub const MIN_SCORE: IntRange = IntRange { min: 1, max: 5, default: validate::DEFAULT_SCORE as i64 };
/// Queue items per page.
pub const PENDING_LIMIT: IntRange = IntRange { min: 1, max: 100, default: 20 };
/// Resources per listing.
pub const RESOURCES_LIMIT: IntRange = IntRange { min: 1, max: 100, default: 20 };
/// Weeks the dashboard looks back.
pub const DASHBOARD_WEEKS: IntRange = IntRange { min: 1, max: 52, default: 8 };
/// Seconds an upload may wait for its extraction job.
pub const EXTRACT_WAIT: IntRange = IntRange { min: 0, max: 120, default: 0 };

/// A text parameter, refused when it holds U+0000: no store keeps it (PostgreSQL text cannot).
fn text(field: &str, v: Option<String>) -> Result<Option<String>> {
    match v {
        Some(s) if s.contains('\0') => Err(CoreError::invalid(field, "must not contain NUL (U+0000) characters")),
        v => Ok(v),
    }
}

/// `GET /api/search`, `kb_search`, the console's search page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchRequest {
    pub q: Option<String>,
    pub top_k: Option<String>,
    pub min_score: Option<String>,
    pub agent_id: Option<String>,
    pub mode: Option<String>,
    pub min_relevance: Option<String>,
    pub outcome: Option<String>,
    pub scope: Option<String>,
}

impl SearchRequest {
    pub fn validate(self) -> Result<SearchQuery> {
        let q = text("q", self.q)?.unwrap_or_default();
        if q.trim().is_empty() {
            return Err(CoreError::invalid("q", "is required and must not be blank"));
        }
        if q.chars().count() > MAX_QUERY {
            return Err(CoreError::invalid("q", format!("is over {MAX_QUERY} characters")));
        }
        let top_k = TOP_K.parse("top_k", self.top_k.as_deref())? as usize;
        let min_score = MIN_SCORE.parse("min_score", self.min_score.as_deref())? as u8;
        let mode = match self.mode.as_deref().map(str::trim) {
            None | Some("") => SearchMode::Hybrid,
            Some(m) => SearchMode::parse(m)
                .ok_or_else(|| CoreError::invalid("mode", format!("must be hybrid | fts | vector, got {m:?}")))?,
        };
        let agent_id = text("agent_id", self.agent_id)?.map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
        let outcome =
            match self.outcome.as_deref().map(str::trim) {
                None | Some("") => None,
                Some(o) => Some(Outcome::parse(o).ok_or_else(|| {
                    CoreError::invalid("outcome", format!("must be {}, got {o:?}", Outcome::expected()))
                })?),
            };
        let (lo, hi) = MIN_RELEVANCE;
        let min_relevance = match self.min_relevance.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s) => match s.parse::<f64>() {
                Ok(v) if (lo..=hi).contains(&v) => Some(v),
                _ => {
                    return Err(CoreError::invalid(
                        "min_relevance",
                        format!("must be a number from {lo} to {hi}, got {s:?}"),
                    ))
                }
            },
        };
        let scope = match text("scope", self.scope)?.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()) {
            Some(s) => Some(knowhub_core::scope::parse("scope", &s)?),
            None => None,
        };
        Ok(SearchQuery {
            q: q.trim().to_string(),
            top_k,
            filter: SearchFilter { min_score, agent_id, ..Default::default() },
            outcome,
            mode,
            min_relevance,
            scope,
        })
    }
}

impl From<&SearchQuery> for SearchRequest {
    /// The request that validates to `q` (what a client of the REST API sends for a query it
    /// checked itself). Only what the API takes: `q.filter`'s other fields are not sent.
    fn from(q: &SearchQuery) -> Self {
        let mode = match q.mode {
            SearchMode::Hybrid => "hybrid",
            SearchMode::Fts => "fts",
            SearchMode::Vector => "vector",
        };
        SearchRequest {
            q: Some(q.q.clone()),
            top_k: Some(q.top_k.to_string()),
            min_score: Some(q.filter.min_score.to_string()),
            agent_id: q.filter.agent_id.clone(),
            mode: Some(mode.to_string()),
            // Display round-trips: the hub parses back the very same number.
            min_relevance: q.min_relevance.map(|r| r.to_string()),
            outcome: q.outcome.map(|o| o.to_string()),
            scope: q.scope.clone(),
        }
    }
}

/// `POST /api/feedback`.
// Also `kb_feedback`; checked by `Hub::feedback`. (Doc comments here are the API's descriptions.)
#[derive(Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedbackRequest {
    pub id: Option<String>,
    pub outcome: Option<String>,
    pub note: Option<String>,
    pub agent_id: Option<String>,
}

/// `GET /api/pending`: a page of the review queue.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PendingRequest {
    pub after: Option<String>,
    pub limit: Option<String>,
    pub kind: Option<String>,
}

/// A validated [`PendingRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct PendingQuery {
    pub kind: QueueKind,
    pub after: Option<String>,
    pub limit: usize,
}

impl PendingRequest {
    pub fn validate(self) -> Result<PendingQuery> {
        let limit = PENDING_LIMIT.parse("limit", self.limit.as_deref())? as usize;
        let after = text("after", self.after)?.filter(|a| !a.trim().is_empty());
        let kind = match self.kind.as_deref().map(str::trim) {
            None | Some("") => QueueKind::Pending,
            Some(k) => QueueKind::parse(k).ok_or_else(|| {
                CoreError::invalid("kind", format!("must be pending | disputed | quarantined | expired, got {k:?}"))
            })?,
        };
        Ok(PendingQuery { kind, after, limit })
    }
}

/// `POST /api/reject/{id}`: an optional reason.
// Checked by `Hub::reject`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RejectBody))]
#[serde(deny_unknown_fields)]
pub struct RejectRequest {
    pub reason: Option<String>,
}

/// `POST /api/merge/{id}`: the approved record a pending item repeats.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = MergeBody))]
#[serde(deny_unknown_fields)]
pub struct MergeRequest {
    /// The approved record's id.
    pub into: String,
}

/// `POST /api/experiences/{id}/scope`: where a reviewer moves a record.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = ScopeBody))]
#[serde(deny_unknown_fields)]
pub struct ScopeRequest {
    /// The new scope (`org`, `team/<name>`, `project/<name>`, `private/<owner>`).
    pub scope: String,
}

/// `POST /api/experiences/{id}/revert`: which edit of its history to undo.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = RevertBody))]
#[serde(deny_unknown_fields)]
pub struct RevertRequest {
    /// The `seq` of an `edited` event in the record's history.
    pub event: i64,
}

impl ScopeRequest {
    pub fn validate(self) -> Result<String> {
        knowhub_core::scope::parse("scope", &self.scope)
    }
}

impl MergeRequest {
    /// The target's id; its form is checked by [`crate::Hub::merge`].
    pub fn validate(self) -> Result<String> {
        if self.into.contains('\0') {
            return Err(CoreError::invalid("into", "must not contain NUL"));
        }
        Ok(self.into)
    }
}

/// `GET /api/resources`: resources whose names contain `q`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ResourcesRequest {
    pub q: Option<String>,
    pub limit: Option<String>,
}

impl ResourcesRequest {
    /// The text to match (length checked by [`crate::Hub::resources`]) and how many to list.
    pub fn validate(self) -> Result<(Option<String>, usize)> {
        let limit = RESOURCES_LIMIT.parse("limit", self.limit.as_deref())? as usize;
        Ok((text("q", self.q)?, limit))
    }
}

/// `GET /api/dashboard`.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct DashboardRequest {
    pub weeks: Option<String>,
}

impl DashboardRequest {
    pub fn validate(self) -> Result<u32> {
        Ok(DASHBOARD_WEEKS.parse("weeks", self.weeks.as_deref())? as u32)
    }
}

/// The `wait` of `POST /api/extract`: how long to wait for the job before answering.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ExtractWait {
    pub wait: Option<String>,
}

impl ExtractWait {
    /// `None` when the caller did not ask to wait.
    pub fn validate(self) -> Result<Option<Duration>> {
        match self.wait.as_deref() {
            None => Ok(None),
            w => Ok(Some(Duration::from_secs(EXTRACT_WAIT.parse("wait", w)? as u64))),
        }
    }
}

/// `POST /api/keys`: a new key's name and role.
// The name is checked where the key is made (`access::generate_key`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = NewKeyBody))]
#[serde(deny_unknown_fields)]
pub struct NewKeyRequest {
    pub name: String,
    /// agent | reviewer | admin
    #[cfg_attr(feature = "openapi", schema(value_type = knowhub_core::Role))]
    pub role: String,
    /// The scopes it reads: `*` for all, or a comma-separated list (`org,team/backend`). Default:
    /// `org` for an agent, `*` for a reviewer or admin. Its own `private/<name>` comes on top.
    #[serde(default)]
    pub read: Option<String>,
    /// The scope its writes go to when they name none (default `org`); it joins `read`.
    #[serde(default)]
    pub write: Option<String>,
}

/// A validated [`NewKeyRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct KeySpec {
    pub name: String,
    pub role: Role,
    pub read: knowhub_core::ReadScopes,
    pub write: String,
}

impl NewKeyRequest {
    pub fn validate(self) -> Result<KeySpec> {
        let role =
            Role::parse(&self.role).ok_or_else(|| CoreError::invalid("role", "must be agent | reviewer | admin"))?;
        let read = match self.read.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            Some(r) => knowhub_core::ReadScopes::parse_list("read", r)?,
            None => knowhub_core::ReadScopes::default_for(role),
        };
        let write = match self.write.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
            Some(w) => knowhub_core::scope::parse("write", w)?,
            None => knowhub_core::scope::ORG.to_string(),
        };
        Ok(KeySpec { name: self.name, role, read, write })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(raw: &str) -> Result<SearchQuery> {
        serde_json::from_str::<SearchRequest>(raw).unwrap().validate()
    }

    #[test]
    fn search_defaults_and_each_bad_value_named() {
        let d = search(r#"{"q": " x "}"#).unwrap();
        assert_eq!(
            (d.q.as_str(), d.top_k, d.filter.min_score, d.mode, d.min_relevance),
            ("x", 5, 3, SearchMode::Hybrid, None)
        );
        let long = format!(r#"{{"q": "{}"}}"#, "字".repeat(MAX_QUERY));
        assert!(search(&long).is_ok(), "the limit itself is allowed");
        let cases = [
            (r#"{}"#, "q"),
            (r#"{"q": "  "}"#, "q"),
            (r#"{"q": "a\u0000b"}"#, "q"),
            (r#"{"q": "x", "top_k": "51"}"#, "top_k"),
            (r#"{"q": "x", "min_score": "0"}"#, "min_score"),
            (r#"{"q": "x", "mode": "magic"}"#, "mode"),
            (r#"{"q": "x", "min_relevance": "NaN"}"#, "min_relevance"),
        ];
        for (raw, field) in cases {
            let e = search(raw).unwrap_err();
            assert_eq!(e.field(), Some(field), "{raw}: {e}");
        }
        let over = format!(r#"{{"q": "{}"}}"#, "字".repeat(MAX_QUERY + 1));
        assert_eq!(search(&over).unwrap_err().to_string(), "q: is over 2000 characters");
        assert_eq!(
            search(r#"{"q": "x", "top_k": "abc"}"#).unwrap_err().to_string(),
            "top_k: must be an integer from 1 to 50, got \"abc\""
        );
    }

    #[test]
    fn ranges_parse_text_and_keep_their_defaults() {
        assert_eq!(PENDING_LIMIT.parse("limit", None).unwrap(), 20);
        assert_eq!(PENDING_LIMIT.parse("limit", Some(" ")).unwrap(), 20);
        assert_eq!(DASHBOARD_WEEKS.parse("weeks", Some("52")).unwrap(), 52);
        assert!(DASHBOARD_WEEKS.parse("weeks", Some("53")).is_err());
        assert_eq!(ExtractWait { wait: None }.validate().unwrap(), None);
        assert_eq!(ExtractWait { wait: Some("3".into()) }.validate().unwrap(), Some(Duration::from_secs(3)));
        let p =
            PendingRequest { kind: Some("disputed".into()), after: Some(" ".into()), limit: None }.validate().unwrap();
        assert_eq!(p, PendingQuery { kind: QueueKind::Disputed, after: None, limit: 20 });
        assert_eq!(
            PendingRequest { kind: Some("old".into()), ..Default::default() }.validate().unwrap_err().field(),
            Some("kind")
        );
        assert_eq!(
            NewKeyRequest { name: "n".into(), role: "root".into(), ..Default::default() }
                .validate()
                .unwrap_err()
                .field(),
            Some("role")
        );
        let bad_read =
            NewKeyRequest { name: "n".into(), role: "agent".into(), read: Some("org,x".into()), write: None };
        assert_eq!(bad_read.validate().unwrap_err().field(), Some("read"));
        let spec = NewKeyRequest { name: "n".into(), role: "agent".into(), read: None, write: Some(" team/a ".into()) }
            .validate()
            .unwrap();
        assert_eq!((spec.read.to_list(), spec.write), ("org".to_string(), "team/a".to_string()));
        assert_eq!(MergeRequest { into: "a\0".into() }.validate().unwrap_err().field(), Some("into"));
    }

    #[test]
    fn a_validated_search_gives_back_a_request_that_validates_to_it() {
        let raw = r#"{"q": "超时", "top_k": "7", "min_score": "1", "agent_id": "ops", "mode": "fts",
                      "min_relevance": "0.1", "outcome": "failure", "scope": "team/a"}"#;
        let q = search(raw).unwrap();
        let again = SearchRequest::from(&q).validate().unwrap();
        assert_eq!(
            (again.q, again.top_k, again.filter, again.outcome, again.mode, again.min_relevance, again.scope),
            (q.q, q.top_k, q.filter, q.outcome, q.mode, q.min_relevance, q.scope)
        );
        let d = SearchRequest::from(&search(r#"{"q": "x"}"#).unwrap());
        assert_eq!((d.agent_id, d.min_relevance, d.outcome), (None, None, None));
    }
}
