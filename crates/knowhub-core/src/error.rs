//! Core errors. One place in the server maps them to HTTP status codes.

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
}

pub type Result<T, E = CoreError> = std::result::Result<T, E>;
