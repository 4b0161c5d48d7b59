//! Soak: the real `knowhub serve` binary under mixed search / submit / extraction load for a long
//! time, against a large hub, with a mock LLM on loopback. Per window it reports the server's RSS
//! and open files, each route's p50/p99 and the errors, so a leak or a slow drift shows as growth
//! from window to window. At the end every acknowledged write is read back and every extraction
//! job must have finished. Bounded: it stops itself after `minutes` and kills the server.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use knowhub_core::NewExperience;
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use serde_json::{json, Value};
use tokio::io::AsyncBufReadExt;

use crate::{beir, load, percentile, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records in the hub before the run.
    #[arg(long, default_value_t = 100_000)]
    records: usize,
    /// How long the load runs.
    #[arg(long, default_value_t = 30)]
    minutes: u64,
    /// Length of one reporting window.
    #[arg(long, default_value_t = 5)]
    window_minutes: u64,
    /// Concurrent clients; each runs one iteration every `pace_ms`.
    #[arg(long, default_value_t = 4)]
    clients: usize,
    /// Milliseconds between one client's iterations (a search each, plus the writes below).
    #[arg(long, default_value_t = 50)]
    pace_ms: u64,
    /// A submit every this many iterations (0: none, a read-only soak).
    #[arg(long, default_value_t = 4)]
    submit_every: usize,
    /// An extraction upload every this many iterations (0: none).
    #[arg(long, default_value_t = 50)]
    upload_every: usize,
    /// The server binary (a release build).
    #[arg(long, default_value = "target/release/knowhub")]
    knowhub: PathBuf,
    /// Embedder of the hub and the server: none | local. With `local` the seed records are
    /// embedded first (about an hour per 100k records on a 2-core machine).
    #[arg(long, default_value = "none")]
    embedder: String,
    /// Folders with BEIR corpora to draw real text from.
    #[arg(long, default_value = "../shared/data/retrieval")]
    data: PathBuf,
    /// Build the hub in this directory and keep it (reused when it already holds the records).
    #[arg(long)]
    keep: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    Search,
    Submit,
    Upload,
}

struct Sample {
    at: f64,
    route: Route,
    ms: f64,
    ok: bool,
}

#[derive(Default)]
struct Proc {
    at: f64,
    rss_kb: u64,
    fds: usize,
    /// Records in the hub (from /healthz), to tell data growth from a leak.
    records: u64,
}

