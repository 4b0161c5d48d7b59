//! Hostile clients on loopback: thousands of slow connections that never finish a request head
//! (slowloris) and idle ones that never send a byte, spread over many loopback source addresses,
//! while normal clients (from 127.0.0.1) search, submit and check `/healthz`. Reports whether the
//! normal traffic kept being answered (p50/p99, errors), how many hostile connections the server
//! cut, and whether every acknowledged write is stored. Bounded: it stops itself after `seconds`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use knowhub_ai::Embedder;
use knowhub_service::{Hub, HubOptions, SearchConfig};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::percentile;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Slow connections held open at once (each reconnects when the server cuts it).
    #[arg(long, default_value_t = 2_000)]
    slow: usize,
    /// Idle connections held open at once: accepted, then never a byte (each reconnects when cut).
    #[arg(long, default_value_t = 0)]
    idle: usize,
    /// Loopback source addresses the hostile connections come from (127.0.1.1 upwards), so the
    /// per-address cap applies as it would to a crowd; normal clients use 127.0.0.1.
    #[arg(long, default_value_t = 64)]
    addresses: usize,
    /// Normal clients, each looping search, submit and /healthz.
    #[arg(long, default_value_t = 4)]
    clients: usize,
    /// How long the run lasts.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Records in the hub before the run.
    #[arg(long, default_value_t = 2_000)]
    records: usize,
    /// Seconds a client has to send a request head (the server's `[limits] header_timeout_secs`).
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
}

const WORDS: [&str; 12] = [
    "postgres",
    "timeout",
    "docker",
    "cache",
    "kubectl",
    "rollout",
    "redis",
    "pool",
    "nginx",
    "logrotate",
    "连接",
    "超时",
];

