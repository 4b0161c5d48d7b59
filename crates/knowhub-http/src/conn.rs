//! The server loop: accepts connections under limits that hold from the moment a socket is
//! accepted, before it sends a byte.
//!
//! A connection that never sends anything is invisible to hyper's request-head timer (it starts
//! once reading a head begins, and the HTTP/1-or-2 detection in front of it has no timer at all),
//! so idle sockets alone could fill every slot and lock every client out. Here each connection
//! carries a watchdog:
//! - before its first request, it must deliver a whole request head within `header_timeout` of
//!   being accepted, however it dribbles its bytes;
//! - between requests, it may sit idle for `header_timeout` (hyper's head timer does the same for
//!   HTTP/1, as it restarts after each response; this covers HTTP/2);
//! - while a handler runs, it is never cut (slow bodies have their own timeout).
//!
//! One address (loopback excepted, by default) may hold `max_per_address` connections; a further
//! one is closed at once. When all
//! `max_connections` slots are taken, a new connection evicts an idle one (never one whose request
//! is being handled): one that never completed a request before a kept-alive one, from the address
//! holding the most connections first, the oldest first. So a crowd of idle sockets cannot keep a
//! real client out; only when every slot is busy handling a request is the newcomer turned away.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// What one client may hold of the server, so slow or idle connections cannot starve the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimits {
    /// Open connections at most. At the cap a new connection evicts the longest-idle one, so
    /// the process never runs out of file descriptors and a real client still gets in.
    pub max_connections: usize,
    /// Open connections from one IP address at most (0: no per-address cap). Behind a reverse
    /// proxy every connection comes from the proxy's address: raise it or set 0 there.
    pub max_per_address: usize,
    /// Whether loopback peers are exempt from `max_per_address`: they are this machine (a local
    /// reverse proxy, local agents, load tests), which can already do anything to the server.
    pub loopback_exempt: bool,
    /// A connection must deliver its first whole request head within this time of being
    /// accepted (idle and slowloris sockets); a kept-alive one is closed after this long without
    /// a request.
    pub header_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        ConnLimits {
            max_connections: 4096,
            max_per_address: 256,
            loopback_exempt: true,
            header_timeout: Duration::from_secs(10),
        }
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