async fn records(client: &reqwest::Client, base: &str) -> u64 {
    match client.get(format!("{base}/healthz")).send().await {
        Ok(r) => r.json::<Value>().await.ok().and_then(|v| v["records"].as_u64()).unwrap_or(0),
        Err(_) => 0,
    }
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!(a.knowhub.is_file(), "{} not found: cargo build --release -p knowhub", a.knowhub.display());
    anyhow::ensure!(
        a.window_minutes >= 1 && a.minutes >= a.window_minutes,
        "--minutes must be >= --window-minutes >= 1"
    );
    let (texts, queries) = load::corpus(&a.data, None)?;
    let tmp = tempfile::tempdir()?;
    let dir = a.keep.clone().unwrap_or_else(|| tmp.path().join("hub"));
    seed(&a, &dir, &texts).await?;

    let (llm_url, llm_calls) = mock_llm().await?;
    let config = dir.with_extension("soak.toml");
    // Rate limits off: one loopback address plays every client here.
    std::fs::write(&config, "[limits]\nwrites_per_minute = 0\nuploads_per_minute = 0\n")?;
    let mut child = tokio::process::Command::new(&a.knowhub)
        .arg("serve")
        .args(["--bind", "127.0.0.1:0", "--embedder", &a.embedder, "--llm-provider", "openai", "--llm-model", "mock"])
        .arg("--llm-base-url")
        .arg(&llm_url)
        .arg("--data-dir")
        .arg(&dir)
        .arg("--config")
        .arg(&config)
        .env("KNOWHUB_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()?;
    let pid = child.id().ok_or_else(|| anyhow::anyhow!("server exited at once"))?;
    let t_ready = Instant::now();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().expect("piped")).lines();
    let base = loop {
        let line = tokio::time::timeout(Duration::from_secs(120), lines.next_line())
            .await
            .map_err(|_| anyhow::anyhow!("server not ready after 120 s"))??
            .ok_or_else(|| anyhow::anyhow!("server exited before listening"))?;
        if let Some(url) = line.strip_prefix("knowhub listening on ") {
            break url.trim().to_string();
        }
    };
    println!(
        "soak: {} records, {} clients every {} ms, {} min in {}-min windows; server pid {pid} ready in {:.1} s at {base}",
        a.records,
        a.clients,
        a.pace_ms,
        a.minutes,
        a.window_minutes,
        t_ready.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let deadline = start + Duration::from_secs(a.minutes * 60);
    let samples = Arc::new(Mutex::new(Vec::<Sample>::new()));
    let procs = Arc::new(Mutex::new(Vec::<Proc>::new()));
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build()?;
    let sampler = {
        let (procs, client, base) = (procs.clone(), client.clone(), base.clone());
        tokio::spawn(async move {
            while Instant::now() < deadline {
                let mut p = read_proc(pid, start.elapsed().as_secs_f64());
                p.records = records(&client, &base).await;
                procs.lock().unwrap().push(p);
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        })
    };
    let queries = Arc::new(queries);
    let counter = Arc::new(AtomicUsize::new(0));
    let mut set = tokio::task::JoinSet::new();
    for c in 0..a.clients {
        let (client, base, samples, queries, counter) =
            (client.clone(), base.clone(), samples.clone(), queries.clone(), counter.clone());
        let pace = Duration::from_millis(a.pace_ms);
        let (a_submit, a_upload) = (a.submit_every, a.upload_every);
        set.spawn(async move {
            let (mut acked, mut jobs) = (Vec::new(), Vec::new());
            let mut it = 0usize;
            let mut tick = tokio::time::interval(pace);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while Instant::now() < deadline {
                tick.tick().await;
                it += 1;
                let n = counter.fetch_add(1, Ordering::Relaxed);
                let q = &queries[n % queries.len()];
                let t = Instant::now();
                let ok = client
                    .get(format!("{base}/api/search"))
                    .query(&[("q", q.as_str())])
                    .send()
                    .await
                    .is_ok_and(|r| r.status().is_success());
                push(&samples, start, Route::Search, t, ok);
                if a_submit > 0 && it.is_multiple_of(a_submit) {
                    let body = json!({"task": format!("soak client {c} write {it}: {}", q.chars().take(200).collect::<String>()),
                        "resource": format!("soak-tool-{}", it % 97), "result": "it worked after a retry", "score": 1 + it % 5});
                    let t = Instant::now();
                    let id = post_for(&client, &format!("{base}/api/submit"), &body, "id").await;
                    push(&samples, start, Route::Submit, t, id.is_some());
                    acked.extend(id);
                }
                if a_upload > 0 && it.is_multiple_of(a_upload) {
                    let body = json!({"messages": [
                            {"role": "user", "content": format!("soak {c}/{it}: {q}"), "timestamp": 1},
                            {"role": "assistant", "content": "Raising the pool size fixed it.", "timestamp": 2}],
                        "agent_id": "soak", "session_key": format!("soak-{c}-{it}"), "source": "bench"});
                    let t = Instant::now();
                    let job = post_for(&client, &format!("{base}/api/extract"), &body, "job_id").await;
                    push(&samples, start, Route::Upload, t, job.is_some());
                    jobs.extend(job);
                }
            }
            (acked, jobs)
        });
    }
    let (mut acked, mut jobs) = (Vec::new(), Vec::new());
    while let Some(r) = set.join_next().await {
        let (a, j) = r?;
        acked.extend(a);
        jobs.extend(j);
    }
    let _ = sampler.await;
    procs.lock().unwrap().push(read_proc(pid, start.elapsed().as_secs_f64()));

    // Read every acknowledged write back; wait for every extraction job to end.
    let mut lost = 0usize;
    for id in &acked {
        let r = client.get(format!("{base}/api/experiences/{id}")).send().await;
        if !r.is_ok_and(|r| r.status().is_success()) {
            lost += 1;
        }
    }
    let (mut jobs_done, mut jobs_failed, mut extracted) = (0usize, 0usize, 0u64);
    let settle = Instant::now() + Duration::from_secs(120);
    for id in &jobs {
        loop {
            let v: Value = client.get(format!("{base}/api/extract/{id}")).send().await?.json().await?;
            match v["status"].as_str() {
                Some("done") => {
                    jobs_done += 1;
                    extracted += v["extracted_count"].as_u64().unwrap_or(0);
                    break;
                }
                Some("failed") => {
                    jobs_failed += 1;
                    break;
                }
                _ if Instant::now() > settle => break,
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }
    child.kill().await.ok();

    let samples = samples.lock().unwrap();
    let procs = procs.lock().unwrap();
    let w = (a.window_minutes * 60) as f64;
    println!(
        "\n| window (min) | records (end) | RSS MiB (max) | open fds (max) | search n / p50 / p99 ms | submit n / p50 / p99 ms | upload n / p99 ms | errors |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut rss_per_window = Vec::new();
    let mut errors = 0usize;
    for k in 0..(a.minutes / a.window_minutes) as usize {
        let (lo, hi) = (k as f64 * w, (k + 1) as f64 * w);
        let in_w = |at: f64| at >= lo && at < hi;
        let ps: Vec<&Proc> = procs.iter().filter(|p| in_w(p.at)).collect();
        let rss = ps.iter().map(|p| p.rss_kb).max().unwrap_or(0) as f64 / 1024.0;
        let fds = ps.iter().map(|p| p.fds).max().unwrap_or(0);
        let recs = ps.iter().map(|p| p.records).max().unwrap_or(0);
        rss_per_window.push(rss);
        let stat = |route: Route| {
            let mut v: Vec<f64> =
                samples.iter().filter(|s| s.route == route && s.ok && in_w(s.at)).map(|s| s.ms).collect();
            v.sort_by(f64::total_cmp);
            (v.len(), percentile(&v, 50.0), percentile(&v, 99.0))
        };
        let errs = samples.iter().filter(|s| !s.ok && in_w(s.at)).count();
        errors += errs;
        let (s, b, u) = (stat(Route::Search), stat(Route::Submit), stat(Route::Upload));
        println!(
            "| {}-{} | {recs} | {rss:.0} | {fds} | {} / {:.2} / {:.2} | {} / {:.2} / {:.2} | {} / {:.2} | {errs} |",
            k as u64 * a.window_minutes,
            (k as u64 + 1) * a.window_minutes,
            s.0,
            s.1,
            s.2,
            b.0,
            b.1,
            b.2,
            u.0,
            u.2
        );
    }
    errors += samples.iter().filter(|s| !s.ok && s.at >= (a.minutes * 60) as f64).count();
    println!(
        "\nacknowledged writes: {}, lost: {lost}; extraction jobs: {} ({jobs_done} done, {jobs_failed} failed, {} unfinished), {extracted} items, {} mock LLM calls; errors: {errors}",
        acked.len(),
        jobs.len(),
        jobs.len() - jobs_done - jobs_failed,
        llm_calls.load(Ordering::Relaxed)
    );
    // Growth: the last window against the second (the first includes warm-up).
    if rss_per_window.len() >= 3 {
        let (second, last) = (rss_per_window[1], rss_per_window[rss_per_window.len() - 1]);
        println!("RSS last window / second window: {:.3}", last / second);
    }
    anyhow::ensure!(
        errors == 0 && lost == 0 && jobs_done == jobs.len(),
        "the soak failed: {errors} errors, {lost} lost writes, {} of {} jobs not done",
        jobs.len() - jobs_done,
        jobs.len()
    );
    Ok(())
}

/// Builds the hub in process (real text, recombined past the sets' size) unless it is there.
async fn seed(a: &Args, dir: &std::path::Path, texts: &[String]) -> anyhow::Result<()> {
    let embedder = retrieval::embedder_from_name(&a.embedder)?;
    std::fs::create_dir_all(dir)?;
    let store = Arc::new(SqliteStore::open(
        dir,
        OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
    )?);
    let have = knowhub_core::Store::count(&*store).await? as usize;
    if have < a.records {
        let t = Instant::now();
        let recs: Vec<NewExperience> = (have..a.records)
            .map(|i| {
                let d = beir::Doc { id: format!("r{i}"), title: String::new(), text: load::record(texts, i) };
                retrieval::doc_record(&d)
            })
            .collect();
        let n = retrieval::ingest(&store, recs).await?;
        println!("seeded {n} records in {:.1} s", t.elapsed().as_secs_f64());
    }
    if let Some(m) = embedder.model_id().map(str::to_string) {
        let hub = knowhub_service::Hub::new(store.clone(), Arc::new(embedder), Default::default());
        let t = Instant::now();
        let n = retrieval::embed_all(&hub, &m).await?;
        println!("embedded {n} records in {:.1} s", t.elapsed().as_secs_f64());
    }
    Ok(())
}

/// POSTs `body` and returns the answer's `field` (an id) when the request succeeded.
async fn post_for(client: &reqwest::Client, url: &str, body: &Value, field: &str) -> Option<String> {
    let r = client.post(url).json(body).send().await.ok().filter(|r| r.status().is_success())?;
    r.json::<Value>().await.ok()?[field].as_str().map(String::from)
}

fn push(samples: &Mutex<Vec<Sample>>, start: Instant, route: Route, t: Instant, ok: bool) {
    let s = Sample { at: start.elapsed().as_secs_f64(), route, ms: t.elapsed().as_secs_f64() * 1000.0, ok };
    samples.lock().unwrap().push(s);
}

/// The server's resident memory and open file descriptors, from /proc (Linux).
fn read_proc(pid: u32, at: f64) -> Proc {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).map(|d| d.count()).unwrap_or(0);
    Proc { at, rss_kb, fds, records: 0 }
}

/// An OpenAI-compatible chat endpoint that always answers with two well-formed, distinct items.
async fn mock_llm() -> anyhow::Result<(String, Arc<AtomicUsize>)> {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let router = axum::Router::new().fallback(move || {
        let n = c.fetch_add(1, Ordering::Relaxed);
        async move {
            let items = json!([
                {"task": format!("soak extracted task {n}: pool exhaustion under load"), "resource": format!("pgbouncer-{}", n % 13),
                 "result": "raising default_pool_size fixed it", "outcome": "success", "score": 4, "confidence": 0.9, "messages": [0, 1]},
                {"task": format!("soak extracted check {n}"), "resource": "psql", "result": "saw the pool settings",
                 "outcome": "success", "score": 3, "confidence": 0.8, "messages": [0, 0]}
            ]);
            let body = json!({"model": "mock", "choices": [{"message": {"role": "assistant", "content": items.to_string()},
                "finish_reason": "stop"}], "usage": {"prompt_tokens": 100, "completion_tokens": 40}});
            axum::Json(body)
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/v1", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok((url, calls))
}