fn text(i: usize) -> String {
    (0..6).map(|k| WORDS[(i * 7 + k * 5) % WORDS.len()]).collect::<Vec<_>>().join(" ") + &format!(" #{i}")
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions { vector_model: None, exclusive: true })?);
    let opts = HubOptions { require_approval: true, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    let local = knowhub_core::Caller::local();
    for i in 0..a.records {
        let req = knowhub_core::validate::SubmitRequest {
            task: Some(format!("seed {}", text(i))),
            resource: Some(WORDS[i % WORDS.len()].into()),
            result: Some("worked".into()),
            score: Some(4),
            ..Default::default()
        };
        hub.submit(&local, req).await?;
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let limits = knowhub_http::ConnLimits {
        header_timeout: Duration::from_secs(a.header_timeout),
        // The hostile crowd stands for remote clients, though it comes from loopback addresses.
        loopback_exempt: false,
        ..knowhub_http::ConnLimits::default()
    }
    .fit_to_fd_limit();
    let stop = Arc::new(tokio::sync::Notify::new());
    let server_stop = stop.clone();
    let server = tokio::spawn(knowhub_http::serve_with(listener, knowhub_http::app(hub.clone()), limits, async move {
        server_stop.notified().await
    }));
    println!(
        "hostile: {} slow + {} idle connections from {} addresses, {} normal clients for {} s on {addr} ({} records; max_connections {}, per address {}, header timeout {} s)",
        a.slow, a.idle, a.addresses, a.clients, a.seconds, a.records, limits.max_connections, limits.max_per_address,
        a.header_timeout
    );

    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let done = Arc::new(AtomicBool::new(false));
    let (opened, cut) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let mut hostile = tokio::task::JoinSet::new();
    for n in 0..a.slow + a.idle {
        let (done, opened, cut) = (done.clone(), opened.clone(), cut.clone());
        let dribble = n < a.slow;
        let k = n % a.addresses.clamp(1, 250 * 250);
        let from = std::net::Ipv4Addr::new(127, 0, 1 + (k / 250) as u8, 1 + (k % 250) as u8);
        hostile.spawn(async move {
            while !done.load(Ordering::Relaxed) {
                let Ok(mut s) = connect_from(from, addr).await else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                opened.fetch_add(1, Ordering::Relaxed);
                if dribble && s.write_all(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ").await.is_err() {
                    continue;
                }
                // Slow: one byte a second, never a whole head. Idle: nothing at all.
                let mut buf = [0u8; 64];
                loop {
                    if done.load(Ordering::Relaxed) {
                        return;
                    }
                    tokio::select! {
                        r = s.read(&mut buf) => {
                            if matches!(r, Ok(0) | Err(_)) {
                                cut.fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                        }
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {
                            if dribble && s.write_all(b"a").await.is_err() {
                                cut.fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                        }
                    }
                }
                // A cut client comes back, but not in a tight loop.
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        });
    }
    // Let the hostile clients take their places before the normal traffic starts.
    tokio::time::sleep(Duration::from_secs(2)).await;

    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build()?;
    let base = format!("http://{addr}");
    let mut normal = tokio::task::JoinSet::new();
    for c in 0..a.clients {
        let (client, base) = (client.clone(), base.clone());
        normal.spawn(async move {
            let (mut search, mut health, mut submit) = (Vec::new(), Vec::new(), Vec::new());
            let (mut errors, mut acked) = (0usize, Vec::new());
            let mut i = 0usize;
            while Instant::now() < deadline {
                i += 1;
                let t = Instant::now();
                let r = client.get(format!("{base}/api/search")).query(&[("q", text(i * 13 + c).as_str())]).send().await;
                if r.is_ok_and(|r| r.status().is_success()) { search.push(ms(t)) } else { errors += 1 }
                let t = Instant::now();
                let r = client.get(format!("{base}/healthz")).send().await;
                if r.is_ok_and(|r| r.status().is_success()) { health.push(ms(t)) } else { errors += 1 }
                let t = Instant::now();
                let body = serde_json::json!({"task": format!("hostile run client {c} write {i}"), "resource": "bench", "result": "ok", "score": 3});
                match client.post(format!("{base}/api/submit")).json(&body).send().await {
                    Ok(r) if r.status().is_success() => {
                        submit.push(ms(t));
                        if let Ok(v) = r.json::<serde_json::Value>().await {
                            acked.extend(v["id"].as_str().map(str::to_string));
                        }
                    }
                    _ => errors += 1,
                }
            }
            (search, health, submit, errors, acked)
        });
    }
    let (mut search, mut health, mut submit, mut errors, mut acked) =
        (Vec::new(), Vec::new(), Vec::new(), 0, Vec::new());
    while let Some(r) = normal.join_next().await {
        let (s, h, w, e, ids) = r?;
        search.extend(s);
        health.extend(h);
        submit.extend(w);
        errors += e;
        acked.extend(ids);
    }
    done.store(true, Ordering::Relaxed);
    hostile.abort_all();
    let mut lost = 0;
    for id in &acked {
        if hub.store().get(id).await?.is_none() {
            lost += 1;
        }
    }
    stop.notify_one();
    let _ = tokio::time::timeout(Duration::from_secs(15), server).await;

    println!(
        "hostile connections: {} opened, {} cut by the server",
        opened.load(Ordering::Relaxed),
        cut.load(Ordering::Relaxed)
    );
    for (name, v) in [("search", &mut search), ("healthz", &mut health), ("submit", &mut submit)] {
        v.sort_by(f64::total_cmp);
        println!(
            "{name:8} n={:6}  p50 {:7.2} ms  p99 {:7.2} ms  max {:8.2} ms",
            v.len(),
            percentile(v, 50.0),
            percentile(v, 99.0),
            v.last().copied().unwrap_or(0.0)
        );
    }
    println!("errors: {errors}; acknowledged writes: {}, lost: {lost}", acked.len());
    anyhow::ensure!(errors == 0 && lost == 0, "normal traffic failed under hostile clients");
    Ok(())
}

/// A connection to `addr` from the loopback address `from`.
async fn connect_from(from: std::net::Ipv4Addr, addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpStream> {
    let sock = tokio::net::TcpSocket::new_v4()?;
    sock.bind(std::net::SocketAddr::from((from, 0)))?;
    sock.connect(addr).await
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}
