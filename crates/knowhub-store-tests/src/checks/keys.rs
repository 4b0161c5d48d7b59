//! API keys.

use std::sync::Arc;

use knowhub_core::access::{generate_key, hash_key, Role};
use knowhub_core::{CoreError, Store};

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

pub async fn write_counts_per_caller_and_window(s: Arc<dyn Store>) {
    let t = 1_800_000_030; // 30 s into a minute, 30 min into an hour
    assert_eq!(s.count_writes("bot", &[60, 3600], t, 1).await.unwrap(), vec![(1, 0), (1, 0)]);
    assert_eq!(s.count_writes("bot", &[60, 3600], t + 10, 1).await.unwrap(), vec![(2, 0), (2, 0)]);
    assert_eq!(s.count_writes("other", &[60], t, 1).await.unwrap(), vec![(1, 0)], "each caller counts alone");
    // A write taken back; never below zero.
    assert_eq!(s.count_writes("bot", &[60, 3600], t + 10, -1).await.unwrap(), vec![(1, 0), (1, 0)]);
    assert_eq!(s.count_writes("bot", &[60, 3600], t + 10, 1).await.unwrap(), vec![(2, 0), (2, 0)]);
    assert_eq!(s.count_writes("nobody", &[60], t, -1).await.unwrap(), vec![(0, 0)]);
    // The next minute starts from one; the one before is reported beside it.
    assert_eq!(s.count_writes("bot", &[60, 3600], t + 40, 1).await.unwrap(), vec![(1, 2), (3, 0)]);
    // Two minutes on, the minute before is empty (and the older one forgotten).
    assert_eq!(s.count_writes("bot", &[60], t + 160, 1).await.unwrap(), vec![(1, 0)]);
    // Concurrent writes of one caller each see their own count: n writes end at n.
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let s = s.clone();
            tokio::spawn(async move { s.count_writes("crowd", &[60], t, 1).await.unwrap()[0].0 })
        })
        .collect();
    let mut counts = Vec::new();
    for task in tasks {
        counts.push(task.await.unwrap());
    }
    counts.sort_unstable();
    assert_eq!(counts, (1..=20).collect::<Vec<u64>>());
}
