//! Submit throughput and search latency at a given corpus size, on loopback only.
//!
//! The corpus is real text (the BEIR corpora under ../shared/data/retrieval), padded with
//! recombined sentences when more records are asked for than the sets hold. Queries are the
//! sets' real queries.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use knowhub_core::{NewExperience, SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_postgres::{PgOptions, PgStore};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{beir, percentile, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records in the hub before measuring.
    #[arg(long, default_value_t = 10_000)]
    records: usize,
    /// Search queries to time.
    #[arg(long, default_value_t = 500)]
    queries: usize,
    /// HTTP submits to time (on top of `records`).
    #[arg(long, default_value_t = 5_000)]
    submits: usize,
    /// Concurrent HTTP clients for the submit phase.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    /// Folders with BEIR corpora to draw real text from.
    #[arg(long, default_value = "../shared/data/retrieval")]
    data: PathBuf,
    /// Embedder: none | openai | local.
    #[arg(long, default_value = "none")]
    embedder: String,
    /// Search mode to time.
    #[arg(long, default_value = "hybrid")]
    mode: String,
    /// Build the hub in this (new) directory and keep it, instead of a temp dir.
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Benchmark PostgreSQL at this URL instead of a SQLite temp dir. A database that already
    /// holds `records` experiences is reused as it is (no import).
    #[arg(long, env = "KNOWHUB_DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// PostgreSQL only: serve from this many replicas (each its own pool, hub and HTTP port, in
    /// this process); submits and searches alternate between them.
    #[arg(long, default_value_t = 1)]
    replicas: usize,
    /// PostgreSQL only: fill every record with a random unit vector of this dimension (model
    /// `bench-random`), then time building the HNSW index and vector queries.
    #[arg(long)]
    hnsw_dim: Option<usize>,
    /// PostgreSQL only: `maintenance_work_mem` for the HNSW build (default: the server's).
    #[arg(long)]
    maintenance_work_mem: Option<String>,
    /// Take search queries only from the set folders whose name starts with this (e.g. `en_`
    /// for English-only queries); by default all sets, round-robin.
    #[arg(long)]
    query_sets: Option<String>,
    /// Instead of embedding the records, give them the real vectors of these embedded hubs
    /// (`retrieval --cache-dir`), mixed for the recombined records as their text is (`synth`):
    /// for hubs larger than the embedder can fill in a run. Queries are still embedded.
    #[arg(long, num_args = 1..)]
    vectors_from: Vec<PathBuf>,
}

pub(crate) fn corpus(data: &PathBuf, query_sets: Option<&str>) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let (mut texts, mut per_set) = (Vec::new(), Vec::<Vec<String>>::new());
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(data)?.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        if let Ok(ds) = beir::load(&d, "test") {
            texts.extend(ds.docs.into_iter().map(|d| d.text.chars().take(1500).collect::<String>()));
            let name = d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if query_sets.is_none_or(|p| name.starts_with(p)) {
                per_set.push(ds.queries.into_iter().map(|q| q.text).collect());
            }
        }
    }
    // Round-robin over the sets so any prefix mixes English and Chinese queries.
    let mut queries = Vec::new();
    for i in 0..per_set.iter().map(Vec::len).max().unwrap_or(0) {
        queries.extend(per_set.iter().filter_map(|s| s.get(i).cloned()));
    }
    anyhow::ensure!(!texts.is_empty(), "no BEIR corpora found under {}", data.display());
    Ok((texts, queries))
}

/// The i-th record: real text first, then deterministic recombinations of it.
pub(crate) fn record(texts: &[String], i: usize) -> String {
    match sources(i, texts.len()) {
        None => texts[i].clone(),
        Some((a, b)) => {
            let b: String = texts[b].chars().take(120).collect();
            format!("{}\n{b}", texts[a])
        }
    }
}

