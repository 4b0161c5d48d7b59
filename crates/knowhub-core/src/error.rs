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
