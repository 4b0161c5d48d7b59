//! Retrieval quality: ingest a BEIR corpus into a fresh hub, run every judged query, score.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use knowhub_ai::Embedder;
use knowhub_core::{NewExperience, SearchFilter, Source, Status, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_postgres::{PgOptions, PgStore};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::beir;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// BEIR dataset folders (each with corpus.jsonl, queries.jsonl, qrels/).
    #[arg(required = true)]
    datasets: Vec<PathBuf>,
    /// qrels split to evaluate.
    #[arg(long, default_value = "test")]
    split: String,
    /// Modes to evaluate (vector and hybrid need an embedder).
    #[arg(long, value_delimiter = ',', default_value = "vector,fts,hybrid")]
    modes: Vec<String>,
    /// Evaluate at most this many queries per set (all by default).
    #[arg(long)]
    max_queries: Option<usize>,
    /// Embedder: none | openai (KNOWHUB_EMBED_* env) | local.
    #[arg(long, default_value = "none")]
    embedder: String,
    /// Fusion variants to evaluate for the hybrid mode: `weighted:V:T` (vector and text
    /// weights), `agree:V:T` (text weight scaled by top-10 agreement) or `rrf:K`. The first is
    /// the server default.
    #[arg(long, value_delimiter = ',', default_value = "weighted:0.8:0.2,rrf:60")]
    fusions: Vec<String>,
    /// Keep each dataset's hub under this folder and reuse it next time (skips re-embedding).
    #[arg(long)]
    cache_dir: Option<PathBuf>,
    /// Also print one JSON line per (dataset, mode).
    #[arg(long)]
    json: bool,
    /// Run on this PostgreSQL server instead of SQLite: each dataset gets a new database on
    /// it (dropped afterwards), analysed after import as a running hub's would be.
    #[arg(long)]
    database_url: Option<String>,
    /// PostgreSQL only: records from which full text ranks within its budget and counts rare
    /// tokens exactly (the server's default is 50,000). 0 runs that path on these smaller sets,
    /// to measure what it costs in quality.
    #[arg(long)]
    pg_fts_bounded_from: Option<u64>,
}

/// A new, empty database on the server of `url`, as a URL (for one dataset's hub).
async fn fresh_pg_database(url: &str, dataset: &str) -> anyhow::Result<(String, String)> {
    use knowhub_store_postgres::sqlx::{self, AssertSqlSafe, Connection};
    let name = format!(
        "kh_bench_{}_{}",
        dataset
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
            .collect::<String>(),
        std::process::id()
    );
    let mut c = sqlx::PgConnection::connect(url).await?;
    sqlx::raw_sql(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name}"))).execute(&mut c).await?;
    sqlx::raw_sql(AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut c).await?;
    let base = url.rsplit_once('/').map_or(url, |(b, _)| b);
    Ok((format!("{base}/{name}"), name))
}

async fn drop_pg_database(url: &str, name: &str) -> anyhow::Result<()> {
    use knowhub_store_postgres::sqlx::{self, AssertSqlSafe, Connection};
    let mut c = sqlx::PgConnection::connect(url).await?;
    sqlx::raw_sql(AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))).execute(&mut c).await?;
    Ok(())
}

pub fn doc_record(d: &beir::Doc) -> NewExperience {
    let task = if d.title.is_empty() || d.text.contains(&d.title) {
        d.text.clone()
    } else {
        format!("{}\n{}", d.title, d.text)
    };
    NewExperience {
        id: Some(d.id.clone()),
        task,
        source: Source::Imported,
        status: Status::Approved,
        ..Default::default()
    }
}

/// Imports records concurrently so the store's group commit batches them.
pub async fn ingest<S: knowhub_core::Store + ?Sized>(
    store: &Arc<S>,
    recs: Vec<NewExperience>,
) -> anyhow::Result<usize> {
    let mut inserted = 0;
    for chunk in recs.chunks(512) {
        let mut set = tokio::task::JoinSet::new();
        for r in chunk.iter().cloned() {
            let s = store.clone();
            set.spawn(async move { s.import(r).await });
        }
        while let Some(r) = set.join_next().await {
            if r?? == knowhub_core::store::ImportOutcome::Inserted {
                inserted += 1;
            }
        }
    }
    Ok(inserted)
}

