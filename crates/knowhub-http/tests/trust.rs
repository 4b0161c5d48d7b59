//! Search an agent can trust, through the HTTP API on the backend `common::store`
//! picks (scripts/test.sh runs these once per backend), with the real local embedding models:
//! calibrated relevance and "nothing relevant", outcome feedback and disputes, confirmations by
//! distinct callers, near-duplicates and contests, freshness.

use std::sync::{Arc, OnceLock};

use knowhub_ai::Embedder;
use knowhub_core::{Caller, Role};
use knowhub_service::{EvidenceSettings, Hub, HubOptions, SearchConfig};
use serde_json::{json, Value};

mod common;
use common::Api;

/// The local pair, loaded once for the whole file (loading takes a second or two).
fn embedder() -> Arc<Embedder> {
    static E: OnceLock<Arc<Embedder>> = OnceLock::new();
    E.get_or_init(|| {
        Arc::new(Embedder::local(&knowhub_ai::default_model_dir(), true).unwrap_or_else(|e| panic!("{e}")))
    })
    .clone()
}

struct T {
    _dir: tempfile::TempDir,
    hub: Arc<Hub>,
    api: Api,
}

async fn setup(opts: HubOptions, cfg: SearchConfig) -> T {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store_for(dir.path(), embedder().model_id()).await;
    let hub = Hub::with_options(store, embedder(), cfg, HubOptions { require_approval: true, ..opts });
    T { api: Api::new(hub.clone()), hub, _dir: dir }
}

impl T {
    /// Runs the background embedding to the end, as the worker would.
    async fn embed(&self) {
        let model = embedder().model_id().unwrap().to_string();
        while self.hub.embed_pending(&model).await.unwrap() > 0 {}
    }

    async fn submit(&self, body: Value) -> (u16, Value) {
        self.api.post("/api/submit", body).await
    }
}

fn exp(task: &str, resource: &str, result: &str, agent: &str) -> Value {
    json!({"task": task, "resource": resource, "result": result, "score": 4, "agent_id": agent})
}

fn ids(v: &Value) -> Vec<String> {
    v["results"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap().to_string()).collect()
}

fn field_error(status: u16, v: &Value, want: u16, field: &str) {
    assert_eq!(status, want, "{v}");
    assert_eq!(v["error"]["field"], field, "{v}");
    assert!(v["error"]["message"].as_str().is_some_and(|m| m.contains(field)), "{v}");
}

/// The reference record: a Chinese PostgreSQL connection-timeout fix.
async fn submit_pg_fix(t: &T) -> Value {
    t.submit(exp("修复 PostgreSQL 连接超时", "pgbouncer pool_mode=transaction", "超时消失，p99 从 3s 降到 40ms", "a"))
        .await
        .1
}

/// The reference case: three records, and a question none of them answers.
#[tokio::test]
async fn nothing_relevant_is_an_answer() {
    let t = setup(HubOptions::default(), SearchConfig::default()).await;
    let pg = submit_pg_fix(&t).await;
    t.submit(exp("Speed up Docker builds in CI", "BuildKit cache mounts", "build 8 min -> 1 min", "a")).await;
    t.submit(json!({"task": "Deploy to the staging cluster", "resource": "kubectl apply -f k8s/", "score": 2,
        "result": "failed: the namespace did not exist", "outcome": "failure", "agent_id": "a"}))
        .await;
    t.embed().await;
    for q in ["banana bread recipe", "如何给多肉植物换盆", "best hiking boots for winter"] {
        let r = t.api.search(q, "").await;
        assert_eq!(r["count"], 0, "{q}: {r}");
        // Asked for everything, the hub still has candidates: all far below the default.
        let all = t.api.search(q, "&min_relevance=0&min_score=1").await;
        assert!(all["count"].as_u64().unwrap() > 0, "{q}");
        for h in all["results"].as_array().unwrap() {
            assert!(h["relevance"].as_f64().unwrap() < 0.005, "{q}: {h}");
        }
    }
    // A real question, in either language, finds its answer well above the threshold.
    for q in ["数据库连接超时怎么办", "postgres connection timeouts"] {
        let r = t.api.search(q, "").await;
        assert_eq!(ids(&r).first(), Some(&pg["id"].as_str().unwrap().to_string()), "{q}: {r}");
        let rel = r["results"][0]["relevance"].as_f64().unwrap();
        assert!(rel > 0.005 && rel < 1.0, "{q}: {rel}");
    }
    // A stricter threshold than the default can be asked for; a looser one too.
    assert_eq!(t.api.search("数据库连接超时怎么办", "&min_relevance=1").await["count"], 0);
    for bad in ["1.5", "-0.1", "abc", "NaN"] {
        let (s, v) = t.api.get(&format!("/api/search?q=x&min_relevance={bad}")).await;
        field_error(s, &v, 400, "min_relevance");
    }
}

