//! Records held out of search: quarantines of a key or an agent (held at once, what they write
//! next held too, restored or rejected in bulk) and expiry.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::{hold, NewExperience, QuarantineTarget, Release, SearchFilter, Status, Store};

use super::{created, search, unit};
use crate::{exp, MODEL};

fn by(key: &str, agent: &str, task: &str) -> NewExperience {
    let mut e = exp(task, "kubectl rollout", "rolled out", 4, agent);
    e.provenance.key = key.to_string();
    e
}

fn set(v: Vec<String>) -> HashSet<String> {
    v.into_iter().collect()
}

pub async fn quarantine_holds_and_releases_in_bulk(s: Arc<dyn Store>) {
    let mut mallory = Vec::new();
    for i in 0..5 {
        mallory.push(created(&s, by("mallory", &format!("mallory/bot{i}"), &format!("roll out service {i}"))).await.id);
    }
    let alice = created(&s, by("alice", "alice/bot", "roll out service a")).await;
    assert_eq!(s.get(&alice.id).await.unwrap().unwrap().provenance.key, "alice", "the key is kept");
    let v = unit(&[1.0, 0.0, 0.0, 0.0]);
    let items: Vec<(String, Vec<f32>)> = mallory.iter().chain([&alice.id]).map(|id| (id.clone(), v.clone())).collect();
    s.set_vectors(MODEL, &items).await.unwrap();
    let everyone = set(mallory.iter().cloned().chain([alice.id.clone()]).collect());
    assert_eq!(set(search(&s, "roll out service", &SearchFilter::default()).await), everyone);

    // A key's quarantine: its records leave full text and vectors at once.
    let q = s.quarantine(&QuarantineTarget::Key("mallory".into()), "root").await.unwrap();
    assert_eq!((q.kind.as_str(), q.value.as_str(), q.records, q.by.as_str()), ("key", "mallory", 5, "root"));
    assert_eq!(search(&s, "roll out service", &SearchFilter::default()).await, vec![alice.id.clone()]);
    let vec_ids = |r: Vec<(String, f64)>| r.into_iter().map(|x| x.0).collect::<Vec<_>>();
    assert_eq!(
        vec_ids(s.vector_candidates(MODEL, &v, &SearchFilter::default(), 10).await.unwrap()),
        vec![alice.id.clone()]
    );
    let e = s.get(&mallory[0]).await.unwrap().unwrap();
    assert!(e.quarantined && e.status == Status::Approved, "held, its status kept: {e:?}");
    assert_eq!(s.quarantine(&QuarantineTarget::Key("mallory".into()), "root").await.unwrap().records, 5, "idempotent");
    // What it writes while quarantined is held too.
    let later = created(&s, by("mallory", "mallory/bot9", "roll out service later")).await;
    assert!(later.quarantined, "{later:?}");
    let listed: Vec<String> =
        s.held(hold::QUARANTINED, None, None, 50).await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(listed.len(), 6);
    assert!(s.held(hold::QUARANTINED, Some(&["team/x".into()]), None, 50).await.unwrap().is_empty());

    // An agent's quarantine on top of the key's: lifting the key's leaves that agent held.
    s.quarantine(&QuarantineTarget::Agent("mallory/bot0".into()), "root").await.unwrap();
    let qs = s.quarantines().await.unwrap();
    let mut counts: Vec<(&str, u64)> = qs.iter().map(|q| (q.kind.as_str(), q.records)).collect();
    counts.sort();
    assert_eq!(counts, vec![("agent", 1), ("key", 6)]);
    let n = s.release(&QuarantineTarget::Key("mallory".into()), Release::Restore, "root").await.unwrap();
    assert_eq!(n, 6);
    let back = set(search(&s, "roll out service", &SearchFilter::default()).await);
    assert!(!back.contains(&mallory[0]), "still under the agent's quarantine");
    assert!(back.contains(&mallory[1]) && back.contains(&later.id) && back.contains(&alice.id));
    assert!(matches!(
        s.release(&QuarantineTarget::Key("mallory".into()), Release::Restore, "root").await.unwrap_err(),
        knowhub_core::CoreError::NotFound(_)
    ));
    // Rejecting in bulk: out for good, reviewed by whoever lifted it.
    let n = s
        .release(
            &QuarantineTarget::Agent("mallory/bot0".into()),
            Release::Reject { reason: Some("poison".into()) },
            "rev",
        )
        .await
        .unwrap();
    assert_eq!(n, 1);
    let e = s.get(&mallory[0]).await.unwrap().unwrap();
    assert_eq!((e.status, e.quarantined), (Status::Rejected, false));
    assert_eq!(e.review.map(|r| (r.by, r.note)), Some(("rev".to_string(), Some("poison".to_string()))));
    assert!(s.quarantines().await.unwrap().is_empty());
    // Vectors agree with full text after the release (`later` has no vector).
    let vs = set(vec_ids(s.vector_candidates(MODEL, &v, &SearchFilter::default(), 10).await.unwrap()));
    assert_eq!(vs, back.into_iter().filter(|id| *id != later.id).collect());
}

pub async fn expired_records_leave_search_until_renewed(s: Arc<dyn Store>) {
    let mut soon = exp("pin the node version", "nvm use 20", "works", 4, "a");
    soon.expires_at = Some("2030-01-01T00:00:00Z".into());
    soon.ttl_secs = Some(86_400);
    let soon = created(&s, soon).await;
    let mut gone = exp("pin the node version in CI", "actions/setup-node", "works", 4, "a");
    gone.expires_at = Some("2020-01-01T00:00:00Z".into());
    let gone = created(&s, gone).await;
    assert!(gone.expired && !soon.expired, "a past expiry is expired from the start");
    assert_eq!(soon.ttl_secs, Some(86_400));
    assert_eq!(search(&s, "pin node version", &SearchFilter::default()).await, vec![soon.id.clone()]);

    // Time passes: the sweep marks what is due, once.
    assert_eq!(s.expire_due("2029-12-31T23:59:59Z").await.unwrap(), 0);
    assert_eq!(s.expire_due("2030-01-01T00:00:00Z").await.unwrap(), 1);
    assert_eq!(s.expire_due("2030-01-02T00:00:00Z").await.unwrap(), 0);
    assert!(search(&s, "pin node version", &SearchFilter::default()).await.is_empty());
    let waiting: Vec<String> = s.held(hold::EXPIRED, None, None, 10).await.unwrap().into_iter().map(|e| e.id).collect();
    assert_eq!(set(waiting), set(vec![soon.id.clone(), gone.id.clone()]));

    // A renewal moves the expiry and brings it back.
    let now = "2030-01-02T00:00:00Z";
    let renewed = s.set_expiry(&soon.id, Some("2030-01-03T00:00:00Z"), now).await.unwrap();
    assert!(!renewed.expired && renewed.expires_at.as_deref() == Some("2030-01-03T00:00:00Z"));
    assert_eq!(search(&s, "pin node version", &SearchFilter::default()).await, vec![soon.id.clone()]);
    let never = s.set_expiry(&gone.id, None, now).await.unwrap();
    assert!(!never.expired && never.expires_at.is_none());
    assert_eq!(search(&s, "pin node version", &SearchFilter::default()).await.len(), 2);
    let past = s.set_expiry(&gone.id, Some("2029-01-01T00:00:00Z"), now).await.unwrap();
    assert!(past.expired);
    assert!(matches!(s.set_expiry("nope", None, now).await.unwrap_err(), knowhub_core::CoreError::NotFound(_)));
}