pub fn embedder_from_name(name: &str) -> anyhow::Result<Embedder> {
    let kind = match name {
        "none" => knowhub_ai::EmbedderKind::None,
        "openai" => knowhub_ai::EmbedderKind::OpenAi,
        "local" => knowhub_ai::EmbedderKind::Local,
        other => anyhow::bail!("unknown embedder {other:?} (none | openai | local)"),
    };
    let settings = knowhub_ai::EmbedderSettings {
        kind,
        base_url: std::env::var("KNOWHUB_EMBED_BASE_URL").ok(),
        model: std::env::var("KNOWHUB_EMBED_MODEL").ok(),
        api_key: std::env::var("KNOWHUB_EMBED_API_KEY").ok(),
        model_dir: std::env::var_os("KNOWHUB_MODEL_DIR").map(Into::into),
        timeout: Some(std::time::Duration::from_secs(60)),
        debias: std::env::var("KNOWHUB_EMBED_DEBIAS").as_deref() != Ok("0"),
    };
    match Embedder::from_settings(&settings) {
        (_, Some(problem)) => anyhow::bail!("{problem}"),
        (e, None) => Ok(e),
    }
}

/// Where a benchmark hub lives: a reusable folder per dataset and embedder under `cache`,
/// or the given temp dir. Import skips records already there and embedding skips records that
/// have a vector, so a reused hub costs nothing to bring up to date.
pub fn hub_dir(cache: Option<&std::path::Path>, dataset: &str, e: &Embedder, tmp: &std::path::Path) -> PathBuf {
    match cache {
        Some(c) => c.join(format!("{dataset}-{}", e.model_id().unwrap_or("none").replace([':', '/'], "_"))),
        None => tmp.to_path_buf(),
    }
}

pub async fn embed_all(hub: &Hub, model: &str) -> anyhow::Result<usize> {
    let mut n = 0;
    loop {
        let k = hub.embed_pending(model).await?;
        if k == 0 {
            return Ok(n);
        }
        n += k;
    }
}