/// Relevance reads true on experiences: a failure lesson that answers the question reads as
/// likely, by its error message or by its symptom, an answer in the other language too, and the
/// same problem in another technology reads far lower.
#[tokio::test]
async fn an_experience_that_answers_reads_as_one() {
    let t = setup(HubOptions::default(), SearchConfig::default()).await;
    let pg = submit_pg_fix(&t).await;
    let (_, deploy) = t
        .submit(json!({"task": "Deploy the API to the production cluster", "resource": "kubectl", "score": 2,
            "result": "failed: ImagePullBackOff because the registry secret was missing in the namespace",
            "outcome": "failure", "agent_id": "b"}))
        .await;
    t.submit(exp("Speed up Docker builds in CI", "BuildKit cache mounts", "build 8 min -> 1 min", "a")).await;
    t.embed().await;
    for q in ["ImagePullBackOff", "kubernetes pod cannot pull image"] {
        let r = t.api.search(q, "").await;
        assert_eq!(ids(&r).first(), Some(&deploy["id"].as_str().unwrap().to_string()), "{q}: {r}");
        let rel = r["results"][0]["relevance"].as_f64().unwrap();
        assert!(rel > 0.5, "{q}: a correct answer should read as one: {rel}");
        assert_eq!(r["results"][0]["outcome"], "failure", "{q}");
    }
    // An English question reads the Chinese record that answers it as one: the record's words
    // are the question's, in the software glossary.
    let r = t.api.search("postgres connection timeout", "").await;
    assert_eq!(ids(&r).first(), Some(&pg["id"].as_str().unwrap().to_string()), "{r}");
    let answer = r["results"][0]["relevance"].as_f64().unwrap();
    assert!(answer > 0.5, "a cross-lingual answer should read as one: {answer}");
    // The same words about another database read far below it: the tool the question names is
    // missing. (Not as silence: docs/ranking.md, "What it cannot do yet".)
    let r = t.api.search("mysql connection timeout", "&min_relevance=0").await;
    let other = r["results"][0]["relevance"].as_f64().unwrap();
    assert!(other < answer / 3.0, "another tool's fix should not read as an answer: {other} against {answer}");
}

/// Two look-alike records and nothing else: three agents report the first failed and the second
/// helped, and the second comes first. (With the per-query fusion alone the second of two
/// candidates scored 0 on the vector signal, and no number of votes could lift it.)
#[tokio::test]
async fn feedback_lifts_the_second_of_two() {
    let t = setup(HubOptions { auth: true, ..Default::default() }, SearchConfig::default()).await;
    let admin = Caller::local();
    let mut agents = Vec::new();
    for name in ["bot-1", "bot-2", "bot-3"] {
        agents.push(t.api.as_key(&t.hub.create_key(&admin, name, Role::Agent).await.unwrap().key));
    }
    let flaky = |result: &str| {
        json!({"task": "Fix flaky CI test that times out", "resource": "pytest",
        "result": result, "score": 4, "outcome": "success"})
    };
    let (_, first) = agents[0].post("/api/submit", flaky("raised the timeout with pytest-timeout to 120 s")).await;
    let (_, second) =
        agents[0].post("/api/submit", flaky("the test waited on a real network call; mocked it with responses")).await;
    let (first, second) = (first["id"].as_str().unwrap().to_string(), second["id"].as_str().unwrap().to_string());
    assert_ne!(first, second, "two records, not a merge");
    t.embed().await;
    let q = "flaky CI test timeout in pytest";
    let before = ids(&agents[0].search(q, "&min_relevance=0").await);
    assert_eq!(before.len(), 2, "{before:?}");
    let (top, other) = (before[0].clone(), before[1].clone());
    for a in &agents {
        a.post("/api/feedback", json!({"id": top, "outcome": "failed"})).await;
        a.post("/api/feedback", json!({"id": other, "outcome": "helped"})).await;
    }
    let after = agents[0].search(q, "&min_relevance=0").await;
    assert_eq!(ids(&after)[0], other, "the helpful one first after three reports: {after}");
}

