//! One conformance suite for every `Store` backend, so SQLite and PostgreSQL cannot drift apart.
//!
//! Each check is a `pub async fn` taking a fresh, empty store. A backend's test file runs them all
//! with [`conformance_tests!`], giving it a factory `async fn() -> Option<Harness>` (`None` only
//! when the backend's tests were switched off explicitly, which the factory reports).
//! Vectors are stored under [`MODEL`]; stores that load one model's vectors must be opened with it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use knowhub_core::access::{generate_key, hash_key, Role};
use knowhub_core::extract::{JobFinish, JobStatus, NewExtraction};
use knowhub_core::review::{Decision, Review, ValidEdits};
use knowhub_core::store::ImportOutcome;
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{
    text, CoreError, InsertOutcome, MessageRange, NewExperience, Outcome, ReviewMark, SearchFilter, Source, Status,
    Store,
};

/// The embedding model id the checks store vectors under.
pub const MODEL: &str = "test-model";

/// A store under test plus whatever must live as long as it (a temp dir, a server).
pub struct Harness {
    pub store: Arc<dyn Store>,
    pub guard: Box<dyn std::any::Any + Send + Sync>,
}

/// Generates one `#[tokio::test]` per check, each on a fresh store from `$make`.
#[macro_export]
macro_rules! conformance_tests {
    ($make:path) => {
        $crate::conformance_tests!(@each $make;
            insert_dedup_and_read_back, extracted_keep_provenance_and_dedup_on_text, concurrent_identical_inserts,
            confirmations_count_distinct_callers, resource_keys_and_contests, votes_replace_and_count, disputes,
            import_export_round_trip, filters_hide_pending_rejected_and_low, text_search_zh_en_identifiers,
            text_scores_for_ids, full_text_saturates_repeats, vectors_candidates_and_scores, vector_block_scores, missing_vectors_and_counts, review_approve,
            review_approve_with_edits, review_reject_and_conflicts, delete_removes_everything, content_proposals_and_set_content, api_keys,
            extraction_overlap, extraction_session_window, extraction_claim_is_exclusive, extraction_retry_and_finish,
            resource_track_records, sources_live_until_review, usage_and_activity);
    };
    (@each $make:path; $($name:ident),+ $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                if let Some(h) = $make().await {
                    $crate::$name(h.store.clone()).await;
                    drop(h);
                }
            }
        )+
    };
}

/// A submit with the three required fields and a rating of 4 (for service and API tests).
pub fn submit_req(task: &str, resource: &str, result: &str) -> knowhub_core::validate::SubmitRequest {
    knowhub_core::validate::SubmitRequest {
        task: Some(task.into()),
        resource: Some(resource.into()),
        result: Some(result.into()),
        score: Some(4),
        ..Default::default()
    }
}

/// A validated manual submit.
pub fn exp(task: &str, resource: &str, result: &str, score: i64, agent: &str) -> NewExperience {
    let mut e =
        SubmitRequest { score: Some(score), agent_id: Some(agent.into()), ..submit_req(task, resource, result) }
            .validate(Source::Manual, Status::Approved)
            .unwrap();
    e.confirmer = agent.to_string();
    e
}

fn extracted(task: &str, resource: &str, result: &str) -> NewExperience {
    let mut e = exp(task, resource, result, 4, "extractor");
    e.source = Source::Extracted;
    e.status = Status::Pending;
    e.session_key = Some("s1".into());
    e.source_range = Some(MessageRange { from: 2, to: 5 });
    e.flags = vec!["suspected_injection".into()];
    e
}

async fn created(s: &Arc<dyn Store>, e: NewExperience) -> knowhub_core::Experience {
    match s.insert(e).await.unwrap() {
        InsertOutcome::Created(e) => e,
        other => panic!("expected Created, got {other:?}"),
    }
}

async fn search(s: &Arc<dyn Store>, q: &str, f: &SearchFilter) -> Vec<String> {
    s.text_candidates(&text::query_tokens(q), f, 20).await.unwrap().into_iter().map(|x| x.0).collect()
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

fn approve(edits: ValidEdits) -> Review {
    Review { decision: Decision::Approve(edits), reviewer: "rita".into() }
}

pub async fn insert_dedup_and_read_back(s: Arc<dyn Store>) {
    let mut e = exp("修复 PostgreSQL 连接超时", "pgbouncer pool_mode=transaction", "超时消失", 5, "main");
    e.content = Some(("```ini\npool_mode = transaction\n```".into(), "text/markdown".into()));
    let a = created(&s, e).await;
    assert_eq!(a.confirmations, 1);
    assert_eq!(a.language, "mixed");
    assert!(a.has_content);
    assert_eq!(a.status, Status::Approved);
    // Same text modulo whitespace and case: a confirmation, not a record.
    let InsertOutcome::Duplicate(b) = s
        .insert(exp("修复  postgresql 连接超时", "PGBOUNCER pool_mode=transaction ", "超时消失", 3, "x"))
        .await
        .unwrap()
    else {
        panic!("expected Duplicate")
    };
    assert_eq!(b.id, a.id);
    assert_eq!(b.confirmations, 2, "a second caller confirms");
    assert_eq!(s.count().await.unwrap(), 1);
    let got = s.get(&a.id).await.unwrap().unwrap();
    assert_eq!(got.confirmations, 2);
    assert_eq!(got.score, 5, "a duplicate does not overwrite the rating");
    assert_eq!(s.content(&a.id).await.unwrap().unwrap().content, "```ini\npool_mode = transaction\n```");
    assert!(s.get("nope").await.unwrap().is_none());
    assert!(s.content("nope").await.unwrap().is_none());
    // A duplicate brings the content the first submit lacked only while the record waits for
    // review: an approved record's content never changes without a reviewer.
    let plain = created(&s, exp("task two", "res", "ok", 3, "main")).await;
    assert!(!plain.has_content && plain.status == Status::Approved);
    let mut again = exp("task two", "res", "ok", 3, "main");
    again.content = Some(("late detail".into(), "text/plain".into()));
    let InsertOutcome::Duplicate(d) = s.insert(again).await.unwrap() else { panic!("expected Duplicate") };
    assert!(!d.has_content);
    assert!(s.content(&plain.id).await.unwrap().is_none());
    let mut waiting = exp("task three", "res", "ok", 3, "main");
    waiting.status = Status::Pending;
    let w = created(&s, waiting.clone()).await;
    waiting.content = Some(("late detail".into(), "text/plain".into()));
    let InsertOutcome::Duplicate(d) = s.insert(waiting).await.unwrap() else { panic!("expected Duplicate") };
    assert!(d.has_content);
    assert_eq!(s.content(&w.id).await.unwrap().unwrap().content_type, "text/plain");
    let many = s.get_many(&[a.id.clone(), "missing".into(), plain.id.clone()]).await.unwrap();
    assert_eq!(
        many.iter().map(|e| e.id.as_str()).collect::<HashSet<_>>(),
        HashSet::from([a.id.as_str(), plain.id.as_str()])
    );
    assert!(s.get_many(&[]).await.unwrap().is_empty());
}

/// The store deduplicates on the full text only (for every source); near-duplicates (same
/// resource, other words) are the service's call, on meaning.
pub async fn extracted_keep_provenance_and_dedup_on_text(s: Arc<dyn Store>) {
    let a = created(&s, extracted("Fix flaky CI", "cargo test --jobs 1", "stable now.")).await;
    assert_eq!(a.source, Source::Extracted);
    assert_eq!(a.status, Status::Pending);
    assert_eq!(a.source_range, Some(MessageRange { from: 2, to: 5 }));
    assert_eq!(a.flags, vec!["suspected_injection".to_string()]);
    assert_eq!(a.session_key.as_deref(), Some("s1"));
    let b = created(&s, extracted("fix flaky CI!", "cargo test --jobs 1", "It is stable now")).await;
    assert_ne!(b.id, a.id);
    let InsertOutcome::Duplicate(d) =
        s.insert(extracted("FIX flaky  CI", "cargo test --jobs 1", "stable now.")).await.unwrap()
    else {
        panic!("the same text is a duplicate whatever its source")
    };
    assert_eq!(d.id, a.id);
    assert_eq!(s.count().await.unwrap(), 2);
}

pub async fn concurrent_identical_inserts(s: Arc<dyn Store>) {
    let mut tasks = Vec::new();
    for i in 0..40 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            s.insert(exp("same task", "same resource", &format!("result {}", i % 10), 4, &format!("agent{i}")))
                .await
                .unwrap()
        }));
    }
    let mut created_n = 0;
    for t in tasks {
        if matches!(t.await.unwrap(), InsertOutcome::Created(_)) {
            created_n += 1;
        }
    }
    assert_eq!(created_n, 10);
    assert_eq!(s.count().await.unwrap(), 10);
    let page = s.export_page(None, 100).await.unwrap();
    assert!(
        page.iter().all(|r| r.experience.confirmations == 4),
        "{:?}",
        page.iter().map(|r| r.experience.confirmations).collect::<Vec<_>>()
    );
}