/// `weighted:V:T[:lists]`, `rrf:K[:lists]`, `agree:V:T`, `calibrated` or `calibrated:R:V:T`; `:lists` fuses the candidate lists as returned
/// (a candidate missing from one list scores 0 there) instead of scoring the whole union.
pub fn parse_fusion(s: &str) -> anyhow::Result<(knowhub_core::rank::Fusion, bool)> {
    let p: Vec<&str> = s.split(':').collect();
    let lists = p.last() == Some(&"lists");
    let p = if lists { &p[..p.len() - 1] } else { &p[..] };
    Ok((
        match p {
            ["weighted", v, t] => knowhub_core::rank::Fusion::Weighted { vector: v.parse()?, text: t.parse()? },
            ["rrf", k] => knowhub_core::rank::Fusion::Rrf { k: k.parse()? },
            ["agree", v, t] => knowhub_core::rank::Fusion::Agreement { vector: v.parse()?, text: t.parse()? },
            ["calibrated"] => knowhub_core::rank::Fusion::Calibrated { relevance: 1.0, vector: 0.0, text: 0.0 },
            ["calibrated", r, v, t] => {
                knowhub_core::rank::Fusion::Calibrated { relevance: r.parse()?, vector: v.parse()?, text: t.parse()? }
            }
            _ => anyhow::bail!(
                "bad fusion {s:?}: weighted:V:T[:lists], rrf:K[:lists], agree:V:T, calibrated or calibrated:R:V:T"
            ),
        },
        !lists,
    ))
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    println!("| dataset | docs | queries | mode | nDCG@10 | recall@5 | search p50 (ms) |");
    println!("|---|---|---|---|---|---|---|");
    for dir in &a.datasets {
        let ds = beir::load(dir, &a.split)?;
        let embedder = Arc::new(embedder_from_name(&a.embedder)?);
        let tmp = tempfile::tempdir()?;
        let (mut pg_db, mut pg) = (None, None);
        let store: Arc<dyn Store> = match &a.database_url {
            Some(url) => {
                let (db_url, name) = fresh_pg_database(url, &ds.name).await?;
                pg_db = Some(name);
                let mut opts = PgOptions::default();
                if let Some(n) = a.pg_fts_bounded_from {
                    opts.fts_bounded_from = n;
                }
                let s = Arc::new(PgStore::connect(&db_url, opts).await?);
                pg = Some(s.clone());
                s
            }
            None => {
                let dir = hub_dir(a.cache_dir.as_deref(), &ds.name, &embedder, tmp.path());
                Arc::new(SqliteStore::open(
                    &dir,
                    OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
                )?)
            }
        };
        let t0 = Instant::now();
        let inserted = ingest(&store, ds.docs.iter().map(doc_record).collect()).await?;
        let ingest_s = t0.elapsed().as_secs_f64();
        if let Some(pg) = &pg {
            // IDF comes from ANALYZE's statistics; a running hub has them (autovacuum).
            knowhub_store_postgres::sqlx::query("ANALYZE").execute(pg.pool()).await?;
        }
        let hub = Hub::new(store.clone(), embedder.clone(), SearchConfig::default());
        let mut variants: Vec<(String, SearchMode, Arc<Hub>)> = Vec::new();
        for mode in &a.modes {
            let m = SearchMode::parse(mode).ok_or_else(|| anyhow::anyhow!("bad mode {mode}"))?;
            if m != SearchMode::Fts && !embedder.is_enabled() {
                continue;
            }
            if m == SearchMode::Hybrid {
                for f in &a.fusions {
                    let (fusion, score_union) = parse_fusion(f)?;
                    let cfg = SearchConfig { fusion, score_union, ..SearchConfig::default() };
                    variants.push((format!("hybrid {f}"), m, Hub::new(store.clone(), embedder.clone(), cfg)));
                }
            } else {
                variants.push((mode.clone(), m, hub.clone()));
            }
        }
        let mut embed_s = 0.0;
        if let Some(m) = embedder.model_id() {
            let t = Instant::now();
            embed_all(&hub, m).await?;
            embed_s = t.elapsed().as_secs_f64();
        }
        eprintln!(
            "{}: {} docs ({} inserted) in {:.1}s, embedded in {:.1}s",
            ds.name,
            ds.docs.len(),
            inserted,
            ingest_s,
            embed_s
        );
        let queries: Vec<&beir::Query> = ds.queries.iter().take(a.max_queries.unwrap_or(usize::MAX)).collect();
        // Every variant runs each query in turn, so the query embedding is computed once (the
        // first variant pays it; the rest hit the embedder's cache): compare quality across
        // variants, and take latency from the first vector-using variant.
        let mut acc: Vec<(f64, f64, Vec<f64>)> =
            variants.iter().map(|_| (0.0, 0.0, Vec::with_capacity(queries.len()))).collect();
        for q in &queries {
            let rel = &ds.qrels[&q.id];
            for ((_, m, hub), (ndcg, rec, lat)) in variants.iter().zip(acc.iter_mut()) {
                let sq = SearchQuery {
                    q: q.text.clone(),
                    top_k: 10,
                    filter: SearchFilter { min_score: 1, ..Default::default() },
                    outcome: None,
                    mode: *m,
                    min_relevance: Some(0.0),
                    scope: None,
                };
                let t = Instant::now();
                let r = hub.search(&knowhub_core::Caller::local(), &sq).await?;
                lat.push(t.elapsed().as_secs_f64() * 1000.0);
                let ids: Vec<String> = r.results.into_iter().map(|h| h.id).collect();
                *ndcg += beir::ndcg_at(&ids, rel, 10);
                *rec += beir::recall_at(&ids, rel, 5);
            }
        }
        for ((mode, _, _), (ndcg, rec, mut lat)) in variants.iter().zip(acc) {
            lat.sort_by(|x, y| x.total_cmp(y));
            let n = queries.len().max(1) as f64;
            let p50 = crate::percentile(&lat, 50.0);
            println!(
                "| {} | {} | {} | {} | {:.3} | {:.3} | {:.2} |",
                ds.name,
                ds.docs.len(),
                queries.len(),
                mode,
                ndcg / n,
                rec / n,
                p50
            );
            if a.json {
                println!(
                    "{}",
                    serde_json::json!({"dataset": ds.name, "mode": mode, "ndcg@10": ndcg / n, "recall@5": rec / n, "queries": queries.len(), "docs": ds.docs.len(), "p50_ms": p50})
                );
            }
        }
        if let (Some(url), Some(name)) = (&a.database_url, &pg_db) {
            drop((variants, hub, store, pg));
            drop_pg_database(url, name).await?;
        }
    }
    Ok(())
}
