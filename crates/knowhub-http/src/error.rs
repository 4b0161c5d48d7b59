//! The one place where errors become HTTP responses: `{"error":{"code","message","field"?}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use knowhub_core::CoreError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub field: Option<String>,
    /// Seconds for `Retry-After` (429).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), field: None, retry_after: None }
    }

    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    pub fn bad_query(field: &str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_query", format!("{field}: {}", message.into())).with_field(field)
    }

    pub fn not_found(what: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", what)
    }
}

impl From<CoreError> for ApiError {
    fn from(e: CoreError) -> Self {
        match e {
            CoreError::Invalid { field, message } => {
                ApiError::new(StatusCode::BAD_REQUEST, "invalid_field", format!("{field}: {message}")).with_field(field)
            }
            CoreError::NotFound(what) => ApiError::not_found(format!("{what} not found")),
            CoreError::Conflict(m) => ApiError::new(StatusCode::CONFLICT, "conflict", m),
            CoreError::Unauthorized(m) => ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", m),
            CoreError::Forbidden(m) => ApiError::new(StatusCode::FORBIDDEN, "forbidden", m),
            CoreError::RateLimited { message, retry_after_secs } => {
                let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message);
                e.retry_after = Some(retry_after_secs);
                e
            }
            CoreError::NotConfigured(m) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "not_configured", m),
            CoreError::Unavailable(m) => {
                tracing::warn!(error = %m, "store unavailable");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    "the store is temporarily unavailable; retry shortly",
                )
            }
            CoreError::Internal(m) => {
                tracing::error!(error = %m, "internal error");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = crate::openapi::ErrorBody {
            error: crate::openapi::ErrorDetail {
                code: self.code.to_string(),
                message: self.message,
                field: self.field,
            },
        };
        let mut res = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut()
                .insert(axum::http::header::WWW_AUTHENTICATE, axum::http::HeaderValue::from_static("Bearer"));
        }
        if let Some(secs) = self.retry_after {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from(secs));
        }
        res
    }
}
