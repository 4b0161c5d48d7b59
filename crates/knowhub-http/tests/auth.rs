//! API keys and roles: every route × every kind of caller, through `app()` with auth on.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use knowhub_ai::Embedder;
use knowhub_core::{Caller, Role};
use knowhub_http::app;
use knowhub_service::{Hub, HubOptions, SearchConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

mod common;

const ID: &str = "0192f0c4-aaaa-7bbb-8ccc-0123456789ab";

async fn call(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<Value>,
    auth: Option<&str>,
) -> (StatusCode, Value) {
    let mut b = Request::builder().method(method).uri(path);
    if let Some(a) = auth {
        b = b.header("authorization", a);
    }
    let req = match body {
        Some(v) => b.header("content-type", "application/json").body(Body::from(v.to_string())),
        // State-changing routes need the JSON content type even without a body (CSRF).
        None if method != "GET" => b.header("content-type", "application/json").body(Body::empty()),
        None => b.body(Body::empty()),
    };
    let resp = app.clone().oneshot(req.unwrap()).await.unwrap();
    let status = resp.status();
    let www = resp.headers().get("www-authenticate").cloned();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status == StatusCode::UNAUTHORIZED {
        assert_eq!(www.as_ref().and_then(|h| h.to_str().ok()), Some("Bearer"));
    }
    (status, v)
}

#[tokio::test]
async fn every_route_for_every_role() {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store(dir.path()).await;
    let opts = HubOptions { auth: true, require_approval: true, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    let agent = hub.create_key(&Caller::local(), "bot", Role::Agent).await.unwrap().key;
    let reviewer = hub.create_key(&Caller::local(), "alice", Role::Reviewer).await.unwrap().key;
    let admin = hub.create_key(&Caller::local(), "root", Role::Admin).await.unwrap().key;
    let revoked = hub.create_key(&Caller::local(), "old", Role::Admin).await.unwrap().key;
    hub.revoke_key(&Caller::local(), "old").await.unwrap();
    let app = app(hub.clone());

    let submit = json!({"task": "t", "resource": "r", "result": "x"});
    let routes: Vec<(&str, String, Option<Value>, Role)> = vec![
        ("GET", "/api/search?q=timeout".into(), None, Role::Agent),
        ("POST", "/api/submit".into(), Some(submit), Role::Agent),
        ("GET", format!("/api/content/{ID}"), None, Role::Agent),
        ("GET", format!("/api/experiences/{ID}"), None, Role::Agent),
        ("POST", "/api/extract".into(), Some(json!({"messages": [{"role": "user", "content": "x"}]})), Role::Agent),
        ("GET", format!("/api/extract/{ID}"), None, Role::Agent),
        ("GET", "/api/pending".into(), None, Role::Reviewer),
        ("POST", format!("/api/approve/{ID}"), None, Role::Reviewer),
        ("POST", format!("/api/reject/{ID}"), Some(json!({"reason": "no"})), Role::Reviewer),
        ("DELETE", format!("/api/experiences/{ID}"), None, Role::Admin),
        ("GET", "/api/keys".into(), None, Role::Admin),
        ("POST", "/api/keys".into(), Some(json!({"name": "new-one", "role": "agent"})), Role::Admin),
        ("DELETE", "/api/keys/nobody".into(), None, Role::Admin),
    ];
    let bearer = |k: &str| format!("Bearer {k}");
    let callers: Vec<(&str, Option<String>, Option<Role>)> = vec![
        ("none", None, None),
        ("basic", Some("Basic YWxhZGRpbjpvcGVuc2VzYW1l".into()), None),
        ("empty bearer", Some("Bearer ".into()), None),
        ("bad key", Some(bearer("kh_0000")), None),
        ("revoked", Some(bearer(&revoked)), None),
        ("agent", Some(bearer(&agent)), Some(Role::Agent)),
        ("reviewer", Some(format!("bearer {reviewer}")), Some(Role::Reviewer)),
        ("admin", Some(bearer(&admin)), Some(Role::Admin)),
    ];
    for (method, path, body, need) in &routes {
        for (who, header, role) in &callers {
            let (s, v) = call(&app, method, path, body.clone(), header.as_deref()).await;
            let want = match role {
                None => Some(StatusCode::UNAUTHORIZED),
                Some(r) if !r.allows(*need) => Some(StatusCode::FORBIDDEN),
                Some(_) => None,
            };
            match want {
                Some(w) => {
                    assert_eq!(s, w, "{who} {method} {path}: {v}");
                    assert!(v["error"]["code"].is_string() && v["error"]["message"].is_string(), "{v}");
                }
                None => assert!(
                    s != StatusCode::UNAUTHORIZED && s != StatusCode::FORBIDDEN && s.as_u16() < 500
                        || s == StatusCode::SERVICE_UNAVAILABLE,
                    "{who} {method} {path} should pass auth, got {s}: {v}"
                ),
            }
        }
    }
    // The health check stays open for load balancers.
    assert_eq!(call(&app, "GET", "/healthz", None, None).await.0, StatusCode::OK);
    // A key created over the API works at once and is shown once; listing never shows keys.
    let (s, created) =
        call(&app, "POST", "/api/keys", Some(json!({"name": "ci", "role": "reviewer"})), Some(&bearer(&admin))).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let key = created["key"].as_str().unwrap();
    assert_eq!(call(&app, "GET", "/api/pending", None, Some(&bearer(key))).await.0, StatusCode::OK);
    let (_, list) = call(&app, "GET", "/api/keys", None, Some(&bearer(&admin))).await;
    let text = list.to_string();
    for k in [&agent, &reviewer, &admin, &key.to_string()] {
        assert!(!text.contains(&k[3..]), "a key leaked into the listing");
    }
    assert!(text.contains("\"prefix\""));
    let (s, _) =
        call(&app, "POST", "/api/keys", Some(json!({"name": "ci", "role": "agent"})), Some(&bearer(&admin))).await;
    assert_eq!(s, StatusCode::CONFLICT, "active names are unique");
    let (s, v) =
        call(&app, "POST", "/api/keys", Some(json!({"name": "x", "role": "god"})), Some(&bearer(&admin))).await;
    assert_eq!((s, v["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("role")));
    // Revoked over the API: refused from then on.
    assert_eq!(call(&app, "DELETE", "/api/keys/ci", None, Some(&bearer(&admin))).await.0, StatusCode::OK);
    assert_eq!(call(&app, "GET", "/api/pending", None, Some(&bearer(key))).await.0, StatusCode::UNAUTHORIZED);
    // The submitter's name is the key's name; with auto_approve = all it is approved.
    let (s, v) = call(
        &app,
        "POST",
        "/api/submit",
        Some(json!({"task": "a", "resource": "b", "result": "c"})),
        Some(&bearer(&agent)),
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (StatusCode::CREATED, Some("approved")));
}

#[tokio::test]
async fn reviewers_only_policy_sends_agent_submits_to_review() {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store(dir.path()).await;
    let opts = HubOptions { auth: true, auto_approve: knowhub_service::AutoApprove::Reviewers, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    let agent = hub.create_key(&Caller::local(), "bot", Role::Agent).await.unwrap().key;
    let reviewer = hub.create_key(&Caller::local(), "alice", Role::Reviewer).await.unwrap().key;
    let app = app(hub);
    let body = |t: &str| Some(json!({"task": t, "resource": "r", "result": "x"}));
    let (_, a) = call(&app, "POST", "/api/submit", body("by agent"), Some(&format!("Bearer {agent}"))).await;
    let (_, r) = call(&app, "POST", "/api/submit", body("by reviewer"), Some(&format!("Bearer {reviewer}"))).await;
    assert_eq!((a["status"].as_str(), r["status"].as_str()), (Some("pending"), Some("approved")));
}
