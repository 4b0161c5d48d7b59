//! Core errors, each with a stable code that every adapter reports the same way (the REST API's
//! `{"error": {"code", "message", "field"}}`, MCP tool errors, the console). Only the HTTP crate
//! maps codes to status codes.

/// Errors the domain and the stores report.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// Input failed validation; `field` names the culprit so clients can fix it.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    #[error("{0} not found")]
    NotFound(String),
    #[error("conflict: {0}")]
    Conflict(String),
    /// No credentials, or credentials that match no active key.
    #[error("unauthorized: {0}")]
    Unauthorized(String),
    /// A valid key whose role does not allow the operation.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// An optional feature (LLM extraction) is not configured on this server.
    #[error("not configured: {0}")]
    NotConfigured(String),
    /// The caller spent its budget for this kind of request; it may retry after the given seconds.
    #[error("rate limited: {message}")]
    RateLimited { message: String, retry_after_secs: u64 },
    /// A service the hub relies on for this request (the configured LLM) failed or answered
    /// with nothing usable; retrying later may work.
    #[error("upstream: {0}")]
    Upstream(String),
    /// The backing store (disk, database) is unavailable; retrying later may work.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl CoreError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        CoreError::Invalid { field: field.into(), message: message.into() }
    }

    /// The machine-readable code clients branch on; part of the API contract (docs/api.md).
    pub fn code(&self) -> &'static str {
        match self {
            CoreError::Invalid { .. } => "invalid_field",
            CoreError::NotFound(_) => "not_found",
            CoreError::Conflict(_) => "conflict",
            CoreError::Unauthorized(_) => "unauthorized",
            CoreError::Forbidden(_) => "forbidden",
            CoreError::NotConfigured(_) => "not_configured",
            CoreError::RateLimited { .. } => "rate_limited",
            CoreError::Upstream(_) => "upstream",
            CoreError::Unavailable(_) => "unavailable",
            CoreError::Internal(_) => "internal",
        }
    }

    /// The input field to blame, when one is.
    pub fn field(&self) -> Option<&str> {
        match self {
            CoreError::Invalid { field, .. } => Some(field),
            _ => None,
        }
    }

    /// Seconds after which a rate-limited caller may retry.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            CoreError::RateLimited { retry_after_secs, .. } => Some(*retry_after_secs),
            _ => None,
        }
    }

    /// What a client is told. A store outage or an internal fault is told in general words: its
    /// details (paths, SQL, addresses) belong in the server's log, not in an answer.
    pub fn public_message(&self) -> String {
        match self {
            CoreError::Invalid { field, message } => format!("{field}: {message}"),
            CoreError::NotFound(what) => format!("{what} not found"),
            CoreError::Conflict(m)
            | CoreError::Unauthorized(m)
            | CoreError::Forbidden(m)
            | CoreError::NotConfigured(m)
            | CoreError::Upstream(m)
            | CoreError::RateLimited { message: m, .. } => m.clone(),
            CoreError::Unavailable(_) => "the store is temporarily unavailable; retry shortly".into(),
            CoreError::Internal(_) => "internal error".into(),
        }
    }

    /// Whether the error is the server's fault (an outage or a bug), which an adapter logs,
    /// rather than the caller's.
    pub fn is_server_fault(&self) -> bool {
        matches!(self, CoreError::Unavailable(_) | CoreError::Internal(_))
    }
}

pub type Result<T, E = CoreError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_and_internal_details_stay_private() {
        let e = CoreError::invalid("score", "must be an integer from 1 to 5, got 9");
        assert_eq!((e.code(), e.field()), ("invalid_field", Some("score")));
        assert_eq!(e.public_message(), "score: must be an integer from 1 to 5, got 9");
        assert_eq!(CoreError::NotFound("experience \"x\"".into()).public_message(), "experience \"x\" not found");
        let limited = CoreError::RateLimited { message: "slow down".into(), retry_after_secs: 7 };
        assert_eq!((limited.code(), limited.retry_after()), ("rate_limited", Some(7)));
        let down = CoreError::Unavailable("/var/lib/knowhub/hub.db: disk I/O error".into());
        assert!(down.is_server_fault());
        assert!(!down.public_message().contains("/var/lib"), "{}", down.public_message());
        let bug = CoreError::Internal("SELECT failed at row 3".into());
        assert_eq!((bug.code(), bug.public_message().as_str()), ("internal", "internal error"));
        assert!(!CoreError::Forbidden("reviewer needed".into()).is_server_fault());
    }
}
