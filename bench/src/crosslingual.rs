//! Cross-lingual paired check: the judged queries of a dataset, translated into the other
//! language (bench/data/crosslingual.tsv), searched against the dataset's untranslated corpus.
//! Reports recall@5 per mode for the translated queries next to the original ones.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use knowhub_core::{SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{beir, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pairs file: dataset, query id, translated query (tab-separated).
    #[arg(long, default_value = "bench/data/crosslingual.tsv")]
    pairs: PathBuf,
    /// Folder holding the datasets named in the pairs file.
    #[arg(long, default_value = "../shared/data/retrieval")]
    data: PathBuf,
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Reuse benchmark hubs under this folder (see `retrieval --cache-dir`).
    #[arg(long)]
    cache_dir: Option<PathBuf>,
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.pairs)?;
    let mut by_set: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        anyhow::ensure!(f.len() == 3, "bad line {line:?}");
        by_set.entry(f[0].to_string()).or_default().push((f[1].to_string(), f[2].to_string()));
    }
    println!("| dataset | direction | pairs | mode | recall@5 (translated query) | recall@5 (original query) |");
    println!("|---|---|---|---|---|---|");
    for (set, pairs) in by_set {
        let ds = beir::load(&a.data.join(&set), "test")?;
        let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
        let tmp = tempfile::tempdir()?;
        let dir = retrieval::hub_dir(a.cache_dir.as_deref(), &ds.name, &embedder, tmp.path());
        let store = Arc::new(SqliteStore::open(
            &dir,
            OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
        )?);
        retrieval::ingest(&store, ds.docs.iter().map(retrieval::doc_record).collect()).await?;
        let hub = Hub::new(store.clone() as Arc<dyn Store>, embedder.clone(), SearchConfig::default());
        if let Some(m) = embedder.model_id() {
            retrieval::embed_all(&hub, m).await?;
        }
        let original: std::collections::HashMap<&str, &str> =
            ds.queries.iter().map(|q| (q.id.as_str(), q.text.as_str())).collect();
        let direction = if set.starts_with("en") { "zh query -> en doc" } else { "en query -> zh doc" };
        for mode in [SearchMode::Fts, SearchMode::Vector, SearchMode::Hybrid] {
            let (mut tr, mut or, mut n) = (0.0, 0.0, 0usize);
            for (qid, translated) in &pairs {
                let Some(rel) = ds.qrels.get(qid) else { continue };
                let Some(orig) = original.get(qid.as_str()) else { continue };
                for (q, acc) in [(translated.as_str(), &mut tr), (*orig, &mut or)] {
                    let sq = SearchQuery {
                        q: q.into(),
                        top_k: 5,
                        filter: SearchFilter { min_score: 1, ..Default::default() },
                        outcome: None,
                        mode,
                        min_relevance: Some(0.0),
                        scope: None,
                    };
                    let ids: Vec<String> = hub
                        .search(&knowhub_core::Caller::local(), &sq)
                        .await?
                        .results
                        .into_iter()
                        .map(|h| h.id)
                        .collect();
                    *acc += beir::recall_at(&ids, rel, 5);
                }
                n += 1;
            }
            let n = n.max(1) as f64;
            println!("| {set} | {direction} | {} | {mode:?} | {:.3} | {:.3} |", pairs.len(), tr / n, or / n);
        }
    }
    Ok(())
}
