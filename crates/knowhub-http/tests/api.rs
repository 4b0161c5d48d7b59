//! The HTTP API against a real SQLite store in a temp dir, through `app()` with `oneshot`.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use knowhub_ai::Embedder;
use knowhub_http::app;
use knowhub_service::{Hub, SearchConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

mod common;

struct T {
    _dir: tempfile::TempDir,
    app: axum::Router,
}

async fn setup() -> T {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store(dir.path()).await;
    let hub = Hub::new(store, Arc::new(Embedder::none()), SearchConfig::default());
    T { app: app(hub), _dir: dir }
}

impl T {
    async fn call(&self, req: Request<Body>) -> (StatusCode, Value) {
        let resp = self.app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("non-JSON body for {status}: {:?}", String::from_utf8_lossy(&bytes)));
        (status, v)
    }
    async fn post(&self, path: &str, body: impl Into<String>) -> (StatusCode, Value) {
        self.call(Request::post(path).header("content-type", "application/json").body(Body::from(body.into())).unwrap())
            .await
    }
    async fn submit(&self, v: Value) -> (StatusCode, Value) {
        self.post("/api/submit", v.to_string()).await
    }
    async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.call(Request::get(path).body(Body::empty()).unwrap()).await
    }
    async fn search(&self, q: &str, extra: &str) -> Vec<Value> {
        let (s, v) = self.get(&format!("/api/search?q={}{extra}", urlencode(q))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["count"].as_u64().unwrap() as usize, v["results"].as_array().unwrap().len());
        v["results"].as_array().unwrap().clone()
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn exp(task: &str, resource: &str, result: &str) -> Value {
    json!({"task": task, "resource": resource, "result": result, "score": 4, "agent_id": "main", "submitted_by": "ops@example.com"})
}

fn assert_error(status: StatusCode, v: &Value, want: StatusCode, field: Option<&str>) {
    assert_eq!(status, want, "{v}");
    let e = &v["error"];
    assert!(e["code"].is_string() && e["message"].as_str().is_some_and(|m| !m.is_empty()), "error shape: {v}");
    if let Some(f) = field {
        assert_eq!(e["field"], f, "{v}");
        assert!(e["message"].as_str().unwrap().contains(f), "message names the field: {v}");
    }
}

#[tokio::test]
async fn bilingual_round_trips() {
    let t = setup().await;
    let docs = [
        exp("修复 PostgreSQL 连接超时", "pgbouncer pool_mode=transaction", "超时消失，p99 从 3s 降到 40ms"),
        exp("Fix flaky CI caused by network timeouts", "retry with exponential backoff", "CI green for 2 weeks"),
        exp("部署到 Kubernetes 集群", "kubectl rollout status", "发现 readinessProbe 配置错误"),
        exp("备份生产数据库", "pg_dump -Fc --no-owner", "备份 12GB 用时 4 分钟"),
        exp("调试 React 页面重复请求", "React.useEffect cleanup function", "strict mode 下 effect 执行两次是正常的"),
    ];
    let mut ids = Vec::new();
    for d in &docs {
        let (s, v) = t.submit(d.clone()).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_eq!(v["status"], "approved");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let first = |r: Vec<Value>| r.first().map(|x| x["id"].as_str().unwrap().to_string());
    assert_eq!(first(t.search("超时", "").await), Some(ids[0].clone()));
    assert_eq!(first(t.search("数据", "").await), Some(ids[3].clone()));
    assert_eq!(first(t.search("network timeout", "").await), Some(ids[1].clone()));
    assert_eq!(first(t.search("kubectl 部署", "").await), Some(ids[2].clone()));
    assert_eq!(first(t.search("pg_dump", "").await), Some(ids[3].clone()));
    assert_eq!(first(t.search("useEffect 执行两次", "").await), Some(ids[4].clone()));
    let r = t.search("PostgreSQL 超时", "").await;
    let hit = &r[0];
    for k in [
        "id",
        "task",
        "resource",
        "result",
        "score",
        "outcome",
        "relevance",
        "agent_id",
        "submitted_by",
        "created_at",
        "last_confirmed_at",
        "confirmations",
        "feedback",
        "has_content",
    ] {
        assert!(hit.get(k).is_some(), "result lacks {k}: {hit}");
    }
    // Relevance is calibrated, not "1.0 for the best hit": high for a hit holding every query
    // word, never certainty from full text alone.
    let rel = hit["relevance"].as_f64().unwrap();
    assert!(rel > 0.2 && rel < 1.0, "{hit}");
    assert_eq!((hit["feedback"]["helped"].as_u64(), hit["feedback"]["failed"].as_u64()), (Some(0), Some(0)));
    assert_eq!(hit["task"], "修复 PostgreSQL 连接超时", "text comes back byte-identical");
    let (s, full) = t.get(&format!("/api/experiences/{}", ids[0])).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(full["language"], "mixed");
    assert_eq!(full["source"], "manual");
    assert_eq!(full["content_hash"].as_str().unwrap().len(), 64);
}

#[tokio::test]
async fn duplicates_merge_into_confirmations() {
    let t = setup().await;
    let (s, a) = t.submit(exp("Fix  the Bug", "cargo test", "passes")).await;
    assert_eq!(s, StatusCode::CREATED);
    // The same agent again (22 times): still one confirmation; a second agent: two.
    for _ in 0..22 {
        let (s, again) = t.submit(exp("fix the bug ", "CARGO   test", "Passes")).await;
        assert_eq!((s, again["confirmations"].as_u64()), (StatusCode::OK, Some(1)), "{again}");
    }
    let mut other = exp("fix the bug ", "CARGO   test", "Passes");
    other["agent_id"] = json!("second-agent");
    let (s, b) = t.submit(other).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["id"], a["id"]);
    assert_eq!(b["duplicate_of"], a["id"]);
    assert_eq!(b["confirmations"], 2);
    let (_, h) = t.get("/healthz").await;
    assert_eq!(h["records"], 1);
    let r = t.search("bug", "&min_score=1").await;
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["confirmations"], 2);
}

