//! The KnowHub HTTP API: a thin axum adapter over [`knowhub_service::Hub`]. Handlers extract,
//! call the Hub as the authenticated caller, and map the result; `error` is the one place errors
//! become status codes.

pub mod auth;
pub mod error;
pub mod http;

pub use http::app;

/// Serves the API on `listener` until the process ends (benchmarks and tests; the binary adds
/// graceful shutdown), so callers need no web framework of their own.
pub async fn serve(listener: tokio::net::TcpListener, app: axum::Router) -> std::io::Result<()> {
    axum::serve(listener, app).await
}
