//! The search filter (status, minimum rating, agent) on every retrieval path.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::review::{Decision, Review};
use knowhub_core::{SearchFilter, Status, Store};

use super::{created, extracted, search, unit};
use crate::{exp, MODEL};

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
