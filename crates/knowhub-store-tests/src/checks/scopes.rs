//! Scopes: every retrieval path keeps to the scopes it is given, the same text is one record per
//! scope, and a record moves between scopes whole.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::insight::ResourceFilter;
use knowhub_core::{text, FeedbackOutcome, NeighbourQuery, NewExperience, SearchFilter, Status, Store};

use super::{created, extracted, search, unit, vote};
use crate::{exp, MODEL};

fn scoped(mut e: NewExperience, scope: &str) -> NewExperience {
    e.scope = scope.to_string();
    e
}

fn only(scopes: &[&str]) -> SearchFilter {
    SearchFilter { scopes: Some(scopes.iter().map(|s| s.to_string()).collect()), ..Default::default() }
}

fn set(v: impl IntoIterator<Item = String>) -> HashSet<String> {
    v.into_iter().collect()
}

pub async fn scopes_filter_every_path(s: Arc<dyn Store>) {
    let org = created(&s, exp("rotate the signing key", "vault write", "rotated", 4, "a")).await;
    let team =
        created(&s, scoped(exp("rotate the signing key weekly", "vault write", "rotated", 4, "a"), "team/sec")).await;
    let mine =
        created(&s, scoped(exp("rotate the signing key daily", "vault write", "rotated", 4, "a"), "private/bot")).await;
    assert_eq!((org.scope.as_str(), team.scope.as_str()), ("org", "team/sec"));
    assert_eq!(s.get(&mine.id).await.unwrap().unwrap().scope, "private/bot", "the scope is stored");

    // Full text and vectors: only the scopes asked for; none known matches nothing.
    let all = set([org.id.clone(), team.id.clone(), mine.id.clone()]);
    assert_eq!(set(search(&s, "rotate signing key", &SearchFilter::default()).await), all);
    assert_eq!(search(&s, "rotate signing key", &only(&["team/sec"])).await, vec![team.id.clone()]);
    assert_eq!(
        set(search(&s, "rotate signing key", &only(&["org", "private/bot"])).await),
        set([org.id.clone(), mine.id.clone()])
    );
    assert!(search(&s, "rotate signing key", &only(&["team/none"])).await.is_empty());
    assert!(search(&s, "rotate signing key", &only(&[])).await.is_empty());
    let v = unit(&[1.0, 0.0, 0.0, 0.0]);
    let items: Vec<(String, Vec<f32>)> = [&org, &team, &mine].iter().map(|e| (e.id.clone(), v.clone())).collect();
    s.set_vectors(MODEL, &items).await.unwrap();
    let ids = |r: Vec<(String, f64)>| set(r.into_iter().map(|x| x.0));
    assert_eq!(ids(s.vector_candidates(MODEL, &v, &SearchFilter::default(), 10).await.unwrap()), all);
    assert_eq!(ids(s.vector_candidates(MODEL, &v, &only(&["team/sec"]), 10).await.unwrap()), set([team.id.clone()]));
    assert!(s.vector_candidates(MODEL, &v, &only(&["project/x"]), 10).await.unwrap().is_empty());

    // Resources: the track record counts only the scopes asked for.
    let key = text::resource_key("vault write", None);
    let n = |r: Vec<knowhub_core::ResourceSummary>| r.first().map_or(0, |x| x.records);
    assert_eq!(n(s.resources(&ResourceFilter::Key(key.clone()), None, 5).await.unwrap()), 3);
    assert_eq!(n(s.resources(&ResourceFilter::Key(key.clone()), Some(&["org".into()]), 5).await.unwrap()), 1);
    let none: &[String] = &["team/none".into()];
    assert!(s.resources(&ResourceFilter::All, Some(none), 5).await.unwrap().is_empty());
    assert!(s.resources(&ResourceFilter::Matching("vault".into()), Some(none), 5).await.unwrap().is_empty());

    // Near-duplicates: only records of the new record's own scope are compared.
    let q = NeighbourQuery {
        resource_key: key,
        task_resource_hash: text::task_resource_hash("rotate the signing key", "vault write"),
        model: MODEL.into(),
        vector: v.clone(),
        min_cosine: 0.5,
        limit: 10,
        scope: "team/sec".into(),
    };
    let got: Vec<String> = s.resource_neighbours(&q).await.unwrap().into_iter().map(|n| n.experience.id).collect();
    assert_eq!(got, vec![team.id.clone()]);

    // The review queue and the dispute queue.
    let p_org = created(&s, extracted("pin the base image", "docker pull", "pinned")).await;
    let p_team =
        created(&s, scoped(extracted("pin the base image by digest", "docker pull", "pinned"), "team/sec")).await;
    let queue = |r: Vec<knowhub_core::Experience>| r.into_iter().map(|e| e.id).collect::<Vec<_>>();
    assert_eq!(queue(s.pending(None, None, 10).await.unwrap()).len(), 2);
    assert_eq!(queue(s.pending(Some(&["team/sec".into()]), None, 10).await.unwrap()), vec![p_team.id.clone()]);
    assert_eq!(queue(s.pending(Some(&["org".into()]), None, 10).await.unwrap()), vec![p_org.id.clone()]);
    for who in ["x", "y"] {
        s.vote(&team.id, vote(who, FeedbackOutcome::Failed, None)).await.unwrap();
    }
    assert_eq!(queue(s.disputed(2, None, None, 10).await.unwrap()), vec![team.id.clone()]);
    assert!(s.disputed(2, Some(&["org".into()]), None, 10).await.unwrap().is_empty());

    // Counts: of the scopes asked for only.
    let (org_only, sec): (&[String], &[String]) = (&["org".into()], &["team/sec".into()]);
    assert_eq!(s.count_status(Status::Pending, None).await.unwrap(), 2);
    assert_eq!(s.count_status(Status::Pending, Some(sec)).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Approved, None).await.unwrap(), 3);
    assert_eq!(s.count_status(Status::Approved, Some(org_only)).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Approved, Some(none)).await.unwrap(), 0);
    assert_eq!(s.count_disputed(2, None).await.unwrap(), 1);
    assert_eq!(s.count_disputed(2, Some(sec)).await.unwrap(), 1);
    assert_eq!(s.count_disputed(2, Some(org_only)).await.unwrap(), 0);
}

