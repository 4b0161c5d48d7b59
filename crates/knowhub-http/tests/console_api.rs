//! The JSON routes behind the review console, on SQLite and (KNOWHUB_TEST_BACKEND=postgres)
//! PostgreSQL: resources, a record's whole story, the dashboard, merging, and `/metrics`.

use std::sync::Arc;

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use knowhub_ai::Embedder;
use knowhub_core::{Caller, Role};
use knowhub_service::{AutoApprove, Hub, HubOptions, SearchConfig};
use serde_json::json;
use tower::ServiceExt;

mod common;
use common::Api;

async fn hub(dir: &std::path::Path, auth: bool) -> Arc<Hub> {
    let store = common::store(dir).await;
    let opts = HubOptions { auth, auto_approve: AutoApprove::None, require_approval: true, ..Default::default() };
    Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts)
}

async fn submit(api: &Api, task: &str, resource: &str, result: &str, outcome: &str) -> String {
    let (s, v) = api
        .post(
            "/api/submit",
            json!({"task": task, "resource": resource, "result": result, "outcome": outcome, "score": 4, "agent_id": "bot"}),
        )
        .await;
    assert!(s == 201 || s == 200, "{v}");
    v["id"].as_str().unwrap().to_string()
}

async fn metrics_text(app: &axum::Router, key: Option<&str>) -> (u16, String) {
    let mut b = Request::get("/metrics");
    if let Some(k) = key {
        b = b.header("authorization", format!("Bearer {k}"));
    }
    let res = app.clone().oneshot(b.body(Body::empty()).unwrap()).await.unwrap();
    let s = res.status().as_u16();
    (s, String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap())
}

#[tokio::test]
async fn resources_views_merge_and_dashboard() {
    let dir = tempfile::tempdir().unwrap();
    let hub = hub(dir.path(), false).await;
    let api = Api::new(hub.clone());
    let ok1 = submit(&api, "dump a big database", "pg_dump", "use -Fc -j 8", "success").await;
    let bad = submit(&api, "dump over a flaky link", "pg_dump", "timed out after 2 h", "failure").await;
    let ok2 = submit(&api, "dump one table", "pg_dump", "use -t name", "success").await;
    let other = submit(&api, "list files", "ls", "ls -la shows hidden files", "success").await;
    for id in [&ok1, &bad, &ok2, &other] {
        assert_eq!(api.post(&format!("/api/approve/{id}"), json!({})).await.0, 200);
    }
    let (s, v) = api.get("/api/resources").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["resources"][0]["resource"], "pg_dump", "most used first: {v}");
    assert_eq!((v["resources"][0]["records"].as_u64(), v["resources"][0]["failures"].as_u64()), (Some(3), Some(1)));
    let (_, v) = api.get("/api/resources?q=LS").await;
    assert_eq!(v["count"], 1, "case-insensitive filter: {v}");
    assert_eq!(api.get("/api/resources?q=%25").await.1["count"], 0, "% is literal");
    assert_eq!(api.get("/api/resources?limit=0").await.0, 400);
    let (s, page) = api.get("/api/resources/PG_DUMP").await;
    assert_eq!(s, 200, "{page}");
    assert_eq!(page["failures"][0]["id"], bad.as_str(), "known failures first");
    assert_eq!(page["top"].as_array().unwrap().len(), 2);
    assert!(page["last_success"]["id"].is_string());
    assert_eq!(api.get("/api/resources/no-such-tool").await.0, 404);

    let dup = submit(&api, "dump a large database fast", "pg_dump", "parallel dump -Fc -j 8", "success").await;
    let (s, t) = api.post(&format!("/api/merge/{dup}"), json!({"into": ok1})).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["id"], ok1.as_str());
    let (s, e) = api.post(&format!("/api/merge/{dup}"), json!({"into": ok1})).await;
    assert_eq!(s, 409, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("by local"), "{e}");
    let pend = submit(&api, "restore it", "pg_restore", "use -j", "success").await;
    // Queue items keep the record's own `source` (manual | extracted | imported); the kept
    // transcript is `source_messages`, never a second `source` key.
    let (_, q) = api.get("/api/pending").await;
    assert_eq!(q["items"][0]["source"], "manual", "{q}");
    assert_eq!(q["items"][0]["redactions"], 0);
    assert_eq!(api.post(&format!("/api/merge/{pend}"), json!({"into": pend})).await.0, 400);
    assert_eq!(api.post(&format!("/api/merge/{pend}"), json!({"into": ok1, "x": 1})).await.0, 400);
    let (s, view) = api.get(&format!("/api/experiences/{ok1}/view")).await;
    assert_eq!(s, 200, "{view}");
    let what: Vec<&str> = view["history"].as_array().unwrap().iter().map(|h| h["what"].as_str().unwrap()).collect();
    assert!(what.contains(&"submitted") && what.contains(&"approved"), "{what:?}");
    assert_eq!(view["confirmed_by"].as_array().unwrap().len(), 2, "the merge confirmed it: {view}");

    api.search("pg_dump", "").await;
    api.search("banana bread recipe", "").await;
    let (s, d) = api.get("/api/dashboard?weeks=2").await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(d["totals"]["approved"], 4);
    assert_eq!(d["totals"]["pending"], 1);
    assert_eq!(d["totals"]["searches"], 2, "{d}");
    assert_eq!(d["totals"]["found"], 1, "the off-topic search abstained: {d}");
    assert_eq!(api.get("/api/dashboard?weeks=99").await.0, 400);
}

