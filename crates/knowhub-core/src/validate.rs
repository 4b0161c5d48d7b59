//! Validation of submitted experiences. The limits are part of the API contract (docs/api.md).

use serde::{Deserialize, Serialize};

use crate::error::{CoreError, Result};
use crate::model::{parse_rfc3339, NewExperience, Outcome, Source, Status};

pub const MAX_TASK: usize = 2_000;
pub const MAX_RESOURCE: usize = 2_000;
pub const MAX_RESULT: usize = 8_000;
pub const MAX_CONTENT: usize = 200_000;
pub const MAX_SHORT: usize = 200;
pub const MAX_CONTENT_TYPE: usize = 100;
pub const MAX_VERSION: usize = 100;
pub const MAX_NOTE: usize = 2_000;
/// Longest id a path or body may name (ids are UUIDs; anything longer names nothing).
pub const MAX_ID: usize = 64;
pub const DEFAULT_SCORE: u8 = 3;
pub const DEFAULT_CONTENT_TYPE: &str = "text/markdown";

/// The body of `POST /api/submit` (also one line of a plain JSONL import).
/// Types are checked by serde (wrong type -> error naming the field); values here.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubmitRequest {
    pub task: Option<String>,
    pub resource: Option<String>,
    pub result: Option<String>,
    pub score: Option<i64>,
    pub outcome: Option<String>,
    pub submitted_by: Option<String>,
    pub agent_id: Option<String>,
    pub session_key: Option<String>,
    pub timestamp: Option<String>,
    pub content: Option<String>,
    pub content_type: Option<String>,
    /// The version of the resource the experience holds for, e.g. `vitest 3.2`.
    pub resource_version: Option<String>,
    /// The scope to store it in (`org`, `team/<name>`, `project/<name>`, `private/<owner>`): one
    /// the caller's key may write. Omitted: the key's write scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// When it stops being shown unless re-confirmed (RFC 3339, in the future). Not with `ttl_days`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// Days it lives without re-confirmation (1-3650); each confirmation or `helped` vote renews it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_days: Option<i64>,
}

/// A required text field: present, not blank after trimming, at most `max` characters.
pub fn required(field: &str, v: Option<String>, max: usize) -> Result<String> {
    let v = v.ok_or_else(|| CoreError::invalid(field, "is required"))?;
    let t = v.trim();
    if t.is_empty() {
        return Err(CoreError::invalid(field, "must not be empty"));
    }
    check_len(field, t, max)?;
    Ok(t.to_string())
}

fn check_len(field: &str, v: &str, max: usize) -> Result<()> {
    // No store keeps U+0000 (PostgreSQL text cannot), and no real text needs it.
    if v.contains('\0') {
        return Err(CoreError::invalid(field, "must not contain NUL (U+0000) characters"));
    }
    let n = v.chars().count();
    if n > max {
        return Err(CoreError::invalid(field, format!("is {n} characters; the limit is {max}")));
    }
    Ok(())
}

/// A time field, which must be RFC 3339.
pub fn rfc3339(field: &str, v: &str) -> Result<time::OffsetDateTime> {
    parse_rfc3339(v).ok_or_else(|| CoreError::invalid(field, "must be an RFC 3339 time such as 2026-11-21T07:30:00Z"))
}

/// An optional text field, trimmed (absent = empty), at most `max` characters.
pub fn optional(field: &str, v: Option<String>, max: usize) -> Result<String> {
    let v = v.map(|s| s.trim().to_string()).unwrap_or_default();
    check_len(field, &v, max)?;
    Ok(v)
}

/// Checks a 1-5 rating.
pub fn score(v: Option<i64>) -> Result<u8> {
    match v {
        None => Ok(DEFAULT_SCORE),
        Some(s @ 1..=5) => Ok(s as u8),
        Some(s) => Err(CoreError::invalid("score", format!("must be an integer from 1 to 5, got {s}"))),
    }
}

pub fn outcome(v: Option<&str>) -> Result<Outcome> {
    match v.map(str::trim) {
        None | Some("") => Ok(Outcome::Success),
        Some(s) => Outcome::parse(&s.to_ascii_lowercase())
            .ok_or_else(|| CoreError::invalid("outcome", format!("must be one of {}, got {s:?}", Outcome::expected()))),
    }
}

