//! Scopes through the HTTP API, on the backend `common::store` picks (scripts/test.sh runs these
//! once per backend), as an attacker would try them: every route × {agent, reviewer, admin} ×
//! {in scope, out of scope}, evidence (confirmations, near-duplicates, contests) that must not
//! cross scopes, bad scope input, and a leak hunt through ranking.

use std::sync::{Arc, OnceLock};

use knowhub_ai::Embedder;
use knowhub_core::{ReadScopes, Role};
use knowhub_service::{Hub, HubOptions, SearchConfig};
use serde_json::{json, Value};

mod common;
use common::Api;

fn embedder() -> Arc<Embedder> {
    static E: OnceLock<Arc<Embedder>> = OnceLock::new();
    E.get_or_init(|| {
        Arc::new(Embedder::local(&knowhub_ai::default_model_dir(), true).unwrap_or_else(|e| panic!("{e}")))
    })
    .clone()
}

struct Org {
    _dir: tempfile::TempDir,
    hub: Arc<Hub>,
    api: Api,
    /// Keys by name: `admin`, `rev-a`/`rev-b` (reviewers of team/a, team/b), `bot-a`/`bot-b`
    /// (agents reading org and their team, writing to their team).
    keys: std::collections::HashMap<&'static str, String>,
}

impl Org {
    fn as_(&self, name: &str) -> Api {
        self.api.as_key(&self.keys[name])
    }

    async fn embed(&self) {
        let model = embedder().model_id().unwrap().to_string();
        while self.hub.embed_pending(&model).await.unwrap() > 0 {}
    }
}

async fn org() -> Org {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_for(dir.path(), embedder().model_id()).await;
    let opts = HubOptions { auth: true, ..Default::default() };
    let hub = Hub::with_options(store, embedder(), SearchConfig::default(), opts);
    let keys = common::scoped_keys(
        &hub,
        &[
            ("admin", "admin", None, None),
            ("rev-a", "reviewer", Some("team/a"), Some("team/a")),
            ("rev-b", "reviewer", Some("team/b"), Some("team/b")),
            ("bot-a", "agent", Some("org,team/a"), Some("team/a")),
            ("bot-b", "agent", Some("org,team/b"), Some("team/b")),
        ],
    )
    .await;
    Org { api: Api::new(hub.clone()), hub, keys, _dir: dir }
}

fn exp(task: &str, resource: &str, result: &str) -> Value {
    json!({"task": task, "resource": resource, "result": result, "score": 4})
}

fn ids(v: &Value) -> Vec<String> {
    v["results"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap().to_string()).collect()
}