pub async fn import_export_round_trip(s: Arc<dyn Store>) {
    let mut a = extracted("导出 测试", "knowhub export", "每行一条");
    a.content = Some(("detail".into(), "text/plain".into()));
    let a = created(&s, a).await;
    let a = s.review(&a.id, approve(ValidEdits::default())).await.unwrap();
    let mut b = exp("second", "res", "ok", 2, "b");
    b.resource_version = Some("1.4".into());
    let b = created(&s, b).await;
    s.confirm(&b.id, "second-caller").await.unwrap();
    s.vote(&b.id, vote("v1", knowhub_core::FeedbackOutcome::Failed, Some("did not work"))).await.unwrap();
    s.vote(&b.id, vote("v2", knowhub_core::FeedbackOutcome::Helped, None)).await.unwrap();
    s.contest(&a.id, &b.id).await.unwrap();
    s.resolve_dispute(&b.id, knowhub_core::DisputeDecision::Keep, "rita").await.unwrap();
    let c = created(&s, extracted("third one", "res3", "meh")).await;
    let c = s
        .review(&c.id, Review { decision: Decision::Reject { reason: Some("vague".into()) }, reviewer: "rita".into() })
        .await
        .unwrap();
    let mut all = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = s.export_page(after.as_deref(), 2).await.unwrap();
        if page.is_empty() {
            break;
        }
        after = Some(page.last().unwrap().experience.id.clone());
        all.extend(page);
    }
    assert_eq!(all.len(), 3);
    let ids: Vec<&str> = all.iter().map(|r| r.experience.id.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "export pages are in id order");
    let ra = all.iter().find(|r| r.experience.id == a.id).unwrap();
    assert_eq!(ra.content.as_deref(), Some("detail"));
    assert_eq!(ra.experience.review.as_ref().map(|r| r.by.as_str()), Some("rita"));
    assert!(all.iter().any(|r| r.experience.id == b.id && r.content.is_none()));
    let rc = all.iter().find(|r| r.experience.id == c.id).unwrap();
    assert_eq!(rc.experience.review.as_ref().and_then(|r| r.note.as_deref()), Some("vague"));
    // The JSON carries the new fields.
    let json = serde_json::to_value(ra).unwrap();
    assert_eq!(json["source_range"], serde_json::json!({"from": 2, "to": 5}));
    assert_eq!(json["flags"], serde_json::json!(["suspected_injection"]));

    // Import into the same store: nothing changes.
    for r in &all {
        assert_eq!(s.import(to_new(r)).await.unwrap(), ImportOutcome::Skipped);
    }
    // Same text under another id: also skipped.
    let mut other = to_new(&all[0]);
    other.id = Some(knowhub_core::new_id());
    assert_eq!(s.import(other).await.unwrap(), ImportOutcome::Skipped);
    // Delete and re-import: restored exactly, provenance and review included.
    for r in &all {
        assert!(s.delete(&r.experience.id).await.unwrap());
    }
    assert_eq!(s.count().await.unwrap(), 0);
    for r in &all {
        assert_eq!(s.import(to_new(r)).await.unwrap(), ImportOutcome::Inserted);
    }
    let back = s.export_page(None, 100).await.unwrap();
    assert_eq!(back, all);
    let rb = back.iter().find(|r| r.experience.id == b.id).unwrap();
    assert_eq!((rb.experience.confirmations, rb.confirmed_by.len(), rb.votes.len()), (2, 2, 2));
    assert_eq!(rb.experience.feedback.failed, 1);
    assert_eq!(rb.experience.feedback.reviewed_failed, 1);
    assert_eq!(rb.experience.resource_version.as_deref(), Some("1.4"));
    assert_eq!(rb.experience.contested_with, vec![a.id.clone()]);
}

pub async fn confirmations_count_distinct_callers(s: Arc<dyn Store>) {
    let a = created(&s, exp("rotate logs", "logrotate", "disk below 50%", 4, "alice")).await;
    assert_eq!(a.confirmations, 1);
    assert_eq!(a.last_confirmed_at, a.created_at);
    // The same caller again, 5 times: still one.
    for _ in 0..5 {
        let InsertOutcome::Duplicate(d) =
            s.insert(exp("rotate logs", "logrotate", "disk below 50%", 4, "alice")).await.unwrap()
        else {
            panic!("duplicate expected")
        };
        assert_eq!(d.confirmations, 1);
    }
    let InsertOutcome::Duplicate(d) =
        s.insert(exp("Rotate  logs", "logrotate", "disk below 50%", 4, "bob")).await.unwrap()
    else {
        panic!("duplicate expected")
    };
    assert_eq!(d.confirmations, 2);
    // An empty caller counts as one anonymous caller.
    for _ in 0..3 {
        s.insert(exp("rotate logs", "logrotate", "disk below 50%", 4, "")).await.unwrap();
    }
    assert_eq!(s.get(&a.id).await.unwrap().unwrap().confirmations, 3);
    // `confirm` (a near-duplicate merged by the service) counts callers the same way.
    assert_eq!(s.confirm(&a.id, "carol").await.unwrap().confirmations, 4);
    let again = s.confirm(&a.id, "carol").await.unwrap();
    assert_eq!(again.confirmations, 4);
    assert!(again.last_confirmed_at >= a.created_at);
    assert!(matches!(s.confirm("missing", "x").await, Err(CoreError::NotFound(_))));
    let page = s.export_page(None, 10).await.unwrap();
    let by: Vec<&str> = page[0].confirmed_by.iter().map(|c| c.by.as_str()).collect();
    assert_eq!(by.iter().copied().collect::<HashSet<_>>(), HashSet::from(["alice", "bob", "anonymous", "carol"]));
}

