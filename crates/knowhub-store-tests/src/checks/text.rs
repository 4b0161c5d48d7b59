//! Full-text candidates and scores.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use knowhub_core::{text, SearchFilter, Store};

use super::{created, extracted, search};
use crate::exp;

pub async fn text_search_zh_en_identifiers(s: Arc<dyn Store>) {
    let mut ids = Vec::new();
    for (t, r, res) in [
        ("修复 PostgreSQL 连接超时", "pgbouncer", "超时消失"),
        ("备份数据库", "pg_dump -Fc", "备份成功，数据完整"),
        ("Deploy to staging", "kubectl apply -f deploy.yaml", "rolled out"),
        ("Chrome cannot reach dev server", "vite --host", "fixed ERR_CONNECTION_REFUSED"),
        ("React effect runs twice", "React.useEffect cleanup", "strict mode double invoke explained"),
        ("Fix connection timeouts", "raise pool size", "timeouts gone"),
    ] {
        ids.push(created(&s, exp(t, r, res, 4, "main")).await.id);
    }
    let f = SearchFilter::default();
    assert_eq!(search(&s, "超时", &f).await, vec![ids[0].clone()]);
    assert_eq!(search(&s, "数据", &f).await, vec![ids[1].clone()]);
    assert_eq!(search(&s, "kubectl", &f).await, vec![ids[2].clone()]);
    for q in ["pg_dump", "React.useEffect", "ERR_CONNECTION_REFUSED", "connection timeout", "数据库连接"] {
        assert!(!search(&s, q, &f).await.is_empty(), "{q} found nothing");
    }
    // The exact identifier ranks its record first; scores are positive and best first.
    let r = s.text_candidates(&text::query_tokens("ERR_CONNECTION_REFUSED"), &f, 10).await.unwrap();
    assert_eq!(r[0].0, ids[3]);
    assert!(r.iter().all(|x| x.1 > 0.0));
    assert!(r.windows(2).all(|w| w[0].1 >= w[1].1));
    assert_eq!(search(&s, "pg_dump", &f).await[0], ids[1]);
    // Part of an identifier finds it too, first.
    assert_eq!(search(&s, "useEffect", &f).await[0], ids[4]);
    assert!(search(&s, "zzzunknownzzz", &f).await.is_empty());
    assert!(s.text_candidates(&[], &f, 10).await.unwrap().is_empty());
    // Limit is respected.
    assert_eq!(s.text_candidates(&text::query_tokens("超时 kubectl pg_dump"), &f, 2).await.unwrap().len(), 2);
}

pub async fn text_scores_for_ids(s: Arc<dyn Store>) {
    let a = created(&s, exp("nginx reverse proxy", "proxy_pass", "works", 4, "m")).await;
    let b = created(&s, exp("docker compose volumes", "named volume", "data kept", 4, "m")).await;
    let p = created(&s, extracted("nginx cache", "proxy_cache", "faster")).await;
    let toks = text::query_tokens("nginx proxy");
    let all = SearchFilter::default();
    let r = s.text_scores(&toks, &[a.id.clone(), b.id.clone(), p.id.clone(), "missing".into()], &all).await.unwrap();
    let got: HashSet<String> = r.iter().map(|x| x.0.clone()).collect();
    // b matches no token; a pending record is still scored (fusion only scores candidates).
    assert_eq!(got, HashSet::from([a.id.clone(), p.id.clone()]));
    assert!(r.iter().all(|x| x.1 > 0.0));
    assert!(s.text_scores(&toks, &[], &all).await.unwrap().is_empty());
}

/// Full text ranks by BM25 on every backend: a word's repeats saturate and long records are
/// normalised, so a short record naming the word once outranks a long one repeating it among
/// many other words. (PostgreSQL's `ts_rank_cd` alone ranked the long one first.)
pub async fn full_text_saturates_repeats(s: Arc<dyn Store>) {
    let filler: Vec<String> =
        (0..120u8).map(|i| format!("zx{}{}k", (b'a' + i / 26) as char, (b'a' + i % 26) as char)).collect();
    let long_task = format!("timeout timeout timeout timeout timeout {}", filler.join(" "));
    let long = created(&s, exp(&long_task, "r", "ok", 4, "m")).await;
    let short = created(&s, exp("timeout fix", "r", "ok", 4, "m")).await;
    let toks = text::query_tokens("timeout");
    let r = s.text_candidates(&toks, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(r.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), [short.id.as_str(), long.id.as_str()], "{r:?}");
    let sc: HashMap<String, f64> = s
        .text_scores(&toks, &[long.id.clone(), short.id.clone()], &SearchFilter::default())
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert!(sc[&short.id] > sc[&long.id], "{sc:?}");
}

/// Full-text weights come from the records a search may read: records of a scope the caller does
/// not read, and pending ones, change neither its candidates' scores nor their order. (Thirty
/// hidden records holding one of two query words would otherwise make that word common.)
pub async fn text_weights_ignore_unreadable_records(s: Arc<dyn Store>) {
    let a = created(&s, exp("Rotate zanzibar logs nightly", "logrotate", "kept a week", 4, "m")).await;
    let b = created(&s, exp("Rotate quixotic logs nightly", "journald", "kept a week", 4, "m")).await;
    let toks = text::query_tokens("zanzibar quixotic");
    let org = SearchFilter { scopes: Some(vec!["org".into()]), ..Default::default() };
    let ids = [a.id.clone(), b.id.clone()];
    let seen = |s: Arc<dyn Store>, f: SearchFilter| {
        let (toks, ids) = (toks.clone(), ids.clone());
        async move {
            let cands = s.text_candidates(&toks, &f, 10).await.unwrap();
            let mut scores = s.text_scores(&toks, &ids, &f).await.unwrap();
            scores.sort_by(|x, y| x.0.cmp(&y.0));
            (cands, scores)
        }
    };
    let before = seen(s.clone(), org.clone()).await;
    assert_eq!(before.0.len(), 2, "{before:?}");
    for i in 0..30 {
        let mut e = exp(&format!("zanzibar release checklist {i}"), "make", &format!("shipped {i}"), 4, "h");
        e.scope = "team/hidden".into();
        created(&s, e).await;
    }
    for i in 0..5 {
        created(&s, extracted(&format!("zanzibar draft {i}"), "make", "pending")).await;
    }
    assert_eq!(seen(s.clone(), org).await, before, "unreadable records moved the caller's full-text scores");
}