async fn submit(api: &Api, body: Value) -> String {
    let (s, v) = api.post("/api/submit", body).await;
    assert_eq!(s, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn every_route_keeps_to_the_callers_scopes() {
    let o = org().await;
    // team/a's record, with content, written by its agent to its write scope (no scope named).
    let mut a = exp("Rotate the payments signing key", "vault-ledgerctl rotate", "rotated, no downtime");
    a["content"] = json!("steps: 1. drain 2. rotate");
    let rec_a = submit(&o.as_("bot-a"), a).await;
    let org_rec = submit(&o.as_("admin"), exp("Rotate TLS certificates", "certbot renew", "renewed")).await;
    // A pending record of team/a (a reviewer's queue item): an agent's record held as a burst is
    // the simplest way to make one, so a reviewer writes one pending through the store instead.
    let mut pending = knowhub_store_tests::exp("Rotate the payments webhook secret", "ledgerctl", "rotated", 4, "x");
    pending.status = knowhub_core::Status::Pending;
    pending.scope = "team/a".into();
    let pending_a = match o.hub.store().insert(pending).await.unwrap() {
        knowhub_core::InsertOutcome::Created(e) => e.id,
        other => panic!("{other:?}"),
    };
    o.embed().await;

    let (s, v) = o.as_("bot-a").get(&format!("/api/experiences/{rec_a}")).await;
    assert_eq!((s, v["scope"].as_str()), (200, Some("team/a")), "{v}");

    // (caller, method, path, body, status when the caller may read team/a, status when not)
    type Case = (&'static str, &'static str, String, Option<Value>, u16);
    let mut cases: Vec<Case> = Vec::new();
    for (who, ok) in [("bot-a", true), ("bot-b", false), ("rev-a", true), ("rev-b", false), ("admin", true)] {
        let s = |yes: u16, no: u16| if ok { yes } else { no };
        cases.push((who, "GET", format!("/api/experiences/{rec_a}"), None, s(200, 404)));
        cases.push((who, "GET", format!("/api/content/{rec_a}"), None, s(200, 404)));
        cases.push((who, "GET", "/api/resources/vault-ledgerctl%20rotate".into(), None, s(200, 404)));
        cases.push((who, "GET", "/api/search?q=rotate&scope=team/a&min_relevance=0".into(), None, s(200, 403)));
        let reviewer = who != "bot-a" && who != "bot-b";
        if reviewer {
            cases.push((who, "GET", format!("/api/experiences/{rec_a}/view"), None, s(200, 404)));
        }
    }
    for (who, method, path, body, want) in &cases {
        let (s, v) = o.as_(who).call(method, path, body.clone()).await;
        assert_eq!(s, *want, "{who} {method} {path}: {v}");
        if s == 404 || s == 403 {
            let msg = v["error"]["message"].as_str().unwrap_or("");
            assert!(!msg.contains("team/a") || s == 403, "a 404 names nothing of the hidden record: {v}");
            assert!(!v.to_string().contains("Rotate the payments"), "{v}");
        }
    }

    // Feedback: only on a record the caller reads; out of scope reads as missing.
    let (s, v) = o.as_("bot-b").post("/api/feedback", json!({"id": rec_a, "outcome": "failed"})).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = o.as_("bot-a").post("/api/feedback", json!({"id": rec_a, "outcome": "helped"})).await;
    assert_eq!(s, 201, "{v}");
    let (_, v) = o.as_("admin").get(&format!("/api/experiences/{rec_a}")).await;
    assert_eq!((v["feedback"]["helped"].as_u64(), v["feedback"]["failed"].as_u64()), (Some(1), Some(0)), "{v}");

    // Search: without a scope, every readable scope; never a hidden one.
    let seen = |v: &Value| ids(v);
    let va = o.as_("bot-a").search("rotate signing key", "&min_relevance=0&top_k=50").await;
    let vb = o.as_("bot-b").search("rotate signing key", "&min_relevance=0&top_k=50").await;
    assert!(seen(&va).contains(&rec_a) && seen(&va).contains(&org_rec), "{va}");
    assert!(!seen(&vb).contains(&rec_a) && seen(&vb).contains(&org_rec), "{vb}");
    assert!(va["results"].as_array().unwrap().iter().all(|h| h["scope"] == "org" || h["scope"] == "team/a"));
    let only_org = o.as_("bot-a").search("rotate", "&min_relevance=0&scope=org").await;
    assert_eq!(seen(&only_org), vec![org_rec.clone()]);

    // Resources and the dashboard name nothing of a hidden scope.
    for who in ["bot-b", "rev-b"] {
        let (_, v) = o.as_(who).get("/api/resources?q=ledgerctl").await;
        assert_eq!(v["resources"].as_array().map(Vec::len), Some(0), "{who}: {v}");
    }
    let (s, v) = o.as_("rev-b").get("/api/dashboard").await;
    assert_eq!(s, 200, "{v}");
    assert!(!v["top_resources"].to_string().contains("ledgerctl"), "{v}");
    let (_, a) = o.as_("rev-a").get("/api/dashboard").await;
    assert!(a["top_resources"].to_string().contains("ledgerctl"), "{a}");
    // Its totals count only the reviewer's scopes: nothing of team/a's pending record for rev-b.
    let (_, all) = o.as_("admin").get("/api/dashboard").await;
    let total = |v: &Value, k: &str| v["totals"][k].as_u64().unwrap_or_else(|| panic!("totals.{k}: {v}"));
    assert_eq!((total(&v, "pending"), total(&a, "pending")), (0, 1), "{v} {a}");
    assert!(total(&v, "records") < total(&all, "records") && total(&a, "records") < total(&all, "records"));
    assert_eq!(total(&all, "records"), total(&all, "pending") + total(&all, "approved") + total(&all, "rejected"));
    // Nor the names of the agents that wrote only in other scopes.
    assert!(all["agents"].to_string().contains("bot-a"), "{all}");
    assert!(!v["agents"].to_string().contains("bot-a"), "{v}");

    // The review queue: a reviewer sees and decides only its scopes' items.
    let queue = |v: &Value| -> Vec<String> {
        v["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().to_string()).collect()
    };
    let (_, v) = o.as_("rev-b").get("/api/pending").await;
    assert!(!queue(&v).contains(&pending_a), "{v}");
    assert_eq!(v["total_pending"], 0, "counts only the reviewer's scopes: {v}");
    let (_, v) = o.as_("rev-a").get("/api/pending").await;
    assert!(queue(&v).contains(&pending_a), "{v}");
    assert_eq!(v["total_pending"], 1, "{v}");
    for path in [format!("/api/approve/{pending_a}"), format!("/api/reject/{pending_a}")] {
        let (s, v) = o.as_("rev-b").post(&path, json!({})).await;
        assert_eq!(s, 404, "{path}: {v}");
    }
    let (s, v) = o.as_("rev-b").post(&format!("/api/merge/{pending_a}"), json!({"into": org_rec})).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = o.as_("rev-a").post(&format!("/api/merge/{pending_a}"), json!({"into": rec_a})).await;
    assert_eq!(s, 200, "{v}");

    // Moving between scopes: a reviewer of both, or an admin; agents never.
    let move_to = |scope: &str| json!({"scope": scope});
    let path = format!("/api/experiences/{rec_a}/scope");
    let (s, v) = o.as_("bot-a").post(&path, move_to("org")).await;
    assert_eq!(s, 403, "{v}");
    let (s, v) = o.as_("rev-b").post(&path, move_to("team/b")).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = o.as_("rev-a").post(&path, move_to("org")).await;
    assert_eq!(s, 403, "rev-a does not read org: {v}");
    let (s, v) = o.as_("admin").post(&path, move_to("not a scope")).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("scope")), "{v}");
    let (s, v) = o.as_("admin").post(&path, move_to("org")).await;
    assert_eq!((s, v["scope"].as_str()), (200, Some("org")), "{v}");
    let (s, _) = o.as_("bot-b").get(&format!("/api/experiences/{rec_a}")).await;
    assert_eq!(s, 200, "promoted to org, every agent reads it");

    // Deleting is an admin's, and reads as missing out of its scopes too.
    let (s, _) = o.as_("rev-a").call("DELETE", &format!("/api/experiences/{rec_a}"), None).await;
    assert_eq!(s, 403);
}

#[tokio::test]
async fn evidence_never_crosses_scopes() {
    let o = org().await;
    let text = exp("Fix flaky CI on the payments repo", "retry-action v3", "flakes gone after 2 retries");
    let rec_a = submit(&o.as_("bot-a"), text.clone()).await;
    o.embed().await;
    // The exact text from team/b: a new record in team/b, not a confirmation of team/a's.
    let (s, v) = o.as_("bot-b").post("/api/submit", text.clone()).await;
    assert_eq!(s, 201, "{v}");
    assert!(v["duplicate_of"].is_null() && v["id"] != rec_a.as_str(), "{v}");
    // The same meaning, reworded: no merge across scopes either.
    let reworded =
        exp("Fix flaky CI in the payments repository", "retry-action v3", "the flakes went away after two retries");
    let (s, v) = o.as_("bot-b").post("/api/submit", reworded).await;
    assert!(v["duplicate_of"].as_str() != Some(rec_a.as_str()), "{s} {v}");
    // The opposite outcome from team/b does not contest team/a's record.
    let mut failed = text.clone();
    failed["outcome"] = json!("failure");
    failed["result"] = json!("still flaky after retries");
    o.as_("bot-b").post("/api/submit", failed).await;
    let (_, v) = o.as_("admin").get(&format!("/api/experiences/{rec_a}")).await;
    assert_eq!(v["confirmations"], 1, "{v}");
    assert!(v["contested_with"].as_array().is_none_or(Vec::is_empty), "{v}");
    // Within one scope, the same text still confirms.
    let (s, v) = o.api.as_key(&o.keys["bot-a"]).post("/api/submit", json!({"task": "Fix flaky CI on the payments repo", "resource": "retry-action v3", "result": "flakes gone after 2 retries", "score": 4, "agent_id": "second"})).await;
    assert_eq!((s, v["id"].as_str()), (200, Some(rec_a.as_str())), "{v}");
}

#[tokio::test]
async fn scope_input_is_checked() {
    let o = org().await;
    let bot_b = o.as_("bot-b");
    let mut body = exp("t", "r", "x");
    for (scope, want) in
        [("team/a", 403), ("org", 403), ("private/bot-a", 403), ("team/", 400), ("teams/x", 400), ("team/a b", 400)]
    {
        body["scope"] = json!(scope);
        let (s, v) = bot_b.post("/api/submit", body.clone()).await;
        assert_eq!(s, want, "{scope}: {v}");
        if want == 400 {
            assert_eq!(v["error"]["field"], "scope", "{v}");
        } else {
            assert!(v["error"]["message"].as_str().unwrap().contains("scope"), "{v}");
        }
    }
    // Its own team and its own private scope are writable.
    for scope in ["team/b", "private/bot-b"] {
        body["scope"] = json!(scope);
        body["task"] = json!(format!("a task for {scope}"));
        let (s, v) = bot_b.post("/api/submit", body.clone()).await;
        assert_eq!((s, v["status"].as_str()), (201, Some("approved")), "{scope}: {v}");
    }
    // A private scope is its owner's alone, even for another agent of the same team.
    let (s, v) = o.as_("bot-a").get("/api/search?q=task&scope=private/bot-b").await;
    assert_eq!(s, 403, "{v}");
    let (s, v) = bot_b.get("/api/search?q=task&scope=nonsense").await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("scope")), "{v}");
    // Key creation checks its scopes.
    let admin = o.as_("admin");
    let (s, v) =
        admin.post("/api/keys", json!({"name": "k1", "role": "agent", "read": "org,team/", "write": "org"})).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("read")), "{v}");
    let (s, v) = admin.post("/api/keys", json!({"name": "k2", "role": "agent", "write": "private/someone-else"})).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("write")), "{v}");
    let (s, v) =
        admin.post("/api/keys", json!({"name": "k3", "role": "agent", "read": "team/x", "write": "project/y"})).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["read_scopes"], json!(["team/x", "project/y"]), "a key reads what it writes: {v}");
    let (_, v) = admin.get("/api/keys").await;
    let k = v["keys"].as_array().unwrap().iter().find(|k| k["name"] == "rev-a").unwrap().clone();
    assert_eq!((k["read_scopes"].clone(), k["write_scope"].clone()), (json!(["team/a"]), json!("team/a")), "{k}");
    assert_eq!(ReadScopes::default_for(Role::Agent).to_list(), "org");
}