pub async fn resource_keys_and_contests(s: Arc<dyn Store>) {
    let a = created(&s, exp("speed up CI", "PgBouncer pool_mode = transaction", "ok", 4, "a")).await;
    let mut v = exp("speed up CI", "vitest", "ok", 4, "a");
    v.resource_version = Some("3.2".into());
    let v = created(&s, v).await;
    assert_eq!(v.resource_version.as_deref(), Some("3.2"));
    let b = created(&s, extracted("other task", "pgbouncer  pool_mode=transaction", "pending one")).await;
    let r = created(&s, extracted("rejected task", "pgbouncer pool_mode=transaction", "rejected one")).await;
    s.review(&r.id, Review { decision: Decision::Reject { reason: None }, reviewer: "r".into() }).await.unwrap();
    let found = s.by_resource_key(&text::resource_key("pgbouncer pool_mode=transaction", None), 10).await.unwrap();
    assert_eq!(found.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), vec![a.id.as_str(), b.id.as_str()]);
    assert!(s.by_resource_key(&text::resource_key("vitest", None), 10).await.unwrap().is_empty());
    assert_eq!(s.by_resource_key(&text::resource_key("Vitest", Some("3.2")), 10).await.unwrap()[0].id, v.id);
    s.contest(&a.id, &b.id).await.unwrap();
    s.contest(&b.id, &a.id).await.unwrap();
    assert_eq!(s.get(&a.id).await.unwrap().unwrap().contested_with, vec![b.id.clone()]);
    assert_eq!(s.get(&b.id).await.unwrap().unwrap().contested_with, vec![a.id.clone()]);
    assert!(matches!(s.contest(&a.id, "missing").await, Err(CoreError::NotFound(_))));
}

fn vote(voter: &str, outcome: knowhub_core::FeedbackOutcome, note: Option<&str>) -> knowhub_core::Vote {
    knowhub_core::Vote { voter: voter.into(), outcome, note: note.map(str::to_string), at: knowhub_core::now_rfc3339() }
}

pub async fn votes_replace_and_count(s: Arc<dyn Store>) {
    use knowhub_core::FeedbackOutcome::{Failed, Helped, Irrelevant};
    let a = created(&s, exp("fix flaky test", "pytest -p no:randomly", "stable", 4, "a")).await;
    s.vote(&a.id, vote("v1", Helped, None)).await.unwrap();
    s.vote(&a.id, vote("v2", Failed, Some("still flaky on CI"))).await.unwrap();
    let e = s.vote(&a.id, vote("v3", Irrelevant, None)).await.unwrap();
    assert_eq!((e.feedback.helped, e.feedback.failed, e.feedback.irrelevant), (1, 1, 1));
    assert!(e.last_confirmed_at >= a.created_at, "a helped vote refreshes it");
    // v1 changes its mind: its vote is replaced, not added.
    for _ in 0..50 {
        s.vote(&a.id, vote("v1", Failed, Some("broke later"))).await.unwrap();
    }
    let e = s.get(&a.id).await.unwrap().unwrap();
    assert_eq!((e.feedback.helped, e.feedback.failed, e.feedback.irrelevant), (0, 2, 1));
    let votes = s.votes(&a.id).await.unwrap();
    assert_eq!(votes.len(), 3);
    assert!(votes.iter().any(|v| v.voter == "v2" && v.note.as_deref() == Some("still flaky on CI")));
    // Only approved records take votes.
    let p = created(&s, extracted("pending", "res", "x")).await;
    assert!(matches!(s.vote(&p.id, vote("v1", Helped, None)).await, Err(CoreError::Conflict(_))));
    assert!(matches!(s.vote("missing", vote("v1", Helped, None)).await, Err(CoreError::NotFound(_))));
    // Votes travel with exports.
    let page = s.export_page(None, 10).await.unwrap();
    let ra = page.iter().find(|r| r.experience.id == a.id).unwrap();
    assert_eq!(ra.votes.len(), 3);
}

pub async fn resource_track_records(s: Arc<dyn Store>) {
    use knowhub_core::{FeedbackOutcome::Helped, Outcome, ResourceFilter};
    let a = created(&s, exp("dump a db", "pg_dump", "use -Fc", 4, "a")).await;
    let mut f = exp("dump over vpn", "PG_DUMP", "timed out", 2, "b");
    f.outcome = Outcome::Failure;
    let f = created(&s, f).await;
    created(&s, exp("list files", "ls 100%_x", "ls -la", 4, "a")).await;
    created(&s, extracted("pending one", "pg_dump", "not counted")).await;
    s.vote(&a.id, vote("v1", Helped, None)).await.unwrap();
    let all = s.resources(&ResourceFilter::All, 10).await.unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    let pg = &all[0];
    assert_eq!((pg.key.as_str(), pg.records, pg.successes, pg.failures, pg.helped), ("pg_dump", 2, 1, 1, 1));
    assert_eq!(pg.resource, "PG_DUMP", "the newest approved spelling");
    assert_eq!(pg.last_success_at.as_deref(), Some(a.created_at.as_str()));
    assert_eq!(pg.last_seen_at, f.created_at);
    let m = s.resources(&ResourceFilter::Matching("Pg_D".into()), 10).await.unwrap();
    assert_eq!(m.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["pg_dump"]);
    // LIKE wildcards in the query are literal.
    assert_eq!(s.resources(&ResourceFilter::Matching("%".into()), 10).await.unwrap().len(), 1);
    assert_eq!(s.resources(&ResourceFilter::Matching("p_".into()), 10).await.unwrap().len(), 0);
    assert_eq!(s.resources(&ResourceFilter::Key("pg_dump".into()), 10).await.unwrap()[0].records, 2);
    assert!(s.resources(&ResourceFilter::Key("nope".into()), 10).await.unwrap().is_empty());
    assert_eq!(s.resources(&ResourceFilter::All, 1).await.unwrap().len(), 1);
    s.confirm(&a.id, "z-bot").await.unwrap();
    let c = s.confirmed_by(&a.id).await.unwrap();
    assert_eq!(c.iter().map(|c| c.by.as_str()).collect::<Vec<_>>(), ["a", "z-bot"]);
    assert!(s.confirmed_by("missing").await.unwrap().is_empty());
}

pub async fn sources_live_until_review(s: Arc<dyn Store>) {
    let p = created(&s, extracted("restore a dump", "pg_restore", "use -j")).await;
    let q = created(&s, extracted("other", "tool", "text")).await;
    assert!(matches!(s.set_source("missing", "x").await, Err(CoreError::NotFound(_))));
    s.set_source(&p.id, "#2 user: first").await.unwrap();
    s.set_source(&p.id, "#2 user: replaced").await.unwrap();
    s.set_source(&q.id, "#1 user: q").await.unwrap();
    assert_eq!(s.source(&p.id).await.unwrap().as_deref(), Some("#2 user: replaced"));
    s.review(&p.id, approve(ValidEdits::default())).await.unwrap();
    assert_eq!(s.source(&p.id).await.unwrap(), None, "dropped on review");
    assert!(s.delete(&q.id).await.unwrap());
    assert_eq!(s.source(&q.id).await.unwrap(), None, "dropped with the record");
}

