//! Confirmers, resource keys and contests, outcome votes and disputes.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::review::{Decision, Review};
use knowhub_core::{text, CoreError, InsertOutcome, SearchFilter, Status, Store};

use super::{created, extracted, search, vote};
use crate::exp;

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
    assert_eq!(
        ids(s.disputed(2, None, None, 10).await.unwrap()),
        vec![bad.id.clone()],
        "failures must outnumber successes"
    );
    assert_eq!(s.count_disputed(2, None).await.unwrap(), 1);
    assert!(s.disputed(3, None, None, 10).await.unwrap().is_empty());
    assert!(s.disputed(0, None, None, 10).await.unwrap().is_empty(), "threshold 0 turns disputes off");
    // A reviewer keeps it: the failures so far stop counting.
    let kept = s.resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Keep, "rita").await.unwrap();
    assert_eq!(kept.feedback.reviewed_failed, 2);
    assert_eq!(kept.review.as_ref().map(|r| r.by.as_str()), Some("rita"));
    assert!(s.disputed(2, None, None, 10).await.unwrap().is_empty());
    s.vote(&bad.id, vote("z", Failed, None)).await.unwrap();
    assert!(s.disputed(2, None, None, 10).await.unwrap().is_empty(), "one new failure is not two");
    s.vote(&bad.id, vote("w", Failed, None)).await.unwrap();
    assert_eq!(s.count_disputed(2, None).await.unwrap(), 1);
    // Rejected: out of search and of the queue.
    let rej = s
        .resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Reject { reason: Some("wrong".into()) }, "rita")
        .await
        .unwrap();
    assert_eq!(rej.status, Status::Rejected);
    assert_eq!(s.count_disputed(2, None).await.unwrap(), 0);
    assert!(!search(&s, "deploy app", &SearchFilter::default()).await.contains(&bad.id));
    assert!(matches!(
        s.resolve_dispute(&bad.id, knowhub_core::DisputeDecision::Keep, "rita").await,
        Err(CoreError::Conflict(_))
    ));
}

/// A two-block vector (as the local pair stores them): the first block at `deg` degrees from
/// the x axis, the second pointing along axis `other` (what a query on the first block ignores).
fn two_blocks(deg: f32, other: usize) -> Vec<f32> {
    let a = deg.to_radians();
    let mut v = vec![0.0; 2 * knowhub_core::VECTOR_BLOCK];
    v[0] = a.cos();
    v[1] = a.sin();
    v[knowhub_core::VECTOR_BLOCK + other % knowhub_core::VECTOR_BLOCK] = 1.0;
    v
}

pub async fn resource_neighbours_from_stored_vectors(s: Arc<dyn Store>) {
    use knowhub_core::NeighbourQuery;
    let res = "git rebase --onto";
    let key = text::resource_key(res, None);
    // 60 records of one resource, the oldest and one late one near the query, the rest far.
    let mut ids = Vec::new();
    for i in 0..60 {
        ids.push(created(&s, exp(&format!("rebase task {i}"), res, &format!("done {i}"), 4, "a")).await.id);
    }
    let deg = |i: usize| match i {
        0 => 0.0,
        55 => 16.0,
        i => 40.0 + i as f32,
    };
    let items: Vec<(String, Vec<f32>)> =
        ids.iter().enumerate().map(|(i, id)| (id.clone(), two_blocks(deg(i), i))).collect();
    s.set_vectors(crate::MODEL, &items).await.unwrap();
    // Same key, but not embedded yet / pending / rejected; and another key with the query's vector.
    let bare = created(&s, exp("rebase task bare", res, "not embedded", 4, "a")).await;
    let pending = created(&s, extracted("rebase task pending", res, "pending one")).await;
    s.set_vectors(crate::MODEL, &[(pending.id.clone(), two_blocks(8.0, 1))]).await.unwrap();
    let rejected = created(&s, extracted("rebase task rejected", res, "rejected one")).await;
    s.set_vectors(crate::MODEL, &[(rejected.id.clone(), two_blocks(0.0, 1))]).await.unwrap();
    s.review(&rejected.id, Review { decision: Decision::Reject { reason: None }, reviewer: "r".into() }).await.unwrap();
    let elsewhere = created(&s, exp("rebase task 0", "git merge", "done 0", 4, "a")).await;
    s.set_vectors(crate::MODEL, &[(elsewhere.id.clone(), two_blocks(0.0, 1))]).await.unwrap();

    // The query: the first block only (the second is zero), the task of record 30 (far away).
    let mut query = two_blocks(0.0, 0);
    query[knowhub_core::VECTOR_BLOCK..].iter_mut().for_each(|x| *x = 0.0);
    let q = NeighbourQuery {
        resource_key: key.clone(),
        task_resource_hash: text::task_resource_hash("rebase task 30", res),
        model: crate::MODEL.into(),
        vector: query.clone(),
        min_cosine: 25f64.to_radians().cos(),
        limit: 10,
        scope: "org".into(),
    };
    let got = s.resource_neighbours(&q).await.unwrap();
    let summary: Vec<(String, Option<f64>)> = got.iter().map(|n| (n.experience.id.clone(), n.cosine)).collect();
    let order: Vec<&str> = summary.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(order, vec![ids[0].as_str(), pending.id.as_str(), ids[55].as_str(), bare.id.as_str(), ids[30].as_str()]);
    let cos = |i: usize| summary[i].1.unwrap();
    // Cosines on the first block alone (the second block would lower them to about 0.7), as
    // exact as the stored vectors allow (SQLite scores int8 codes: coarse for a vector that
    // has two non-zero dimensions per block).
    let near = |c: f64, deg: f64| (c - deg.to_radians().cos()).abs() < 1e-2;
    assert!(near(cos(0), 0.0) && near(cos(1), 8.0) && near(cos(2), 16.0), "{summary:?}");
    assert_eq!(summary[3].1, None, "not embedded yet");
    assert!(near(cos(4), 70.0), "the same task comes with its cosine: {summary:?}");
    assert_eq!(got[3].experience.result, "not embedded");
    // `limit` bounds the near ones (nearest kept) and the unembedded ones (newest kept).
    let got = s.resource_neighbours(&NeighbourQuery { limit: 1, ..q.clone() }).await.unwrap();
    let order: Vec<&str> = got.iter().map(|n| n.experience.id.as_str()).collect();
    assert_eq!(order, vec![ids[0].as_str(), bare.id.as_str(), ids[30].as_str()]);
    // Another model, or none: nothing counts as embedded; the newest and the same task come back.
    for model in ["other-model", ""] {
        let got = s.resource_neighbours(&NeighbourQuery { model: model.into(), limit: 2, ..q.clone() }).await.unwrap();
        let order: Vec<&str> = got.iter().map(|n| n.experience.id.as_str()).collect();
        assert_eq!(order, vec![pending.id.as_str(), bare.id.as_str(), ids[30].as_str()], "{model}");
        assert!(got.iter().all(|n| n.cosine.is_none()));
    }
    // Another key: none of these.
    let other = NeighbourQuery { resource_key: text::resource_key("git rebase", None), ..q.clone() };
    assert!(s.resource_neighbours(&other).await.unwrap().is_empty());
}
