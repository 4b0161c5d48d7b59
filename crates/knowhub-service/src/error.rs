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
