//! Quarantine and expiry through the HTTP API, on the backend `common::store` picks
//! (scripts/test.sh runs these once per backend): an agent's 1,000 records pulled from search in
//! one request and restored in one, what it writes meanwhile held too, bulk rejection, revoking a
//! key with its records, and records that expire and come back when re-confirmed.

use std::sync::Arc;

use knowhub_ai::Embedder;
use knowhub_core::{Caller, Role};
use knowhub_service::{Hub, HubOptions, SearchConfig};
use serde_json::{json, Value};

mod common;
use common::Api;

struct T {
    _dir: tempfile::TempDir,
    hub: Arc<Hub>,
    api: Api,
    admin: String,
    reviewer: String,
    agent: String,
    mallory: String,
}

async fn setup() -> T {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store(dir.path()).await;
    let opts = HubOptions { auth: true, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    let local = Caller::local();
    let key = |name: &'static str, role| {
        let hub = hub.clone();
        let local = local.clone();
        async move { hub.create_key(&local, name, role).await.unwrap().key }
    };
    T {
        admin: key("root", Role::Admin).await,
        reviewer: key("rev", Role::Reviewer).await,
        agent: key("bot", Role::Agent).await,
        mallory: key("mallory", Role::Agent).await,
        api: Api::new(hub.clone()),
        hub,
        _dir: dir,
    }
}

fn exp(task: &str) -> Value {
    json!({"task": task, "resource": "helm upgrade --atomic", "result": "rolled back cleanly on failure", "score": 4})
}