/// Which two of `n` real records record `i` recombines (`a`, then a piece of `b`); `None` for
/// a real record. `synth::vector` mixes the same two records' vectors.
pub(crate) fn sources(i: usize, n: usize) -> Option<(usize, usize)> {
    (i >= n).then(|| (i % n, (i.wrapping_mul(7919) / n + i) % n))
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let (texts, queries) = corpus(&a.data, a.query_sets.as_deref())?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let tmp = tempfile::tempdir()?;
    let dir = a.keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    let mut pg = Vec::new();
    let stores: Vec<Arc<dyn Store>> = match &a.database_url {
        Some(url) => {
            anyhow::ensure!(a.replicas >= 1, "--replicas must be at least 1");
            for _ in 0..a.replicas {
                let opts = PgOptions { max_connections: a.concurrency.max(16) as u32, ..Default::default() };
                pg.push(Arc::new(PgStore::connect(url, opts).await?));
            }
            pg.iter().map(|s| s.clone() as Arc<dyn Store>).collect()
        }
        None => {
            anyhow::ensure!(a.replicas == 1, "--replicas needs --database-url (SQLite serves from one process)");
            anyhow::ensure!(a.hnsw_dim.is_none(), "--hnsw-dim needs --database-url");
            vec![Arc::new(SqliteStore::open(
                &dir,
                OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
            )?)]
        }
    };
    let store = stores[0].clone();
    let before = store.count().await? as usize;
    if before >= a.records {
        println!("corpus: reusing the {before} records already in the store");
    } else {
        anyhow::ensure!(
            before == 0,
            "the store already holds {before} records (fewer than --records): use an empty one"
        );
        let t = Instant::now();
        let recs: Vec<NewExperience> = (0..a.records)
            .map(|i| {
                let d = beir::Doc { id: format!("r{i}"), title: String::new(), text: record(&texts, i) };
                retrieval::doc_record(&d)
            })
            .collect();
        let inserted = retrieval::ingest(&store, recs).await?;
        let import_s = t.elapsed().as_secs_f64();
        println!(
            "corpus: {} records ({} distinct inserted) imported in {:.1}s ({:.0}/s)",
            a.records,
            inserted,
            import_s,
            inserted as f64 / import_s
        );
    }
    if let Some(s) = pg.first() {
        // IDF comes from ANALYZE's statistics; a running hub has them (autovacuum).
        knowhub_store_postgres::sqlx::query("ANALYZE").execute(s.pool()).await?;
    }
    if let (Some(dim), Some(s)) = (a.hnsw_dim, pg.first()) {
        hnsw(s, dim, a.maintenance_work_mem.as_deref(), a.queries).await?;
    }
    let hubs: Vec<Arc<Hub>> =
        stores.iter().map(|s| Hub::new(s.clone(), embedder.clone(), SearchConfig::default())).collect();
    let hub = hubs[0].clone();
    if let (Some(m), false) = (embedder.model_id(), a.vectors_from.is_empty()) {
        let t = Instant::now();
        let (model, base) = crate::synth::real_vectors(&a.vectors_from)?;
        anyhow::ensure!(model == m, "{:?} hold {model} vectors, the embedder makes {m}", a.vectors_from);
        // Record i's vector is mixed from the same real records as its text, so both must be
        // the same records in the same order.
        anyhow::ensure!(
            base.len() == texts.len(),
            "{:?} hold {} vectors for the corpus's {} real records",
            a.vectors_from,
            base.len(),
            texts.len()
        );
        let mut n = 0;
        loop {
            let missing = store.missing_vectors(m, 4096).await?;
            if missing.is_empty() {
                break;
            }
            let items = crate::synth::vectors_for(missing, &base);
            n += items.len();
            store.set_vectors(m, &items).await?;
        }
        println!(
            "vectors: {n} records given mixtures of {} real vectors in {:.1}s (not embedded)",
            base.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if let Some(m) = embedder.model_id() {
        let t = Instant::now();
        let n = retrieval::embed_all(&hub, m).await?;
        println!(
            "embedded {n} records in {:.1}s ({:.0}/s)",
            t.elapsed().as_secs_f64(),
            n as f64 / t.elapsed().as_secs_f64()
        );
    }
    let mut urls = Vec::new();
    for h in &hubs {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        urls.push(format!("http://{}", listener.local_addr()?));
        let app = knowhub_http::app(h.clone());
        tokio::spawn(knowhub_http::serve(listener, app));
    }
    let urls = Arc::new(urls);
    let client =
        reqwest::Client::builder().pool_max_idle_per_host(a.concurrency).timeout(Duration::from_secs(30)).build()?;

    // Submit throughput over HTTP with `concurrency` clients.
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // New texts on every run, also when a database is reused (else the submits are duplicates).
    let base = store.count().await? as usize;
    let t = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..a.concurrency {
        let (client, urls, next, texts) = (client.clone(), urls.clone(), next.clone(), texts.clone());
        let total = a.submits;
        set.spawn(async move {
            let mut lat = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= total {
                    return Ok::<_, anyhow::Error>(lat);
                }
                let body = serde_json::json!({"task": format!("bench submit {} {}", base + i, record(&texts, base + i).chars().take(300).collect::<String>()), "resource": "knowhub-bench", "result": "ok", "score": 4});
                let url = &urls[i % urls.len()];
                let s = Instant::now();
                let r = client.post(format!("{url}/api/submit")).json(&body).send().await?;
                anyhow::ensure!(r.status().is_success(), "submit failed: {}", r.status());
                lat.push(s.elapsed().as_secs_f64() * 1000.0);
            }
        });
    }
    let mut sub_lat = Vec::new();
    while let Some(r) = set.join_next().await {
        sub_lat.extend(r??);
    }
    let secs = t.elapsed().as_secs_f64();
    sub_lat.sort_by(|x, y| x.total_cmp(y));
    println!(
        "submit over HTTP: {} submits, {} clients, {} replica(s): {:.0} submits/s (latency p50 {:.2} ms, p99 {:.2} ms)",
        a.submits,
        a.concurrency,
        urls.len(),
        a.submits as f64 / secs,
        percentile(&sub_lat, 50.0),
        percentile(&sub_lat, 99.0)
    );
    if let Some(m) = embedder.model_id() {
        retrieval::embed_all(&hub, m).await?;
    }

    // Search latency: server-side (the Hub call) and end to end over HTTP, one client.
    let mode = SearchMode::parse(&a.mode).ok_or_else(|| anyhow::anyhow!("bad mode"))?;
    // Distinct queries for the two passes, so the HTTP pass cannot hit the query-embedding
    // cache warmed by the server-side pass.
    let qs: Vec<&String> = queries.iter().cycle().take(a.queries).collect();
    let qs_http: Vec<&String> = queries.iter().cycle().skip(a.queries).take(a.queries).collect();
    let (mut server, mut http) = (Vec::new(), Vec::new());
    let mut used_mode = mode;
    let mut stages: [Vec<f64>; 4] = Default::default();
    for (i, q) in qs.iter().enumerate() {
        let hub = &hubs[i % hubs.len()];
        let sq = SearchQuery {
            q: q.to_string(),
            top_k: 5,
            filter: SearchFilter { min_score: 1, ..Default::default() },
            outcome: None,
            mode,
            min_relevance: None,
            scope: None,
        };
        let s = Instant::now();
        let r = hub.search(&knowhub_core::Caller::local(), &sq).await?;
        server.push(s.elapsed().as_secs_f64() * 1000.0);
        used_mode = r.mode;
        let t = r.timings;
        for (v, x) in stages.iter_mut().zip([t.embed_ms, t.text_ms, t.vector_ms, t.merge_ms]) {
            v.push(x);
        }
    }
    for v in stages.iter_mut() {
        v.sort_by(|x, y| x.total_cmp(y));
    }
    let pp = |v: &Vec<f64>| format!("{:.2} / {:.2}", percentile(v, 50.0), percentile(v, 99.0));
    println!(
        "server-side split, p50 / p99 ms: embed {} | full-text {} | vector {} | merge {}",
        pp(&stages[0]),
        pp(&stages[1]),
        pp(&stages[2]),
        pp(&stages[3])
    );
    for (i, q) in qs_http.iter().enumerate() {
        let url = &urls[i % urls.len()];
        let s = Instant::now();
        let r = client
            .get(format!("{url}/api/search"))
            .query(&[("q", q.as_str()), ("top_k", "5"), ("min_score", "1"), ("mode", &a.mode)])
            .send()
            .await?;
        anyhow::ensure!(r.status().is_success());
        let _ = r.bytes().await?;
        http.push(s.elapsed().as_secs_f64() * 1000.0);
    }
    server.sort_by(|x, y| x.total_cmp(y));
    http.sort_by(|x, y| x.total_cmp(y));
    let total = store.count().await?;
    println!("resident memory (VmRSS) of the benchmark process holding the hub: {} MB", rss_mb());
    println!(
        "search ({:?}) at {} records, {} queries: server-side p50 {:.2} ms p99 {:.2} ms | HTTP loopback p50 {:.2} ms p99 {:.2} ms",
        used_mode,
        total,
        qs.len(),
        percentile(&server, 50.0),
        percentile(&server, 99.0),
        percentile(&http, 50.0),
        percentile(&http, 99.0)
    );
    Ok(())
}

/// Fills every record with a random unit vector of `dim` (SQL, no embedder), then times building
/// the store's HNSW index from scratch and `queries` filtered vector searches through the store.
/// Random vectors are the hard case for HNSW (no cluster structure), so these are pessimistic.
async fn hnsw(s: &Arc<PgStore>, dim: usize, mwm: Option<&str>, queries: usize) -> anyhow::Result<()> {
    use knowhub_store_postgres::sqlx::{self, AssertSqlSafe};
    let pool = s.pool();
    let t = Instant::now();
    sqlx::raw_sql(AssertSqlSafe(format!("DROP INDEX IF EXISTS vectors_hnsw_{dim}"))).execute(pool).await?;
    sqlx::raw_sql(AssertSqlSafe(format!(
        "INSERT INTO vectors (seq, model, dim, embedding) SELECT e.seq, 'bench-random', {dim}, \
         l2_normalize((SELECT array_agg(random() - 0.5) FROM generate_series(1, {dim} + 0 * e.seq))::vector) \
         FROM experiences e ON CONFLICT (seq) DO UPDATE SET model = EXCLUDED.model, dim = EXCLUDED.dim, embedding = EXCLUDED.embedding"
    )))
    .execute(pool)
    .await?;
    let n = s.vector_count("bench-random").await?;
    println!("pgvector: {n} random {dim}-d vectors written in {:.1}s", t.elapsed().as_secs_f64());
    let mut conn = pool.acquire().await?;
    if let Some(m) = mwm {
        sqlx::raw_sql(AssertSqlSafe(format!("SET maintenance_work_mem = '{}'", m.replace('\'', ""))))
            .execute(&mut *conn)
            .await?;
    }
    sqlx::raw_sql("SET statement_timeout = 0").execute(&mut *conn).await?;
    let mwm_now: String = sqlx::query_scalar("SHOW maintenance_work_mem").fetch_one(&mut *conn).await?;
    let workers: String = sqlx::query_scalar("SHOW max_parallel_maintenance_workers").fetch_one(&mut *conn).await?;
    let t = Instant::now();
    sqlx::raw_sql(AssertSqlSafe(knowhub_store_postgres::hnsw_index_sql(dim))).execute(&mut *conn).await?;
    println!(
        "pgvector: HNSW (m=16, ef_construction=64, cosine) over {n} x {dim} built in {:.1}s \
         (maintenance_work_mem={mwm_now}, max_parallel_maintenance_workers={workers})",
        t.elapsed().as_secs_f64()
    );
    drop(conn);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut lat = Vec::new();
    let filter = SearchFilter { min_score: 1, ..Default::default() };
    for _ in 0..queries {
        let v: Vec<f32> = (0..dim)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                (rng >> 40) as f32 / (1u64 << 24) as f32 - 0.5
            })
            .collect();
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        let v: Vec<f32> = v.iter().map(|x| x / norm).collect();
        let t = Instant::now();
        let r = s.vector_candidates("bench-random", &v, &filter, 20).await?;
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(r.len() == 20, "vector search returned {} of 20", r.len());
    }
    lat.sort_by(|x, y| x.total_cmp(y));
    println!(
        "pgvector: {queries} filtered top-20 vector searches (store call): p50 {:.2} ms, p99 {:.2} ms",
        percentile(&lat, 50.0),
        percentile(&lat, 99.0)
    );
    Ok(())
}

/// Resident set size of this process in MB (Linux), or 0 if unknown.
pub fn rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map(|kb| kb / 1024)
        .unwrap_or(0)
}
