//! Near-duplicate merging (docs/ranking.md §6): how similar two experiences must be to count as
//! one. Pairs come from bench/data/dedup_pairs.jsonl (the same experience in other words, and
//! look-alikes that differ: another command, version, outcome, task or tool) and from the
//! paraphrase sets' judgements (a query and its relevant document: the same meaning, as the task of
//! two experiences with one resource). Each pair goes through the
//! service's merge rule (same resource key and outcome, no conflicting specifics) and the
//! multilingual-model cosine of their stored vectors (`search_text`: what the service compares)
//! is reported against the thresholds; and, for comparison, the cosines of what was compared
//! before stored vectors were used: the `merge_text`s (task and result) and the tasks.

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
    #[arg(long, value_delimiter = ',', default_value = "0.90,0.92,0.93,0.94,0.95,0.955,0.96,0.965,0.97,0.98")]
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
    /// The merge rule's other conditions hold (same key and outcome, specifics agree).
    allowed: bool,
    same_key: bool,
    /// E5 cosine of the two `merge_text`s (task + result): what merging compared before.
    merge_cos: f64,
    /// E5 cosine of the two tasks: what contests compared before.
    task_cos: f64,
    /// E5 cosine of the two `search_text`s (task, resource, result): the stored vectors, what
    /// merging and contests compare now.
    stored_cos: f64,
}

fn row(
    kind: String,
    x: &NewExperience,
    y: &NewExperience,
    v: &[Vec<f32>],
    cosine: &dyn Fn(&[f32], &[f32]) -> f64,
) -> Row {
    Row {
        kind,
        allowed: rule_allows(x, y),
        same_key: x.resource_key() == y.resource_key(),
        merge_cos: cosine(&v[0], &v[1]),
        task_cos: cosine(&v[2], &v[3]),
        stored_cos: cosine(&v[4], &v[5]),
    }
}

fn texts(x: &NewExperience, y: &NewExperience) -> Vec<String> {
    vec![
        merge_text(&x.task, &x.result),
        merge_text(&y.task, &y.result),
        x.task.clone(),
        y.task.clone(),
        x.search_text(),
        y.search_text(),
    ]
}

/// One table: per kind of pair, how many pass `pass` and, of those, how many reach each threshold.
fn table(title: &str, rows: &[Row], thresholds: &[f64], pass: &dyn Fn(&Row) -> bool, cos: &dyn Fn(&Row) -> f64) {
    let mut kinds: Vec<String> = rows.iter().map(|r| r.kind.clone()).collect();
    kinds.sort();
    kinds.dedup();
    println!("\n{title}\n");
    print!("| pairs | n | pass the rules | cosine min / median / max |");
    for t in thresholds {
        print!(" {t} |");
    }
    println!();
    println!("|---|---|---|---|{}", "---|".repeat(thresholds.len()));
    for k in kinds {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.kind == k).collect();
        let mut c: Vec<f64> = rs.iter().map(|r| cos(r)).collect();
        c.sort_by(|x, y| x.total_cmp(y));
        print!(
            "| {k} | {} | {} | {:.3} / {:.3} / {:.3} |",
            rs.len(),
            rs.iter().filter(|r| pass(r)).count(),
            c[0],
            c[c.len() / 2],
            c[c.len() - 1]
        );
        for t in thresholds {
            print!(" {} |", rs.iter().filter(|r| pass(r) && cos(r) >= *t).count());
        }
        println!();
    }
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
        let v = embedder.embed_passages(&texts(&x, &y)).await?;
        rows.push(row(p.kind.clone(), &x, &y, &v, &cosine));
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
            let v = embedder.embed_passages(&texts(&x, &y)).await?;
            rows.push(row(format!("{}:paraphrase", ds.name), &x, &y, &v, &cosine));
        }
    }
    let th = &a.thresholds;
    table(
        "Merging, on the stored vectors (search_text: task, resource, result), pairs merged at each threshold:",
        &rows,
        th,
        &|r| r.allowed,
        &|r| r.stored_cos,
    );
    table(
        "Merging, on merge_text (task + result, embedded at each submit), pairs merged at each threshold:",
        &rows,
        th,
        &|r| r.allowed,
        &|r| r.merge_cos,
    );
    // A contest needs the same key and opposite outcomes; `opposite_outcome` pairs are the ones
    // that should contest. For the others the outcome is set aside: had their outcomes been
    // opposite, would the cosine have called them the same task?
    table(
        "Contests, on the stored vectors: pairs with the same resource key at each threshold (outcome set aside):",
        &rows,
        th,
        &|r| r.same_key,
        &|r| r.stored_cos,
    );
    table(
        "Contests, on the tasks (embedded at each submit): pairs with the same resource key at each threshold:",
        &rows,
        th,
        &|r| r.same_key,
        &|r| r.task_cos,
    );
    Ok(())
}
