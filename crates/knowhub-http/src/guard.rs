//! What every request passes before a handler: the `Host` check against DNS rebinding (the rule
//! is [`knowhub_service::hosts`]), an early 413 for a declared oversize body, and
//! `application/json` on every state-changing API route (a web page can send a bodiless
//! cross-site POST without one, never with one: that needs CORS).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::MAX_BODY;

pub use knowhub_service::hosts::allowed_hosts;

/// Refuses requests whose `Host` is not one of `hosts` (403), so a web page on another name that
/// resolves to 127.0.0.1 cannot read or write a loopback hub through a visitor's browser.
pub async fn check_host(State(hosts): State<Arc<Vec<String>>>, req: Request, next: Next) -> Response {
    let host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).or(req.uri().host());
    if let Err(message) = knowhub_service::hosts::check(&hosts, host) {
        return ApiError::new(StatusCode::FORBIDDEN, "forbidden_host", message).into_response();
    }
    next.run(req).await
}

/// `application/json` (any parameters), or the 415 every JSON route answers without it.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let ct = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if ct.trim().to_ascii_lowercase().starts_with("application/json") {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "expected content-type: application/json (also for a request without a body)",
        ))
    }
}

/// Early 413 and the JSON content type on state-changing `/api/` routes, before auth or a body read.
pub async fn check_request(req: Request, next: Next) -> Response {
    let declared = req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("request body is over {MAX_BODY} bytes"),
        )
        .into_response();
    }
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if changes_state && req.uri().path().starts_with("/api/") {
        if let Err(e) = require_json(req.headers()) {
            return e.into_response();
        }
    }
    next.run(req).await
}