fn ids(v: &Value) -> Vec<String> {
    v["results"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn an_agents_thousand_records_leave_and_return_in_one_request_each() {
    let t = setup().await;
    let (mallory, agent, admin, reviewer) =
        (t.api.as_key(&t.mallory), t.api.as_key(&t.agent), t.api.as_key(&t.admin), t.api.as_key(&t.reviewer));
    let mut theirs = Vec::new();
    for i in 0..1000 {
        let mut body = exp(&format!("deploy the payments chart, variant {i}"));
        body["agent_id"] = json!("bot");
        let (s, v) = mallory.post("/api/submit", body).await;
        assert_eq!(s, 201, "{v}");
        theirs.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, v) = agent.post("/api/submit", exp("deploy the payments chart with helm")).await;
    assert_eq!(s, 201, "{v}");
    let honest = v["id"].as_str().unwrap().to_string();
    let (_, v) = admin.get(&format!("/api/experiences/{}", theirs[0])).await;
    assert_eq!(
        (v["agent_id"].as_str(), v["provenance"]["key"].as_str()),
        (Some("mallory/bot"), Some("mallory")),
        "{v}"
    );
    let found = agent.search("deploy payments chart", "&top_k=50&min_relevance=0").await;
    assert!(ids(&found).iter().any(|id| theirs.contains(id)), "{found}");

    // One request: all 1,000 gone from search.
    let (s, v) = admin.post("/api/quarantine", json!({"agent_id": "mallory/bot"})).await;
    assert_eq!((s, v["records"].as_u64(), v["kind"].as_str()), (200, Some(1000), Some("agent")), "{v}");
    let found = agent.search("deploy payments chart", "&top_k=50&min_relevance=0").await;
    assert_eq!(ids(&found), vec![honest.clone()], "only the honest record is left");
    // Held records read as missing to agents; reviewers see them, flagged.
    let (s, _) = agent.get(&format!("/api/experiences/{}", theirs[1])).await;
    assert_eq!(s, 404);
    let (s, v) = reviewer.get(&format!("/api/experiences/{}", theirs[1])).await;
    assert_eq!((s, v["quarantined"].as_bool()), (200, Some(true)), "{v}");
    // Nor does the resource's page (or its playbook) show them.
    let (s, page) = agent.get("/api/resources/helm%20upgrade%20--atomic").await;
    assert_eq!(s, 200, "{page}");
    assert!(theirs.iter().all(|id| !page.to_string().contains(id.as_str())), "{page}");
    let (_, v) = reviewer.get("/api/pending?kind=quarantined&limit=100").await;
    assert_eq!(v["items"].as_array().unwrap().len(), 100, "listed for review");
    assert!(v["next_after"].is_string());
    let (_, v) = reviewer.get("/api/quarantine").await;
    assert_eq!(v["quarantines"][0]["records"], 1000, "{v}");
    // What it writes while quarantined is held too.
    let (s, v) = mallory
        .post("/api/submit", json!({"task": "one more", "resource": "r", "result": "x", "agent_id": "bot"}))
        .await;
    assert_eq!(s, 201, "{v}");
    let later = v["id"].as_str().unwrap().to_string();
    let (_, v) = reviewer.get(&format!("/api/experiences/{later}")).await;
    assert_eq!(v["quarantined"], true, "{v}");

    // One request: all back.
    let (s, v) = admin.call("DELETE", "/api/quarantine", Some(json!({"agent_id": "mallory/bot"}))).await;
    assert_eq!((s, v["records"].as_u64(), v["action"].as_str()), (200, Some(1001), Some("restore")), "{v}");
    let found = agent.search("deploy payments chart", "&top_k=50&min_relevance=0").await;
    assert_eq!(found["count"], 50, "{found}");
    let (s, _) = agent.get(&format!("/api/experiences/{later}")).await;
    assert_eq!(s, 200);
    let (s, v) = admin.call("DELETE", "/api/quarantine", Some(json!({"agent_id": "mallory/bot"}))).await;
    assert_eq!(s, 404, "{v}");

    // Revoking the key with its records, then rejecting them all.
    let (s, v) = admin.call("DELETE", "/api/keys/mallory?quarantine=true", None).await;
    assert_eq!((s, v["name"].as_str(), v["quarantine"]["records"].as_u64()), (200, Some("mallory"), Some(1001)), "{v}");
    let (s, _) = mallory.get("/api/search?q=x").await;
    assert_eq!(s, 401, "revoked");
    let body = json!({"key": "mallory", "action": "reject", "reason": "compromised key"});
    let (s, v) = admin.call("DELETE", "/api/quarantine", Some(body)).await;
    assert_eq!((s, v["records"].as_u64()), (200, Some(1001)), "{v}");
    let (_, v) = admin.get(&format!("/api/experiences/{}", theirs[7])).await;
    assert_eq!(
        (v["status"].as_str(), v["review"]["note"].as_str()),
        (Some("rejected"), Some("compromised key")),
        "{v}"
    );
    let found = agent.search("deploy payments chart", "&top_k=50&min_relevance=0").await;
    assert_eq!(ids(&found), vec![honest]);
}

#[tokio::test]
async fn quarantine_input_and_roles() {
    let t = setup().await;
    let (agent, admin, reviewer) = (t.api.as_key(&t.agent), t.api.as_key(&t.admin), t.api.as_key(&t.reviewer));
    for (body, field) in [
        (json!({}), "key"),
        (json!({"key": "a", "agent_id": "b"}), "key"),
        (json!({"key": "  "}), "key"),
        (json!({"key": "a", "action": "burn"}), "action"),
    ] {
        let method = if field == "action" { "DELETE" } else { "POST" };
        let (s, v) = admin.call(method, "/api/quarantine", Some(body.clone())).await;
        assert_eq!((s, v["error"]["field"].as_str()), (400, Some(field)), "{body}: {v}");
    }
    let (s, v) = admin.post("/api/quarantine", json!({"key": "a", "color": "red"})).await;
    assert_eq!(s, 400, "unknown fields are refused: {v}");
    for (api, method) in [(&agent, "POST"), (&reviewer, "POST"), (&reviewer, "DELETE")] {
        let (s, v) = api.call(method, "/api/quarantine", Some(json!({"key": "bot"}))).await;
        assert_eq!(s, 403, "{method}: {v}");
    }
    let (s, _) = agent.get("/api/quarantine").await;
    assert_eq!(s, 403);
    let (s, v) = admin.call("DELETE", "/api/keys/bot?quarantine=maybe", None).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("quarantine")), "{v}");
}