pub async fn usage_and_activity(s: Arc<dyn Store>) {
    use knowhub_core::FeedbackOutcome::Failed;
    s.record_usage("2026-11-20", "bot", 3, 2).await.unwrap();
    s.record_usage("2026-11-20", "bot", 2, 0).await.unwrap();
    s.record_usage("2026-11-21", "alice", 1, 1).await.unwrap();
    s.record_usage("2020-01-01", "old", 9, 9).await.unwrap();
    let a = created(&s, exp("dump a db", "pg_dump", "use -Fc", 4, "bot")).await;
    created(&s, extracted("pending one", "tool", "x")).await;
    s.vote(&a.id, vote("v1", Failed, None)).await.unwrap();
    let act = s.activity("2026-01-01").await.unwrap();
    let u: Vec<(&str, &str, u64, u64)> =
        act.usage.iter().map(|u| (u.day.as_str(), u.agent_id.as_str(), u.searches, u.found)).collect();
    assert_eq!(u, [("2026-11-20", "bot", 5, 2), ("2026-11-21", "alice", 1, 1)]);
    let today = &a.created_at[..10];
    let r: Vec<(&str, &str, &str, u64)> =
        act.records.iter().map(|r| (r.day.as_str(), r.agent_id.as_str(), r.kind.as_str(), r.n)).collect();
    assert_eq!(r, [(today, "bot", "approved", 1), (today, "extractor", "pending", 1)]);
    assert_eq!(act.votes.len(), 1);
    assert_eq!((act.votes[0].agent_id.as_str(), act.votes[0].kind.as_str(), act.votes[0].n), ("bot", "failed", 1));
    assert!(act.jobs.is_empty());
    assert!(s.activity("2999-01-01").await.unwrap().records.is_empty());
}

pub async fn disputes(s: Arc<dyn Store>) {
    use knowhub_core::FeedbackOutcome::{Failed, Helped};
    let bad = created(&s, exp("deploy app", "kubectl apply --force", "deployed", 4, "a")).await;
    let mixed = created(&s, exp("deploy app", "helm upgrade --atomic", "deployed", 4, "a")).await;
    for v in ["x", "y"] {
        s.vote(&bad.id, vote(v, Failed, Some("crashloop"))).await.unwrap();
        s.vote(&mixed.id, vote(v, Failed, None)).await.unwrap();
    }
    for v in ["p", "q"] {
        s.vote(&mixed.id, vote(v, Helped, None)).await.unwrap();
    }
    let ids = |v: Vec<knowhub_core::Experience>| v.into_iter().map(|e| e.id).collect::<Vec<_>>();
    assert_eq!(ids(s.disputed(2, None, 10).await.unwrap()), vec![bad.id.clone()], "failures must outnumber successes");
    assert_eq!(s.count_disputed(2).await.unwrap(), 1);
    assert!(s.disputed(3, None, 10).await.unwrap().is_empty());
    assert!(s.disputed(0, None, 10).await.unwrap().is_empty(), "threshold 0 turns disputes off");
    // A reviewer keeps it: the failures so far stop counting.
    let kept = s.resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Keep, "rita").await.unwrap();
    assert_eq!(kept.feedback.reviewed_failed, 2);
    assert_eq!(kept.review.as_ref().map(|r| r.by.as_str()), Some("rita"));
    assert!(s.disputed(2, None, 10).await.unwrap().is_empty());
    s.vote(&bad.id, vote("z", Failed, None)).await.unwrap();
    assert!(s.disputed(2, None, 10).await.unwrap().is_empty(), "one new failure is not two");
    s.vote(&bad.id, vote("w", Failed, None)).await.unwrap();
    assert_eq!(s.count_disputed(2).await.unwrap(), 1);
    // Rejected: out of search and of the queue.
    let rej = s
        .resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Reject { reason: Some("wrong".into()) }, "rita")
        .await
        .unwrap();
    assert_eq!(rej.status, Status::Rejected);
    assert_eq!(s.count_disputed(2).await.unwrap(), 0);
    assert!(!search(&s, "deploy app", &SearchFilter::default()).await.contains(&bad.id));
    assert!(matches!(
        s.resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Keep, "rita").await,
        Err(CoreError::Conflict(_))
    ));
}

/// An export record as an import sees it.
pub fn to_new(r: &knowhub_core::ExportRecord) -> NewExperience {
    let e = &r.experience;
    NewExperience {
        confirmer: String::new(),
        resource_version: e.resource_version.clone(),
        history: Some(knowhub_core::History {
            last_confirmed_at: Some(e.last_confirmed_at.clone()),
            confirmed_by: r.confirmed_by.clone(),
            votes: r.votes.clone(),
            reviewed_failed: e.feedback.reviewed_failed,
            contested_with: e.contested_with.clone(),
        }),
        id: Some(e.id.clone()),
        task: e.task.clone(),
        resource: e.resource.clone(),
        result: e.result.clone(),
        score: e.score,
        outcome: e.outcome,
        agent_id: e.agent_id.clone(),
        submitted_by: e.submitted_by.clone(),
        session_key: e.session_key.clone(),
        source: e.source,
        status: e.status,
        confidence: e.confidence,
        created_at: Some(e.created_at.clone()),
        updated_at: Some(e.updated_at.clone()),
        confirmations: e.confirmations,
        content: r.content.clone().map(|c| (c, r.content_type.clone().unwrap_or_default())),
        source_range: e.source_range,
        flags: e.flags.clone(),
        review: e.review.clone(),
    }
}

pub async fn filters_hide_pending_rejected_and_low(s: Arc<dyn Store>) {
    let good = created(&s, exp("deploy the cluster", "helm upgrade", "works", 5, "alpha")).await;
    let low = created(&s, exp("deploy the cluster quickly", "helm install", "works", 2, "alpha")).await;
    let beta = created(&s, exp("deploy the cluster again", "helm rollback", "works", 4, "beta")).await;
    let pending = created(&s, extracted("deploy the cluster carefully", "helm diff", "works")).await;
    let rejected = created(&s, extracted("deploy the cluster badly", "helm delete", "works")).await;
    s.review(&rejected.id, Review { decision: Decision::Reject { reason: None }, reviewer: "r".into() }).await.unwrap();
    let all = search(&s, "deploy cluster", &SearchFilter::default()).await;
    assert_eq!(
        all.iter().cloned().collect::<HashSet<_>>(),
        HashSet::from([good.id.clone(), low.id.clone(), beta.id.clone()])
    );
    let f = SearchFilter { min_score: 4, ..Default::default() };
    assert_eq!(
        search(&s, "deploy cluster", &f).await.into_iter().collect::<HashSet<_>>(),
        HashSet::from([good.id.clone(), beta.id.clone()])
    );
    let f = SearchFilter { agent_id: Some("beta".into()), ..Default::default() };
    assert_eq!(search(&s, "deploy cluster", &f).await, vec![beta.id.clone()]);
    let f = SearchFilter { status: Status::Pending, ..Default::default() };
    assert_eq!(search(&s, "deploy cluster", &f).await, vec![pending.id.clone()]);
    // Vectors: the same filters.
    let v = unit(&[1.0, 0.0, 0.0, 0.0]);
    let items: Vec<(String, Vec<f32>)> =
        [&good, &low, &beta, &pending, &rejected].iter().map(|e| (e.id.clone(), v.clone())).collect();
    s.set_vectors(MODEL, &items).await.unwrap();
    let ids = |r: Vec<(String, f64)>| r.into_iter().map(|x| x.0).collect::<HashSet<_>>();
    let r = s.vector_candidates(MODEL, &v, &SearchFilter::default(), 10).await.unwrap();
    assert_eq!(ids(r), HashSet::from([good.id.clone(), low.id.clone(), beta.id.clone()]));
    let r = s
        .vector_candidates(
            MODEL,
            &v,
            &SearchFilter { min_score: 4, agent_id: Some("alpha".into()), ..Default::default() },
            10,
        )
        .await
        .unwrap();
    assert_eq!(ids(r), HashSet::from([good.id.clone()]));
}