/// A leak hunt through ranking: records a caller may not read must not change which of its
/// readable records a search returns, their order, or the relevance each reads.
#[tokio::test]
async fn hidden_records_do_not_move_visible_results() {
    let o = org().await;
    let visible = [
        ("Speed up Docker builds in CI", "BuildKit cache mounts", "build 8 min -> 1 min"),
        ("Docker image too large", "multi-stage build with distroless", "image 1.2 GB -> 90 MB"),
        ("Docker build fails on arm64 runners", "docker buildx --platform linux/arm64", "works with QEMU, slow"),
        (
            "Cache pip downloads in Docker builds",
            "RUN --mount=type=cache,target=/root/.cache/pip",
            "rebuilds 3x faster",
        ),
    ];
    for (t, r, x) in visible {
        submit(&o.as_("admin"), exp(t, r, x)).await;
    }
    o.embed().await;

    let before = visible_ids(&o).await;
    assert_eq!(before.len(), visible.len(), "every visible record is a candidate");
    // Many hidden records, in team/a, on exactly the query's words and meaning.
    for i in 0..30 {
        let mut body = exp(
            &format!("Docker build cache slow in CI, case {i}"),
            "docker build --cache-from registry",
            &format!("cache hit after pushing the cache image ({i})"),
        );
        body["agent_id"] = json!(format!("n{i}"));
        submit(&o.as_("bot-a"), body).await;
    }
    o.embed().await;
    let after = visible_ids(&o).await;
    assert_eq!(after, before, "hidden records changed what bot-b sees");
    let seen_by_a = o.as_("bot-a").search("docker build cache slow in CI", "&min_relevance=0&top_k=10").await;
    assert!(ids(&seen_by_a).iter().any(|id| !before.iter().any(|b| &b.0 == id)), "bot-a does see them: {seen_by_a}");
}