#[tokio::test]
async fn expired_records_leave_results_until_re_confirmed() {
    let t = setup().await;
    let (agent, reviewer) = (t.api.as_key(&t.agent), t.api.as_key(&t.reviewer));
    for (body, field) in [
        (json!({"ttl_days": 0}), "ttl_days"),
        (json!({"ttl_days": 99999}), "ttl_days"),
        (json!({"expires_at": "2001-01-01T00:00:00Z"}), "expires_at"),
        (json!({"expires_at": "soon"}), "expires_at"),
        (json!({"expires_at": "2999-01-01T00:00:00Z", "ttl_days": 3}), "ttl_days"),
    ] {
        let mut b = exp("pin the chart version");
        b.as_object_mut().unwrap().extend(body.as_object().unwrap().clone());
        let (s, v) = agent.post("/api/submit", b).await;
        assert_eq!((s, v["error"]["field"].as_str()), (400, Some(field)), "{body}: {v}");
    }
    let mut b = exp("pin the chart version in CI");
    b["ttl_days"] = json!(30);
    let (s, v) = agent.post("/api/submit", b.clone()).await;
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (_, v) = agent.get(&format!("/api/experiences/{id}")).await;
    let first_expiry = v["expires_at"].as_str().unwrap().to_string();
    assert_eq!(v["ttl_secs"], 30 * 86_400, "{v}");
    assert_eq!(ids(&agent.search("pin chart version", "&min_relevance=0").await), vec![id.clone()]);

    // Time passes (the sweep at a later clock): out of results, in the re-confirm list.
    assert_eq!(t.hub.store().expire_due("2999-01-01T00:00:00Z").await.unwrap(), 1);
    assert!(ids(&agent.search("pin chart version", "&min_relevance=0").await).is_empty());
    let (s, _) = agent.get(&format!("/api/experiences/{id}")).await;
    assert_eq!(s, 404);
    let (_, v) = reviewer.get("/api/pending?kind=expired").await;
    assert_eq!(v["items"][0]["id"], id.as_str(), "{v}");
    assert_eq!(v["items"][0]["queue"], "expired", "{v}");

    // A new confirmation (another caller submitting the same experience) renews it.
    b["agent_id"] = json!("second");
    let (s, v) = reviewer
        .post("/api/submit", json!({"task": b["task"], "resource": b["resource"], "result": b["result"], "score": 4}))
        .await;
    assert_eq!((s, v["id"].as_str()), (200, Some(id.as_str())), "{v}");
    assert_eq!(ids(&agent.search("pin chart version", "&min_relevance=0").await), vec![id.clone()]);
    let (_, v) = agent.get(&format!("/api/experiences/{id}")).await;
    assert!(v["expired"].is_null() && v["expires_at"].as_str().unwrap() >= first_expiry.as_str(), "{v}");

    // Expired again: a reviewer's approval re-confirms it.
    t.hub.store().expire_due("2999-01-01T00:00:00Z").await.unwrap();
    let (s, v) = reviewer.post(&format!("/api/approve/{id}"), json!({})).await;
    assert_eq!((s, v["expired"].as_bool()), (200, None), "{v}");
    assert_eq!(ids(&agent.search("pin chart version", "&min_relevance=0").await), vec![id]);
}

