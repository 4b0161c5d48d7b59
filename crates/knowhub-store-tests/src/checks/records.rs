//! Submits, imports, reads, content and deletes of records.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::review::{Decision, Review, ValidEdits};
use knowhub_core::store::ImportOutcome;
use knowhub_core::{CoreError, InsertOutcome, MessageRange, SearchFilter, Source, Status, Store};

use super::{approve, created, extracted, search, unit, vote};
use crate::{exp, to_new, MODEL};

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
    p.propose_content_for(&target.id);
    let prop = created(&s, p.clone()).await;
    assert_ne!(prop.id, target.id);
    assert_eq!(prop.content_for(), Some(target.id.as_str()));
    assert!(matches!(s.insert(p).await.unwrap(), InsertOutcome::Duplicate(d) if d.id == prop.id));
    s.set_content(&target.id, "logrotate -f /etc/logrotate.conf", "text/plain").await.unwrap();
    assert_eq!(s.content(&target.id).await.unwrap().unwrap().content, "logrotate -f /etc/logrotate.conf");
    assert!(s.get(&target.id).await.unwrap().unwrap().has_content);
    s.set_content(&target.id, "second version", "text/markdown").await.unwrap();
    let c = s.content(&target.id).await.unwrap().unwrap();
    assert_eq!((c.content.as_str(), c.content_type.as_str()), ("second version", "text/markdown"));
    assert!(matches!(s.set_content("no-such-id", "x", "text/plain").await, Err(CoreError::NotFound(_))));
}

pub async fn by_content_hash_finds_every_status(s: Arc<dyn Store>) {
    let a = created(&s, exp("Rotate logs", "logrotate", "disk stable", 4, "main")).await;
    let mut p = exp("Tune cache", "cachectl", "hits up", 4, "main");
    p.status = Status::Pending;
    let pending = created(&s, p.clone()).await;
    let mut r = exp("Drop caches", "sysctl", "faster", 4, "main");
    r.status = Status::Pending;
    let rejected = created(&s, r.clone()).await;
    s.review(&rejected.id, Review { decision: Decision::Reject { reason: None }, reviewer: "rita".into() })
        .await
        .unwrap();
    // The hash of the same text, respelt as a repeat would be, finds each record whatever its status.
    let again = exp("rotate  LOGS", "logrotate ", "disk stable", 2, "other");
    assert_eq!(s.by_content_hash(&again.content_hash()).await.unwrap().map(|e| e.id), Some(a.id));
    let found = s.by_content_hash(&p.content_hash()).await.unwrap().unwrap();
    assert_eq!((found.id, found.status), (pending.id, Status::Pending));
    let found = s.by_content_hash(&r.content_hash()).await.unwrap().unwrap();
    assert_eq!((found.id.as_str(), found.status), (rejected.id.as_str(), Status::Rejected));
    assert!(s.by_content_hash(&exp("Other", "x", "y", 3, "m").content_hash()).await.unwrap().is_none());
    assert_eq!(s.get(&found.id).await.unwrap().unwrap().confirmations, 1, "a lookup confirms nothing");
}
