//! Two `knowhub serve` replicas on one PostgreSQL: concurrent dedup across processes, read-your-
//! writes across replicas, and a database restart under load (no acknowledged write lost, no
//! server restart needed). Uses the real binary and a throwaway PostgreSQL
//! (scripts/pg-test-server.sh); fails if PostgreSQL cannot be started unless KNOWHUB_SKIP_PG=1.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use knowhub_core::Store;
use knowhub_store_postgres::test_support::{self, PgTestServer};
use knowhub_store_postgres::{PgOptions, PgStore};
use serde_json::{json, Value};

mod common;

use common::Server;

/// A replica: the real binary against `database_url`, with a throwaway (unused) data dir.
struct Replica {
    server: Server,
    _dir: tempfile::TempDir,
}

impl Replica {
    /// A replica without per-caller write budgets: these tests write as fast as one loopback
    /// caller can, which is what they measure, and a budget would answer 429 before they end.
    fn start(database_url: &str) -> Replica {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("knowhub.toml");
        std::fs::write(&cfg, "[limits]\nwrites_per_minute = 0\nrecord_burst = 0\nrecords_per_hour = 0\n").unwrap();
        let args = ["--config", cfg.to_str().unwrap()];
        let server = Server::start_with(dir.path(), &args, &[("KNOWHUB_DATABASE_URL", database_url)]);
        Replica { server, _dir: dir }
    }
}

impl std::ops::Deref for Replica {
    type Target = Server;
    fn deref(&self) -> &Server {
        &self.server
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(60)).build().unwrap()
}

async fn submit(c: &reqwest::Client, url: &str, body: &Value) -> Result<(u16, Value), String> {
    let r = c.post(format!("{url}/api/submit")).json(body).send().await.map_err(|e| e.to_string())?;
    let status = r.status().as_u16();
    Ok((status, r.json().await.unwrap_or(Value::Null)))
}

