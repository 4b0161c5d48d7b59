//! "Nothing relevant" as an answer (docs/ranking.md §5). Each BEIR set becomes a hub; its judged
//! queries are the answerable ones, and the other sets' queries plus everyday questions on topics
//! no set covers (bench/data/offtopic_*.txt) are the off-topic ones.
//!
//! - `abstain`: through the real search, per set: AUROC of the top hit's relevance (answerable vs
//!   off-topic); at `min_relevance` (default: the server's), the share of off-topic queries that
//!   still get a result and the share of answerable ones whose relevant record is still returned;
//!   nDCG@10 with `min_relevance = 0`.
//! - `features`: the raw signals of each query's candidates as JSON lines, which
//!   `bench/fit_calibration.py` fits the calibration constants on.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use knowhub_ai::Embedder;
use knowhub_core::{text, Caller, SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{beir, retrieval};

#[derive(Debug, clap::Args)]
pub struct SuiteArgs {
    /// BEIR dataset folders: each becomes a hub.
    #[arg(required = true)]
    datasets: Vec<PathBuf>,
    /// Plain-text files of off-topic questions (one a line).
    #[arg(long, value_delimiter = ',', default_value = "bench/data/offtopic_en.txt,bench/data/offtopic_zh.txt")]
    offtopic: Vec<PathBuf>,
    /// Also a hub of experience records (task, resource, result) built from these labelled
    /// pairs: each "same" pair's second task is a question whose answer is the first record.
    /// Not used for fitting; it shows how the mapping carries over to real records.
    #[arg(long)]
    experiences: Option<PathBuf>,
    /// Judged queries per set (spread over the set when it has more); the other sets each
    /// contribute a third as many off-topic ones.
    #[arg(long, default_value_t = 1000)]
    per_set: usize,
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Reuse benchmark hubs under this folder (see `retrieval --cache-dir`).
    #[arg(long)]
    cache_dir: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct FeaturesArgs {
    #[command(flatten)]
    suite: SuiteArgs,
    /// Candidates kept per query, in fusion order.
    #[arg(long, default_value_t = 20)]
    depth: usize,
    /// Output JSONL.
    #[arg(long, default_value = "features.jsonl")]
    out: PathBuf,
    /// Background sentences (one a line): each query's mean and spread of cosines to them.
    #[arg(long)]
    background: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct AbstainArgs {
    #[command(flatten)]
    suite: SuiteArgs,
    /// Threshold to evaluate (default: the server's default `min_relevance`).
    #[arg(long)]
    min_relevance: Option<f64>,
    /// Results per search, as an agent asks.
    #[arg(long, default_value_t = 5)]
    top_k: usize,
}

struct Q {
    set: String,
    id: String,
    text: String,
}

/// Every `step`-th item, so a sample spreads over the whole file.
fn spread<T>(v: Vec<T>, n: usize) -> Vec<T> {
    let step = v.len().div_ceil(n.max(1)).max(1);
    v.into_iter().step_by(step).collect()
}

struct Suite {
    sets: Vec<beir::Dataset>,
    judged: Vec<Vec<Q>>,
    everyday: Vec<Q>,
    embedder: Arc<Embedder>,
    per_set: usize,
    cache: Option<PathBuf>,
    tmp: tempfile::TempDir,
}

impl Suite {
    fn load(a: &SuiteArgs) -> anyhow::Result<Self> {
        let mut sets = Vec::new();
        for d in &a.datasets {
            let mut ds = beir::load(d, "test")?;
            if let Ok(dev) = beir::load(d, "dev") {
                ds.queries.extend(dev.queries);
                ds.qrels.extend(dev.qrels);
            }
            sets.push(ds);
        }
        if let Some(p) = &a.experiences {
            sets.push(experience_set(p)?);
        }
        let judged = sets
            .iter()
            .map(|ds| {
                let qs = ds.queries.iter().map(|q| Q { set: ds.name.clone(), id: q.id.clone(), text: q.text.clone() });
                spread(qs.collect(), a.per_set)
            })
            .collect();
        let mut everyday = Vec::new();
        for f in &a.offtopic {
            let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            for (i, l) in std::fs::read_to_string(f)?.lines().filter(|l| !l.trim().is_empty()).enumerate() {
                everyday.push(Q { set: name.clone(), id: format!("{name}-{i}"), text: l.trim().to_string() });
            }
        }
        Ok(Suite {
            sets,
            judged,
            everyday,
            embedder: Arc::new(retrieval::embedder_from_name(&a.embedder)?),
            per_set: a.per_set,
            cache: a.cache_dir.clone(),
            tmp: tempfile::tempdir()?,
        })
    }

    /// The hub of set `si`, imported and embedded (or reused from the cache).
    async fn hub(&self, si: usize) -> anyhow::Result<Arc<Hub>> {
        let ds = &self.sets[si];
        let dir = retrieval::hub_dir(self.cache.as_deref(), &ds.name, &self.embedder, self.tmp.path());
        let store = Arc::new(SqliteStore::open(
            &dir,
            OpenOptions { vector_model: self.embedder.model_id().map(str::to_string), exclusive: true },
        )?);
        retrieval::ingest(&store, ds.docs.iter().map(retrieval::doc_record).collect()).await?;
        let hub = Hub::new(store as Arc<dyn Store>, self.embedder.clone(), SearchConfig::default());
        if let Some(m) = self.embedder.model_id() {
            retrieval::embed_all(&hub, m).await?;
        }
        Ok(hub)
    }

    /// Set `si`'s judged queries (answerable), then a third as many from each other set and the
    /// everyday questions (off-topic).
    fn queries(&self, si: usize) -> Vec<(&Q, bool)> {
        let mut out: Vec<(&Q, bool)> = self.judged[si].iter().map(|q| (q, true)).collect();
        for (sj, qs) in self.judged.iter().enumerate() {
            if sj != si {
                out.extend(spread(qs.iter().collect(), self.per_set / 3).into_iter().map(|q| (q, false)));
            }
        }
        out.extend(self.everyday.iter().map(|q| (q, false)));
        out
    }
}

/// A dataset of experience records from the dedup pairs (see `SuiteArgs::experiences`).
fn experience_set(path: &std::path::Path) -> anyhow::Result<beir::Dataset> {
    let mut ds =
        beir::Dataset { name: "experiences".into(), docs: Vec::new(), queries: Vec::new(), qrels: Default::default() };
    let mut ids: std::collections::HashMap<String, String> = Default::default();
    let mut add = |ds: &mut beir::Dataset, e: &crate::pairs::Exp| {
        let body = knowhub_core::search_text(&e.task, &e.resource, &e.result);
        let next = format!("e{}", ids.len());
        let id = ids.entry(body.clone()).or_insert(next).clone();
        if !ds.docs.iter().any(|d| d.id == id) {
            ds.docs.push(beir::Doc { id: id.clone(), title: String::new(), text: body });
        }
        id
    };
    for (i, p) in crate::pairs::load(path)?.into_iter().enumerate() {
        let a = add(&mut ds, &p.a);
        if p.kind == "same" {
            let qid = format!("x{i}");
            ds.queries.push(beir::Query { id: qid.clone(), text: p.b.task });
            ds.qrels.insert(qid, [a].into());
        } else {
            add(&mut ds, &p.b);
        }
    }
    Ok(ds)
}

fn query(text: &str, top_k: usize, min_relevance: Option<f64>) -> SearchQuery {
    SearchQuery {
        q: text.to_string(),
        top_k,
        filter: SearchFilter { min_score: 1, ..Default::default() },
        outcome: None,
        mode: SearchMode::Hybrid,
        min_relevance,
        scope: None,
    }
}

pub async fn features(a: FeaturesArgs) -> anyhow::Result<()> {
    let suite = Suite::load(&a.suite)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(&a.out)?);
    let caller = Caller::local();
    let bg: Vec<Vec<f32>> = match &a.background {
        Some(p) => {
            let lines: Vec<String> =
                std::fs::read_to_string(p)?.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
            suite.embedder.embed_passages(&lines).await?
        }
        None => Vec::new(),
    };
    for si in 0..suite.sets.len() {
        let (ds, hub) = (&suite.sets[si], suite.hub(si).await?);
        for (q, answerable) in suite.queries(si) {
            // In fusion order (the calibration being fitted must not decide the sample).
            let mut all = hub.explain(&caller, &query(&q.text, a.depth, Some(0.0))).await?;
            all.sort_by(|a, b| b.fused.total_cmp(&a.fused));
            let qv = suite.embedder.embed_query(&q.text).await?;
            let (e5, mini) = background(&qv, &bg);
            let relevant = if answerable { ds.qrels.get(&q.id) } else { None };
            let cands: Vec<serde_json::Value> = all
                .iter()
                .take(a.depth)
                .map(|x| {
                    let c = &x.candidate;
                    serde_json::json!({
                        "id": x.id, "fused": x.fused, "rel": x.relevance,
                        "dense": c.dense.map(|d| d.fused), "cos_e5": c.dense.map(|d| d.primary),
                        "cos_m": c.dense.and_then(|d| d.english), "gap": c.dense.map(|d| d.script_gap), "bm25": c.bm25, "cov": c.coverage, "experience": c.experience,
                        "label": relevant.is_some_and(|s| s.contains(&x.id)),
                    })
                })
                .collect();
            let line = serde_json::json!({
                "hub": ds.name, "qset": q.set, "qid": q.id, "q": q.text, "answerable": answerable,
                "latin": qv.rescore.is_some(), "ntok": text::query_tokens(&q.text).len(),
                "bg_e5": e5, "bg_m": mini,
                "n_relevant": relevant.map(|s| s.len()).unwrap_or(0),
                "relevant_rank": relevant.and_then(|s| all.iter().position(|x| s.contains(&x.id))), "cands": cands,
            });
            writeln!(out, "{line}")?;
        }
        eprintln!("{}: done", ds.name);
    }
    out.flush()?;
    Ok(())
}

/// Mean and standard deviation.
pub(crate) type MeanSd = (f64, f64);

/// A query's mean and spread of cosines to background sentences, per model (E5; MiniLM when
/// the query has an English part): how similar this query is to text in general.
pub(crate) fn background(qv: &knowhub_ai::QueryVectors, bg: &[Vec<f32>]) -> (Option<MeanSd>, Option<MeanSd>) {
    let stats = |xs: Vec<f64>| -> Option<MeanSd> {
        if xs.is_empty() {
            return None;
        }
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64;
        Some((m, v.sqrt()))
    };
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| f64::from(x * y)).sum::<f64>();
    let e5 = stats(bg.iter().map(|v| dot(&qv.scan[..384], &v[..384])).collect());
    let mini = qv.rescore.as_ref().and_then(|r| {
        stats(
            bg.iter()
                .filter_map(|v| {
                    let t = dot(&v[384..], &v[384..]).sqrt();
                    (t > 0.0).then(|| dot(&r[384..], &v[384..]) / t)
                })
                .collect(),
        )
    });
    (e5, mini)
}

/// Area under the ROC curve of `scores` for positives vs negatives (ties count half).
pub(crate) fn auroc(pos: &[f64], neg: &[f64]) -> f64 {
    if pos.is_empty() || neg.is_empty() {
        return f64::NAN;
    }
    let mut wins = 0.0;
    for p in pos {
        for n in neg {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    wins / (pos.len() * neg.len()) as f64
}

pub async fn abstain(a: AbstainArgs) -> anyhow::Result<()> {
    let suite = Suite::load(&a.suite)?;
    let threshold = a.min_relevance.unwrap_or(SearchConfig::default().min_relevance);
    let caller = Caller::local();
    println!(
        "| hub | answerable | off-topic | AUROC (top hit) | off-topic with a result at {threshold} | answerable keeping \
         their relevant hit at {threshold} | nDCG@10 (min_relevance 0) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for si in 0..suite.sets.len() {
        let (ds, hub) = (&suite.sets[si], suite.hub(si).await?);
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        let (mut off_any, mut kept, mut keepable, mut ndcg) = (0usize, 0usize, 0usize, 0.0);
        // Off-topic queries answered, per source: (answered, asked).
        let mut by_source: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
        for (q, answerable) in suite.queries(si) {
            let base = hub.search(&caller, &query(&q.text, a.top_k, Some(0.0))).await?.results;
            let top = base.first().map(|h| h.relevance).unwrap_or(0.0);
            let cut = hub.search(&caller, &query(&q.text, a.top_k, Some(threshold))).await?.results;
            if !answerable {
                neg.push(top);
                off_any += usize::from(!cut.is_empty());
                let e = by_source.entry(q.set.as_str()).or_default();
                (e.0, e.1) = (e.0 + usize::from(!cut.is_empty()), e.1 + 1);
                continue;
            }
            pos.push(top);
            let rel = &ds.qrels[&q.id];
            let ten = hub.search(&caller, &query(&q.text, 10, Some(0.0))).await?.results;
            ndcg += beir::ndcg_at(&ten.into_iter().map(|h| h.id).collect::<Vec<_>>(), rel, 10);
            if base.iter().any(|h| rel.contains(&h.id)) {
                keepable += 1;
                kept += usize::from(cut.iter().any(|h| rel.contains(&h.id)));
            }
        }
        println!(
            "| {} | {} | {} | {:.4} | {:.1}% | {:.1}% ({kept}/{keepable}) | {:.3} |",
            ds.name,
            pos.len(),
            neg.len(),
            auroc(&pos, &neg),
            100.0 * off_any as f64 / neg.len().max(1) as f64,
            100.0 * kept as f64 / keepable.max(1) as f64,
            ndcg / pos.len().max(1) as f64
        );
        let parts: Vec<String> = by_source
            .iter()
            .map(|(k, (n, of))| format!("{k} {:.1}%", 100.0 * *n as f64 / (*of).max(1) as f64))
            .collect();
        eprintln!("{}: off-topic answered, by source: {}", ds.name, parts.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auroc_hand_computed() {
        assert_eq!(auroc(&[0.9, 0.8], &[0.1, 0.2]), 1.0);
        assert_eq!(auroc(&[0.1], &[0.9]), 0.0);
        // 0.5 beats 0.4, ties 0.5, loses to 0.6: (1 + 0.5 + 0) / 3.
        assert!((auroc(&[0.5], &[0.4, 0.5, 0.6]) - 0.5).abs() < 1e-12);
        assert!(auroc(&[], &[0.1]).is_nan());
    }
}
