//! What every request passes before a handler: the `Host` check against DNS rebinding, an early
//! 413 for a declared oversize body, and `application/json` on every state-changing API route
//! (a web page can send a bodiless cross-site POST without one, never with one: that needs CORS).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::MAX_BODY;

/// Which `Host` headers a hub accepts.
///
/// `configured` wins when given. Otherwise: loopback names plus the bound address; and on a
/// non-loopback bind with keys required, any host, because clients reach such a hub by names we
/// cannot know, and rebinding gains an attacker nothing without a key. Empty means any host.
pub fn allowed_hosts(bind: SocketAddr, auth: bool, configured: &[String]) -> Vec<String> {
    let configured: Vec<String> = configured.iter().map(|h| h.trim().to_string()).filter(|h| !h.is_empty()).collect();
    if !configured.is_empty() {
        return configured;
    }
    if auth && !bind.ip().is_loopback() {
        return Vec::new();
    }
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
    let ip = bind.ip().to_string();
    if !hosts.contains(&ip) && !bind.ip().is_unspecified() {
        hosts.push(ip);
    }
    hosts
}

/// The host name of a `Host` header value, without port or IPv6 brackets.
fn host_name(value: &str) -> &str {
    let v = value.trim();
    if let Some(rest) = v.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match v.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => v,
    }
}

/// Refuses requests whose `Host` is not one of `hosts` (403), so a web page on another name that
/// resolves to 127.0.0.1 cannot read or write a loopback hub through a visitor's browser.
pub async fn check_host(State(hosts): State<Arc<Vec<String>>>, req: Request, next: Next) -> Response {
    if !hosts.is_empty() {
        let host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).or(req.uri().host());
        if let Some(h) = host {
            let name = host_name(h);
            if !hosts.iter().any(|a| a.eq_ignore_ascii_case(name)) {
                return ApiError::new(
                    StatusCode::FORBIDDEN,
                    "forbidden_host",
                    format!("host {name:?} is not served here (allowed: {}); see --allowed-hosts", hosts.join(", ")),
                )
                .into_response();
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn hosts_follow_the_bind_address_and_auth() {
        let lo = ["localhost", "127.0.0.1", "::1"];
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), false, &[]), lo);
        assert_eq!(allowed_hosts(addr("127.0.0.2:8000"), false, &[]), ["localhost", "127.0.0.1", "::1", "127.0.0.2"]);
        assert_eq!(allowed_hosts(addr("10.1.2.3:8000"), true, &[]), Vec::<String>::new(), "any host, keys guard it");
        assert_eq!(allowed_hosts(addr("0.0.0.0:8000"), true, &[]), Vec::<String>::new());
        let mine = vec!["kb.example.com".to_string()];
        assert_eq!(allowed_hosts(addr("0.0.0.0:8000"), true, &mine), mine);
        let blank = vec![String::new(), " ".to_string()];
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), false, &blank), lo, "an empty setting is no setting");
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), true, &[]), lo, "loopback keeps the check, auth or not");
    }

    #[test]
    fn host_names_lose_port_and_brackets() {
        assert_eq!(host_name("localhost:8000"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:8000"), "::1");
        assert_eq!(host_name("evil.example:80"), "evil.example");
    }
}