async fn search_ids(c: &reqwest::Client, url: &str, q: &str) -> Vec<String> {
    let v: Value = c
        .get(format!("{url}/api/search"))
        .query(&[("q", q), ("top_k", "50")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["results"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

async fn health(c: &reqwest::Client, url: &str) -> u16 {
    c.get(format!("{url}/healthz")).send().await.map(|r| r.status().as_u16()).unwrap_or(0)
}

async fn all_records(s: &PgStore) -> Vec<knowhub_core::ExportRecord> {
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = s.export_page(after.as_deref(), 1000).await.unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.experience.id.clone());
        out.extend(page);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_dedup_and_see_each_other() {
    if test_support::skipped("two_replicas_dedup_and_see_each_other") {
        return;
    }
    let db = test_support::fresh_database().await;
    PgStore::migrate(&db).await.unwrap();
    let (a, b) = (Replica::start(&db), Replica::start(&db));
    let c = client();

    // A write on one replica is visible to search on the other at once.
    let (st, v) =
        submit(&c, &a.url, &json!({"task": "跨副本 可见", "resource": "replica-a", "result": "seen on b", "score": 4}))
            .await
            .unwrap();
    assert!((200..300).contains(&st), "{st} {v}");
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(search_ids(&c, &b.url, "跨副本").await, vec![id.clone()]);
    assert_eq!(search_ids(&c, &b.url, "replica-a").await, vec![id]);

    // 1,000 concurrent submits across both: 800 unique + 100 pairs sent once to each replica.
    let mut bodies = Vec::new();
    for i in 0..800 {
        let url = if i % 2 == 0 { &a.url } else { &b.url };
        bodies.push((
            url.clone(),
            json!({"task": format!("unique task {i}"), "resource": "r", "result": "ok", "score": 3}),
        ));
    }
    // Each pair by two agents (confirmations count distinct callers).
    for i in 0..100 {
        let body = |agent: &str| json!({"task": format!("pair task {i}"), "resource": "r", "result": "ok", "score": 3, "agent_id": agent});
        bodies.push((a.url.clone(), body("agent-a")));
        bodies.push((b.url.clone(), body("agent-b")));
    }
    let gate = Arc::new(tokio::sync::Semaphore::new(100));
    let mut tasks = Vec::new();
    for (url, body) in bodies {
        let (c, gate) = (c.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _p = gate.acquire().await.unwrap();
            submit(&c, &url, &body).await
        }));
    }
    for t in tasks {
        let (st, v) = t.await.unwrap().expect("request failed");
        assert!((200..300).contains(&st), "{st} {v}");
    }
    let store = PgStore::connect(&db, PgOptions::default()).await.unwrap();
    let all = all_records(&store).await;
    let ours: Vec<_> = all.iter().filter(|r| r.experience.task.contains("task ")).collect();
    assert_eq!(ours.len(), 900);
    let confirmed: Vec<_> = ours.iter().filter(|r| r.experience.confirmations == 2).collect();
    assert_eq!(confirmed.len(), 100);
    assert!(confirmed.iter().all(|r| r.experience.task.starts_with("pair task ")));
    assert!(ours.iter().all(|r| r.experience.confirmations <= 2));
    // Both replicas answer the same count.
    let count = |v: Value| v["records"].as_u64().unwrap();
    let ha: Value = c.get(format!("{}/healthz", a.url)).send().await.unwrap().json().await.unwrap();
    let hb: Value = c.get(format!("{}/healthz", b.url)).send().await.unwrap().json().await.unwrap();
    assert_eq!((count(ha), count(hb)), (901, 901));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn database_restart_under_load_loses_no_acknowledged_write() {
    if test_support::skipped("database_restart_under_load_loses_no_acknowledged_write") {
        return;
    }
    // Its own PostgreSQL, since it is stopped midway.
    let pg = PgTestServer::start();
    PgStore::migrate(&pg.url).await.unwrap();
    let (a, b) = (Replica::start(&pg.url), Replica::start(&pg.url));
    let c = client();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut workers = Vec::new();
    for w in 0..4 {
        let (c, stop) = (c.clone(), stop.clone());
        let url = if w % 2 == 0 { a.url.clone() } else { b.url.clone() };
        workers.push(tokio::spawn(async move {
            let (mut acked, mut failed) = (Vec::new(), 0usize);
            let mut i = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let body = json!({"task": format!("stream {w} {i}"), "resource": "r", "result": "ok", "score": 3});
                match submit(&c, &url, &body).await {
                    Ok((st, v)) if (200..300).contains(&st) => acked.push(v["id"].as_str().unwrap().to_string()),
                    _ => {
                        failed += 1;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                i += 1;
            }
            (acked, failed)
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    pg.stop();
    tokio::time::sleep(Duration::from_secs(5)).await;
    // While it is down, health says so (503) instead of hanging.
    assert_eq!(health(&c, &a.url).await, 503);
    pg.restart();
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (mut acked, mut failed) = (Vec::new(), 0);
    for w in workers {
        let (ac, f) = w.await.unwrap();
        acked.extend(ac);
        failed += f;
    }
    assert!(failed > 0, "the outage should have refused some submits");
    assert!(!acked.is_empty());
    // Every acknowledged submit is in the database.
    let store = PgStore::connect(&pg.url, PgOptions::default()).await.unwrap();
    let stored: HashSet<String> = all_records(&store).await.into_iter().map(|r| r.experience.id).collect();
    let lost: Vec<_> = acked.iter().filter(|id| !stored.contains(*id)).collect();
    assert!(lost.is_empty(), "{} acknowledged submits lost: {lost:?}", lost.len());
    // Both servers work again without a restart.
    for s in [&a, &b] {
        let mut ok = false;
        for _ in 0..50 {
            if health(&c, &s.url).await == 200 {
                ok = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(ok, "{} did not recover", s.url);
        let (st, v) =
            submit(&c, &s.url, &json!({"task": format!("after restart {}", s.url), "resource": "r", "result": "ok"}))
                .await
                .unwrap();
        assert!((200..300).contains(&st), "{st} {v}");
        let id = v["id"].as_str().unwrap().to_string();
        assert!(store.get(&id).await.unwrap().is_some());
    }
}
