//! `/mcp` on `knowhub serve`: stateless Streamable HTTP (one JSON answer per POST, no sessions),
//! behind the same bearer keys and roles as the REST API. The auth layer resolves the key with
//! `Hub::authenticate` and puts the `Caller` on the request, where the handler finds it.

use std::net::SocketAddr;
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

/// Which `Host` headers `/mcp` accepts (rmcp refuses others with 403, against DNS rebinding).
///
/// `configured` (from `--mcp-allowed-hosts`) wins when given. Otherwise: loopback names plus the
/// bound address; and on a non-loopback bind with keys required, any host, because clients
/// reach such a hub by names we cannot know, and rebinding gains an attacker nothing without a
/// key. An empty list means "any" to rmcp.
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
            req.extensions_mut().insert(caller);
            next.run(req).await
        }
        Err(e) => ApiError::from(e).into_response(),
    }
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
}
