//! Search with the real local multilingual model (fetched by scripts/fetch-model.sh; the test
//! fails, naming that command, if it is missing).

use knowhub_store_tests::submit_req as req;

use std::sync::Arc;
use std::time::Duration;

use knowhub_ai::Embedder;
use knowhub_core::{Caller, SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

/// Records in English and Chinese on unrelated topics.
const DOCS: [(&str, &str, &str); 5] = [
    ("Fixed Postgres connection timeouts by raising the pool size", "pgbouncer default_pool_size=50", "timeouts gone"),
    ("Speed up the Docker image build", "BuildKit cache mounts", "build time 8 min -> 1 min"),
    ("前端页面白屏排查", "Chrome DevTools 控制台", "发现是 JS 语法错误"),
    ("给 Kubernetes 集群升级版本", "kubeadm upgrade apply", "升级成功，无停机"),
    ("Rotate application logs daily", "logrotate", "disk usage stable"),
];

/// Waits (up to 20 s) until the embed worker has given `n` records a vector.
async fn wait_for_vectors(store: &SqliteStore, model: &str, n: usize) {
    for _ in 0..400 {
        if store.vector_count(model).await.unwrap() == n as u64 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(store.vector_count(model).await.unwrap(), n as u64, "background embedding finished");
}

/// A SQLite hub on the real local models, its embed worker running.
struct LocalHub {
    _dir: tempfile::TempDir,
    _worker: Option<tokio::task::JoinHandle<()>>,
    embedder: Arc<Embedder>,
    model: String,
    store: Arc<SqliteStore>,
    hub: Arc<Hub>,
}

fn local_hub(opts: knowhub_service::HubOptions) -> LocalHub {
    let embedder = Arc::new(Embedder::local(&knowhub_ai::default_model_dir(), true).unwrap_or_else(|e| panic!("{e}")));
    let model = embedder.model_id().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(
        SqliteStore::open(dir.path(), OpenOptions { vector_model: Some(model.clone()), exclusive: true }).unwrap(),
    );
    let hub = Hub::with_options(store.clone(), embedder.clone(), SearchConfig::default(), opts);
    let worker = hub.spawn_embed_worker();
    LocalHub { _dir: dir, _worker: worker, embedder, model, store, hub }
}

#[tokio::test]
async fn cross_lingual_search_with_the_local_model() {
    let LocalHub { model, store, hub, .. } =
        &local_hub(knowhub_service::HubOptions { require_approval: true, ..Default::default() });
    assert_eq!(model, "local:multilingual-e5-small-q4+all-minilm-l6-v2-q8");
    let docs = DOCS;
    for (t, r, x) in docs {
        hub.submit(&Caller::local(), req(t, r, x)).await.unwrap();
    }
    wait_for_vectors(store, model, docs.len()).await;
    let ask = |q: &str, mode| SearchQuery {
        q: q.into(),
        top_k: 3,
        filter: SearchFilter::default(),
        outcome: None,
        mode,
        min_relevance: Some(0.0),
        scope: None,
    };
    // Chinese question, English answer, and the reverse: no shared words, only meaning. Small
    // multilingual models favour same-language text; the query-side language debias (on by
    // default) is what puts the cross-lingual answer first here (see docs/ranking.md).
    for (q, want) in [
        ("数据库连接超时怎么办", docs[0].0),
        ("how to upgrade a k8s cluster", docs[3].0),
        ("blank white page in the browser", docs[2].0),
    ] {
        let r = hub.search(&Caller::local(), &ask(q, SearchMode::Hybrid)).await.unwrap();
        assert_eq!(r.mode, SearchMode::Hybrid);
        assert_eq!(r.results[0].task, want, "{q}: {:?}", r.results);
    }
    let fts = hub.search(&Caller::local(), &ask("数据库连接超时怎么办", SearchMode::Fts)).await.unwrap();
    assert!(fts.results.iter().all(|h| h.task != docs[0].0), "full text alone cannot bridge languages");
}

/// The review queue finds each item's nearest approved records from the item's stored vector:
/// a paraphrase with no shared words still finds its original, and no query is embedded.
#[tokio::test]
async fn queue_neighbours_come_from_stored_vectors() {
    let LocalHub { embedder, model, store, hub, .. } = &local_hub(knowhub_service::HubOptions {
        auto_approve: knowhub_service::AutoApprove::None,
        require_approval: true,
        ..Default::default()
    });
    let local = Caller::local();
    // Four of the five (not the Kubernetes one): English, Chinese, and the Docker build record.
    let mut ids = Vec::new();
    for (t, r, x) in DOCS.into_iter().filter(|d| !d.0.contains("Kubernetes")) {
        let id = hub.submit(&local, req(t, r, x)).await.unwrap().id;
        hub.approve(&local, &id, None).await.unwrap();
        ids.push(id);
    }
    let waiting = hub
        .submit(&local, req("Making container builds quicker", "layer caching in the Dockerfile", "saves minutes"))
        .await
        .unwrap();
    assert_eq!(waiting.status, knowhub_core::Status::Pending);
    wait_for_vectors(store, model, 5).await;
    let before = embedder.cached_queries();
    let page = hub.pending(&local, knowhub_service::QueueKind::Pending, None, 10).await.unwrap();
    assert_eq!(embedder.cached_queries(), before, "the page embedded a query instead of reading stored vectors");
    assert_eq!(page.items.len(), 1);
    let nearest: Vec<&str> = page.items[0].nearest.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(nearest.first(), Some(&ids[1].as_str()), "the Docker build record first: {:?}", page.items[0].nearest);
}
