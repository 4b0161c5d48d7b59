//! Where errors become HTTP responses: `{"error":{"code","message","field"?}}`. The code and the
//! message come from core ([`CoreError::code`]); the status code for each is decided here.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use knowhub_core::CoreError;
use knowhub_service::error::{ErrorBody, ErrorDetail};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub field: Option<String>,
    /// Seconds for `Retry-After` (429).
    pub retry_after: Option<u64>,
}

/// The status the service gives each core error ([`knowhub_service::error::http_status`]).
pub fn status_of(e: &CoreError) -> StatusCode {
    StatusCode::from_u16(knowhub_service::error::http_status(e)).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
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

    /// An error from checking query-string parameters: a bad value is `invalid_query`.
    pub fn query(e: CoreError) -> Self {
        match e {
            CoreError::Invalid { field, message } => ApiError::bad_query(&field, message),
            e => e.into(),
        }
    }
}

impl From<CoreError> for ApiError {
    fn from(e: CoreError) -> Self {
        knowhub_service::error::log_fault(&e);
        ApiError {
            status: status_of(&e),
            code: e.code(),
            message: e.public_message(),
            field: e.field().map(str::to_string),
            retry_after: e.retry_after(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            ErrorBody { error: ErrorDetail { code: self.code.to_string(), message: self.message, field: self.field } };
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
