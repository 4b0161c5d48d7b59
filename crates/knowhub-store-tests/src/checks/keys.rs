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
