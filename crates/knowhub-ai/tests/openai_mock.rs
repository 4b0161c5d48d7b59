//! The OpenAI-compatible embedder against a scripted server on 127.0.0.1 (the real remote API
//! cannot be reached here; set KNOWHUB_LIVE_EMBED=1 with KNOWHUB_EMBED_* to try a real one).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::{routing::post, Json, Router};
use knowhub_ai::{Embedder, OpenAiEmbedder};

async fn serve(router: Router) -> String {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, router).await.unwrap() });
    format!("http://{addr}/v1")
}

#[tokio::test]
async fn embeds_normalises_orders_and_caches() {
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let url = serve(Router::new().route(
        "/v1/embeddings",
        post(move |Json(body): Json<serde_json::Value>| {
            let c = c.clone();
            async move {
                c.fetch_add(1, Ordering::SeqCst);
                let n = body["input"].as_array().unwrap().len();
                // Answer out of order to check we sort by index; vectors are not unit length.
                let data: Vec<_> = (0..n)
                    .rev()
                    .map(|i| serde_json::json!({"index": i, "embedding": [i as f32 + 1.0, 0.0, 0.0]}))
                    .collect();
                Json(serde_json::json!({"data": data, "model": body["model"]}))
            }
        }),
    ))
    .await;
    let e = Embedder::openai(
        OpenAiEmbedder::new(&url, "text-embedding-3-small", Some("k".into()), Duration::from_secs(5)).unwrap(),
    );
    assert_eq!(e.model_id(), Some("openai:text-embedding-3-small"));
    let v = e.embed_passages(&["a".into(), "b".into()]).await.unwrap();
    assert_eq!(v, vec![vec![1.0, 0.0, 0.0], vec![1.0, 0.0, 0.0]]);
    let q1 = e.embed_query("hello").await.unwrap();
    let q2 = e.embed_query("hello").await.unwrap();
    assert_eq!(q1, q2);
    assert_eq!(calls.load(Ordering::SeqCst), 2, "second identical query served from cache");
}

#[tokio::test]
async fn errors_are_reported_not_panicked() {
    let url = serve(
        Router::new()
            .route("/v1/embeddings", post(|| async { (axum::http::StatusCode::TOO_MANY_REQUESTS, "slow down") })),
    )
    .await;
    let e = Embedder::openai(OpenAiEmbedder::new(&url, "m", None, Duration::from_secs(5)).unwrap());
    let err = e.embed_passages(&["a".into()]).await.unwrap_err();
    assert!(err.to_string().contains("429"), "{err}");
    let dead =
        Embedder::openai(OpenAiEmbedder::new("http://127.0.0.1:9/v1", "m", None, Duration::from_millis(500)).unwrap());
    assert!(dead.embed_query("x").await.is_err());
    assert!(Embedder::none().embed_query("x").await.is_err());
}

#[tokio::test]
async fn live_endpoint_when_asked() {
    if std::env::var("KNOWHUB_LIVE_EMBED").as_deref() != Ok("1") {
        eprintln!("live embedding test not requested (KNOWHUB_LIVE_EMBED=1)");
        return;
    }
    let url = std::env::var("KNOWHUB_EMBED_BASE_URL").expect("KNOWHUB_EMBED_BASE_URL");
    let model = std::env::var("KNOWHUB_EMBED_MODEL").expect("KNOWHUB_EMBED_MODEL");
    let e = Embedder::openai(
        OpenAiEmbedder::new(&url, &model, std::env::var("KNOWHUB_EMBED_API_KEY").ok(), Duration::from_secs(30))
            .unwrap(),
    );
    let v = e.embed_query("数据库连接超时怎么办").await.unwrap();
    let n: f32 = v.scan.iter().map(|x| x * x).sum();
    assert!((n - 1.0).abs() < 1e-3);
}
