//! The local embedder pair with the real models (scripts/fetch-model.sh; fails without them).

use knowhub_ai::Embedder;

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[tokio::test]
async fn composite_vectors_and_query_routing() {
    let e = Embedder::local(&knowhub_ai::default_model_dir(), true).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(e.model_id(), Some("local:multilingual-e5-small-q4+all-minilm-l6-v2-q8"));
    let docs = [
        "Fixed Postgres connection timeouts by raising the pool size".to_string(),
        "数据库连接超时：把连接池调大".to_string(),
        "用 pgbouncer 解决 Postgres connection timeout".to_string(),
    ];
    let v = e.embed_passages(&docs).await.unwrap();
    // English: unit E5 half and unit MiniLM half; Chinese: no MiniLM half; mixed: partial.
    assert_eq!(v[0].len(), 768);
    assert!((norm(&v[0][..384]) - 1.0).abs() < 1e-4 && (norm(&v[0][384..]) - 1.0).abs() < 1e-4);
    assert!((norm(&v[1][..384]) - 1.0).abs() < 1e-4 && norm(&v[1][384..]) == 0.0);
    let t = knowhub_ai::latin_share(&docs[2]);
    assert!(t > 0.0 && t < 1.0);
    assert!((norm(&v[2][384..]) - t).abs() < 1e-3);

    let en = e.embed_query("how to fix a database connection timeout").await.unwrap();
    let zh = e.embed_query("数据库连接超时怎么办").await.unwrap();
    let mixed = e.embed_query("Postgres 连接超时").await.unwrap();
    assert!(en.rescore.is_some(), "an English query is scored by both models");
    assert!(zh.rescore.is_none() && mixed.rescore.is_none(), "Chinese and mixed queries by E5 alone");
    for q in [&en, &zh, &mixed] {
        assert!(q.scan[384..].iter().all(|&x| x == 0.0), "candidates come from the E5 half only");
    }
    // A Chinese query scores every record by its E5 cosine: the English answer beats an
    // unrelated Chinese record without any length correction.
    let unrelated = e.embed_passages(&["今天天气很好，我们去公园散步吧".to_string()]).await.unwrap().remove(0);
    assert!(dot(&zh.scan, &v[0]) > dot(&zh.scan, &unrelated));
    // What a store reports per 384-dim block, as `QueryVectors::dense` reads it.
    let blocks = |q: &[f32], d: &[f32]| knowhub_core::BlockScores {
        dots: q.chunks(384).zip(d.chunks(384)).map(|(a, b)| f64::from(dot(a, b))).collect(),
        norms: knowhub_core::store::block_norms(d),
    };
    let zh0 = zh.dense(&blocks(zh.scoring(), &v[0]));
    assert!((zh0.fused - f64::from(dot(&zh.scan, &v[0]))).abs() < 1e-6 && zh0.english.is_none(), "{zh0:?}");
    // An English query: each model's own cosine, and the fused one over the record's length, which
    // ranks the English answer first and the Chinese answer above the unrelated Chinese record.
    let s = |d: &[f32]| en.dense(&blocks(en.scoring(), d));
    let (a, b, c) = (s(&v[0]), s(&v[1]), s(&unrelated));
    let (e5, mini) =
        (f64::from(dot(&en.scan[..384], &v[0][..384])), f64::from(dot(&en.scoring()[384..], &v[0][384..])));
    assert!((a.primary - e5).abs() < 1e-5 && (a.english.unwrap() - mini).abs() < 1e-5, "{a:?}");
    assert!((a.fused - (e5 + mini) / 2f64.sqrt()).abs() < 1e-5, "{a:?}");
    assert!(b.english.is_none() && (b.fused - b.primary).abs() < 1e-9, "a Chinese record is scored by E5: {b:?}");
    assert!(a.fused > b.fused, "{a:?} {b:?}");
    assert!(b.fused > c.fused, "{b:?} {c:?}");
    // The script gap: the query's Latin share against the record's (its English block's length).
    assert!(a.script_gap < 1e-3, "English query, English record: {a:?}");
    assert!((b.script_gap - 1.0).abs() < 1e-3, "English query, Chinese record: {b:?}");
    assert!((zh0.script_gap - 1.0).abs() < 1e-3, "Chinese query, English record: {zh0:?}");
    let zh1 = zh.dense(&blocks(zh.scoring(), &v[1]));
    assert!(zh1.script_gap < 1e-3, "Chinese query, Chinese record: {zh1:?}");
    let m2 = mixed.dense(&blocks(mixed.scoring(), &v[2]));
    let want = (f64::from(knowhub_ai::latin_share("Postgres 连接超时")) - f64::from(t)).abs();
    assert!((m2.script_gap - want).abs() < 1e-3, "mixed query, mixed record: {m2:?}, want {want}");
}

