//! Stored vectors: candidates, block scores, and what still needs embedding.

use std::sync::Arc;

use knowhub_core::review::{Decision, Review};
use knowhub_core::{SearchFilter, Status, Store};

use super::{created, extracted, unit};
use crate::{exp, MODEL};

pub async fn vectors_candidates_and_scores(s: Arc<dyn Store>) {
    let mut ids = Vec::new();
    for i in 0..20 {
        ids.push(created(&s, exp(&format!("task {i}"), "res", "ok", 4, "m")).await.id);
    }
    // Vector i points at angle i*4 degrees; the query at 0: nearest are 0, 1, 2, ...
    let vec_of = |i: usize| {
        let a = (i as f32 * 4.0).to_radians();
        unit(&[a.cos(), a.sin(), 0.0])
    };
    let items: Vec<(String, Vec<f32>)> = ids.iter().enumerate().map(|(i, id)| (id.clone(), vec_of(i))).collect();
    s.set_vectors(MODEL, &items).await.unwrap();
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
    assert_eq!(s.vector_count("other-model").await.unwrap(), 0);
    let q = unit(&[1.0, 0.0, 0.0]);
    let r = s.vector_candidates(MODEL, &q, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(r.iter().map(|x| x.0.clone()).collect::<Vec<_>>(), ids[..5].to_vec());
    assert!((r[0].1 - 1.0).abs() < 1e-4, "cosine of identical vectors is 1, got {}", r[0].1);
    assert!((r[1].1 - (4f64.to_radians().cos())).abs() < 1e-4);
    assert!(s.vector_candidates("other-model", &q, &SearchFilter::default(), 5).await.unwrap().is_empty());
    let sc = s.vector_scores(MODEL, &q, &[ids[10].clone(), ids[0].clone(), "missing".into()]).await.unwrap();
    assert_eq!(sc.len(), 2);
    let ten = &sc.iter().find(|x| x.0 == ids[10]).unwrap().1;
    assert_eq!((ten.dots.len(), ten.norms.len()), (1, 1), "one block: {ten:?}");
    assert!((ten.dots[0] - 40f64.to_radians().cos()).abs() < 1e-4, "{ten:?}");
    assert!((ten.norms[0] - 1.0).abs() < 1e-5, "{ten:?}");
    // Stored vectors read back as stored, for the given ids and model only.
    let mut got = s.vectors(MODEL, &[ids[3].clone(), "missing".into(), ids[7].clone()]).await.unwrap();
    got.sort_by(|a, b| a.0.cmp(&b.0));
    let mut want = vec![(ids[3].clone(), vec_of(3)), (ids[7].clone(), vec_of(7))];
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(got.len(), 2, "{got:?}");
    for ((gid, gv), (wid, wv)) in got.iter().zip(&want) {
        assert_eq!(gid, wid);
        assert!(gv.iter().zip(wv).all(|(a, b)| (a - b).abs() < 1e-6), "{gv:?} != {wv:?}");
    }
    assert!(s.vectors("other-model", &ids).await.unwrap().is_empty());
    assert!(s.vectors(MODEL, &[]).await.unwrap().is_empty());
    // Replacing a vector moves the record.
    s.set_vectors(MODEL, &[(ids[19].clone(), q.clone())]).await.unwrap();
    assert_eq!(s.vectors(MODEL, &ids[19..]).await.unwrap(), vec![(ids[19].clone(), q.clone())]);
    let r = s.vector_candidates(MODEL, &q, &SearchFilter::default(), 2).await.unwrap();
    assert!(r.iter().any(|x| x.0 == ids[19]), "{r:?}");
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
    // Unknown ids are skipped, not errors.
    s.set_vectors(MODEL, &[("missing".into(), q.clone())]).await.unwrap();
    assert_eq!(s.vector_count(MODEL).await.unwrap(), 20);
}

/// Composite vectors (two models end to end, as the local embedder stores them): scores come back
/// per block with each block's stored norm, so each model's cosine can be read off.
pub async fn vector_block_scores(s: Arc<dyn Store>) {
    const B: usize = knowhub_core::VECTOR_BLOCK;
    let a = created(&s, exp("english record", "res", "ok", 4, "m")).await.id;
    let z = created(&s, exp("中文记录", "资源", "好", 4, "m")).await.id;
    // Block 0 unit length; block 1 scaled by t (0.6 for `a`, 0 for the Chinese record).
    let comp = |x: f32, y: f32, t: f32| {
        let mut v = vec![0.0f32; 2 * B];
        v[0] = x;
        v[1] = y;
        v[B] = t;
        v
    };
    s.set_vectors(MODEL, &[(a.clone(), comp(0.6, 0.8, 0.6)), (z.clone(), comp(1.0, 0.0, 0.0))]).await.unwrap();
    // Scan query uses block 0 only: the dot is each record's block-0 cosine.
    let scan = comp(1.0, 0.0, 0.0);
    let c = s.vector_candidates(MODEL, &scan, &SearchFilter::default(), 5).await.unwrap();
    assert_eq!(c.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), vec![z.as_str(), a.as_str()]);
    // Within int8 error (the SQLite index scores int8 codes against the f32 query).
    assert!((c[1].1 - 0.6).abs() < 5e-3, "{c:?}");
    let full = comp(1.0, 0.0, 1.0);
    let mut sc = s.vector_scores(MODEL, &full, &[a.clone(), z.clone()]).await.unwrap();
    sc.sort_by_key(|x| x.0 != a);
    let (sa, sz) = (&sc[0].1, &sc[1].1);
    assert_eq!((sa.dots.len(), sa.norms.len()), (2, 2));
    assert!((sa.dots[0] - 0.6).abs() < 5e-3 && (sa.dots[1] - 0.6).abs() < 5e-3, "{sa:?}");
    assert!((sa.norms[0] - 1.0).abs() < 1e-5 && (sa.norms[1] - 0.6).abs() < 1e-5, "{sa:?}");
    assert!(sz.dots[1].abs() < 1e-6 && sz.norms[1] == 0.0, "{sz:?}");
    // Cosine over both blocks: (0.6 + 0.6) / (|q| √(1 + 0.36)) with |q| = √2.
    let want = 1.2 / (2f64.sqrt() * 1.36f64.sqrt());
    assert!((sa.cosine(&[1.0, 1.0]) - want).abs() < 5e-3, "{}", sa.cosine(&[1.0, 1.0]));
    assert!((sa.cosine(&[1.0, 0.0]) - 0.6).abs() < 5e-3);
}