/// What bot-b finds for the leak hunt's query, in order, with the relevance each hit reads.
async fn visible_ids(o: &Org) -> Vec<(String, Value)> {
    let v = o.as_("bot-b").search("docker build cache slow in CI", "&min_relevance=0&top_k=10").await;
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["id"].as_str().unwrap().to_string(), h["relevance"].clone()))
        .collect()
}

/// The leak hunt through the full-text statistics: hidden records full of one query word would
/// make that word common, and so rank a visible record holding it below one holding the other.
#[tokio::test]
async fn hidden_records_do_not_move_full_text_ranking() {
    let o = org().await;
    let a = submit(&o.as_("admin"), exp("Rotate zanzibar logs nightly", "logrotate", "kept a week of logs")).await;
    let b = submit(&o.as_("admin"), exp("Rotate quixotic logs nightly", "journald", "kept a week of logs")).await;
    let q = |o: &Org| {
        let api = o.as_("bot-b");
        async move {
            let v = api.search("zanzibar quixotic", "&mode=fts&min_relevance=0&top_k=10").await;
            v["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| (h["id"].as_str().unwrap().to_string(), h["relevance"].clone()))
                .collect::<Vec<_>>()
        }
    };
    let before = q(&o).await;
    assert_eq!(
        before.iter().map(|h| h.0.clone()).collect::<std::collections::HashSet<_>>(),
        [a, b].into_iter().collect()
    );
    for i in 0..30 {
        let mut body = exp(&format!("zanzibar release checklist {i}"), "make", &format!("shipped build {i}"));
        body["agent_id"] = json!(format!("z{i}"));
        submit(&o.as_("bot-a"), body).await;
    }
    assert_eq!(q(&o).await, before, "hidden records changed what bot-b sees");
}
