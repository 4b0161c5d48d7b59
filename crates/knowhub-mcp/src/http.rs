//! `/mcp` on `knowhub serve`: stateless Streamable HTTP (one JSON answer per POST, no sessions),
//! behind the same bearer keys and roles as the REST API. The auth layer resolves the key with
//! `Hub::authenticate` and puts the `Caller` on the request, where the handler finds it.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use knowhub_core::Role;
use knowhub_http::error::ApiError;
use knowhub_service::Hub;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use crate::backend::InProcess;
use crate::server::KnowHubMcp;

/// Browser origins allowed to call `/mcp` (requests without an `Origin`, as agent hosts send
/// them, always pass). A page elsewhere cannot drive a local hub through a visitor's browser.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

pub use knowhub_http::guard::allowed_hosts;

/// The `/mcp` route, to merge into the REST router.
pub fn router(hub: Arc<Hub>, allowed_hosts: Vec<String>) -> Router {
    let handler = KnowHubMcp::new(Arc::new(InProcess { hub: hub.clone() }), None);
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_allowed_hosts(allowed_hosts)
        .with_allowed_origins(LOOPBACK_ORIGINS)
        .with_max_request_body_bytes(knowhub_http::http::MAX_BODY);
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
            let origin = knowhub_http::auth::peer(req.extensions());
            req.extensions_mut().insert(caller.with_origin(origin));
            next.run(req).await
        }
        Err(e) => ApiError::from(e).into_response(),
    }
}
