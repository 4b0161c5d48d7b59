//! `/mcp` on `knowhub serve`: stateless Streamable HTTP (one JSON answer per POST, no sessions),
//! behind the same bearer keys and roles as the REST API. The auth layer resolves the key with
//! `Hub::authenticate` and puts the `Caller` on the request, where the handler finds it.

use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use knowhub_core::{CoreError, Role};
use knowhub_service::{ErrorBody, Hub};
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::backend::InProcess;
use crate::server::KnowHubMcp;

/// Browser origins allowed to call `/mcp` (requests without an `Origin`, as agent hosts send
/// them, always pass). A page elsewhere cannot drive a local hub through a visitor's browser.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

pub use knowhub_service::hosts::allowed_hosts;

/// The `/mcp` route, to merge into the REST router.
pub fn router(hub: Arc<Hub>, allowed_hosts: Vec<String>) -> Router {
    let handler = KnowHubMcp::new(Arc::new(InProcess { hub: hub.clone() }), None);
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_allowed_hosts(allowed_hosts)
        .with_allowed_origins(LOOPBACK_ORIGINS)
        .with_max_request_body_bytes(knowhub_service::requests::MAX_BODY);
    let service =
        StreamableHttpService::new(move || Ok(handler.clone()), Arc::new(NeverSessionManager::default()), config);
    Router::new().route_service("/mcp", service).route_layer(middleware::from_fn_with_state(hub, authenticate))
}

/// Every MCP tool needs at least the agent role; without a valid key the answer is the REST
/// API's 401 (`WWW-Authenticate: Bearer`, `{"error": {...}}`), not a JSON-RPC message.
async fn authenticate(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    let header = req.headers().get(axum::http::header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
    match hub.authenticate(header, Role::Agent).await {
        Ok(caller) => {
            // The peer's address tells callers apart for rate limits when no key does.
            let origin = req.extensions().get::<ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip().to_string());
            req.extensions_mut().insert(caller.with_origin(origin));
            next.run(req).await
        }
        Err(e) => refusal(e),
    }
}

/// The status the service gives each core error ([`knowhub_service::error::http_status`]).
pub fn status_of(e: &CoreError) -> StatusCode {
    StatusCode::from_u16(knowhub_service::error::http_status(e)).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A refused key answered as the REST API answers it: its status, the one error body, and
/// `WWW-Authenticate: Bearer` on a 401.
fn refusal(e: CoreError) -> Response {
    let status = status_of(&e);
    let mut res = (status, axum::Json(ErrorBody::from(e))).into_response();
    if status == StatusCode::UNAUTHORIZED {
        res.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    res
}