#[tokio::test]
async fn filters_min_score_and_agent() {
    let t = setup().await;
    for (i, (score, agent)) in [(1, "a"), (2, "a"), (3, "b"), (4, "b"), (5, "a")].iter().enumerate() {
        let mut d = exp(&format!("redis cache tuning {i}"), "redis-cli", "ok");
        d["score"] = json!(score);
        d["agent_id"] = json!(agent);
        t.submit(d).await;
    }
    assert_eq!(t.search("redis", "").await.len(), 3, "default min_score is 3");
    assert_eq!(t.search("redis", "&min_score=1").await.len(), 5);
    assert_eq!(t.search("redis", "&min_score=5").await.len(), 1);
    let a = t.search("redis", "&min_score=1&agent_id=a").await;
    assert_eq!(a.len(), 3);
    assert!(a.iter().all(|r| r["agent_id"] == "a"));
    assert!(t.search("redis", "&agent_id=nobody").await.is_empty());
    assert_eq!(t.search("redis", "&min_score=1&top_k=2").await.len(), 2);
    assert!(t.search("完全无关的查询", "").await.is_empty());
}

/// A failure lesson is a warning, rated low by nature: the rating floor (default 3, and what old
/// clients send) never hides it, while it still filters successes.
#[tokio::test]
async fn failure_lessons_pass_the_rating_floor() {
    let t = setup().await;
    let mut failed = exp(
        "Deploy the app to the staging cluster",
        "kubectl apply -f k8s/",
        "failed: ImagePullBackOff because the registry secret was missing in the namespace",
    );
    failed["score"] = json!(1);
    failed["outcome"] = json!("failure");
    let (s, f) = t.submit(failed).await;
    assert_eq!(s, StatusCode::CREATED, "{f}");
    let mut weak = exp("Deploy the app to the staging cluster with helm", "helm upgrade", "worked, slowly");
    weak["score"] = json!(2);
    let (_, w) = t.submit(weak).await;
    for extra in ["", "&min_score=3", "&min_score=5"] {
        let r = t.search("deploy staging cluster", extra).await;
        let ids: Vec<&str> = r.iter().filter_map(|h| h["id"].as_str()).collect();
        assert!(ids.contains(&f["id"].as_str().unwrap()), "{extra}: the failure lesson is returned: {r:?}");
        assert!(!ids.contains(&w["id"].as_str().unwrap()), "{extra}: a success rated 2 is not: {r:?}");
        let hit = r.iter().find(|h| h["id"] == f["id"]).unwrap();
        assert_eq!((hit["outcome"].as_str(), hit["score"].as_u64()), (Some("failure"), Some(1)));
    }
    assert_eq!(t.search("deploy staging cluster", "&min_score=1").await.len(), 2);
    // Asked for explicitly, failures are left out, or asked for alone.
    let ids = |r: Vec<Value>| r.iter().filter_map(|h| h["id"].as_str().map(str::to_string)).collect::<Vec<_>>();
    let success = ids(t.search("deploy staging cluster", "&min_score=1&outcome=success").await);
    assert_eq!(success, vec![w["id"].as_str().unwrap().to_string()]);
    let failure = ids(t.search("deploy staging cluster", "&outcome=failure").await);
    assert_eq!(failure, vec![f["id"].as_str().unwrap().to_string()]);
    let (s, e) = t.get("/api/search?q=deploy&outcome=worked").await;
    assert_eq!((s, e["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("outcome")), "{e}");
}

#[tokio::test]
async fn content_endpoint() {
    let t = setup().await;
    let mut d = exp("Speed up docker builds", "BuildKit cache mounts", "build 8m -> 1m");
    d["content"] = json!("```dockerfile\nRUN --mount=type=cache,target=/root/.cache pip install -r req.txt\n```");
    let (_, v) = t.submit(d).await;
    let id = v["id"].as_str().unwrap();
    let (s, c) = t.get(&format!("/api/content/{id}")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(c["experience_id"], id);
    assert_eq!(c["content_type"], "text/markdown");
    assert!(c["content"].as_str().unwrap().contains("--mount=type=cache"));
    assert_eq!(t.search("docker", "").await[0]["has_content"], true);
    let (_, v2) = t.submit(exp("no content here", "x", "y")).await;
    let (s, e) = t.get(&format!("/api/content/{}", v2["id"].as_str().unwrap())).await;
    assert_error(s, &e, StatusCode::NOT_FOUND, None);
    let (s, e) = t.get("/api/content/01234567-89ab-7def-8123-456789abcdef").await;
    assert_error(s, &e, StatusCode::NOT_FOUND, None);
    let (s, e) = t.get("/api/experiences/..%2F..%2Fetc").await;
    assert_error(s, &e, StatusCode::NOT_FOUND, None);
}

#[tokio::test]
async fn bad_inputs_get_documented_errors() {
    let t = setup().await;
    let ok = exp("t", "r", "x");
    let with = |k: &str, v: Value| {
        let mut d = ok.clone();
        d[k] = v;
        d
    };
    let without = |k: &str| {
        let mut d = ok.clone();
        d.as_object_mut().unwrap().remove(k);
        d
    };
    let cases: Vec<(String, StatusCode, Option<&str>)> = vec![
        ("{not json".into(), StatusCode::BAD_REQUEST, None),
        ("[1,2]".into(), StatusCode::BAD_REQUEST, None),
        ("".into(), StatusCode::BAD_REQUEST, None),
        (with("task", json!(42)).to_string(), StatusCode::BAD_REQUEST, Some("task")),
        (with("score", json!("5")).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("score", json!(4.5)).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("score", json!(0)).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("score", json!(6)).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("score", json!(-3)).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("score", json!(1e40)).to_string(), StatusCode::BAD_REQUEST, Some("score")),
        (with("outcome", json!("meh")).to_string(), StatusCode::BAD_REQUEST, Some("outcome")),
        (with("timestamp", json!("yesterday")).to_string(), StatusCode::BAD_REQUEST, Some("timestamp")),
        (without("task").to_string(), StatusCode::BAD_REQUEST, Some("task")),
        (without("resource").to_string(), StatusCode::BAD_REQUEST, Some("resource")),
        (without("result").to_string(), StatusCode::BAD_REQUEST, Some("result")),
        (with("task", json!("   \n ")).to_string(), StatusCode::BAD_REQUEST, Some("task")),
        (with("result", json!("")).to_string(), StatusCode::BAD_REQUEST, Some("result")),
        (with("task", json!("x".repeat(2001))).to_string(), StatusCode::BAD_REQUEST, Some("task")),
        (with("resource", json!("x".repeat(2001))).to_string(), StatusCode::BAD_REQUEST, Some("resource")),
        (with("result", json!("结".repeat(8001))).to_string(), StatusCode::BAD_REQUEST, Some("result")),
        (with("content", json!("x".repeat(200_001))).to_string(), StatusCode::BAD_REQUEST, Some("content")),
        (with("content", json!("x".repeat(1_100_000))).to_string(), StatusCode::PAYLOAD_TOO_LARGE, None),
    ];
    for (body, want, field) in cases {
        let (s, v) = t.post("/api/submit", body.clone()).await;
        let shown: String = body.chars().take(60).collect();
        assert_eq!(s, want, "body {shown}: {v}");
        assert_error(s, &v, want, field);
    }
    // Exactly at the limits is fine.
    let (s, v) = t.submit(with("task", json!("任".repeat(2000)))).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    // Wrong content type, unknown route, wrong method, bad query parameters.
    let (s, v) = t
        .call(
            Request::post("/api/submit").header("content-type", "text/plain").body(Body::from(ok.to_string())).unwrap(),
        )
        .await;
    assert_error(s, &v, StatusCode::UNSUPPORTED_MEDIA_TYPE, None);
    let (s, v) = t.get("/api/nope").await;
    assert_error(s, &v, StatusCode::NOT_FOUND, None);
    let (s, v) = t.get("/api/submit").await;
    assert_error(s, &v, StatusCode::METHOD_NOT_ALLOWED, None);
    for (q, field) in [
        ("", "q"),
        ("q=", "q"),
        ("q=%20%20", "q"),
        ("q=x&top_k=0", "top_k"),
        ("q=x&top_k=51", "top_k"),
        ("q=x&top_k=ten", "top_k"),
        ("q=x&min_score=9", "min_score"),
        ("q=x&mode=psychic", "mode"),
    ] {
        let (s, v) = t.get(&format!("/api/search?{q}")).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST, Some(field));
    }
    // The longest query is answered, one of ~2,000 distinct tokens included (a pasted page of
    // Chinese: on PostgreSQL it outgrows a statement written term by term), and one over is a 400.
    let page: String = (0..2000u32).map(|i| char::from_u32(0x4e00 + i * 7).unwrap()).collect();
    let enc = |q: &str| q.bytes().map(|b| format!("%{b:02X}")).collect::<String>();
    let (s, v) = t.get(&format!("/api/search?q={}", enc(&page))).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = t.get(&format!("/api/search?q={}", enc(&format!("{page}x")))).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST, Some("q"));
    // Nothing bad was stored.
    let (_, h) = t.get("/healthz").await;
    assert_eq!(h["records"], 1);
}

#[tokio::test]
async fn fuzzish_inputs_never_500() {
    let t = setup().await;
    let bodies = [
        "null",
        "true",
        "\"str\"",
        "{}",
        "{\"task\":null}",
        "{\"task\":{\"a\":1}}",
        "{\"task\":[\"x\"]}",
        "{\"task\":\"\\u0000\",\"resource\":\"\\ud800\",\"result\":\"x\"}",
        "{\"task\":\"a\",\"resource\":\"b\",\"result\":\"c\",\"score\":null}",
        "{\"task\":\"a\",\"resource\":\"b\",\"result\":\"c\",\"extra\":{\"deep\":[1,2,3]}}",
        "\u{feff}{}",
        "{\"task\":\"a\"\"resource\":1}",
    ];
    for b in bodies {
        let (s, v) = t.post("/api/submit", b).await;
        assert!(s.is_client_error() || s.is_success(), "{b} -> {s} {v}");
        assert!(s.is_success() || v["error"]["code"].is_string());
    }
    for q in [
        "q=%FF%FE",
        "q=%22OR%22",
        "q=*",
        "q=NEAR(a%20b)",
        "q=a%20AND%20-b",
        "q=%22%22%22",
        "q=(((",
        "q=%E2%80%8B",
        "q=col:value",
    ] {
        let (s, v) = t.get(&format!("/api/search?{q}")).await;
        assert!(s == StatusCode::OK || s == StatusCode::BAD_REQUEST, "{q} -> {s} {v}");
    }
}
