//! Errors as every client sees them: `{"error": {"code", "message", "field"?}}`, with the code
//! from [`CoreError::code`] and the message from [`CoreError::public_message`]. The REST API and
//! `/mcp` answer with this body, MCP tools put it in their structured results, and the stdio MCP
//! client reads it back from a hub.

use knowhub_core::CoreError;
use serde::{Deserialize, Serialize};

/// Every error, on every route: `{"error": {"code", "message", "field"?}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// Stable, machine-readable: `invalid_query`, `invalid_field`, `not_found`, `conflict`, ...
    pub code: String,
    /// For people; names the field and the rule it broke.
    pub message: String,
    /// The offending field or query parameter, when one is to blame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl ErrorBody {
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        ErrorBody { error: ErrorDetail { code: code.into(), message: message.into(), field: None } }
    }

    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.error.field = Some(field.into());
        self
    }
}

/// The HTTP status each core error answers with, on every web route (the REST API, `/mcp`, the
/// console): one table, so the transports cannot drift apart. A number, so the service needs no
/// HTTP crate.
pub fn http_status(e: &CoreError) -> u16 {
    match e {
        CoreError::Invalid { .. } => 400,
        CoreError::Unauthorized(_) => 401,
        CoreError::Forbidden(_) => 403,
        CoreError::NotFound(_) => 404,
        CoreError::Conflict(_) => 409,
        CoreError::RateLimited { .. } => 429,
        CoreError::Internal(_) => 500,
        CoreError::Upstream(_) => 502,
        CoreError::NotConfigured(_) | CoreError::Unavailable(_) => 503,
    }
}

/// Logs what a client is not told: the details of a store outage or an internal fault. Every
/// adapter calls this once per error it answers with.
pub fn log_fault(e: &CoreError) {
    match e {
        CoreError::Unavailable(m) => tracing::warn!(error = %m, "store unavailable"),
        CoreError::Internal(m) => tracing::error!(error = %m, "internal error"),
        _ => {}
    }
}

impl From<CoreError> for ErrorBody {
    /// The client's view of `e` (logged first when it is the server's fault).
    fn from(e: CoreError) -> Self {
        log_fault(&e);
        let body = ErrorBody::new(e.code(), e.public_message());
        match e.field() {
            Some(f) => body.with_field(f),
            None => body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_has_its_own_code_and_a_client_or_server_status() {
        let all = [
            CoreError::invalid("f", "bad"),
            CoreError::NotFound("x".into()),
            CoreError::Conflict("x".into()),
            CoreError::Unauthorized("x".into()),
            CoreError::Forbidden("x".into()),
            CoreError::NotConfigured("x".into()),
            CoreError::RateLimited { message: "x".into(), retry_after_secs: 1 },
            CoreError::Unavailable("x".into()),
            CoreError::Internal("x".into()),
        ];
        for e in &all {
            let s = http_status(e);
            assert_eq!(s >= 500, e.is_server_fault() || matches!(e, CoreError::NotConfigured(_)), "{}: {s}", e.code());
        }
        let codes: std::collections::BTreeSet<&str> = all.iter().map(CoreError::code).collect();
        assert_eq!(codes.len(), all.len(), "each error has its own code");
        assert_eq!(http_status(&CoreError::invalid("f", "bad")), 400);
        assert_eq!(http_status(&CoreError::RateLimited { message: "x".into(), retry_after_secs: 1 }), 429);
    }
}
