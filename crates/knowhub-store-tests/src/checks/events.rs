//! History: events in order with their details, written by the store's own bulk changes
//! (quarantine, expiry), and only a tombstone left by a delete.

use std::sync::Arc;

use knowhub_core::{QuarantineTarget, Release, Store};
use serde_json::json;

use super::created;
use crate::exp;

pub async fn history_in_order_and_tombstones(s: Arc<dyn Store>) {
    let mut e = exp("pin the chart", "helm", "pinned", 4, "a");
    e.provenance.key = "k".into();
    e.expires_at = Some("2030-01-01T00:00:00Z".into());
    let e = created(&s, e).await;
    s.add_event(&e.id, "submitted", "k", None).await.unwrap();
    let detail = json!({"before": {"result": "pinned"}, "after": {"result": "pinned to 1.2"}});
    s.add_event(&e.id, "edited", "rev", Some(detail.clone())).await.unwrap();
    s.quarantine(&QuarantineTarget::Key("k".into()), "root").await.unwrap();
    s.release(&QuarantineTarget::Key("k".into()), Release::Restore, "root").await.unwrap();
    s.expire_due("2030-01-01T00:00:00Z").await.unwrap();
    let evs = s.events(&e.id).await.unwrap();
    let kinds: Vec<(&str, &str)> = evs.iter().map(|v| (v.kind.as_str(), v.by.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            ("submitted", "k"),
            ("edited", "rev"),
            ("quarantined", "root"),
            ("released", "root"),
            ("expired", "system")
        ]
    );
    assert!(evs.windows(2).all(|w| w[0].seq < w[1].seq), "numbered in order");
    assert_eq!(evs[1].detail, Some(detail));
    assert!(evs.iter().all(|v| v.experience_id == e.id && v.at.ends_with('Z') && v.at.len() == 20), "{evs:?}");
    assert!(s.events("nobody").await.unwrap().is_empty());

    // The feed: every event after a position, in order; followers keep their positions.
    let all = s.changes(0, 100).await.unwrap();
    assert_eq!(all.last().map(|v| v.seq), Some(s.last_event().await.unwrap()));
    assert_eq!(
        s.changes(all[1].seq, 2).await.unwrap().iter().map(|v| v.seq).collect::<Vec<_>>(),
        vec![all[2].seq, all[3].seq]
    );
    let hub = s.hub_id().await.unwrap();
    assert_eq!(hub.len(), 16, "{hub}");
    assert_eq!(s.hub_id().await.unwrap(), hub, "made once");
    assert_eq!(s.cursor("hook").await.unwrap(), None);
    s.set_cursor("hook", 3).await.unwrap();
    s.set_cursor("hook", 4).await.unwrap();
    assert_eq!(s.cursor("hook").await.unwrap(), Some(4));

    // Deleting leaves the id's tombstone and nothing of what the events said.
    assert!(s.delete(&e.id).await.unwrap());
    let evs = s.events(&e.id).await.unwrap();
    assert_eq!(evs.len(), 1, "{evs:?}");
    assert_eq!((evs[0].kind.as_str(), evs[0].detail.is_none()), ("deleted", true));
}

/// A feed page's sync context in one call equals the per-record reads it replaces.
pub async fn sync_context_is_the_per_record_reads_at_once(s: Arc<dyn Store>) {
    use knowhub_core::FeedbackOutcome::{Failed, Helped};
    let a = created(&s, exp("pin the base image", "docker pull", "pinned by digest", 4, "a")).await;
    let b = created(&s, exp("rotate the webhook secret", "ledgerctl", "rotated", 3, "b")).await;
    s.vote(&a.id, super::vote("v1", Failed, Some("digest gone"))).await.unwrap();
    s.vote(&a.id, super::vote("v2", Helped, None)).await.unwrap();
    s.set_sync_base("hub-x", &a.id, "version-1").await.unwrap();
    s.set_sync_base("hub-y", &b.id, "version-9").await.unwrap();
    let ids = vec![a.id.clone(), b.id.clone(), "no-such-record".to_string()];
    let ctx = s.sync_context("hub-x", &ids, true).await.unwrap();
    assert_eq!(ctx.len(), 2, "an unknown id is left out");
    for id in [&a.id, &b.id] {
        let c = &ctx[id];
        assert_eq!(c.base, s.sync_base("hub-x", id).await.unwrap(), "{id}");
        assert_eq!(c.confirmed_by, s.confirmed_by(id).await.unwrap(), "{id}");
        assert_eq!(c.votes, s.votes(id).await.unwrap(), "{id}");
    }
    assert_eq!(ctx[&a.id].base.as_deref(), Some("version-1"));
    assert_eq!(ctx[&b.id].base, None, "another peer's base is not this one's");
    assert_eq!(ctx[&a.id].votes.len(), 2);
    assert_eq!(ctx[&a.id].confirmed_by.len(), 1);
    let bare = s.sync_context("hub-x", &ids, false).await.unwrap();
    assert_eq!(bare[&a.id].base.as_deref(), Some("version-1"));
    assert!(bare[&a.id].votes.is_empty() && bare[&a.id].confirmed_by.is_empty(), "no evidence asked for");
    assert!(s.sync_context("hub-x", &[], true).await.unwrap().is_empty());
}