pub async fn same_text_is_one_record_per_scope(s: Arc<dyn Store>) {
    let a = created(&s, exp("cache the npm store", "actions/cache", "2 min saved", 4, "a")).await;
    let b = created(&s, scoped(exp("cache the npm store", "actions/cache", "2 min saved", 4, "a"), "team/web")).await;
    assert_ne!(a.id, b.id, "the same text in another scope is another record");
    assert_ne!(a.content_hash, b.content_hash);
    assert_eq!(s.by_content_hash(&a.content_hash).await.unwrap().unwrap().id, a.id);
    assert_eq!(s.by_content_hash(&b.content_hash).await.unwrap().unwrap().id, b.id);

    // Moving b into org, where the same text is: a conflict, nothing changed.
    let e = s.set_scope(&b.id, "org", &b.content_hash_in("org")).await.unwrap_err();
    assert!(matches!(e, knowhub_core::CoreError::Conflict(_)), "{e}");
    assert_eq!(s.get(&b.id).await.unwrap().unwrap().scope, "team/web");
    // Moving a record where its text is new: searchable there, and no longer where it was.
    let c = created(&s, scoped(exp("cache the pip wheels", "actions/cache", "1 min saved", 4, "a"), "team/web")).await;
    let moved = s.set_scope(&c.id, "org", &c.content_hash_in("org")).await.unwrap();
    assert_eq!(moved.scope, "org");
    assert_eq!(moved.content_hash, c.content_hash_in("org"));
    assert_eq!(search(&s, "pip wheels", &only(&["org"])).await, vec![c.id.clone()]);
    assert!(search(&s, "pip wheels", &only(&["team/web"])).await.is_empty());
    let gone = s.set_scope("no-such-id", "org", "h").await.unwrap_err();
    assert!(matches!(gone, knowhub_core::CoreError::NotFound(_)), "{gone}");
    assert_eq!(moved.status, Status::Approved, "a move changes nothing else");

    // A reviewer's edit keeps the record's identity within its scope.
    let mut p = scoped(exp("cache the cargo registry", "actions/cache", "3 min saved", 4, "a"), "team/web");
    p.status = Status::Pending;
    let p = created(&s, p).await;
    let edits = knowhub_core::review::ValidEdits { result: Some("4 min saved".into()), ..Default::default() };
    let edited = s.review(&p.id, super::approve(edits)).await.unwrap();
    assert_eq!(edited.content_hash, edited.content_hash_in("team/web"));
    assert_ne!(edited.content_hash, edited.content_hash_in("org"));
}