impl SubmitRequest {
    /// Validates a submit into a record with the given provenance.
    pub fn validate(self, source: Source, status: Status) -> Result<NewExperience> {
        let task = required("task", self.task, MAX_TASK)?;
        let resource = required("resource", self.resource, MAX_RESOURCE)?;
        let result = required("result", self.result, MAX_RESULT)?;
        let score = score(self.score)?;
        let outcome = outcome(self.outcome.as_deref())?;
        let agent_id = optional("agent_id", self.agent_id, MAX_SHORT)?;
        let submitted_by = optional("submitted_by", self.submitted_by, MAX_SHORT)?;
        let session_key = optional("session_key", self.session_key, MAX_SHORT)?;
        let resource_version = optional("resource_version", self.resource_version, MAX_VERSION)?;
        // An exported expiry comes back as it was (a submit's is checked by the service).
        let expires_at = match self.expires_at.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t) => Some(crate::model::format_rfc3339(rfc3339("expires_at", t)?)),
        };
        // Whether the caller may write there is the service's to check; here only the form.
        let scope = match self.scope.as_deref().map(str::trim) {
            None | Some("") => crate::scope::ORG.to_string(),
            Some(s) => crate::scope::parse("scope", s)?,
        };
        let created_at = match self.timestamp.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(ts) => {
                let t = rfc3339("timestamp", ts)?;
                // A clock running ahead must not push a record into the future (decay would favour it).
                let now = time::OffsetDateTime::now_utc();
                Some(crate::model::format_rfc3339(t.min(now)))
            }
        };
        let content = match self.content {
            None => None,
            Some(c) if c.trim().is_empty() => None,
            Some(c) => {
                check_len("content", &c, MAX_CONTENT)?;
                let ct = optional("content_type", self.content_type, MAX_CONTENT_TYPE)?;
                let ct = if ct.is_empty() { DEFAULT_CONTENT_TYPE.to_string() } else { ct };
                Some((c, ct))
            }
        };
        Ok(NewExperience {
            task,
            resource,
            result,
            score,
            outcome,
            agent_id,
            submitted_by,
            session_key: (!session_key.is_empty()).then_some(session_key),
            resource_version: (!resource_version.is_empty()).then_some(resource_version),
            source,
            status,
            created_at,
            content,
            scope,
            expires_at,
            ..Default::default()
        })
    }
}

/// Validates the id format accepted in paths (UUID-ish, no path tricks), so stores never see junk.
pub fn id(v: &str) -> Result<&str> {
    let ok = !v.is_empty() && v.len() <= MAX_ID && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(v)
    } else {
        Err(CoreError::NotFound(format!("experience {v:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> SubmitRequest {
        SubmitRequest {
            task: Some("  修复 PostgreSQL 连接超时 ".into()),
            resource: Some("pgbouncer".into()),
            result: Some("ok".into()),
            ..Default::default()
        }
    }

    fn field_of(e: CoreError) -> String {
        match e {
            CoreError::Invalid { field, .. } => field,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn trims_and_defaults() {
        let n = req().validate(Source::Manual, Status::Approved).unwrap();
        assert_eq!(n.task, "修复 PostgreSQL 连接超时");
        assert_eq!(n.score, 3);
        assert_eq!(n.outcome, Outcome::Success);
        assert_eq!(n.confirmations, 1);
        assert_eq!(n.session_key, None);
    }

    #[test]
    fn missing_and_blank_fields_are_named() {
        for f in ["task", "resource", "result"] {
            let mut r = req();
            match f {
                "task" => r.task = None,
                "resource" => r.resource = Some("   \n\t".into()),
                _ => r.result = Some(String::new()),
            }
            assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), f);
        }
    }

    #[test]
    fn score_bounds() {
        for bad in [0, 6, -1, 100] {
            let mut r = req();
            r.score = Some(bad);
            assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "score");
        }
        for good in 1..=5 {
            let mut r = req();
            r.score = Some(good);
            assert_eq!(r.validate(Source::Manual, Status::Approved).unwrap().score as i64, good);
        }
    }

    #[test]
    fn length_limits_count_characters_not_bytes() {
        let mut r = req();
        r.task = Some("超".repeat(MAX_TASK)); // 6,000 bytes but 2,000 characters: allowed
        assert!(r.clone().validate(Source::Manual, Status::Approved).is_ok());
        r.task = Some("超".repeat(MAX_TASK + 1));
        assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "task");
        let mut r = req();
        r.result = Some("x".repeat(MAX_RESULT + 1));
        assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "result");
        let mut r = req();
        r.content = Some("x".repeat(MAX_CONTENT + 1));
        assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "content");
        let mut r = req();
        r.agent_id = Some("a".repeat(MAX_SHORT + 1));
        assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "agent_id");
    }

    #[test]
    fn outcome_and_timestamp() {
        let mut r = req();
        r.outcome = Some("FAILURE".into());
        assert_eq!(r.clone().validate(Source::Manual, Status::Approved).unwrap().outcome, Outcome::Failure);
        r.outcome = Some("meh".into());
        assert_eq!(field_of(r.validate(Source::Manual, Status::Approved).unwrap_err()), "outcome");
        let mut r = req();
        r.timestamp = Some("yesterday".into());
        assert_eq!(field_of(r.clone().validate(Source::Manual, Status::Approved).unwrap_err()), "timestamp");
        r.timestamp = Some("2026-01-02T03:04:05+08:00".into());
        assert_eq!(
            r.clone().validate(Source::Manual, Status::Approved).unwrap().created_at.unwrap(),
            "2026-01-01T19:04:05Z"
        );
        r.timestamp = Some("2999-01-01T00:00:00Z".into());
        let future = r.validate(Source::Manual, Status::Approved).unwrap().created_at.unwrap();
        assert!(future.as_str() < "2999", "future timestamps are clamped to now: {future}");
    }

    #[test]
    fn content_gets_default_type() {
        let mut r = req();
        r.content = Some("```sh\npg_dump -Fc\n```".into());
        let n = r.validate(Source::Manual, Status::Approved).unwrap();
        assert_eq!(n.content.unwrap().1, "text/markdown");
    }

    #[test]
    fn ids_are_checked() {
        assert!(id("0192f0c4-aaaa-7bbb-8ccc-0123456789ab").is_ok());
        for bad in ["", "../etc/passwd", "a b", &"x".repeat(65)] {
            assert!(id(bad).is_err(), "{bad:?}");
        }
    }
}
