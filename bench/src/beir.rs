//! Reading BEIR-format datasets (corpus.jsonl, queries.jsonl, qrels/<split>.tsv).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Doc {
    #[serde(rename = "_id")]
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub text: String,
}

#[derive(Deserialize)]
pub struct Query {
    #[serde(rename = "_id")]
    pub id: String,
    pub text: String,
}

pub struct Dataset {
    pub name: String,
    pub docs: Vec<Doc>,
    /// Only queries that have relevance judgements in the split.
    pub queries: Vec<Query>,
    pub qrels: HashMap<String, HashSet<String>>,
}

/// Finds the folder holding corpus.jsonl (some sets keep it under `beir/`).
fn root(dir: &Path) -> PathBuf {
    if dir.join("corpus.jsonl").exists() {
        dir.to_path_buf()
    } else {
        dir.join("beir")
    }
}

fn read_jsonl<T: for<'de> Deserialize<'de>>(p: &Path) -> anyhow::Result<Vec<T>> {
    let s = std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
    s.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).with_context(|| format!("bad line in {}", p.display())))
        .collect()
}

pub fn load(dir: &Path, split: &str) -> anyhow::Result<Dataset> {
    let r = root(dir);
    let docs: Vec<Doc> = read_jsonl(&r.join("corpus.jsonl"))?;
    let qrels_path = r.join("qrels").join(format!("{split}.tsv"));
    let qrels_text =
        std::fs::read_to_string(&qrels_path).with_context(|| format!("reading {}", qrels_path.display()))?;
    let mut qrels: HashMap<String, HashSet<String>> = HashMap::new();
    for line in qrels_text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() >= 3 && f[2].trim().parse::<f64>().unwrap_or(0.0) > 0.0 {
            qrels.entry(f[0].to_string()).or_default().insert(f[1].to_string());
        }
    }
    let queries: Vec<Query> =
        read_jsonl::<Query>(&r.join("queries.jsonl"))?.into_iter().filter(|q| qrels.contains_key(&q.id)).collect();
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Dataset { name, docs, queries, qrels })
}

/// nDCG@k with binary relevance (BEIR's definition).
pub fn ndcg_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> f64 {
    let dcg: f64 = ranked
        .iter()
        .take(k)
        .enumerate()
        .filter(|(_, id)| relevant.contains(*id))
        .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
        .sum();
    let ideal: f64 = (0..relevant.len().min(k)).map(|i| 1.0 / ((i + 2) as f64).log2()).sum();
    if ideal == 0.0 {
        0.0
    } else {
        dcg / ideal
    }
}

/// Share of the relevant documents found in the top k.
pub fn recall_at(ranked: &[String], relevant: &HashSet<String>, k: usize) -> f64 {
    if relevant.is_empty() {
        return 0.0;
    }
    ranked.iter().take(k).filter(|id| relevant.contains(*id)).count() as f64 / relevant.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_hand_computed() {
        let rel: HashSet<String> = ["b".to_string()].into();
        let ranked: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert!((ndcg_at(&ranked, &rel, 10) - 1.0 / 3f64.log2()).abs() < 1e-12);
        assert_eq!(recall_at(&ranked, &rel, 1), 0.0);
        assert_eq!(recall_at(&ranked, &rel, 5), 1.0);
        assert_eq!(ndcg_at(&["b".to_string()], &rel, 10), 1.0);
    }
}
