//! API-key authentication as axum extractors: a handler states the role it needs by taking
//! `AsAgent`, `AsReviewer` or `AsAdmin`, so a request without it is refused before its body is
//! read. The Hub checks the role again (it is the authority, for MCP as for HTTP). With auth off
//! (the default on loopback) every request is the local operator.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use knowhub_core::{Caller, Role};
use knowhub_service::Hub;

use crate::error::ApiError;

/// The peer's IP address, where the server recorded it in a request's extensions (`serve_with`
/// does): what tells callers apart for rate limits when no key does.
pub fn peer(extensions: &axum::http::Extensions) -> Option<String> {
    extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip().to_string())
}

macro_rules! role_extractor {
    ($(#[$m:meta])* $name:ident, $role:expr) => {
        $(#[$m])*
        pub struct $name(pub Caller);

        impl FromRequestParts<Arc<Hub>> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> std::result::Result<Self, ApiError> {
                let header = parts.headers.get(axum::http::header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
                let caller = hub.authenticate(header, $role).await?;
                Ok($name(caller.with_origin(peer(&parts.extensions))))
            }
        }
    };
}

role_extractor!(
    /// search, submit, content, extract
    AsAgent,
    Role::Agent
);
role_extractor!(
    /// + pending, approve, reject
    AsReviewer,
    Role::Reviewer
);
role_extractor!(
    /// + keys, delete
    AsAdmin,
    Role::Admin
);