/// An English query runs both models side by side: the vectors are the ones the two models give
/// one after the other.
#[tokio::test]
async fn side_by_side_query_equals_the_models_in_series() {
    let dir = knowhub_ai::default_model_dir();
    let e = Embedder::local(&dir, false).unwrap_or_else(|e| panic!("{e}"));
    let e5 = knowhub_embed::E5Model::load(&dir).unwrap();
    let mini = knowhub_embed::MiniLmModel::load(&dir).unwrap();
    for q in ["how to fix a database connection timeout", "rust borrow checker error E0502 in a loop"] {
        let mut a = e5.embed(&[q], knowhub_embed::TextKind::Query).unwrap().remove(0);
        knowhub_ai::normalize(&mut a);
        let b = mini.embed(&[q]).unwrap().remove(0);
        let got = e.embed_query(q).await.unwrap();
        let serial: Vec<f32> = a.iter().chain(&b).copied().collect();
        let rescore = got.rescore.as_deref().expect("an English query is scored by both models");
        let diff = rescore.iter().zip(&serial).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
        assert!(rescore.len() == serial.len() && diff < 1e-6, "{q}: max difference {diff}");
    }
    // Records too: English, Chinese and mixed, embedded side by side as in series.
    let docs = ["Raised the pool size to fix timeouts", "连接池调大后超时消失", "pgbouncer 解决 timeout"];
    let got = e.embed_passages(&docs.map(String::from)).await.unwrap();
    let serial =
        knowhub_ai::add_minilm(e5.embed(&docs, knowhub_embed::TextKind::Passage).unwrap(), &docs, &mini).unwrap();
    for (g, s) in got.iter().zip(&serial) {
        let diff = g.iter().zip(s).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
        assert!(g.len() == s.len() && diff < 1e-6, "max difference {diff}");
    }
}

/// A stored record vector read back as a query (the review queue's "nearest") scores its own
/// record at cosine 1 on every model it has, and an English record is rescored by both models.
#[tokio::test]
async fn a_record_vector_as_a_query_finds_itself() {
    let e = Embedder::local(&knowhub_ai::default_model_dir(), false).unwrap_or_else(|e| panic!("{e}"));
    let docs = ["Raised the pool size to fix timeouts", "连接池调大后超时消失"];
    let vecs = e.embed_passages(&docs.map(String::from)).await.unwrap();
    const B: usize = knowhub_core::VECTOR_BLOCK;
    for (doc, v) in docs.iter().zip(&vecs) {
        let q = e.record_as_query(v).expect("the pair's own vector length");
        let (scoring, n) = (q.scoring(), v.len());
        let blocks = n.div_ceil(B);
        let block = |x: &[f32], y: &[f32], b: usize| -> f64 {
            (b * B..((b + 1) * B).min(n)).map(|i| f64::from(x[i]) * f64::from(y[i])).sum()
        };
        let scores = knowhub_core::BlockScores {
            dots: (0..blocks).map(|b| block(scoring, v, b)).collect(),
            norms: (0..blocks).map(|b| block(v, v, b).sqrt()).collect(),
        };
        let d = q.dense(&scores);
        assert!((d.primary - 1.0).abs() < 1e-4, "{doc}: {d:?}");
        let english = doc.is_ascii();
        // As an English query scores it: (cos_e5 + t·cos_minilm) / √(1 + t²), both cosines 1,
        // t the record's MiniLM weight.
        let t = v[q.primary_blocks * B..].iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        let want = if english { (1.0 + t) / (1.0 + t * t).sqrt() } else { 1.0 };
        assert!((d.fused - want).abs() < 1e-4, "{doc}: {d:?}, want fused {want}");
        assert_eq!(q.rescore.is_some(), english, "{doc}");
        assert_eq!(d.english.is_some(), english, "{doc}: {d:?}");
        assert!(q.scan[q.primary_blocks * B..].iter().all(|x| *x == 0.0), "scan is the E5 half only");
    }
    assert!(e.record_as_query(&vecs[0][..100]).is_none(), "a vector of another length is not this pair's");
    assert!(Embedder::none().record_as_query(&vecs[0]).is_none());
}
