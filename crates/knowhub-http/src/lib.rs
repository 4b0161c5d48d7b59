//! The KnowHub HTTP API: a thin axum adapter over [`knowhub_service::Hub`]. Handlers extract,
//! call the Hub as the authenticated caller, and map the result; `error` is the one place errors
//! become status codes.

pub mod auth;
pub mod console_api;
pub mod error;
pub mod guard;
pub mod http;
pub mod openapi;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

pub use http::{app, app_with};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;

/// What one client may hold of the server, so slow or idle connections cannot starve the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimits {
    /// Open connections at most; at the cap the server stops accepting until one closes (the
    /// rest wait in the kernel's backlog) instead of running out of file descriptors.
    pub max_connections: usize,
    /// A client that has not sent a whole request head by then is disconnected (slowloris).
    pub header_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits { max_connections: 4096, header_timeout: Duration::from_secs(10) }
    }
}

impl ConnLimits {
    /// `max_connections` lowered to fit the process's open-file limit (keeping room for the
    /// store, logs and outgoing calls), after raising the soft limit to the hard one.
    pub fn fit_to_fd_limit(mut self) -> Self {
        if let Some(n) = raise_fd_limit() {
            self.max_connections = self.max_connections.min(n.saturating_sub(256).max(16));
        }
        self
    }
}

#[cfg(unix)]
fn raise_fd_limit() -> Option<usize> {
    // SAFETY: getrlimit/setrlimit only read and write the struct we pass.
    unsafe {
        let mut l = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) != 0 {
            return None;
        }
        if l.rlim_cur < l.rlim_max {
            let raised = libc::rlimit { rlim_cur: l.rlim_max, rlim_max: l.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                l = raised;
            }
        }
        Some(usize::try_from(l.rlim_cur).unwrap_or(usize::MAX))
    }
}

#[cfg(not(unix))]
fn raise_fd_limit() -> Option<usize> {
    None
}

/// Serves the API on `listener` until the process ends, with default limits (benchmarks and
/// tests), so callers need no web framework of their own.
pub async fn serve(listener: tokio::net::TcpListener, app: axum::Router) -> std::io::Result<()> {
    serve_with(listener, app, ConnLimits::default(), std::future::pending()).await
}

/// Serves `app` with connection limits until `shutdown` completes, then lets requests in flight
/// finish (for up to 10 s). Each request carries the peer address (`ConnectInfo`), which the
/// rate limits use when no key identifies the caller.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => match p { Ok(p) => p, Err(_) => break },
            _ = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // EMFILE and friends: wait for descriptors to free up rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let svc =
            tower::ServiceExt::map_request(app.clone(), move |mut req: axum::http::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(axum::extract::ConnectInfo(peer));
                req
            });
        let conn = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(svc)).into_owned();
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {},
        _ = tokio::time::sleep(Duration::from_secs(10)) => tracing::warn!("connections still open after 10 s; closing"),
    }
    Ok(())
}