#[tokio::test]
async fn feedback_one_vote_per_caller_and_disputes() {
    let t = setup(HubOptions { auth: true, ..Default::default() }, SearchConfig::default()).await;
    let admin = Caller::local();
    let key = |name: &'static str, role| {
        let hub = t.hub.clone();
        let admin = admin.clone();
        async move { hub.create_key(&admin, name, role).await.unwrap().key }
    };
    let (k1, k2, k3, rev) = (
        key("bot-1", Role::Agent).await,
        key("bot-2", Role::Agent).await,
        key("bot-3", Role::Agent).await,
        key("rita", Role::Reviewer).await,
    );
    let (a1, a2, a3, reviewer) = (t.api.as_key(&k1), t.api.as_key(&k2), t.api.as_key(&k3), t.api.as_key(&rev));
    let (s, rec) = a1.post("/api/submit", exp("Deploy the app", "kubectl apply --force", "deployed", "bot-1")).await;
    assert_eq!(s, 201, "{rec}");
    let id = rec["id"].as_str().unwrap().to_string();
    t.embed().await;
    let vote =
        |o: &str, note: &str| json!({"id": id, "outcome": o, "note": note, "agent_id": "claims-to-be-someone-else"});

    let (s, v) = a1.post("/api/feedback", vote("helped", "worked for me")).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!((v["voter"].as_str(), v["feedback"]["helped"].as_u64()), (Some("bot-1"), Some(1)), "the key decides");
    // A second vote by the same caller replaces its first, however often it is sent.
    for _ in 0..50 {
        a1.post("/api/feedback", vote("failed", "crashloop after an hour")).await;
    }
    let (_, e) = a1.get(&format!("/api/experiences/{id}")).await;
    assert_eq!((e["feedback"]["helped"].as_u64(), e["feedback"]["failed"].as_u64()), (Some(0), Some(1)), "{e}");
    a2.post("/api/feedback", vote("failed", "pods never became ready")).await;
    let (s, v) = a3.post("/api/feedback", vote("failed", "my token sk-abcdefghijklmnopqrstuvwxyz0123 broke")).await;
    assert_eq!((s, v["disputed"].as_bool()), (201, Some(true)), "{v}");
    assert_eq!(v["redactions"]["api_key"], 1, "notes are redacted: {v}");
    // Disputed: flagged in search and listed for review with the notes.
    let r = a1.search("deploy the app with kubectl", "").await;
    let hit = r["results"].as_array().unwrap().iter().find(|h| h["id"] == id.as_str()).expect("still found");
    assert_eq!(hit["flags"], json!(["disputed"]));
    assert_eq!((hit["feedback"]["helped"].as_u64(), hit["feedback"]["failed"].as_u64()), (Some(0), Some(3)));
    let (s, _) = a1.get("/api/pending?kind=disputed").await;
    assert_eq!(s, 403, "agents do not review");
    let (s, q) = reviewer.get("/api/pending?kind=disputed").await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["total_disputed"], 1);
    let item = &q["items"][0];
    assert_eq!((item["id"].as_str(), item["queue"].as_str()), (Some(id.as_str()), Some("disputed")));
    let notes: Vec<&str> = item["votes"].as_array().unwrap().iter().filter_map(|v| v["note"].as_str()).collect();
    assert!(notes.contains(&"pods never became ready") && !notes.iter().any(|n| n.contains("sk-abc")), "{notes:?}");
    // Kept by a reviewer: no longer disputed; rejected: out of search.
    let (s, kept) = reviewer.post(&format!("/api/approve/{id}"), json!({})).await;
    assert_eq!((s, kept["feedback"]["reviewed_failed"].as_u64()), (200, Some(3)), "{kept}");
    assert_eq!(reviewer.get("/api/pending?kind=disputed").await.1["total_disputed"], 0);
    let (s, _) = reviewer.post(&format!("/api/reject/{id}"), json!({"reason": "kept failing"})).await;
    assert_eq!(s, 409, "only disputed or pending records can be rejected");

    // Bad input.
    let (s, v) = a1.post("/api/feedback", json!({"id": id, "outcome": "meh"})).await;
    field_error(s, &v, 400, "outcome");
    let (s, v) = a1.post("/api/feedback", json!({"id": id})).await;
    field_error(s, &v, 400, "outcome");
    let (s, v) = a1.post("/api/feedback", json!({"outcome": "helped"})).await;
    field_error(s, &v, 400, "id");
    let (s, v) =
        a1.post("/api/feedback", json!({"id": "0192f0c4-aaaa-7bbb-8ccc-0123456789ab", "outcome": "helped"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (404, Some("not_found")), "{v}");
    let (s, v) = a1.post("/api/feedback", json!({"id": id, "outcome": "helped", "note": "x".repeat(2001)})).await;
    field_error(s, &v, 400, "note");
    let (s, _) = t.api.post("/api/feedback", json!({"id": id, "outcome": "helped"})).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn feedback_on_unapproved_records_and_without_auth() {
    let t = setup(
        HubOptions { auto_approve: knowhub_service::AutoApprove::None, ..Default::default() },
        SearchConfig::default(),
    )
    .await;
    let (_, p) = t.submit(exp("Rotate logs", "logrotate", "disk stable", "a")).await;
    assert_eq!(p["status"], "pending");
    let (s, v) = t.api.post("/api/feedback", json!({"id": p["id"], "outcome": "helped"})).await;
    assert_eq!((s, v["error"]["code"].as_str()), (409, Some("conflict")), "{v}");
    // Without auth a caller is its agent id: 50 votes from one agent are one vote.
    t.api.post(&format!("/api/approve/{}", p["id"].as_str().unwrap()), json!({})).await;
    for _ in 0..50 {
        t.api.post("/api/feedback", json!({"id": p["id"], "outcome": "failed", "agent_id": "one"})).await;
    }
    let (_, v) = t.api.post("/api/feedback", json!({"id": p["id"], "outcome": "helped", "agent_id": "two"})).await;
    assert_eq!((v["feedback"]["failed"].as_u64(), v["feedback"]["helped"].as_u64()), (Some(1), Some(1)), "{v}");
}

#[tokio::test]
async fn near_duplicates_merge_and_opposites_contest() {
    let t = setup(HubOptions::default(), SearchConfig::default()).await;
    let task = "Fix Postgres connection timeouts under load";
    let (s, a) = t
        .submit(exp(
            task,
            "pgbouncer pool_mode=transaction",
            "Timeouts gone after switching pgbouncer to transaction pooling",
            "a1",
        ))
        .await;
    assert_eq!(s, 201);
    let a_id = a["id"].as_str().unwrap().to_string();
    t.embed().await;
    // Same meaning in other words, same resource (spelled differently), another agent: merged.
    reworded_merges_into(&t, &a_id).await;
    // Look-alikes that differ are new records: another command, another version, other specifics.
    for other in [
        exp(task, "pgbouncer pool_mode=session", "Timeouts gone after switching pgbouncer to session pooling", "a3"),
        json!({"task": task, "resource": "pgbouncer pool_mode=transaction", "resource_version": "1.22", "agent_id": "a3",
            "result": "Timeouts gone after switching pgbouncer to transaction pooling"}),
        exp(
            "Cut Postgres connections of the reporting job",
            "pgbouncer pool_mode=transaction",
            "20 connections instead of 300",
            "a3",
        ),
    ] {
        let (s, v) = t.submit(other.clone()).await;
        assert_eq!(s, 201, "{other} merged into {v}");
        assert!(v.get("duplicate_of").is_none());
    }
    // The opposite outcome for the same task and resource, from one caller: a new record, but
    // one caller's word casts no doubt yet. From a second caller (merged into it as a
    // confirmation): both are contested, each names the other.
    let failed = |agent: &str| {
        json!({"task": task, "resource": "pgbouncer pool_mode=transaction", "outcome": "failure", "score": 2,
            "result": "prepared statements broke: transaction pooling does not support them", "agent_id": agent})
    };
    let (s, f) = t.submit(failed("a4")).await;
    assert_eq!(s, 201, "{f}");
    assert!(f.get("contested_with").is_none_or(|c| c == &json!([])), "{f}");
    let f_id = f["id"].as_str().unwrap();
    let (_, a_now) = t.api.get(&format!("/api/experiences/{a_id}")).await;
    assert!(a_now.get("contested_with").is_none_or(|c| c == &json!([])), "{a_now}");
    let (s, f) = t.submit(failed("a5")).await;
    assert_eq!((s, f["duplicate_of"].as_str(), f["confirmations"].as_u64()), (200, Some(f_id), Some(2)), "{f}");
    assert_eq!(f["contested_with"], json!([a_id]));
    let (_, a_now) = t.api.get(&format!("/api/experiences/{a_id}")).await;
    assert_eq!(a_now["contested_with"], json!([f_id]));
    t.embed().await;
    let r = t.api.search("postgres connection timeouts pgbouncer", "&min_score=1").await;
    let hit = r["results"].as_array().unwrap().iter().find(|h| h["id"] == a_id.as_str()).unwrap().clone();
    assert_eq!((hit["flags"].clone(), hit["contested_with"].clone()), (json!(["contested"]), json!([f_id])));
    assert_eq!(t.hub.store().count().await.unwrap(), 5);
}

/// The pgbouncer fix in other words, the resource spelled differently, from another agent: it
/// must merge into `id` as a second confirmation.
async fn reworded_merges_into(t: &T, id: &str) {
    let (s, b) = t
        .submit(exp(
            "Fixing Postgres connection timeouts under heavy load",
            "PgBouncer pool_mode = transaction",
            "The timeouts were gone after switching pgbouncer to transaction pooling",
            "a2",
        ))
        .await;
    assert_eq!((s, b["duplicate_of"].as_str(), b["confirmations"].as_u64()), (200, Some(id), Some(2)), "{b}");
}

/// Submits `n` records of one resource, each another task with its own numbers (so none is a
/// near-duplicate of another or of the records under test).
async fn fill(t: &T, resource: &str, from: usize, n: usize) {
    for i in from..from + n {
        let (s, v) = t
            .submit(exp(
                &format!("Size the pool for reporting service {i}"),
                resource,
                &format!("Service {i} now keeps {} server connections", i * 3 + 7),
                "filler",
            ))
            .await;
        assert_eq!((s, v.get("duplicate_of")), (201, None), "{v}");
    }
}

const RESOURCE: &str = "pgbouncer pool_mode=transaction";

/// A hub where one caller's opposite account marks a contest (the default takes two).
fn one_caller_contests() -> HubOptions {
    HubOptions { evidence: EvidenceSettings { contest_callers: 1, ..Default::default() }, ..Default::default() }
}

#[tokio::test]
async fn an_old_duplicate_past_fifty_records_of_its_resource_is_found() {
    // One caller's opposite account contests here: this test is about finding the record.
    let t = setup(one_caller_contests(), SearchConfig::default()).await;
    fill(&t, RESOURCE, 0, 60).await;
    let task = "Fix Postgres connection timeouts under load";
    let (s, a) =
        t.submit(exp(task, RESOURCE, "Timeouts gone after switching pgbouncer to transaction pooling", "a1")).await;
    assert_eq!(s, 201, "{a}");
    let a_id = a["id"].as_str().unwrap().to_string();
    fill(&t, RESOURCE, 60, 5).await;
    // The record is the 61st of its resource: not among the first 50.
    let key = knowhub_core::text::resource_key(RESOURCE, None);
    let first = t.hub.store().by_resource_key(&key, 50).await.unwrap();
    assert!(first.iter().all(|e| e.id != a_id) && first.len() == 50);
    // Its vector was computed at submit and stored: no background embedding is needed.
    let model = embedder().model_id().unwrap().to_string();
    assert_eq!(t.hub.store().vector_count(&model).await.unwrap(), 66);
    // The same experience in other words, and the spelling of the resource changed: merged.
    reworded_merges_into(&t, &a_id).await;
    // The opposite outcome for the same task: contests it, however many records came before.
    let (s, f) = t
        .submit(json!({"task": task, "resource": RESOURCE, "outcome": "failure", "score": 2,
            "result": "prepared statements broke: transaction pooling does not support them", "agent_id": "a4"}))
        .await;
    assert_eq!((s, f["contested_with"].clone()), (201, json!([a_id])), "{f}");
    let (_, a_now) = t.api.get(&format!("/api/experiences/{a_id}")).await;
    assert_eq!(a_now["contested_with"], json!([f["id"]]));
    assert_eq!(t.hub.store().count().await.unwrap(), 67);
}

#[tokio::test]
async fn a_neighbour_not_embedded_yet_is_compared() {
    // One caller's opposite account contests here: this test is about finding the record.
    let t = setup(one_caller_contests(), SearchConfig::default()).await;
    fill(&t, RESOURCE, 0, 3).await;
    // Stored as `knowhub import` stores records: no vector until the background worker runs.
    let mut old = knowhub_store_tests::exp(
        "Fix Postgres connection timeouts under load",
        RESOURCE,
        "Timeouts gone after switching pgbouncer to transaction pooling",
        4,
        "a1",
    );
    old.status = knowhub_core::Status::Approved;
    let old = match t.hub.store().insert(old).await.unwrap() {
        knowhub_core::InsertOutcome::Created(e) => e,
        other => panic!("{other:?}"),
    };
    let model = embedder().model_id().unwrap().to_string();
    assert!(t.hub.store().vectors(&model, std::slice::from_ref(&old.id)).await.unwrap().is_empty());
    // Another wording of the same task and result: merged into the record without a vector.
    reworded_merges_into(&t, &old.id).await;
    // Another task with the same resource is not: the record is compared, not merged blindly.
    let (s, c) = t
        .submit(exp("Cut Postgres connections of the reporting job", RESOURCE, "20 connections instead of 300", "a3"))
        .await;
    assert_eq!((s, c.get("duplicate_of")), (201, None), "{c}");
    // The opposite outcome for a reworded task: contests it once compared by vector (the
    // record itself still waits for the worker; the submit embedded it only to compare).
    let (s, f) = t
        .submit(json!({"task": "Fixing Postgres connection timeouts under heavy load", "resource": RESOURCE,
            "outcome": "failure", "score": 2, "agent_id": "a4",
            "result": "Timeouts were not gone after switching pgbouncer to transaction pooling"}))
        .await;
    assert_eq!(s, 201, "{f}");
    assert!(f["contested_with"].as_array().unwrap().contains(&json!(old.id)), "{f}");
    assert!(t.hub.store().vectors(&model, std::slice::from_ref(&old.id)).await.unwrap().is_empty());
    t.embed().await;
    assert_eq!(t.hub.store().vectors(&model, std::slice::from_ref(&old.id)).await.unwrap().len(), 1);
}

#[tokio::test]
async fn freshness_counts_from_the_last_confirmation() {
    let cfg = SearchConfig { decay_half_life_days: Some(30.0), ..Default::default() };
    let t = setup(HubOptions::default(), cfg).await;
    let old = |task: &str, agent: &str| {
        json!({"task": task, "resource": "vitest", "resource_version": "3.2", "result": "config moved to vitest.config.ts",
            "score": 4, "agent_id": agent, "timestamp": "2026-01-01T00:00:00Z"})
    };
    let (_, a) = t.submit(old("Upgrade the test runner config", "x")).await;
    let (_, b) = t.submit(old("Upgrade the test runner configuration file", "x")).await;
    t.embed().await;
    let (_, e) = t.api.get(&format!("/api/experiences/{}", b["id"].as_str().unwrap())).await;
    assert_eq!(
        (e["resource_version"].as_str(), e["last_confirmed_at"].clone()),
        (Some("3.2"), e["created_at"].clone())
    );
    let order = |r: Value| ids(&r);
    let before = order(t.api.search("upgrade test runner config", "&min_relevance=0").await);
    // b is confirmed today (a helped vote): decay now counts from today, and it leads.
    let (s, v) = t.api.post("/api/feedback", json!({"id": b["id"], "outcome": "helped", "agent_id": "y"})).await;
    assert_eq!(s, 201, "{v}");
    let (_, e) = t.api.get(&format!("/api/experiences/{}", b["id"].as_str().unwrap())).await;
    assert!(e["last_confirmed_at"].as_str().unwrap() > "2026-01-02", "{e}");
    assert_eq!(e["created_at"], "2026-01-01T00:00:00Z");
    let after = t.api.search("upgrade test runner config", "&min_relevance=0").await;
    assert_eq!(order(after.clone())[0], b["id"].as_str().unwrap(), "before: {before:?}");
    let hit = &after["results"][0];
    assert_eq!(
        (hit["resource_version"].as_str(), hit["created_at"].as_str()),
        (Some("3.2"), Some("2026-01-01T00:00:00Z"))
    );
    assert!(hit["last_confirmed_at"].as_str().unwrap() > "2026-01-02");
    let _ = a;
}