pub async fn missing_vectors_and_counts(s: Arc<dyn Store>) {
    let a = created(&s, exp("alpha task", "r", "ok", 4, "m")).await;
    let p = created(&s, extracted("pending task", "r", "ok")).await;
    let x = created(&s, extracted("rejected task", "r2", "ok")).await;
    s.review(&x.id, Review { decision: Decision::Reject { reason: None }, reviewer: "r".into() }).await.unwrap();
    let m = s.missing_vectors(MODEL, 10).await.unwrap();
    assert_eq!(
        m.iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![a.id.clone(), p.id.clone()],
        "in insert order, no rejected"
    );
    assert_eq!(m[0].1, knowhub_core::search_text("alpha task", "r", "ok"));
    assert_eq!(s.missing_vectors(MODEL, 1).await.unwrap().len(), 1);
    s.set_vectors(MODEL, &[(a.id.clone(), unit(&[1.0, 2.0]))]).await.unwrap();
    assert_eq!(
        s.missing_vectors(MODEL, 10).await.unwrap().iter().map(|x| x.0.clone()).collect::<Vec<_>>(),
        vec![p.id.clone()]
    );
    assert_eq!(s.count_status(Status::Approved, None).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Pending, None).await.unwrap(), 1);
    assert_eq!(s.count_status(Status::Rejected, None).await.unwrap(), 1);
    assert_eq!(s.count().await.unwrap(), 3);
}
