//! SQLite-specific store behaviour against a real database file in a temp dir (what every backend
//! must do is in the conformance suite, tests/conformance.rs).

use knowhub_core::store::ImportOutcome;
use knowhub_core::{text, InsertOutcome, SearchFilter, Status, Store};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use knowhub_store_tests::exp;

fn open(dir: &std::path::Path) -> SqliteStore {
    SqliteStore::open(dir, OpenOptions { vector_model: Some("test-model".into()), exclusive: true }).unwrap()
}

async fn search(s: &SqliteStore, q: &str, f: &SearchFilter) -> Vec<String> {
    s.text_candidates(&text::query_tokens(q), f, 20).await.unwrap().into_iter().map(|x| x.0).collect()
}

#[tokio::test]
async fn vectors_round_trip_and_survive_reopen() {
    let d = tempfile::tempdir().unwrap();
    let ids = {
        let s = open(d.path());
        let mut ids = Vec::new();
        for i in 0..3 {
            let InsertOutcome::Created(e) = s.insert(exp(&format!("task {i}"), "r", "x", 3, "main")).await.unwrap()
            else {
                panic!()
            };
            ids.push(e.id);
        }
        assert_eq!(s.missing_vectors("test-model", 10).await.unwrap().len(), 3);
        let v = |a: f32, b: f32| {
            let n = (a * a + b * b).sqrt();
            vec![a / n, b / n]
        };
        s.set_vectors("test-model", &[(ids[0].clone(), v(1.0, 0.0)), (ids[1].clone(), v(0.0, 1.0))]).await.unwrap();
        assert_eq!(
            s.missing_vectors("test-model", 10).await.unwrap(),
            vec![(ids[2].clone(), "task 2\nr\nx".to_string())]
        );
        let hits = s.vector_candidates("test-model", &v(0.9, 0.1), &SearchFilter::default(), 5).await.unwrap();
        assert_eq!(hits[0].0, ids[0]);
        assert!(s
            .vector_candidates("other-model", &v(1.0, 0.0), &SearchFilter::default(), 5)
            .await
            .unwrap()
            .is_empty());
        ids
    };
    let s = open(d.path());
    assert_eq!(s.vector_count("test-model").await.unwrap(), 2);
    let hits = s.vector_candidates("test-model", &[0.0, 1.0], &SearchFilter::default(), 1).await.unwrap();
    assert_eq!(hits[0].0, ids[1], "index reloaded from disk");
}

#[tokio::test]
async fn export_import_is_idempotent() {
    let d1 = tempfile::tempdir().unwrap();
    let d2 = tempfile::tempdir().unwrap();
    let s1 = open(d1.path());
    let mut e = exp("任务", "资源", "结果", 4, "main");
    e.content = Some(("details".into(), "text/plain".into()));
    s1.insert(e).await.unwrap();
    s1.insert(exp("task two", "res", "res", 2, "other")).await.unwrap();
    s1.insert(exp("task two", "res", "res", 2, "another")).await.unwrap();
    let page = s1.export_page(None, 100).await.unwrap();
    assert_eq!(page.len(), 2);
    let s2 = open(d2.path());
    for _ in 0..2 {
        for r in &page {
            let new = knowhub_store_tests::to_new(r);
            s2.import(new).await.unwrap();
        }
    }
    assert_eq!(s2.export_page(None, 100).await.unwrap(), page, "export of the import equals the original export");
    assert_eq!(page.iter().find(|r| r.experience.task == "task two").unwrap().experience.confirmations, 2);
    let again = s2.import(exp("任务", "资源", "结果", 1, "z")).await.unwrap();
    assert_eq!(again, ImportOutcome::Skipped, "same text under another id is a duplicate");
}

#[tokio::test]
async fn second_exclusive_open_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let _s = open(d.path());
    let err =
        SqliteStore::open(d.path(), OpenOptions { vector_model: None, exclusive: true }).err().expect("must refuse");
    assert!(err.to_string().contains("in use"), "{err}");
}

#[tokio::test]
async fn concurrent_inserts_all_land() {
    let d = tempfile::tempdir().unwrap();
    let s = std::sync::Arc::new(open(d.path()));
    let mut handles = Vec::new();
    for i in 0..200 {
        let s = s.clone();
        handles
            .push(tokio::spawn(async move { s.insert(exp(&format!("task {i}"), "r", "x", 3, "main")).await.unwrap() }));
    }
    for h in handles {
        assert!(matches!(h.await.unwrap(), InsertOutcome::Created(_)));
    }
    assert_eq!(s.count().await.unwrap(), 200);
}

