//! What the console reads: resource track records, source messages, activity.

use std::sync::Arc;

use knowhub_core::review::ValidEdits;
use knowhub_core::{CoreError, Store};

use super::{approve, created, extracted, vote};
use crate::exp;

pub async fn resource_track_records(s: Arc<dyn Store>) {
    use knowhub_core::{FeedbackOutcome::Helped, Outcome, ResourceFilter};
    let a = created(&s, exp("dump a db", "pg_dump", "use -Fc", 4, "a")).await;
    let mut f = exp("dump over vpn", "PG_DUMP", "timed out", 2, "b");
    f.outcome = Outcome::Failure;
    let f = created(&s, f).await;
    created(&s, exp("list files", "ls 100%_x", "ls -la", 4, "a")).await;
    created(&s, extracted("pending one", "pg_dump", "not counted")).await;
    s.vote(&a.id, vote("v1", Helped, None)).await.unwrap();
    let all = s.resources(&ResourceFilter::All, None, 10).await.unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    let pg = &all[0];
    assert_eq!((pg.key.as_str(), pg.records, pg.successes, pg.failures, pg.helped), ("pg_dump", 2, 1, 1, 1));
    assert_eq!(pg.resource, "PG_DUMP", "the newest approved spelling");
    assert_eq!(pg.last_success_at.as_deref(), Some(a.created_at.as_str()));
    assert_eq!(pg.last_seen_at, f.created_at);
    let m = s.resources(&ResourceFilter::Matching("Pg_D".into()), None, 10).await.unwrap();
    assert_eq!(m.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["pg_dump"]);
    // LIKE wildcards in the query are literal.
    assert_eq!(s.resources(&ResourceFilter::Matching("%".into()), None, 10).await.unwrap().len(), 1);
    assert_eq!(s.resources(&ResourceFilter::Matching("p_".into()), None, 10).await.unwrap().len(), 0);
    assert_eq!(s.resources(&ResourceFilter::Key("pg_dump".into()), None, 10).await.unwrap()[0].records, 2);
    assert!(s.resources(&ResourceFilter::Key("nope".into()), None, 10).await.unwrap().is_empty());
    assert_eq!(s.resources(&ResourceFilter::All, None, 1).await.unwrap().len(), 1);
    // A held record (here, past its expiry) is not part of the track record agents see.
    let mut gone = exp("dump an old db", "pg_dump", "use -Fd", 4, "c");
    gone.expires_at = Some("2020-01-01T00:00:00Z".into());
    created(&s, gone).await;
    assert_eq!(s.resources(&ResourceFilter::Key("pg_dump".into()), None, 10).await.unwrap()[0].records, 2);
    // Which keys have enough live records, each counted only that far, in the order asked.
    let ls = all[1].key.clone();
    let keys: Vec<String> = [ls.as_str(), "pg_dump", "nope", "pg_dump"].iter().map(|k| k.to_string()).collect();
    assert_eq!(s.resource_keys_with(&keys, None, 2).await.unwrap(), ["pg_dump"]);
    assert_eq!(s.resource_keys_with(&keys, None, 1).await.unwrap(), [ls, "pg_dump".to_string()]);
    assert_eq!(
        s.resource_keys_with(&keys, None, 3).await.unwrap(),
        Vec::<String>::new(),
        "the expired one is not counted"
    );
    assert_eq!(s.resource_keys_with(&keys, Some(&["team/x".to_string()]), 1).await.unwrap(), Vec::<String>::new());
    assert!(s.resource_keys_with(&[], None, 2).await.unwrap().is_empty());
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
    let act = s.activity("2026-01-01", None).await.unwrap();
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
    assert!(s.activity("2999-01-01", None).await.unwrap().records.is_empty());
    // A team's records and votes only, for a reviewer of that team.
    let mut t = exp("dump a db faster", "pg_dump", "use -j 4", 4, "team-bot");
    t.scope = "team/data".into();
    let t = created(&s, t).await;
    s.vote(&t.id, vote("v2", Failed, None)).await.unwrap();
    let team = s.activity("2026-01-01", Some(&["team/data".to_string()])).await.unwrap();
    let r: Vec<(&str, &str, u64)> = team.records.iter().map(|r| (r.agent_id.as_str(), r.kind.as_str(), r.n)).collect();
    assert_eq!(r, [("team-bot", "approved", 1)]);
    assert_eq!(team.votes.iter().map(|v| v.agent_id.as_str()).collect::<Vec<_>>(), ["team-bot"]);
    assert_eq!(s.activity("2026-01-01", None).await.unwrap().records.len(), 3);
}

pub async fn written_playbooks_are_kept_per_key_and_listed_by_status(s: Arc<dyn Store>) {
    use knowhub_core::StoredPlaybook;
    let p = |key: &str, status: &str, at: &str| StoredPlaybook {
        key: key.into(),
        status: status.into(),
        doc: format!("{{\"k\":\"{key}\",\"s\":\"{status}\"}}"),
        updated_at: at.into(),
    };
    assert_eq!(s.written_playbook("pgbouncer").await.unwrap(), None);
    s.put_written_playbook(&p("pgbouncer", "pending", "2026-01-01T00:00:00Z")).await.unwrap();
    s.put_written_playbook(&p("docker", "pending", "2026-01-02T00:00:00Z")).await.unwrap();
    s.put_written_playbook(&p("git", "approved", "2026-01-03T00:00:00Z")).await.unwrap();
    // A new draft replaces the key's old one.
    s.put_written_playbook(&p("pgbouncer", "approved", "2026-01-04T00:00:00Z")).await.unwrap();
    assert_eq!(
        s.written_playbook("pgbouncer").await.unwrap(),
        Some(p("pgbouncer", "approved", "2026-01-04T00:00:00Z"))
    );
    let keys = |v: Vec<StoredPlaybook>| v.into_iter().map(|p| p.key).collect::<Vec<_>>();
    assert_eq!(keys(s.written_playbooks(None, 10).await.unwrap()), ["pgbouncer", "git", "docker"]);
    assert_eq!(keys(s.written_playbooks(Some("approved"), 10).await.unwrap()), ["pgbouncer", "git"]);
    assert_eq!(keys(s.written_playbooks(Some("pending"), 10).await.unwrap()), ["docker"]);
    assert_eq!(keys(s.written_playbooks(None, 1).await.unwrap()), ["pgbouncer"]);
    assert!(s.written_playbooks(Some("rejected"), 10).await.unwrap().is_empty());
}
