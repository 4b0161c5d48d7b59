//! Submit latency against the number of stored records with the same resource: one hub empty,
//! one holding `--records` records of one resource, both embedded, served over HTTP in this
//! process and sent the same kind of submit alternately from one client, so both see the same
//! machine load. A new record is compared with the stored vectors of every record with its
//! resource key (a store query, no re-embedding), so the two should cost about the same.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use knowhub_core::{NewExperience, Source, Status, Store};
use knowhub_service::{Hub, SearchConfig};
use knowhub_store_postgres::{PgOptions, PgStore};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{load, percentile, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records of the one resource in the full hub.
    #[arg(long, default_value_t = 5_000)]
    records: usize,
    /// Timed submits to each hub (after `--warmup` untimed ones).
    #[arg(long, default_value_t = 300)]
    submits: usize,
    #[arg(long, default_value_t = 10)]
    warmup: usize,
    /// The resource every record and submit names.
    #[arg(long, default_value = "git")]
    resource: String,
    /// Folders with BEIR corpora to draw real text from.
    #[arg(long, default_value = "../shared/data/retrieval")]
    data: PathBuf,
    /// Embedder: none | openai | local.
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Two empty PostgreSQL databases (fresh, full) instead of SQLite temp dirs.
    #[arg(long, num_args = 2)]
    database_urls: Vec<String>,
}

async fn open(dir: &std::path::Path, url: Option<&String>, model: Option<&str>) -> anyhow::Result<Arc<dyn Store>> {
    Ok(match url {
        Some(u) => Arc::new(PgStore::connect(u, PgOptions::default()).await?),
        None => {
            Arc::new(SqliteStore::open(dir, OpenOptions { vector_model: model.map(str::to_string), exclusive: true })?)
        }
    })
}

/// Record `i` of the resource: a real text as the task (each record another task).
fn record(texts: &[String], resource: &str, i: usize) -> NewExperience {
    NewExperience {
        id: Some(format!("r{i}")),
        task: load::record(texts, i).chars().take(400).collect(),
        resource: resource.to_string(),
        result: format!("worked on attempt {}", i % 7 + 1),
        source: Source::Imported,
        status: Status::Approved,
        ..Default::default()
    }
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!(a.database_urls.is_empty() || a.database_urls.len() == 2, "--database-urls takes two URLs");
    let (texts, _) = load::corpus(&a.data, None)?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let model = embedder.model_id().map(str::to_string);
    let (d1, d2) = (tempfile::tempdir()?, tempfile::tempdir()?);
    let fresh = open(d1.path(), a.database_urls.first(), model.as_deref()).await?;
    let full = open(d2.path(), a.database_urls.get(1), model.as_deref()).await?;
    anyhow::ensure!(fresh.count().await? == 0 && full.count().await? == 0, "the hubs must start empty");
    let t = Instant::now();
    let recs: Vec<NewExperience> = (0..a.records).map(|i| record(&texts, &a.resource, i)).collect();
    let n = retrieval::ingest(&full, recs).await?;
    println!("full hub: {n} records of resource {:?} imported in {:.1}s", a.resource, t.elapsed().as_secs_f64());
    let hubs = [
        Hub::new(fresh.clone(), embedder.clone(), SearchConfig::default()),
        Hub::new(full.clone(), embedder.clone(), SearchConfig::default()),
    ];
    if let Some(m) = &model {
        let t = Instant::now();
        let n = retrieval::embed_all(&hubs[1], m).await?;
        println!("full hub: embedded {n} records in {:.1}s", t.elapsed().as_secs_f64());
    }
    let mut urls = Vec::new();
    for h in &hubs {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        urls.push(format!("http://{}", listener.local_addr()?));
        tokio::spawn(knowhub_http::serve(listener, knowhub_http::app(h.clone())));
    }
    let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
    // Submits are real texts not in the full hub, the same ones for both hubs in turn.
    let mut lat = [Vec::new(), Vec::new()];
    let mut merged = [0usize, 0usize];
    for i in 0..a.warmup + a.submits {
        let src = a.records + i;
        let body = serde_json::json!({
            "task": load::record(&texts, src).chars().take(400).collect::<String>(),
            "resource": a.resource,
            "result": format!("worked on attempt {}", src % 7 + 1),
            "score": 4,
            "agent_id": "bench",
        });
        // Alternate which hub goes first, so neither always follows the other.
        let order = if i % 2 == 0 { [0, 1] } else { [1, 0] };
        for h in order {
            let s = Instant::now();
            let r = client.post(format!("{}/api/submit", urls[h])).json(&body).send().await?;
            anyhow::ensure!(r.status().is_success(), "submit failed: {}", r.status());
            let v: serde_json::Value = r.json().await?;
            let ms = s.elapsed().as_secs_f64() * 1000.0;
            if i >= a.warmup {
                lat[h].push(ms);
                merged[h] += usize::from(v.get("duplicate_of").is_some());
            }
        }
    }
    let names = ["fresh hub", "full hub"];
    let mut p50 = [0.0; 2];
    for h in 0..2 {
        lat[h].sort_by(|x, y| x.total_cmp(y));
        p50[h] = percentile(&lat[h], 50.0);
        let total = hubs[h].store().count().await?;
        println!(
            "{} ({} records before, {} after): {} submits over HTTP, p50 {:.2} ms, p99 {:.2} ms, merged {}",
            names[h],
            if h == 0 { 0 } else { a.records },
            total,
            lat[h].len(),
            p50[h],
            percentile(&lat[h], 99.0),
            merged[h]
        );
    }
    println!("full / fresh p50: {:.2}x", p50[1] / p50[0]);
    Ok(())
}