/// Every change is an event in the record's history; a reviewer's edit can be reverted; a delete
/// leaves only a tombstone.
#[tokio::test]
async fn history_records_every_change_and_an_edit_reverts() {
    let t = setup().await;
    let (agent, reviewer, admin) = (t.api.as_key(&t.agent), t.api.as_key(&t.reviewer), t.api.as_key(&t.admin));
    let (s, v) = agent.post("/api/submit", exp("pin the chart version")).await;
    assert_eq!(s, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let (s, v) = reviewer.post("/api/submit", exp("pin the chart version")).await;
    assert_eq!((s, v["id"].as_str()), (200, Some(id.as_str())), "a confirmation: {v}");
    let (s, v) = agent.post("/api/feedback", json!({"id": id, "outcome": "helped"})).await;
    assert_eq!(s, 201, "{v}");
    let (s, v) = admin.post(&format!("/api/experiences/{id}/scope"), json!({"scope": "team/ops"})).await;
    assert_eq!(s, 200, "{v}");
    let history = |api: &Api| {
        let (api, id) = (Api { app: api.app.clone(), key: api.key.clone() }, id.clone());
        async move { api.get(&format!("/api/experiences/{id}/history")).await }
    };
    let (s, v) = history(&reviewer).await;
    assert_eq!(s, 200, "{v}");
    let kinds: Vec<&str> = v["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, vec!["submitted", "confirmed", "voted", "scope_changed"], "{v}");
    assert_eq!(v["events"][3]["detail"], json!({"from": "org", "to": "team/ops"}), "{v}");
    assert_eq!(v["events"][2]["by"], "bot", "{v}");
    let (s, _) = history(&agent).await;
    assert_eq!(s, 403, "the history names who did what: reviewers only");

    // A pending record edited on approval, then the edit reverted.
    let (s, v) = admin.post("/api/submit", exp("roll back a failed release")).await;
    assert_eq!(s, 201, "{v}");
    let p = t.hub.store().insert({
        let mut n = knowhub_store_tests::exp("tune the pool size", "pgbouncer", "pool 20 is enough", 3, "x");
        n.status = knowhub_core::Status::Pending;
        n
    });
    let p = match p.await.unwrap() {
        knowhub_core::InsertOutcome::Created(e) => e.id,
        other => panic!("{other:?}"),
    };
    let (s, v) =
        reviewer.post(&format!("/api/approve/{p}"), json!({"result": "pool 40 fixed the timeouts", "score": 5})).await;
    assert_eq!((s, v["result"].as_str()), (200, Some("pool 40 fixed the timeouts")), "{v}");
    let (_, h) = reviewer.get(&format!("/api/experiences/{p}/history")).await;
    let edit = h["events"].as_array().unwrap().iter().find(|e| e["kind"] == "edited").unwrap().clone();
    assert_eq!(edit["detail"]["before"]["result"], "pool 20 is enough", "{edit}");
    assert_eq!(edit["detail"]["after"]["score"], 5, "{edit}");
    let (s, v) = reviewer.post(&format!("/api/experiences/{p}/revert"), json!({"event": edit["seq"]})).await;
    assert_eq!((s, v["result"].as_str(), v["score"].as_u64()), (200, Some("pool 20 is enough"), Some(3)), "{v}");
    assert_eq!(v["status"], "approved");
    let (s, v) = reviewer.post(&format!("/api/experiences/{p}/revert"), json!({"event": 1})).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("event")), "not an edit of this record: {v}");
    let (_, h) = reviewer.get(&format!("/api/experiences/{p}/history")).await;
    let last = h["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["kind"].as_str(), last["detail"]["reverts"].clone()),
        (Some("edited"), edit["seq"].clone()),
        "{h}"
    );

    // Deleting is real: the record, its text and its history go; a tombstone stays.
    let (s, _) = admin.call("DELETE", &format!("/api/experiences/{p}"), None).await;
    assert_eq!(s, 200);
    let (s, h) = reviewer.get(&format!("/api/experiences/{p}/history")).await;
    assert_eq!(s, 200, "{h}");
    assert_eq!(h["events"].as_array().unwrap().len(), 1, "{h}");
    assert_eq!(h["events"][0]["kind"], "deleted");
    assert!(!h.to_string().contains("pool"), "no text of it is left: {h}");
    let (s, _) = reviewer.get(&format!("/api/experiences/{p}")).await;
    assert_eq!(s, 404);
    let (s, _) = reviewer.get("/api/experiences/0192f0c4-aaaa-7bbb-8ccc-0123456789ab/history").await;
    assert_eq!(s, 404, "never existed");
}