pub async fn text_search_zh_en_identifiers(s: Arc<dyn Store>) {
    let mut ids = Vec::new();
    for (t, r, res) in [
        ("修复 PostgreSQL 连接超时", "pgbouncer", "超时消失"),
        ("备份数据库", "pg_dump -Fc", "备份成功，数据完整"),
        ("Deploy to staging", "kubectl apply -f deploy.yaml", "rolled out"),
        ("Chrome cannot reach dev server", "vite --host", "fixed ERR_CONNECTION_REFUSED"),
        ("React effect runs twice", "React.useEffect cleanup", "strict mode double invoke explained"),
        ("Fix connection timeouts", "raise pool size", "timeouts gone"),
    ] {
        ids.push(created(&s, exp(t, r, res, 4, "main")).await.id);
    }
    let f = SearchFilter::default();
    assert_eq!(search(&s, "超时", &f).await, vec![ids[0].clone()]);
    assert_eq!(search(&s, "数据", &f).await, vec![ids[1].clone()]);
    assert_eq!(search(&s, "kubectl", &f).await, vec![ids[2].clone()]);
    for q in ["pg_dump", "React.useEffect", "ERR_CONNECTION_REFUSED", "connection timeout", "数据库连接"] {
        assert!(!search(&s, q, &f).await.is_empty(), "{q} found nothing");
    }
    // The exact identifier ranks its record first; scores are positive and best first.
    let r = s.text_candidates(&text::query_tokens("ERR_CONNECTION_REFUSED"), &f, 10).await.unwrap();
    assert_eq!(r[0].0, ids[3]);
    assert!(r.iter().all(|x| x.1 > 0.0));
    assert!(r.windows(2).all(|w| w[0].1 >= w[1].1));
    assert_eq!(search(&s, "pg_dump", &f).await[0], ids[1]);
    // Part of an identifier finds it too, first.
    assert_eq!(search(&s, "useEffect", &f).await[0], ids[4]);
    assert!(search(&s, "zzzunknownzzz", &f).await.is_empty());
    assert!(s.text_candidates(&[], &f, 10).await.unwrap().is_empty());
    // Limit is respected.
    assert_eq!(s.text_candidates(&text::query_tokens("超时 kubectl pg_dump"), &f, 2).await.unwrap().len(), 2);
}

pub async fn text_scores_for_ids(s: Arc<dyn Store>) {
    let a = created(&s, exp("nginx reverse proxy", "proxy_pass", "works", 4, "m")).await;
    let b = created(&s, exp("docker compose volumes", "named volume", "data kept", 4, "m")).await;
    let p = created(&s, extracted("nginx cache", "proxy_cache", "faster")).await;
    let toks = text::query_tokens("nginx proxy");
    let r = s.text_scores(&toks, &[a.id.clone(), b.id.clone(), p.id.clone(), "missing".into()]).await.unwrap();
    let got: HashSet<String> = r.iter().map(|x| x.0.clone()).collect();
    // b matches no token; a pending record is still scored (fusion only scores candidates).
    assert_eq!(got, HashSet::from([a.id.clone(), p.id.clone()]));
    assert!(r.iter().all(|x| x.1 > 0.0));
    assert!(s.text_scores(&toks, &[]).await.unwrap().is_empty());
}

/// Full text ranks by BM25 on every backend: a word's repeats saturate and long records are
/// normalised, so a short record naming the word once outranks a long one repeating it among
/// many other words. (PostgreSQL's `ts_rank_cd` alone ranked the long one first.)
pub async fn full_text_saturates_repeats(s: Arc<dyn Store>) {
    let filler: Vec<String> =
        (0..120u8).map(|i| format!("zx{}{}k", (b'a' + i / 26) as char, (b'a' + i % 26) as char)).collect();
    let long_task = format!("timeout timeout timeout timeout timeout {}", filler.join(" "));
    let long = created(&s, exp(&long_task, "r", "ok", 4, "m")).await;
    let short = created(&s, exp("timeout fix", "r", "ok", 4, "m")).await;
    let toks = text::query_tokens("timeout");
    let r = s.text_candidates(&toks, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(r.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), [short.id.as_str(), long.id.as_str()], "{r:?}");
    let sc: HashMap<String, f64> =
        s.text_scores(&toks, &[long.id.clone(), short.id.clone()]).await.unwrap().into_iter().collect();
    assert!(sc[&short.id] > sc[&long.id], "{sc:?}");
}

