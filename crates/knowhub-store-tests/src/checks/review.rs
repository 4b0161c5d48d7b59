//! Review decisions on pending records.

use std::sync::Arc;

use knowhub_core::review::{Decision, Review, ValidEdits};
use knowhub_core::{text, CoreError, InsertOutcome, Outcome, ReviewMark, SearchFilter, Status, Store};

use super::{approve, created, extracted, search, unit};
use crate::{exp, MODEL};

pub async fn review_approve(s: Arc<dyn Store>) {
    let a = created(&s, extracted("Speed up cargo builds", "sccache", "2x faster")).await;
    let b = created(&s, extracted("Speed up npm installs", "npm ci --prefer-offline", "faster")).await;
    let pending = s.pending(None, None, 10).await.unwrap();
    assert_eq!(pending.iter().map(|e| e.id.clone()).collect::<Vec<_>>(), vec![a.id.clone(), b.id.clone()]);
    assert_eq!(s.pending(None, Some(&a.id), 10).await.unwrap().len(), 1);
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
    assert_eq!(s.pending(None, None, 10).await.unwrap().len(), 1);
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