#[tokio::test]
async fn reindex_rebuilds_and_swaps() {
    let d = tempfile::tempdir().unwrap();
    let id = {
        let s = open(d.path());
        let InsertOutcome::Created(e) = s.insert(exp("数据库备份", "pg_dump", "ok", 4, "main")).await.unwrap()
        else {
            panic!()
        };
        s.set_vectors("old-model", &[(e.id.clone(), vec![1.0, 0.0])]).await.unwrap();
        s.add_event(&e.id, "submitted", "main", None).await.unwrap();
        s.set_cursor("webhook:chat", 1).await.unwrap();
        s.quarantine(&knowhub_core::QuarantineTarget::Agent("other".into()), "root").await.unwrap();
        e.id
    };
    let hub = open(d.path()).hub_id().await.unwrap();
    let mut calls = 0;
    let stats = knowhub_store_sqlite::reindex(
        d.path(),
        Some("new-model"),
        false,
        &mut |texts: &[String]| {
            calls += 1;
            Ok(texts.iter().map(|_| vec![0.0, 1.0, 0.0]).collect())
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((stats.records, stats.vectors_kept, stats.vectors_embedded), (1, 0, 1));
    assert_eq!(calls, 1);
    let s =
        SqliteStore::open(d.path(), OpenOptions { vector_model: Some("new-model".into()), exclusive: true }).unwrap();
    assert_eq!(s.vector_models().await.unwrap(), vec![("new-model".to_string(), 1)]);
    assert_eq!(s.vector_candidates("new-model", &[0.0, 1.0, 0.0], &SearchFilter::default(), 1).await.unwrap()[0].0, id);
    assert_eq!(search(&s, "数据", &SearchFilter::default()).await, vec![id.clone()]);
    // What is kept beside the records comes along: history, feed positions, quarantines, the
    // hub's id (feed cursors name it).
    assert_eq!(s.events(&id).await.unwrap().len(), 1);
    assert_eq!(s.cursor("webhook:chat").await.unwrap(), Some(1));
    assert_eq!(s.quarantines().await.unwrap().len(), 1);
    assert_eq!(s.hub_id().await.unwrap(), hub);
    // A failing embedder leaves the database as it was.
    drop(s);
    let err = knowhub_store_sqlite::reindex(
        d.path(),
        Some("third"),
        false,
        &mut |_| Err(knowhub_core::CoreError::Unavailable("down".into())),
        &mut |_| {},
    );
    assert!(err.is_err());
    let s =
        SqliteStore::open(d.path(), OpenOptions { vector_model: Some("new-model".into()), exclusive: true }).unwrap();
    assert_eq!(s.vector_models().await.unwrap(), vec![("new-model".to_string(), 1)]);
    assert!(!d.path().join("knowhub.db.reindex").exists());
}

#[tokio::test]
async fn in_memory_bm25_matches_fts5_bm25() {
    let d = tempfile::tempdir().unwrap();
    let s = open(d.path());
    let words =
        ["数据库", "连接", "超时", "redis", "timeout", "pool", "kubectl", "部署", "pg_dump", "备份", "cache", "缓存"];
    for i in 0..60usize {
        // Varied lengths and term frequencies so length normalisation and tf saturation matter.
        let body: Vec<&str> = (0..(3 + i % 7)).map(|j| words[(i * 7 + j * (i % 5 + 1)) % words.len()]).collect();
        let e = exp(
            &format!("task {i} {}", body.join(" ")),
            &format!("res {}", words[i % words.len()]),
            "done",
            1 + (i % 5) as i64,
            "main",
        );
        s.insert(e).await.unwrap();
    }
    // A second, non-exclusive handle answers from FTS5's own bm25(), whose statistics are the
    // whole table's: the same as the in-memory index's where a search may read every record (the
    // in-memory index weighs only those: the conformance check
    // `text_weights_ignore_unreadable_records`).
    let reference = SqliteStore::open(d.path(), OpenOptions { vector_model: None, exclusive: false }).unwrap();
    for q in ["数据库 超时", "redis timeout pool", "pg_dump 备份", "部署 kubectl cache 缓存", "连接"] {
        for f in [SearchFilter::default(), SearchFilter { min_score: 3, ..Default::default() }] {
            let toks = text::query_tokens(q);
            let mem = s.text_candidates(&toks, &f, 10).await.unwrap();
            let fts = reference.text_candidates(&toks, &f, 10).await.unwrap();
            // Scoring chosen records directly gives the same numbers as the ranked search.
            let ids: Vec<String> = mem.iter().map(|x| x.0.clone()).chain(["no-such-id".to_string()]).collect();
            let direct = s.text_scores(&toks, &ids, &f).await.unwrap();
            assert_eq!(direct.len(), mem.len());
            for ((a, x), (b, y)) in direct.iter().zip(&mem) {
                assert_eq!(a, b);
                assert!((x - y).abs() < 1e-12);
            }
            assert!(!mem.is_empty(), "{q}");
            assert_eq!(mem.len(), fts.len(), "{q}");
            for ((mi, ms), (fi, fs)) in mem.iter().zip(&fts) {
                assert!((ms - fs).abs() <= 1e-9 * fs.abs().max(1.0), "{q}: score {ms} vs {fs}");
                // Equal scores may be ordered differently; ids must agree where scores differ.
                if mem.iter().filter(|x| (x.1 - ms).abs() < 1e-9).count() == 1 {
                    assert_eq!(mi, fi, "{q}");
                }
            }
        }
    }
}

/// A database written before scopes existed (the schema one migration back, with records, votes,
/// content and keys) opens with every record in `org`, and exports exactly as before; old keys
/// read what they read then.
#[tokio::test]
async fn a_hub_from_before_scopes_opens_with_everything_in_org() {
    use knowhub_core::{access, FeedbackOutcome, Role, Vote};
    let d = tempfile::tempdir().unwrap();
    let before = {
        let s = open(d.path());
        for i in 0..40 {
            let mut e = exp(&format!("migrate task {i}"), &format!("tool {}", i % 7), "worked", 1 + (i % 5), "main");
            if i % 3 == 0 {
                e.content = Some((format!("details {i}"), "text/markdown".into()));
            }
            if i % 4 == 0 {
                e.status = Status::Pending;
            }
            s.insert(e).await.unwrap();
        }
        let some = s.export_page(None, 5).await.unwrap();
        let v = Vote {
            voter: "k".into(),
            outcome: FeedbackOutcome::Helped,
            note: Some("n".into()),
            at: knowhub_core::now_rfc3339(),
        };
        let approved = some.iter().find(|r| r.experience.status == Status::Approved).unwrap();
        s.vote(&approved.experience.id, v).await.unwrap();
        for (name, role) in [("bot", Role::Agent), ("lead", Role::Reviewer)] {
            s.create_key(access::generate_key(name, role).unwrap().1).await.unwrap();
        }
        s.export_page(None, 1000).await.unwrap()
    };
    assert!(before.iter().all(|r| r.experience.scope == "org"));
    // Back to the schema before scopes: what a hub of that version holds.
    {
        let c = rusqlite::Connection::open(d.path().join("knowhub.db")).unwrap();
        c.execute_batch(
            "DROP TABLE playbooks;
             ALTER TABLE experiences DROP COLUMN origin_hub;
             DROP TABLE sync_bases;
             DROP INDEX idx_experiences_scope_status;
             ALTER TABLE experiences DROP COLUMN scope;
             ALTER TABLE api_keys DROP COLUMN read_scopes;
             ALTER TABLE api_keys DROP COLUMN write_scope;
             ALTER TABLE extract_jobs DROP COLUMN scope;
             ALTER TABLE extract_jobs DROP COLUMN origin_key;
             DROP INDEX idx_experiences_origin_key;
             DROP INDEX idx_experiences_held;
             DROP INDEX idx_experiences_expires;
             ALTER TABLE experiences DROP COLUMN origin_key;
             ALTER TABLE experiences DROP COLUMN origin_job;
             ALTER TABLE experiences DROP COLUMN held;
             ALTER TABLE experiences DROP COLUMN expires_at;
             ALTER TABLE experiences DROP COLUMN ttl_secs;
             DROP TABLE quarantines;
             DROP TABLE events;
             DROP TABLE cursors;
             DROP TABLE hub;
             DELETE FROM schema_migrations WHERE version >= 6;",
        )
        .unwrap();
        let has: i64 = c
            .query_row("SELECT COUNT(*) FROM pragma_table_info('experiences') WHERE name = 'scope'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(has, 0, "the downgrade took");
    }
    let s = open(d.path());
    let after = s.export_page(None, 1000).await.unwrap();
    assert_eq!(after.len(), 40);
    assert_eq!(after, before, "nothing lost or changed, every record in org");
    let keys = s.list_keys().await.unwrap();
    let scopes = |n: &str| keys.iter().find(|k| k.name == n).map(|k| (k.read_scopes.clone(), k.write_scope.clone()));
    assert_eq!(scopes("bot"), Some((vec!["org".to_string()], "org".to_string())));
    assert_eq!(scopes("lead"), Some((vec!["*".to_string()], "org".to_string())));
    let f = SearchFilter { scopes: Some(vec!["org".into()]), ..Default::default() };
    assert!(!search(&s, "migrate task", &f).await.is_empty(), "the in-memory indexes know the scope");
}