pub async fn vectors_candidates_and_scores(s: Arc<dyn Store>) {
    let mut ids = Vec::new();
    for i in 0..20 {
        ids.push(created(&s, exp(&format!("task {i}"), "res", "ok", 4, "m")).await.id);
    }
    // Vector i points at angle i*4 degrees; the query at 0: nearest are 0, 1, 2, ...
    let vec_of = |i: usize| {
        let a = (i as f32 * 4.0).to_radians();
        unit(&[a.cos(), a.sin(), 0.0])
    };
    let items: Vec<(String, Vec<f32>)> = ids.iter().enumerate().map(|(i, id)| (id.clone(), vec_of(i))).collect();
    s.set_vectors(MODEL, &items).await.unwrap();
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
    assert_eq!(s.vector_count("other-model").await.unwrap(), 0);
    let q = unit(&[1.0, 0.0, 0.0]);
    let r = s.vector_candidates(MODEL, &q, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(r.iter().map(|x| x.0.clone()).collect::<Vec<_>>(), ids[..5].to_vec());
    assert!((r[0].1 - 1.0).abs() < 1e-4, "cosine of identical vectors is 1, got {}", r[0].1);
    assert!((r[1].1 - (4f64.to_radians().cos())).abs() < 1e-4);
    assert!(s.vector_candidates("other-model", &q, &SearchFilter::default(), 5).await.unwrap().is_empty());
    let sc = s.vector_scores(MODEL, &q, &[ids[10].clone(), ids[0].clone(), "missing".into()]).await.unwrap();
    assert_eq!(sc.len(), 2);
    let ten = &sc.iter().find(|x| x.0 == ids[10]).unwrap().1;
    assert_eq!((ten.dots.len(), ten.norms.len()), (1, 1), "one block: {ten:?}");
    assert!((ten.dots[0] - 40f64.to_radians().cos()).abs() < 1e-4, "{ten:?}");
    assert!((ten.norms[0] - 1.0).abs() < 1e-5, "{ten:?}");
    // Stored vectors read back as stored, for the given ids and model only.
    let mut got = s.vectors(MODEL, &[ids[3].clone(), "missing".into(), ids[7].clone()]).await.unwrap();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want = vec![(ids[3].clone(), vec_of(3)), (ids[7].clone(), vec_of(7))];
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(got.len(), 2, "{got:?}");
    for ((gid, gv), (wid, wv)) in got.iter().zip(&want) {
        assert_eq!(gid, wid);
        assert!(gv.iter().zip(wv).all(|(a, b)| (a - b).abs() < 1e-6), "{gv:?} != {wv:?}");
    }
    assert!(s.vectors("other-model", &ids).await.unwrap().is_empty());
    assert!(s.vectors(MODEL, &[]).await.unwrap().is_empty());
    // Replacing a vector moves the record.
    s.set_vectors(MODEL, &[(ids[19].clone(), q.clone())]).await.unwrap();
    assert_eq!(s.vectors(MODEL, &ids[19..]).await.unwrap(), vec![(ids[19].clone(), q.clone())]);
    let r = s.vector_candidates(MODEL, &q, &SearchFilter::default(), 2).await.unwrap();
    assert!(r.iter().any(|x| x.0 == ids[19]), "{r:?}");
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
    // Unknown ids are skipped, not errors.
    s.set_vectors(MODEL, &[("missing".into(), q.clone())]).await.unwrap();
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
}

/// Composite vectors (two models end to end, as the local embedder stores them): scores come back
/// per block with each block's stored norm, so each model's cosine can be read off.
pub async fn vector_block_scores(s: Arc<dyn Store>) {
    const B: usize = knowhub_core::VECTOR_BLOCK;
    let a = created(&s, exp("english record", "res", "ok", 4, "m")).await.id;
    let z = created(&s, exp("中文记录", "资源", "好", 4, "m")).await.id;
    // Block 0 unit length; block 1 scaled by t (0.6 for `a`, 0 for the Chinese record).
    let comp = |x: f32, y: f32, t: f32| {
        let mut v = vec![0.0f32; 2 * B];
        v[0] = x;
        v[1] = y;
        v[B] = t;
        v
    };
    s.set_vectors(MODEL, &[(a.clone(), comp(0.6, 0.8, 0.6)), (z.clone(), comp(1.0, 0.0, 0.0))]).await.unwrap();
    // Scan query uses block 0 only: the dot is each record's block-0 cosine.
    let scan = comp(1.0, 0.0, 0.0);
    let c = s.vector_candidates(MODEL, &scan, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(c.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), vec![z.as_str(), a.as_str()]);
    // Within int8 error (the SQLite index scores int8 codes against the f32 query).
    assert!((c[1].1 - 0.6).abs() < 5e-3, "{c:?}");
    let full = comp(1.0, 0.0, 1.0);
    let mut sc = s.vector_scores(MODEL, &full, &[a.clone(), z.clone()]).await.unwrap();
    sc.sort_by_key(|x| x.0 != a);
    let (sa, sz) = (&sc[0].1, &sc[1].1);
    assert_eq!((sa.dots.len(), sa.norms.len()), (2, 2));
    assert!((sa.dots[0] - 0.6).abs() < 5e-3 && (sa.dots[1] - 0.6).abs() < 5e-3, "{sa:?}");
    assert!((sa.norms[0] - 1.0).abs() < 1e-5 && (sa.norms[1] - 0.6).abs() < 1e-5, "{sa:?}");
    assert!(sz.dots[1].abs() < 1e-6 && sz.norms[1] == 0.0, "{sz:?}");
    // Cosine over both blocks: (0.6 + 0.6) / (|q| √(1 + 0.36)) with |q| = √2.
    let want = 1.2 / (2f64.sqrt() * 1.36f64.sqrt());
    assert!((sa.cosine(&[1.0, 1.0]) - want).abs() < 5e-3, "{}", sa.cosine(&[1.0, 1.0]));
    assert!((sa.cosine(&[1.0, 0.0]) - 0.6).abs() < 5e-3);
}

pub async fn missing_vectors_and_counts(s: Arc<dyn Store>) {
    let a = created(&s, exp("alpha task", "r", "ok", 4, "m")).await;
    let p = created(&s, extracted("pending task", "r", "ok")).await;
    let x = created(&s, extracted("rejected task", "r2", "ok")).await;
    s.review(&x.id, Review { decision: Decision::Reject { reason: None }, reviewer: "r".into() }).await.unwrap();
    let m = s.missing_vectors(MODEL, 10).await.unwrap();
    assert_eq!(
        m.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![a.id.clone(), p.id.clone()],
        "in insert order, no rejected"
    );
    assert_eq!(m[0].1, knowhub_core::search_text("alpha task", "r", "ok"));
    assert_eq!(s.missing_vectors(MODEL, 1).await.unwrap().len(), 1);
    s.set_vectors(MODEL, &[(a.id.clone(), unit(&[1.0, 2.0]))]).await.unwrap();
    assert_eq!(
        s.missing_vectors(MODEL, 10).await.unwrap().iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![p.id.clone()]
    );
    assert_eq!(s.count_status(Status::Approved).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Pending).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Rejected).await.unwrap(), 1);
    assert_eq!(s.count().await.unwrap(), 3);
}

pub async fn review_approve(s: Arc<dyn Store>) {
    let a = created(&s, extracted("Speed up cargo builds", "sccache", "2x faster")).await;
    let b = created(&s, extracted("Speed up npm installs", "npm ci --prefer-offline", "faster")).await;
    let pending = s.pending(None, 10).await.unwrap();
    assert_eq!(pending.iter().map(|e| e.id.clone()).collect::<Vec<_>>(), vec![a.id.clone(), b.id.clone()]);
    assert_eq!(s.pending(Some(&a.id), 10).await.unwrap().len(), 1);
    assert!(search(&s, "sccache", &SearchFilter::default()).await.is_empty(), "pending is not searchable");
    s.set_vectors(MODEL, &[(a.id.clone(), unit(&[1.0, 1.0]))]).await.unwrap();
    let ok = s.review(&a.id, approve(ValidEdits::default())).await.unwrap();
    assert_eq!(ok.status, Status::Approved);
    assert_eq!(ok.task, a.task);
    let mark = ok.review.clone().expect("review mark");
    assert_eq!(mark.by, "rita");
    assert!(knowhub_core::parse_rfc3339(&mark.at).is_some(), "{}", mark.at);
    assert_eq!(s.get(&a.id).await.unwrap().unwrap().review, Some(mark));
    assert_eq!(search(&s, "sccache", &SearchFilter::default()).await, vec![a.id.clone()]);
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 1, "unchanged text keeps its vector");
    assert_eq!(s.pending(None, 10).await.unwrap().len(), 1);
}

pub async fn review_approve_with_edits(s: Arc<dyn Store>) {
    let a = created(&s, extracted("Speed up cargo builds", "sccache", "2x faster")).await;
    s.set_vectors(MODEL, &[(a.id.clone(), unit(&[1.0, 1.0]))]).await.unwrap();
    let edits = ValidEdits {
        task: Some("加速 Rust 编译".into()),
        result: Some("编译快了两倍".into()),
        score: Some(5),
        outcome: Some(Outcome::Partial),
        ..Default::default()
    };
    let e = s.review(&a.id, approve(edits)).await.unwrap();
    assert_eq!(
        (e.task.as_str(), e.resource.as_str(), e.result.as_str()),
        ("加速 Rust 编译", "sccache", "编译快了两倍")
    );
    assert_eq!((e.score, e.outcome, e.status), (5, Outcome::Partial, Status::Approved));
    assert_eq!(e.content_hash, text::content_hash("加速 Rust 编译", "sccache", "编译快了两倍", None));
    assert_ne!(e.language, a.language);
    assert_eq!(e.language, text::detect_language(&e.search_text()));
    // Re-indexed: the new words are found, the old ones not; the vector is recomputed later.
    let f = SearchFilter::default();
    assert_eq!(search(&s, "编译", &f).await, vec![a.id.clone()]);
    assert!(search(&s, "cargo", &f).await.is_empty());
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 0);
    assert_eq!(s.missing_vectors(MODEL, 10).await.unwrap()[0].1, e.search_text());
    // Dedup now sees the edited text.
    let InsertOutcome::Duplicate(d) = s.insert(exp("加速 rust 编译", "sccache", "编译快了两倍", 3, "m")).await.unwrap()
    else {
        panic!("the edited text is the record's identity now")
    };
    assert_eq!(d.id, a.id);
    // Near-duplicates are looked up by the edited resource.
    let same = s.by_resource_key(&text::resource_key("SCCache", None), 5).await.unwrap();
    assert_eq!(same.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), vec![a.id.as_str()], "resource_key recomputed");
    // Edits that make it identical to another record: Conflict, nothing changed.
    let other = created(&s, exp("existing", "res", "done", 3, "m")).await;
    let b = created(&s, extracted("to be edited", "x", "y")).await;
    let clash = ValidEdits {
        task: Some(other.task.clone()),
        resource: Some(other.resource.clone()),
        result: Some(other.result.clone()),
        ..Default::default()
    };
    assert!(matches!(s.review(&b.id, approve(clash)).await, Err(CoreError::Conflict(_))));
    let still = s.get(&b.id).await.unwrap().unwrap();
    assert_eq!((still.status, still.task.as_str()), (Status::Pending, "to be edited"));
}