/// Milliseconds since the first call: one clock the IO wrapper can store in an atomic.
fn now_ms() -> u64 {
    static BASE: LazyLock<Instant> = LazyLock::new(Instant::now);
    u64::try_from(BASE.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// What the watchdog and the eviction need to know of one connection.
struct ConnState {
    accepted: u64,
    last_io: AtomicU64,
    /// Requests whose handler is running.
    in_flight: AtomicUsize,
    /// Requests whose head arrived (0: still waiting for the first).
    served: AtomicUsize,
    kill: Notify,
}

impl ConnState {
    fn new() -> Self {
        let t = now_ms();
        ConnState {
            accepted: t,
            last_io: AtomicU64::new(t),
            in_flight: AtomicUsize::new(0),
            served: AtomicUsize::new(0),
            kill: Notify::new(),
        }
    }

    fn touch(&self) {
        self.last_io.store(now_ms(), Ordering::Relaxed);
    }

    /// Since when the connection has been idle, in `now_ms` time, and whether it ever completed a
    /// request head: one that never did counts from accept, however it trickles bytes; a
    /// kept-alive one from its last traffic. `None` while a handler runs (never cut or evicted).
    /// The watchdog closes it `header_timeout` after this; eviction takes the never-served first,
    /// oldest first.
    fn idle_since(&self) -> Option<(bool, u64)> {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return None;
        }
        Some(if self.served.load(Ordering::Acquire) == 0 {
            (false, self.accepted)
        } else {
            (true, self.last_io.load(Ordering::Relaxed))
        })
    }
}

/// Marks a request in flight for as long as its handler runs.
struct InFlight(Arc<ConnState>);

impl InFlight {
    fn begin(c: &Arc<ConnState>) -> Self {
        c.served.fetch_add(1, Ordering::AcqRel);
        c.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(c.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The socket, noting the time of every read or write that moved bytes.
struct Tracked<S> {
    inner: S,
    state: Arc<ConnState>,
}

impl<S: AsyncRead + Unpin> AsyncRead for Tracked<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.state.touch();
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Tracked<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.state.touch();
        }
        r
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.state.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The open connections, by id, and how many each address holds.
#[derive(Default)]
struct Table {
    next: u64,
    conns: HashMap<u64, (IpAddr, Arc<ConnState>)>,
    per_address: HashMap<IpAddr, usize>,
}

enum Admit {
    Yes(u64, Arc<ConnState>),
    AddressFull,
    AllBusy,
}

impl Table {
    fn admit(&mut self, ip: IpAddr, limits: &ConnLimits) -> Admit {
        let held = self.per_address.get(&ip).copied().unwrap_or(0);
        let capped = limits.max_per_address > 0 && !(limits.loopback_exempt && ip.is_loopback());
        if capped && held >= limits.max_per_address {
            return Admit::AddressFull;
        }
        if self.conns.len() >= limits.max_connections.max(1) {
            // Among the idle ones, the crowd's: the address holding the most connections first.
            // Times are in milliseconds, so a burst accepted within one ties; the admission
            // number (ids rise) breaks the tie oldest first, where the map's order would not.
            let crowd = |ip: &IpAddr| std::cmp::Reverse(self.per_address.get(ip).copied().unwrap_or(0));
            let victim = self
                .conns
                .iter()
                .filter_map(|(id, (ip, c))| c.idle_since().map(|(served, t)| ((served, crowd(ip), t, *id), *id)))
                .min_by_key(|(r, _)| *r)
                .map(|(_, id)| id);
            let Some(victim) = victim else { return Admit::AllBusy };
            // Out of the table at once, so a burst of newcomers picks a new victim each; its
            // socket closes as soon as its task sees the signal.
            if let Some(c) = self.remove(victim) {
                c.kill.notify_one();
            }
        }
        self.next += 1;
        let state = Arc::new(ConnState::new());
        self.conns.insert(self.next, (ip, state.clone()));
        *self.per_address.entry(ip).or_insert(0) += 1;
        Admit::Yes(self.next, state)
    }

    /// Takes a connection out of the table (its task ends it, or already has); its state if it
    /// was still there.
    fn remove(&mut self, id: u64) -> Option<Arc<ConnState>> {
        let (ip, state) = self.conns.remove(&id)?;
        if let Some(n) = self.per_address.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                self.per_address.remove(&ip);
            }
        }
        Some(state)
    }
}

/// Closes the connection when its deadline passes; returns then.
async fn watchdog(state: Arc<ConnState>, limits: ConnLimits) {
    loop {
        let timeout = u64::try_from(limits.header_timeout.as_millis()).unwrap_or(u64::MAX);
        let wait = match state.idle_since() {
            // A handler is running; look again later (its end also counts as traffic).
            None => limits.header_timeout,
            Some((_, since)) => {
                let (at, now) = (since.saturating_add(timeout), now_ms());
                if now >= at {
                    return;
                }
                Duration::from_millis(at - now)
            }
        };
        tokio::time::sleep(wait).await;
    }
}

/// Serves the API on `listener` until the process ends, with default limits (benchmarks and
/// tests), so callers need no web framework of their own.
pub async fn serve(listener: tokio::net::TcpListener, app: axum::Router) -> io::Result<()> {
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
) -> io::Result<()> {
    let table = Arc::new(Mutex::new(Table::default()));
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
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
        let admitted = table.lock().unwrap_or_else(|p| p.into_inner()).admit(peer.ip(), &limits);
        let (id, state) = match admitted {
            Admit::Yes(id, state) => (id, state),
            Admit::AddressFull => {
                tracing::debug!(%peer, "connection refused: too many open from this address");
                continue;
            }
            Admit::AllBusy => {
                tracing::debug!(%peer, "connection refused: every slot is handling a request");
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Tracked { inner: stream, state: state.clone() });
        let svc = TowerToHyperService::new(Tracking { app: app.clone(), peer, state: state.clone() });
        let conn = graceful.watch(builder.serve_connection(io, svc).into_owned());
        let table = table.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = conn => {}
                _ = watchdog(state.clone(), limits) => {}
                _ = state.kill.notified() => {}
            }
            table.lock().unwrap_or_else(|p| p.into_inner()).remove(id);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {},
        _ = tokio::time::sleep(Duration::from_secs(10)) => tracing::warn!("connections still open after 10 s; closing"),
    }
    Ok(())
}

/// The app for one connection: the peer address on every request, and each handler marked in
/// flight while it runs.
#[derive(Clone)]
struct Tracking {
    app: axum::Router,
    peer: SocketAddr,
    state: Arc<ConnState>,
}

impl tower::Service<axum::http::Request<hyper::body::Incoming>> for Tracking {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut req: axum::http::Request<hyper::body::Incoming>) -> Self::Future {
        req.extensions_mut().insert(axum::extract::ConnectInfo(self.peer));
        let guard = InFlight::begin(&self.state);
        let call = tower::ServiceExt::oneshot(self.app.clone(), req);
        Box::pin(async move {
            let resp = call.await;
            drop(guard);
            resp
        })
    }
}
