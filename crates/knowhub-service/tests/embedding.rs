//! Hybrid search through the Hub with an OpenAI-compatible embedder served on 127.0.0.1.
//! The embedding server is scripted (bag-of-words hashing, switchable to failing) because a
//! real remote API is not reachable here; the local model has its own tests.

use knowhub_store_tests::submit_req as req;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{routing::post, Json, Router};
use knowhub_ai::{Embedder, OpenAiEmbedder};
use knowhub_core::{Caller, SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

/// Deterministic 64-d bag-of-words embedding: shared words -> similar vectors.
fn bow(text: &str) -> Vec<f32> {
    let mut v = vec![0f32; 64];
    for w in knowhub_core::text::tokenize(text) {
        let h = w.bytes().fold(1469598103934665603u64, |h, b| (h ^ b as u64).wrapping_mul(1099511628211));
        v[(h % 64) as usize] += 1.0;
    }
    v
}

async fn embed_server(up: Arc<AtomicBool>) -> String {
    let router = Router::new().route(
        "/v1/embeddings",
        post(move |Json(body): Json<serde_json::Value>| {
            let up = up.clone();
            async move {
                if !up.load(Ordering::SeqCst) {
                    return (StatusCode::SERVICE_UNAVAILABLE, "down").into_response();
                }
                let data: Vec<_> = body["input"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                    .map(|(i, t)| serde_json::json!({"index": i, "embedding": bow(t.as_str().unwrap())}))
                    .collect();
                Json(serde_json::json!({ "data": data })).into_response()
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, router).await.unwrap() });
    format!("http://{addr}/v1")
}

fn query(q: &str, mode: SearchMode) -> SearchQuery {
    SearchQuery {
        q: q.into(),
        top_k: 5,
        filter: SearchFilter::default(),
        outcome: None,
        mode,
        min_relevance: Some(0.0),
        scope: None,
    }
}

async fn wait_vectors(store: &SqliteStore, model: &str, n: u64) {
    for _ in 0..200 {
        if store.vector_count(model).await.unwrap() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("vectors never reached {n}");
}

#[tokio::test]
async fn failing_embedder_never_fails_submit_and_backfills() {
    let up = Arc::new(AtomicBool::new(true));
    let url = embed_server(up.clone()).await;
    let embedder = Arc::new(Embedder::openai(OpenAiEmbedder::new(&url, "bow", None, Duration::from_secs(2)).unwrap()));
    let model = embedder.model_id().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(
        SqliteStore::open(dir.path(), OpenOptions { vector_model: Some(model.clone()), exclusive: true }).unwrap(),
    );
    let hub = Hub::new(store.clone(), embedder, SearchConfig::default());
    let _w = hub.spawn_embed_worker().unwrap();

    hub.submit(&Caller::local(), req("tune postgres pool", "pgbouncer", "latency down")).await.unwrap();
    hub.submit(&Caller::local(), req("cache web assets", "nginx expires", "fewer requests")).await.unwrap();
    wait_vectors(&store, &model, 2).await;
    let r = hub.search(&Caller::local(), &query("postgres pool", SearchMode::Hybrid)).await.unwrap();
    assert_eq!(r.mode, SearchMode::Hybrid);
    assert_eq!(r.results[0].task, "tune postgres pool");
    let v = hub.search(&Caller::local(), &query("nginx assets", SearchMode::Vector)).await.unwrap();
    assert_eq!(v.mode, SearchMode::Vector);
    assert_eq!(v.results[0].task, "cache web assets");

    // Embedder down: submits still succeed, search degrades to full text.
    up.store(false, Ordering::SeqCst);
    let s = hub.submit(&Caller::local(), req("rotate logs daily", "logrotate", "disk stable")).await.unwrap();
    assert!(s.created);
    let r = hub.search(&Caller::local(), &query("logrotate", SearchMode::Hybrid)).await.unwrap();
    assert_eq!(r.mode, SearchMode::Fts, "uncached query cannot be embedded -> fts");
    assert_eq!(r.results[0].id, s.id, "the new record is searchable at once");
    assert_eq!(store.vector_count(&model).await.unwrap(), 2);

    // Back up: the worker backfills the missing vector.
    up.store(true, Ordering::SeqCst);
    hub.submit(&Caller::local(), req("another one", "x", "y")).await.unwrap();
    wait_vectors(&store, &model, 4).await;
    assert!(store.missing_vectors(&model, 10).await.unwrap().is_empty());
}

#[tokio::test]
async fn decay_and_mmr_options_change_the_order() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions { vector_model: None, exclusive: true }).unwrap());
    let old = chrono_days_ago(120);
    let mut r1 = req("upgrade redis cluster", "redis 7 rolling upgrade", "no downtime");
    r1.timestamp = Some(old);
    let mut r2 = req("upgrade redis cluster safely", "redis 7 rolling upgrade", "no downtime at all");
    r2.timestamp = Some(chrono_days_ago(1));
    let plain = Hub::new(store.clone(), Arc::new(Embedder::none()), SearchConfig::default());
    let a = plain.submit(&Caller::local(), r1).await.unwrap();
    let b = plain.submit(&Caller::local(), r2).await.unwrap();
    let q = query("upgrade redis cluster", SearchMode::Fts);
    let without = plain.search(&Caller::local(), &q).await.unwrap();
    assert_eq!(without.results[0].id, a.id, "shorter exact match wins on BM25 alone");
    let decayed = Hub::new(
        store.clone(),
        Arc::new(Embedder::none()),
        SearchConfig { decay_half_life_days: Some(30.0), ..Default::default() },
    );
    let with = decayed.search(&Caller::local(), &q).await.unwrap();
    assert_eq!(with.results[0].id, b.id, "a 120-day-old record decays to 1/16 and drops below a fresh one");
    // Decay orders; relevance (how well it answers) stays what it was.
    let rel = |r: &knowhub_service::SearchResponse| r.results.iter().find(|h| h.id == a.id).unwrap().relevance;
    assert_eq!(rel(&with), rel(&without));

    // MMR: a near-duplicate of the top hit yields to a different relevant record.
    plain
        .submit(
            &Caller::local(),
            req("redis memory fragmentation", "activedefrag yes", "fragmentation ratio 1.8 -> 1.1"),
        )
        .await
        .unwrap();
    let q2 = SearchQuery { top_k: 2, ..query("upgrade redis cluster", SearchMode::Fts) };
    let mmr = Hub::new(
        store.clone(),
        Arc::new(Embedder::none()),
        SearchConfig { mmr_lambda: Some(0.3), ..Default::default() },
    );
    let plain_top: Vec<String> =
        plain.search(&Caller::local(), &q2).await.unwrap().results.into_iter().map(|h| h.task).collect();
    let mmr_top: Vec<String> =
        mmr.search(&Caller::local(), &q2).await.unwrap().results.into_iter().map(|h| h.task).collect();
    assert!(plain_top.iter().all(|t| t.contains("upgrade")), "{plain_top:?}");
    assert_eq!(mmr_top[0], plain_top[0], "MMR keeps the best hit first");
    assert!(mmr_top[1].contains("fragmentation"), "{mmr_top:?}");
}

fn chrono_days_ago(days: i64) -> String {
    knowhub_core::format_rfc3339(time::OffsetDateTime::now_utc() - time::Duration::days(days))
}