pub async fn review_reject_and_conflicts(s: Arc<dyn Store>) {
    let a = created(&s, extracted("Use rm -rf /", "shell", "bad idea")).await;
    let r = s
        .review(
            &a.id,
            Review { decision: Decision::Reject { reason: Some("dangerous".into()) }, reviewer: "rita".into() },
        )
        .await
        .unwrap();
    assert_eq!(r.status, Status::Rejected);
    let ReviewMark { by, note, .. } = r.review.clone().unwrap();
    assert_eq!((by.as_str(), note.as_deref()), ("rita", Some("dangerous")));
    assert_eq!(s.get(&a.id).await.unwrap().unwrap().review, r.review);
    // Second decision on the same record: Conflict, either way.
    assert!(matches!(s.review(&a.id, approve(ValidEdits::default())).await, Err(CoreError::Conflict(_))));
    let rej = Review { decision: Decision::Reject { reason: None }, reviewer: "x".into() };
    assert!(matches!(s.review(&a.id, rej.clone()).await, Err(CoreError::Conflict(_))));
    // Approved manual records are not pending either.
    let m = created(&s, exp("manual", "r", "ok", 3, "m")).await;
    assert!(matches!(s.review(&m.id, rej.clone()).await, Err(CoreError::Conflict(_))));
    assert!(matches!(s.review("no-such-id", rej.clone()).await, Err(CoreError::NotFound(_))));
    // Two reviewers at once: exactly one wins.
    let b = created(&s, extracted("race", "r", "ok")).await;
    let (x, y) = tokio::join!(s.review(&b.id, approve(ValidEdits::default())), s.review(&b.id, rej.clone()));
    assert_eq!([x.is_ok(), y.is_ok()].iter().filter(|ok| **ok).count(), 1, "{x:?} {y:?}");
}

pub async fn delete_removes_everything(s: Arc<dyn Store>) {
    let mut e = exp("to delete", "r", "ok", 3, "m");
    e.content = Some(("c".into(), "text/plain".into()));
    let a = created(&s, e).await;
    s.set_vectors(MODEL, &[(a.id.clone(), unit(&[1.0, 0.0]))]).await.unwrap();
    assert!(s.delete(&a.id).await.unwrap());
    assert!(!s.delete(&a.id).await.unwrap());
    assert!(s.get(&a.id).await.unwrap().is_none());
    assert!(s.content(&a.id).await.unwrap().is_none());
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 0);
    assert!(search(&s, "delete", &SearchFilter::default()).await.is_empty());
    assert!(s.vector_candidates(MODEL, &unit(&[1.0, 0.0]), &SearchFilter::default(), 5).await.unwrap().is_empty());
    // The same text can be submitted afresh.
    let again = created(&s, exp("to delete", "r", "ok", 3, "m")).await;
    assert_eq!(again.confirmations, 1);
}

/// A content proposal is stored beside the record whose text it repeats, and accepting one sets
/// (or replaces) the record's content.
pub async fn content_proposals_and_set_content(s: Arc<dyn Store>) {
    let target = created(&s, exp("rotate logs", "logrotate", "disk below 50%", 4, "m")).await;
    let mut p = exp("rotate logs", "logrotate", "disk below 50%", 4, "m");
    p.content = Some(("logrotate -f /etc/logrotate.conf".into(), "text/plain".into()));
    p.flags.extend(knowhub_core::review::proposal_flags(&target.id));
    let prop = created(&s, p.clone()).await;
    assert_ne!(prop.id, target.id);
    assert_eq!(knowhub_core::review::proposal_target(&prop.flags), Some(target.id.as_str()));
    assert!(matches!(s.insert(p).await.unwrap(), InsertOutcome::Duplicate(d) if d.id == prop.id));
    s.set_content(&target.id, "logrotate -f /etc/logrotate.conf", "text/plain").await.unwrap();
    assert_eq!(s.content(&target.id).await.unwrap().unwrap().content, "logrotate -f /etc/logrotate.conf");
    assert!(s.get(&target.id).await.unwrap().unwrap().has_content);
    s.set_content(&target.id, "second version", "text/markdown").await.unwrap();
    let c = s.content(&target.id).await.unwrap().unwrap();
    assert_eq!((c.content.as_str(), c.content_type.as_str()), ("second version", "text/markdown"));
    assert!(matches!(s.set_content("no-such-id", "x", "text/plain").await, Err(CoreError::NotFound(_))));
}

pub async fn api_keys(s: Arc<dyn Store>) {
    let (k1, n1) = generate_key("alice", Role::Reviewer).unwrap();
    let a = s.create_key(n1.clone()).await.unwrap();
    assert_eq!((a.name.as_str(), a.role, a.revoked_at.as_deref()), ("alice", Role::Reviewer, None));
    assert_eq!(a.prefix, n1.prefix);
    let (_, dup) = generate_key("alice", Role::Agent).unwrap();
    assert!(matches!(s.create_key(dup).await, Err(CoreError::Conflict(_))), "active name taken");
    let (_, n2) = generate_key("bob", Role::Admin).unwrap();
    let b = s.create_key(n2).await.unwrap();
    assert_eq!(s.key_by_hash(&hash_key(&k1)).await.unwrap(), Some(a.clone()));
    assert!(s.key_by_hash(&hash_key("kh_nope")).await.unwrap().is_none());
    let listed = s.list_keys().await.unwrap();
    assert_eq!(listed.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), vec!["alice", "bob"]);
    // Revoke by name, then by id.
    let r = s.revoke_key("alice").await.unwrap().expect("revoked");
    assert_eq!(r.id, a.id);
    assert!(r.revoked_at.is_some());
    assert!(s.revoke_key("alice").await.unwrap().is_none(), "no active key named alice any more");
    assert!(s.key_by_hash(&hash_key(&k1)).await.unwrap().unwrap().revoked_at.is_some(), "revoked keys still found");
    assert_eq!(s.revoke_key(&b.id).await.unwrap().map(|k| k.name), Some("bob".into()));
    assert!(s.revoke_key("nobody").await.unwrap().is_none());
    // The name is free again once revoked.
    let (_, n3) = generate_key("alice", Role::Agent).unwrap();
    s.create_key(n3).await.unwrap();
    let listed = s.list_keys().await.unwrap();
    assert_eq!(listed.len(), 3);
    assert_eq!(listed.iter().filter(|k| k.revoked_at.is_none()).count(), 1);
    assert_eq!(listed[0].id, a.id, "oldest first");
}

fn upload(session: &str, msgs: &[&str]) -> NewExtraction {
    NewExtraction {
        job_id: knowhub_core::new_id(),
        session_key: session.into(),
        agent_id: "agent".into(),
        submitted_by: "me".into(),
        caller: "key-bot".into(),
        require_approval: true,
        hashes: msgs.iter().map(|m| format!("h-{m}")).collect(),
        messages: msgs.iter().map(|m| serde_json::json!({"role": "user", "content": m}).to_string()).collect(),
    }
}