#[tokio::test]
async fn metrics_count_requests_and_need_a_reviewer_key() {
    let dir = tempfile::tempdir().unwrap();
    let hub = hub(dir.path(), true).await;
    let local = Caller::local();
    let agent = hub.create_key(&local, "bot", Role::Agent).await.unwrap().key;
    let rev = hub.create_key(&local, "rev", Role::Reviewer).await.unwrap().key;
    let api = Api::new(hub.clone()).as_key(&agent);
    submit(&api, "dump a db", "pg_dump", "use -Fc", "success").await;
    api.search("pg_dump", "").await;
    api.search("pg_dump", "").await;
    assert_eq!(api.get("/api/experiences/0192f0c4-aaaa-7bbb-8ccc-0123456789ab").await.0, 404);
    let (s, _) = metrics_text(&api.app, Some(&agent)).await;
    assert_eq!(s, 403, "agent keys cannot read metrics");
    assert_eq!(metrics_text(&api.app, None).await.0, 401);
    let (s, m) = metrics_text(&api.app, Some(&rev)).await;
    assert_eq!(s, 200, "{m}");
    for line in [
        "knowhub_http_requests_total{route=\"/api/search\",method=\"GET\",status=\"200\"} 2",
        "knowhub_http_requests_total{route=\"/api/experiences/{id}\",method=\"GET\",status=\"404\"} 1",
        "knowhub_search_duration_seconds_count 2",
        "knowhub_search_duration_seconds_bucket{le=\"+Inf\"} 2",
        // The only record waits for review, so both searches found nothing.
        "knowhub_search_abstentions_total 2",
        "knowhub_records{status=\"pending\"} 1",
        "# TYPE knowhub_search_duration_seconds histogram",
    ] {
        assert!(m.lines().any(|l| l == line), "missing {line:?} in\n{m}");
    }
}

/// The other adapters merged in by `app_with` (the console, MCP) are counted by their route
/// templates too, and keep their own answers (no API 404 or JSON guard in their way).
#[tokio::test]
async fn metrics_count_the_other_adapters_routes() {
    let dir = tempfile::tempdir().unwrap();
    let hub = hub(dir.path(), false).await;
    let adapters = axum::Router::new()
        .route("/ui/pages/{id}", axum::routing::get(|| async { "page" }))
        .route("/ui/form", axum::routing::post(|| async { "posted" }));
    let app = knowhub_http::app_with(hub, adapters);
    for (method, uri) in [("GET", "/ui/pages/1"), ("GET", "/ui/pages/2"), ("POST", "/ui/form")] {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("a=1"))
            .unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), 200, "{method} {uri}: the API's guards stay off other adapters' routes");
    }
    let (s, m) = metrics_text(&app, None).await;
    assert_eq!(s, 200, "{m}");
    for line in [
        "knowhub_http_requests_total{route=\"/ui/pages/{id}\",method=\"GET\",status=\"200\"} 2",
        "knowhub_http_requests_total{route=\"/ui/form\",method=\"POST\",status=\"200\"} 1",
    ] {
        assert!(m.lines().any(|l| l == line), "missing {line:?} in\n{m}");
    }
}
