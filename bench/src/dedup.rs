//! Near-duplicate merging (docs/ranking.md §6): how similar two experiences must be to count as
//! one. Pairs come from bench/data/dedup_pairs.jsonl (the same experience in other words, and
//! look-alikes that differ: another command, version, outcome, task or tool) and from the
//! paraphrase sets' judgements (a query and its relevant document: the same meaning, as the task of
//! two experiences with one resource). Each pair goes through the
//! service's merge rule (same resource key and outcome, no conflicting specifics) and the
//! multilingual-model cosine of the two `merge_text`s (task and result: the resource is already
//! equal) is reported against the thresholds.

use std::path::PathBuf;
use std::sync::Arc;

use knowhub_core::{text, NewExperience, Outcome};
use knowhub_service::evidence::merge_text;

use crate::pairs::Exp;
use crate::{beir, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, default_value = "bench/data/dedup_pairs.jsonl")]
    pairs: PathBuf,
    /// Paraphrase sets (BEIR folders) for sentence pairs.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "../shared/data/retrieval/zh_lcqmc,../shared/data/retrieval/zh_atec"
    )]
    sets: Vec<PathBuf>,
    /// Paraphrase pairs per set.
    #[arg(long, default_value_t = 500)]
    per_set: usize,
    /// Thresholds to report.
    #[arg(long, value_delimiter = ',', default_value = "0.90,0.92,0.93,0.94,0.95,0.96,0.97,0.98")]
    thresholds: Vec<f64>,
}

fn record(e: &Exp) -> NewExperience {
    NewExperience {
        task: e.task.clone(),
        resource: e.resource.clone(),
        result: e.result.clone(),
        outcome: Outcome::parse(&e.outcome).unwrap_or(Outcome::Success),
        resource_version: e.resource_version.clone(),
        ..Default::default()
    }
}

/// Whether the merge rule lets the pair through before similarity is looked at.
fn rule_allows(a: &NewExperience, b: &NewExperience) -> bool {
    a.resource_key() == b.resource_key()
        && a.outcome == b.outcome
        && text::specifics_agree(&format!("{}\n{}", a.task, a.result), &format!("{}\n{}", b.task, b.result))
}

struct Row {
    kind: String,
    allowed: bool,
    cosine: f64,
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let embedder = Arc::new(retrieval::embedder_from_name("local")?);
    let primary = embedder.primary_blocks();
    let cosine = |x: &[f32], y: &[f32]| -> f64 {
        let n = (primary * knowhub_core::VECTOR_BLOCK).min(x.len());
        let dot: f32 = x[..n].iter().zip(&y[..n]).map(|(p, q)| p * q).sum();
        let nx: f32 = x[..n].iter().map(|p| p * p).sum::<f32>().sqrt();
        let ny: f32 = y[..n].iter().map(|p| p * p).sum::<f32>().sqrt();
        f64::from(dot / (nx * ny).max(f32::EPSILON))
    };
    let mut rows = Vec::new();
    let pairs = crate::pairs::load(&a.pairs)?;
    for p in &pairs {
        let (x, y) = (record(&p.a), record(&p.b));
        let v = embedder.embed_passages(&[merge_text(&x.task, &x.result), merge_text(&y.task, &y.result)]).await?;
        rows.push(Row { kind: p.kind.clone(), allowed: rule_allows(&x, &y), cosine: cosine(&v[0], &v[1]) });
    }
    // Paraphrases: a query and its relevant document, as the tasks of two experiences with one
    // resource. (Only positives: the corpora hold exact copies of many queries that are not
    // marked relevant, so "not judged relevant" does not mean "a different meaning" there.)
    for dir in &a.sets {
        let ds = beir::load(dir, "test")?;
        let text_of: std::collections::HashMap<&str, &str> =
            ds.docs.iter().map(|d| (d.id.as_str(), d.text.as_str())).collect();
        let step = ds.queries.len().div_ceil(a.per_set).max(1);
        for q in ds.queries.iter().step_by(step) {
            let Some(other) = ds.qrels[&q.id].iter().next().and_then(|d| text_of.get(d.as_str())) else { continue };
            let mk = |t: &str| {
                record(&Exp {
                    task: t.to_string(),
                    resource: "shared resource".into(),
                    result: String::new(),
                    outcome: "success".into(),
                    resource_version: None,
                })
            };
            let (x, y) = (mk(&q.text), mk(other));
            let v = embedder.embed_passages(&[merge_text(&x.task, &x.result), merge_text(&y.task, &y.result)]).await?;
            rows.push(Row {
                kind: format!("{}:paraphrase", ds.name),
                allowed: rule_allows(&x, &y),
                cosine: cosine(&v[0], &v[1]),
            });
        }
    }
    let mut kinds: Vec<String> = rows.iter().map(|r| r.kind.clone()).collect();
    kinds.sort();
    kinds.dedup();
    print!("| pairs | n | rule lets through | cosine min / median / max |");
    for t in &a.thresholds {
        print!(" merged at {t} |");
    }
    println!();
    println!("|---|---|---|---|{}", "---|".repeat(a.thresholds.len()));
    for k in kinds {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.kind == k).collect();
        let mut cos: Vec<f64> = rs.iter().map(|r| r.cosine).collect();
        cos.sort_by(|x, y| x.total_cmp(y));
        print!(
            "| {k} | {} | {} | {:.3} / {:.3} / {:.3} |",
            rs.len(),
            rs.iter().filter(|r| r.allowed).count(),
            cos[0],
            cos[cos.len() / 2],
            cos[cos.len() - 1]
        );
        for t in &a.thresholds {
            print!(" {} |", rs.iter().filter(|r| r.allowed && r.cosine >= *t).count());
        }
        println!();
    }
    Ok(())
}