fn contents(job: &knowhub_core::ExtractJob) -> Vec<String> {
    let v: Vec<serde_json::Value> = serde_json::from_str(&job.messages).unwrap();
    v.iter().map(|m| m["content"].as_str().unwrap().to_string()).collect()
}

pub async fn extraction_overlap(s: Arc<dyn Store>) {
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c"])).await.unwrap();
    assert_eq!(e.skipped, 0);
    let j = e.job.unwrap();
    assert_eq!((j.first_index, j.message_count, j.status, j.attempts), (0, 3, JobStatus::Queued, 0));
    assert_eq!(contents(&j), vec!["a", "b", "c"]);
    assert!(j.require_approval);
    assert_eq!(j.caller, "key-bot");
    assert_eq!(s.extraction(&j.id).await.unwrap(), Some(j.clone()));
    // The whole history again, longer: only the new messages.
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c", "d", "e"])).await.unwrap();
    assert_eq!(e.skipped, 3);
    let j2 = e.job.unwrap();
    assert_eq!((j2.first_index, j2.message_count), (3, 2));
    assert_eq!(contents(&j2), vec!["d", "e"]);
    // The same upload again: nothing new, no job.
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c", "d", "e"])).await.unwrap();
    assert_eq!((e.skipped, e.job.is_none()), (5, true));
    // Only the new messages, repeating the last one.
    let e = s.enqueue_extraction(upload("s", &["e", "f"])).await.unwrap();
    assert_eq!(e.skipped, 1);
    let j3 = e.job.unwrap();
    assert_eq!((j3.first_index, contents(&j3)), (5, vec!["f".to_string()]));
    // Another session is independent.
    let e = s.enqueue_extraction(upload("other", &["a", "b"])).await.unwrap();
    assert_eq!((e.skipped, e.job.unwrap().first_index), (0, 0));
    // Concurrent identical uploads of one session: exactly one job.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move { s.enqueue_extraction(upload("race", &["x", "y", "z"])).await.unwrap() }));
    }
    let mut jobs = 0;
    for t in tasks {
        jobs += t.await.unwrap().job.is_some() as usize;
    }
    assert_eq!(jobs, 1);
    assert!(s.extraction("no-such-job").await.unwrap().is_none());
}

/// A session keeps only its newest `MAX_MESSAGES` fingerprints; numbering and overlap go on.
pub async fn extraction_session_window(s: Arc<dyn Store>) {
    use knowhub_core::extract::MAX_MESSAGES;
    let names: Vec<String> = (0..MAX_MESSAGES + 30).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let j = s.enqueue_extraction(upload("long", &refs[..MAX_MESSAGES])).await.unwrap().job.unwrap();
    assert_eq!((j.first_index, j.message_count as usize), (0, MAX_MESSAGES));
    // 30 more, repeating the last 10 sent: numbering goes on past the window.
    let e = s.enqueue_extraction(upload("long", &refs[MAX_MESSAGES - 10..])).await.unwrap();
    let j = e.job.unwrap();
    assert_eq!((e.skipped, j.first_index as usize, j.message_count), (10, MAX_MESSAGES, 30));
    // The newest messages are still recognised ...
    let e = s.enqueue_extraction(upload("long", &refs[MAX_MESSAGES + 20..])).await.unwrap();
    assert_eq!((e.skipped, e.job.is_none()), (10, true));
    // ... and the oldest 30 are forgotten: sent alone again, they count as new, numbered after.
    let e = s.enqueue_extraction(upload("long", &refs[..1])).await.unwrap();
    assert_eq!((e.skipped, e.job.unwrap().first_index as usize), (0, MAX_MESSAGES + 30));
}

pub async fn extraction_claim_is_exclusive(s: Arc<dyn Store>) {
    let mut queued = HashSet::new();
    for i in 0..12 {
        let e = s.enqueue_extraction(upload(&format!("s{i}"), &["m"])).await.unwrap();
        queued.insert(e.job.unwrap().id);
    }
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(j) = s.claim_extraction(300).await.unwrap() {
                assert_eq!((j.status, j.attempts), (JobStatus::Running, 1));
                got.push(j.id);
            }
            got
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    assert_eq!(all.len(), 12, "every job handed out exactly once: {all:?}");
    assert_eq!(all.iter().cloned().collect::<HashSet<_>>(), queued);
    assert!(s.claim_extraction(300).await.unwrap().is_none(), "running jobs with a live lease are not handed out");
}

pub async fn extraction_retry_and_finish(s: Arc<dyn Store>) {
    let first = s.enqueue_extraction(upload("s", &["a"])).await.unwrap().job.unwrap();
    let second = s.enqueue_extraction(upload("t", &["b"])).await.unwrap().job.unwrap();
    let j = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!(j.id, first.id, "oldest first");
    // Retry later: not runnable before its time.
    s.finish_extraction(&j.id, JobFinish::Retry { error: "rate limited".into(), after_secs: 3600, result: None })
        .await
        .unwrap();
    let r = s.extraction(&j.id).await.unwrap().unwrap();
    assert_eq!((r.status, r.error.as_deref(), r.attempts), (JobStatus::Queued, Some("rate limited"), 1));
    assert_eq!(contents(&r), vec!["a"], "messages kept for the retry");
    let next = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!(next.id, second.id, "the delayed job is skipped");
    assert!(s.claim_extraction(300).await.unwrap().is_none());
    // Retry with no delay: claimable again, attempts counted.
    let spent = "{\"input_tokens\":120,\"output_tokens\":20}";
    let retry = JobFinish::Retry { error: "timeout".into(), after_secs: 0, result: Some(spent.into()) };
    s.finish_extraction(&next.id, retry).await.unwrap();
    let again = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!((again.id.as_str(), again.attempts), (next.id.as_str(), 2));
    assert_eq!(again.result.as_deref(), Some(spent), "the next attempt sees what the last one spent");
    // A lease that expired (the worker died) makes the job claimable again.
    s.finish_extraction(&again.id, JobFinish::Retry { error: "x".into(), after_secs: 0, result: None }).await.unwrap();
    let short = s.claim_extraction(1).await.unwrap().unwrap();
    assert_eq!(short.id, next.id);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let stolen = s.claim_extraction(300).await.unwrap().expect("expired lease is claimable");
    assert_eq!((stolen.id.as_str(), stolen.attempts), (next.id.as_str(), 4));
    // Done and Failed clear the transcript.
    s.finish_extraction(&stolen.id, JobFinish::Done { result: "{\"created\":2}".into() }).await.unwrap();
    let d = s.extraction(&stolen.id).await.unwrap().unwrap();
    assert_eq!((d.status, d.messages.as_str(), d.result.as_deref()), (JobStatus::Done, "", Some("{\"created\":2}")));
    let spent = "{\"input_tokens\":200}";
    s.finish_extraction(&first.id, JobFinish::Failed { error: "bad output".into(), result: Some(spent.into()) })
        .await
        .unwrap();
    let f = s.extraction(&first.id).await.unwrap().unwrap();
    assert_eq!(
        (f.status, f.messages.as_str(), f.error.as_deref(), f.result.as_deref()),
        (JobStatus::Failed, "", Some("bad output"), Some(spent))
    );
    assert!(s.claim_extraction(300).await.unwrap().is_none(), "finished jobs are never claimed");
}