/// The change feed: every change in order with the record as it is now, resumable from its
/// cursor, limited to what the key may read, long-polled, with bad cursors refused.
#[tokio::test]
async fn the_change_feed_resumes_filters_and_waits() {
    let t = setup().await;
    let (agent, reviewer, admin) = (t.api.as_key(&t.agent), t.api.as_key(&t.reviewer), t.api.as_key(&t.admin));
    let mut ids = Vec::new();
    for i in 0..5 {
        let (s, v) = admin.post("/api/submit", exp(&format!("deploy step {i}"))).await;
        assert_eq!(s, 201, "{v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let mut hidden = exp("deploy the secret step");
    hidden["scope"] = json!("team/x");
    let (s, v) = admin.post("/api/submit", hidden).await;
    assert_eq!(s, 201, "{v}");
    let secret = v["id"].as_str().unwrap().to_string();
    let (s, _) = admin.call("DELETE", &format!("/api/experiences/{}", ids[4]), None).await;
    assert_eq!(s, 200);

    // Pages of 2, resumed from each cursor: everything the agent may read, once, in order.
    let (mut cursor, mut seen, mut kinds) = (String::new(), Vec::new(), Vec::new());
    loop {
        let (s, v) = agent.get(&format!("/api/changes?limit=2&since={cursor}")).await;
        assert_eq!(s, 200, "{v}");
        for c in v["changes"].as_array().unwrap() {
            seen.push(c["experience_id"].as_str().unwrap().to_string());
            kinds.push(c["kind"].as_str().unwrap().to_string());
            assert_eq!(c["by"], "", "agents are not told who: {c}");
            if c["kind"] == "deleted" {
                assert!(c["experience"].is_null(), "{c}");
            } else {
                assert_eq!(c["experience"]["id"], c["experience_id"], "{c}");
            }
        }
        cursor = v["cursor"].as_str().unwrap().to_string();
        if v["more"] == false {
            break;
        }
    }
    assert_eq!(seen, vec![ids[0].clone(), ids[1].clone(), ids[2].clone(), ids[3].clone(), ids[4].clone()]);
    assert_eq!(kinds, vec!["submitted", "submitted", "submitted", "submitted", "deleted"]);
    assert!(!seen.contains(&secret), "team/x is not the agent's");
    let (_, v) = reviewer.get("/api/changes?limit=100").await;
    let all: Vec<&str> =
        v["changes"].as_array().unwrap().iter().map(|c| c["experience_id"].as_str().unwrap()).collect();
    assert!(all.contains(&secret.as_str()), "a reviewer reading every scope sees it: {v}");
    assert_eq!(v["changes"][0]["by"], "root", "{v}");

    // Nothing new: an empty page at once, or after waiting; a change ends the wait.
    let (_, v) = agent.get(&format!("/api/changes?since={cursor}")).await;
    assert_eq!((v["changes"].as_array().map(Vec::len), v["cursor"].as_str()), (Some(0), Some(cursor.as_str())));
    let waiter = {
        let api = Api { app: agent.app.clone(), key: agent.key.clone() };
        let path = format!("/api/changes?since={cursor}&wait=10");
        tokio::spawn(async move { api.get(&path).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, v) = admin.post("/api/submit", exp("deploy step after the wait")).await;
    let late = v["id"].as_str().unwrap().to_string();
    let (s, v) = tokio::time::timeout(std::time::Duration::from_secs(5), waiter).await.unwrap().unwrap();
    assert_eq!((s, v["changes"][0]["experience_id"].as_str()), (200, Some(late.as_str())), "{v}");

    let (s, v) = agent.get("/api/changes?since=0123456789abcdef:3").await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("since")), "another hub's cursor: {v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("another hub"), "{v}");
    assert!(cursor.contains(':'), "a cursor names its hub: {cursor}");
    for bad in ["since=abc", "since=-1", "since=ab:-1", "since=:4", "limit=0", "limit=5000", "wait=61"] {
        let (s, v) = agent.get(&format!("/api/changes?{bad}")).await;
        assert_eq!(s, 400, "{bad}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains(bad.split('=').next().unwrap()), "{v}");
    }
}

/// A webhook receiver that is down, then back: every event it asked for arrives once, in order,
/// signed; what it did not ask for is not sent.
#[tokio::test]
async fn webhooks_deliver_every_event_once_in_order_after_an_outage() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;
    let t = setup().await;
    let down = Arc::new(AtomicBool::new(true));
    let got: Arc<Mutex<Vec<(axum::http::HeaderMap, String)>>> = Arc::default();
    let receiver = {
        let (down, got) = (down.clone(), got.clone());
        axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: axum::http::HeaderMap, body: String| {
                let (down, got) = (down.clone(), got.clone());
                async move {
                    if down.load(Ordering::SeqCst) {
                        return axum::http::StatusCode::SERVICE_UNAVAILABLE;
                    }
                    got.lock().unwrap().push((headers, body));
                    axum::http::StatusCode::NO_CONTENT
                }
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, receiver).await.unwrap() });
    let secret = "a webhook secret of some length".to_string();
    let hook = knowhub_service::Webhook {
        name: "chat".into(),
        url,
        events: vec!["submitted".into(), "voted".into()],
        scopes: vec![],
        secret: secret.clone(),
    };
    let _tasks = t.hub.spawn_webhooks(vec![hook]);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // it takes its position
    let agent = t.api.as_key(&t.agent);
    let mut ids = Vec::new();
    for i in 0..3 {
        let (s, v) = agent.post("/api/submit", exp(&format!("webhook step {i}"))).await;
        assert_eq!(s, 201, "a dead receiver does not hold up a write: {v}");
        ids.push(v["id"].as_str().unwrap().to_string());
    }
    let (s, _) = agent.post("/api/feedback", json!({"id": ids[0], "outcome": "helped"})).await;
    assert_eq!(s, 201);
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(got.lock().unwrap().is_empty(), "nothing arrives while it is down");
    down.store(false, Ordering::SeqCst);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while got.lock().unwrap().len() < 4 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await; // and nothing more after
    let got = got.lock().unwrap().clone();
    let bodies: Vec<Value> = got.iter().map(|(_, b)| serde_json::from_str(b).unwrap()).collect();
    let seen: Vec<(String, String)> = bodies
        .iter()
        .map(|b| (b["kind"].as_str().unwrap().into(), b["experience_id"].as_str().unwrap().into()))
        .collect();
    let want: Vec<(String, String)> = ids
        .iter()
        .map(|id| ("submitted".to_string(), id.clone()))
        .chain([("voted".to_string(), ids[0].clone())])
        .collect();
    assert_eq!(seen, want, "each once, in order; approvals and others not asked for");
    assert!(bodies.windows(2).all(|w| w[0]["seq"].as_i64() < w[1]["seq"].as_i64()));
    for (headers, body) in &got {
        let h = |n: &str| headers.get(n).unwrap().to_str().unwrap().to_string();
        let ts: i64 = h("x-knowhub-timestamp").parse().unwrap();
        assert_eq!(h("x-knowhub-signature"), knowhub_service::webhooks::signature(&secret, ts, body));
        assert_ne!(h("x-knowhub-signature"), knowhub_service::webhooks::signature("another secret, as long", ts, body));
        assert_eq!(h("x-knowhub-event"), serde_json::from_str::<Value>(body).unwrap()["kind"].as_str().unwrap());
    }
    assert_eq!(bodies[0]["experience"]["task"], "webhook step 0", "the record as it is now");
    let m = t.hub.metrics().snapshot();
    let chat = m.webhooks.iter().find(|w| w.name == "chat").unwrap();
    assert_eq!((chat.last_status, chat.delivered), (204, 4), "last status and deliveries: {chat:?}");
    assert!(chat.failed >= 1, "the outage's refused attempts are counted: {chat:?}");
}

/// A webhook limited to scopes gets the events of records in them, and deletions (an id only),
/// and nothing of another scope's records.
#[tokio::test]
async fn a_webhook_for_one_scope_gets_nothing_of_another() {
    use std::sync::Mutex;
    let t = setup().await;
    let got: Arc<Mutex<Vec<Value>>> = Arc::default();
    let receiver = {
        let got = got.clone();
        axum::Router::new().route(
            "/hook",
            axum::routing::post(move |body: String| {
                let got = got.clone();
                async move {
                    got.lock().unwrap().push(serde_json::from_str::<Value>(&body).unwrap());
                    axum::http::StatusCode::NO_CONTENT
                }
            }),
        )
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, receiver).await.unwrap() });
    let hook = knowhub_service::Webhook {
        name: "team-a".into(),
        url,
        events: vec![],
        scopes: vec!["team/a".into()],
        secret: "a webhook secret of some length".into(),
    };
    let _tasks = t.hub.spawn_webhooks(vec![hook]);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await; // it takes its position
    let admin = t.api.as_key(&t.admin);
    let mut org = exp("an org-wide chart rollout");
    org["scope"] = json!("org");
    let (s, v) = admin.post("/api/submit", org).await;
    assert_eq!(s, 201, "{v}");
    let org_id = v["id"].as_str().unwrap().to_string();
    let mut mine = exp("team a's chart rollout");
    mine["scope"] = json!("team/a");
    let (s, v) = admin.post("/api/submit", mine).await;
    assert_eq!(s, 201, "{v}");
    let team_id = v["id"].as_str().unwrap().to_string();
    let (s, v) = admin.call("DELETE", &format!("/api/experiences/{org_id}"), None).await;
    assert_eq!(s, 200, "{v}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while got.lock().unwrap().len() < 2 && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await; // and nothing more after
    let got = got.lock().unwrap().clone();
    let seen: Vec<(&str, &str)> =
        got.iter().map(|b| (b["kind"].as_str().unwrap(), b["experience_id"].as_str().unwrap())).collect();
    assert!(seen.iter().any(|(k, id)| *k != "deleted" && *id == team_id), "team a's record: {seen:?}");
    assert!(seen.contains(&("deleted", org_id.as_str())), "deletions always come: {seen:?}");
    assert!(!seen.iter().any(|(k, id)| *k != "deleted" && *id == org_id), "nothing of org's record: {seen:?}");
    assert!(got.iter().all(|b| b["experience"].is_null() || b["experience"]["scope"] == "team/a"), "{got:?}");
}
