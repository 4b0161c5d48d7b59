//! Scoped search against unscoped search on one hub of many scopes, in one run.
//!
//! A scope filter must not make search slower or lose results: on SQLite the in-memory indexes
//! filter while they scan, on PostgreSQL the HNSW index scan runs first and the scope filter
//! after it (pgvector's iterative scan then keeps searching). The hub holds `load`'s corpus
//! (real text, recombined past the real records, with the real vectors of `--vectors-from`),
//! each record in one of `--scopes` scopes: `org` holds a fifth, and teams `team/t1` to
//! `team/t{scopes-1}` share the rest with Zipf weights 1/k (a few large teams, many small).
//!
//! Each query runs once per kind of caller, the order rotating, with its embedding cached
//! beforehand so every kind pays the same (none); then two recall checks, untimed.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use knowhub_core::{Caller, ReadScopes, Role, SearchFilter, Store};
use knowhub_service::{Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_postgres::{PgOptions, PgStore};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{beir, load, percentile, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Records in the hub.
    #[arg(long, default_value_t = 100_000)]
    records: usize,
    /// Scopes the records are spread over (`org` and `team/t1`..).
    #[arg(long, default_value_t = 50)]
    scopes: usize,
    /// Queries; each runs once per kind of caller.
    #[arg(long, default_value_t = 300)]
    queries: usize,
    /// Folders with BEIR corpora to draw real text and queries from.
    #[arg(long, default_value = "../shared/data/retrieval")]
    data: PathBuf,
    /// Embedder: local | openai (vectors are what scoped search filters).
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Real vectors of embedded hubs (`retrieval --cache-dir`), as in `load --vectors-from`.
    #[arg(long, num_args = 1..)]
    vectors_from: Vec<PathBuf>,
    /// SQLite: build the hub in this directory and keep it; a later run reuses it.
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Benchmark PostgreSQL at this URL; a database holding `records` records is reused.
    #[arg(long, env = "KNOWHUB_DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// PostgreSQL: `maintenance_work_mem` for building the HNSW index after the bulk load.
    #[arg(long, default_value = "512MB")]
    maintenance_work_mem: String,
}

/// The scope of record `i`: `org` for a fifth, else a team drawn with Zipf weights 1/k.
/// A hash of `i`, not `i` itself, so real and recombined records spread alike.
fn scope_of(i: usize, teams: &[f64]) -> String {
    let mut x = (i as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    let u = (x >> 11) as f64 / (1u64 << 53) as f64;
    if u < 0.2 || teams.is_empty() {
        return "org".into();
    }
    let u = (u - 0.2) / 0.8;
    let k = teams.iter().position(|&c| u < c).unwrap_or(teams.len() - 1);
    format!("team/t{}", k + 1)
}

/// Cumulative Zipf weights 1/k over `n` teams.
fn team_cdf(n: usize) -> Vec<f64> {
    let total: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
    let mut acc = 0.0;
    (1..=n)
        .map(|k| {
            acc += 1.0 / k as f64 / total;
            acc
        })
        .collect()
}

/// The kinds of caller measured, for query `j`.
const KINDS: [&str; 4] = ["unscoped (admin, *)", "org + 1 team (agent)", "scope=team/x", "10 scopes (agent)"];

fn caller_and_scope(kind: usize, j: usize, teams: usize) -> (Caller, Option<String>) {
    let team = |k: usize| format!("team/t{}", (j * 7 + k) % teams + 1);
    let agent = |read: Vec<String>| {
        let w = read[1].clone();
        Caller::key("bench-agent", Role::Agent).with_scopes(ReadScopes::Only(read), w)
    };
    match kind {
        0 => (Caller::key("bench-admin", Role::Admin), None),
        1 => (agent(vec!["org".into(), team(0)]), None),
        2 => (Caller::key("bench-admin", Role::Admin), Some(team(0))),
        _ => (agent(std::iter::once("org".to_string()).chain((0..9).map(team)).collect()), None),
    }
}

fn query(q: &str, top_k: usize, scope: Option<String>, min_relevance: Option<f64>) -> SearchQuery {
    SearchQuery {
        q: q.to_string(),
        top_k,
        filter: SearchFilter { min_score: 1, ..Default::default() },
        outcome: None,
        mode: SearchMode::Hybrid,
        min_relevance,
        scope,
    }
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    anyhow::ensure!(a.scopes >= 11, "--scopes must be at least 11 (the widest key reads 10)");
    let teams = a.scopes - 1;
    let cdf = team_cdf(teams);
    let (texts, queries) = load::corpus(&a.data, None)?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let model = embedder.model_id().ok_or_else(|| anyhow::anyhow!("scoped search needs an embedder"))?.to_string();
    let tmp = tempfile::tempdir()?;
    let dir = a.keep.clone().unwrap_or_else(|| tmp.path().to_path_buf());
    let pg = match &a.database_url {
        Some(url) => {
            Some(Arc::new(PgStore::connect(url, PgOptions { max_connections: 16, ..Default::default() }).await?))
        }
        None => None,
    };
    let store: Arc<dyn Store> = match &pg {
        Some(s) => s.clone(),
        None => Arc::new(SqliteStore::open(&dir, OpenOptions { vector_model: Some(model.clone()), exclusive: true })?),
    };
    let backend = if pg.is_some() { "PostgreSQL + pgvector" } else { "SQLite" };

    let before = store.count().await? as usize;
    if before >= a.records {
        println!("corpus: reusing the {before} records already in the store");
    } else {
        anyhow::ensure!(before == 0, "the store holds {before} records (fewer than --records): use an empty one");
        let t = Instant::now();
        let recs = (0..a.records)
            .map(|i| {
                let d = beir::Doc { id: format!("r{i}"), title: String::new(), text: load::record(&texts, i) };
                knowhub_core::NewExperience { scope: scope_of(i, &cdf), ..retrieval::doc_record(&d) }
            })
            .collect();
        let n = retrieval::ingest(&store, recs).await?;
        println!("corpus: {n} distinct of {} records imported in {:.1}s", a.records, t.elapsed().as_secs_f64());
    }
    if store.vector_count(&model).await? < store.count().await? {
        write_vectors(&store, pg.as_deref(), &a, &model, texts.len()).await?;
    }
    if let Some(s) = &pg {
        knowhub_store_postgres::sqlx::query("ANALYZE").execute(s.pool()).await?;
        // Searches would start these builds themselves; the timings are of a settled hub.
        let t = Instant::now();
        let scan = embedder.embed_query(&queries[0]).await?.scan.clone();
        let indexed = s.index_for(&scan).await?;
        println!(
            "vector indexes for the searches' query shape built; scopes with their own: {} ({:.1}s)",
            indexed.join(", "),
            t.elapsed().as_secs_f64()
        );
    }
    let hub = Hub::new(store.clone(), embedder.clone(), SearchConfig::default());

    // Every record's stored vector and scope, for the exact nearest neighbours.
    let t = Instant::now();
    let ids: Vec<String> = (0..a.records).map(|i| format!("r{i}")).collect();
    let mut exact: Vec<(usize, Vec<f32>)> = Vec::with_capacity(a.records);
    for chunk in ids.chunks(4096) {
        for (id, v) in store.vectors(&model, chunk).await? {
            exact.push((id[1..].parse()?, v));
        }
    }
    let scope_of_rec: Vec<String> = (0..a.records).map(|i| scope_of(i, &cdf)).collect();
    let mut sizes = std::collections::HashMap::<&str, usize>::new();
    for (i, _) in &exact {
        *sizes.entry(scope_of_rec[*i].as_str()).or_default() += 1;
    }
    let (largest, smallest) = (
        sizes.get("team/t1").copied().unwrap_or(0),
        sizes.get(format!("team/t{teams}").as_str()).copied().unwrap_or(0),
    );
    println!(
        "{backend}: {} records with vectors read back in {:.1}s; org {}, team/t1 {largest}, team/t{teams} {smallest}",
        exact.len(),
        t.elapsed().as_secs_f64(),
        sizes.get("org").copied().unwrap_or(0)
    );

    let qs: Vec<&String> = queries.iter().cycle().take(a.queries).collect();
    let t = Instant::now();
    for q in &qs {
        embedder.embed_query(q).await?;
    }
    println!("{} queries embedded (cached) in {:.1}s", qs.len(), t.elapsed().as_secs_f64());
    // Warm-up: a first pass, untimed, so no kind pays for cold caches or pages.
    for (j, q) in qs.iter().enumerate().take(50) {
        for k in 0..KINDS.len() {
            let (c, scope) = caller_and_scope(k, j, teams);
            hub.search(&c, &query(q, 10, scope, None)).await?;
        }
    }

    // Timed: the same queries, kinds interleaved in rotating order.
    let mut total: [Vec<f64>; 4] = Default::default();
    let mut vector: [Vec<f64>; 4] = Default::default();
    let mut text: [Vec<f64>; 4] = Default::default();
    let mut counts: [usize; 4] = [0; 4];
    // scope=team/x by the team's size: (share of records, total ms, vector-stage ms).
    let mut named: Vec<(f64, f64, f64)> = Vec::new();
    for (j, q) in qs.iter().enumerate() {
        for r in 0..KINDS.len() {
            let k = (j + r) % KINDS.len();
            let (c, scope) = caller_and_scope(k, j, teams);
            let s = Instant::now();
            let res = hub.search(&c, &query(q, 10, scope, None)).await?;
            total[k].push(s.elapsed().as_secs_f64() * 1000.0);
            vector[k].push(res.timings.vector_ms);
            if k == 2 {
                let size = sizes.get(caller_and_scope(2, j, teams).1.as_deref().unwrap_or("")).copied().unwrap_or(0);
                named.push((size as f64 / exact.len() as f64, total[k][total[k].len() - 1], res.timings.vector_ms));
            }
            text[k].push(res.timings.text_ms);
            counts[k] += res.count;
        }
    }
    for v in total.iter_mut().chain(vector.iter_mut()).chain(text.iter_mut()) {
        v.sort_by(|x, y| x.total_cmp(y));
    }
    let (p50u, p99u) = (percentile(&total[0], 50.0), percentile(&total[0], 99.0));
    println!(
        "\n{backend}, {} records in {} scopes, {} queries (hybrid, top 10), server-side:\n",
        exact.len(),
        a.scopes,
        qs.len()
    );
    println!("| caller | p50 ms | p99 ms | p50 / unscoped | p99 / unscoped | vector stage p50 | full-text stage p50 | mean hits |");
    println!("|---|---|---|---|---|---|---|---|");
    for k in 0..KINDS.len() {
        let (p50, p99) = (percentile(&total[k], 50.0), percentile(&total[k], 99.0));
        println!(
            "| {} | {p50:.2} | {p99:.2} | {:.2}x | {:.2}x | {:.2} | {:.2} | {:.1} |",
            KINDS[k],
            p50 / p50u,
            p99 / p99u,
            percentile(&vector[k], 50.0),
            percentile(&text[k], 50.0),
            counts[k] as f64 / qs.len() as f64
        );
    }

    // The vector stage alone, by filter: does its cost follow the number of scopes listed or
    // the share of rows that pass? "Every scope" passes all rows through a 50-entry list.
    let every: Vec<String> =
        std::iter::once("org".to_string()).chain((1..=teams).map(|k| format!("team/t{k}"))).collect();
    let filters: [(&str, Option<Vec<String>>); 4] = [
        ("no filter", None),
        ("every scope listed", Some(every)),
        ("org + 1 team", Some(vec!["org".into(), "team/t8".into()])),
        (
            "org + 9 teams",
            Some(std::iter::once("org".to_string()).chain((8..17).map(|k| format!("team/t{k}"))).collect()),
        ),
    ];
    let mut stage: [Vec<f64>; 4] = Default::default();
    for (j, q) in qs.iter().enumerate() {
        let scan = embedder.embed_query(q).await?.scan.clone();
        for r in 0..filters.len() {
            let k = (j + r) % filters.len();
            let scopes = &filters[k].1;
            let filter = SearchFilter { min_score: 1, scopes: scopes.clone(), ..Default::default() };
            let t = Instant::now();
            store.vector_candidates(&model, &scan, &filter, 40).await?;
            stage[k].push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    println!("\nVector stage alone (store call, top 40), p50 / p99 ms by filter:");
    for (k, (name, scopes)) in filters.iter().enumerate() {
        stage[k].sort_by(|x, y| x.total_cmp(y));
        let share = scopes.as_ref().map_or(1.0, |v| {
            v.iter().map(|s| sizes.get(s.as_str()).copied().unwrap_or(0)).sum::<usize>() as f64 / exact.len() as f64
        });
        println!(
            "  {name} ({:.0}% of rows pass): {:.2} / {:.2}",
            share * 100.0,
            percentile(&stage[k], 50.0),
            percentile(&stage[k], 99.0)
        );
    }

    // Recall 1, the vector stage: the store's candidates (the pool a top-10 search asks for)
    // against the exact nearest neighbours in the caller's scopes, over the stored f32 vectors.
    let pool = 10 * SearchConfig::default().candidate_multiplier;
    let mut recall: [Vec<f64>; 4] = Default::default();
    let mut short: [usize; 4] = [0; 4];
    let mut top10 = [0.0f64; 4];
    let mut named_recall: Vec<f64> = Vec::new();
    for (j, q) in qs.iter().enumerate() {
        let scan = embedder.embed_query(q).await?.scan.clone();
        let mut all: Vec<(f32, usize)> =
            exact.iter().map(|(i, v)| (v.iter().zip(&scan).map(|(x, y)| x * y).sum::<f32>(), *i)).collect();
        all.sort_by(|x, y| y.0.total_cmp(&x.0));
        for k in 0..KINDS.len() {
            let (c, scope) = caller_and_scope(k, j, teams);
            let filter =
                SearchFilter { min_score: 1, scopes: c.read_filter("scope", scope.as_deref())?, ..Default::default() };
            let ranked: Vec<String> = all
                .iter()
                .filter(|(_, i)| filter.allows_scope(&scope_of_rec[*i]))
                .take(pool)
                .map(|(_, i)| format!("r{i}"))
                .collect();
            let want: HashSet<String> = ranked.iter().cloned().collect();
            let got = store.vector_candidates(&model, &scan, &filter, pool).await?;
            let want10: HashSet<&String> = ranked.iter().take(10).collect();
            top10[k] +=
                got.iter().take(10).filter(|(id, _)| want10.contains(id)).count() as f64 / want10.len().max(1) as f64;
            if got.len() < want.len() {
                short[k] += 1;
            }
            let hit = got.iter().filter(|(id, _)| want.contains(id)).count();
            let r = hit as f64 / want.len().max(1) as f64;
            recall[k].push(r);
            if k == 2 {
                named_recall.push(r);
            }
        }
    }
    println!("\nVector stage: the store's top {pool} against the exact top {pool} in the caller's scopes:\n");
    println!("| caller | mean recall@{pool} | queries at recall@{pool} 1 | mean recall@10 | queries with fewer than {pool} candidates |");
    println!("|---|---|---|---|---|");
    for k in 0..KINDS.len() {
        let full = recall[k].iter().filter(|r| **r >= 1.0).count();
        let mean = recall[k].iter().sum::<f64>() / recall[k].len().max(1) as f64;
        println!(
            "| {} | {mean:.3} | {full} / {} | {:.3} | {} |",
            KINDS[k],
            recall[k].len(),
            top10[k] / recall[k].len().max(1) as f64,
            short[k]
        );
    }
    println!("\nscope=team/x by the team's share of the records:\n");
    println!("| team size | queries | p50 ms | p99 ms | vector stage p50 | mean recall@{pool} |");
    println!("|---|---|---|---|---|---|");
    for (name, lo, hi) in [("under 1%", 0.0, 0.01), ("1-5%", 0.01, 0.05), ("5% and more", 0.05, 1.1)] {
        let pick: Vec<usize> = (0..named.len()).filter(|&i| named[i].0 >= lo && named[i].0 < hi).collect();
        let mut t: Vec<f64> = pick.iter().map(|&i| named[i].1).collect();
        let mut v: Vec<f64> = pick.iter().map(|&i| named[i].2).collect();
        t.sort_by(|x, y| x.total_cmp(y));
        v.sort_by(|x, y| x.total_cmp(y));
        let r = pick.iter().map(|&i| named_recall[i]).sum::<f64>() / pick.len().max(1) as f64;
        println!(
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {r:.3} |",
            pick.len(),
            percentile(&t, 50.0),
            percentile(&t, 99.0),
            percentile(&v, 50.0)
        );
    }

    // Recall 2, the whole search: the agent's (org + 1 team) top 10 against the unscoped
    // ranking restricted to its scopes, from the unscoped top 10 and from a deep unscoped top 50.
    let (mut kept, mut of, mut same, mut overlap) = (0usize, 0usize, 0usize, 0usize);
    for (j, q) in qs.iter().enumerate() {
        let (c, scope) = caller_and_scope(1, j, teams);
        let allowed = c.read_filter("scope", scope.as_deref())?;
        let allows = |s: &str| allowed.as_ref().is_none_or(|v| v.iter().any(|x| x == s));
        let admin = Caller::key("bench-admin", Role::Admin);
        let scoped = hub.search(&c, &query(q, 10, None, Some(0.0))).await?;
        let got: HashSet<&str> = scoped.results.iter().map(|h| h.id.as_str()).collect();
        let deep = hub.search(&admin, &query(q, 50, None, Some(0.0))).await?;
        let top10 = hub.search(&admin, &query(q, 10, None, Some(0.0))).await?;
        for h in top10.results.iter().filter(|h| allows(&h.scope)) {
            of += 1;
            kept += usize::from(got.contains(h.id.as_str()));
        }
        let want: HashSet<&str> =
            deep.results.iter().filter(|h| allows(&h.scope)).take(10).map(|h| h.id.as_str()).collect();
        let o = want.intersection(&got).count();
        overlap += o;
        same += usize::from(o == want.len().max(got.len()));
    }
    println!(
        "\nWhole search, org + 1 team (min_relevance 0): in-scope hits of the unscoped top 10 kept in the scoped top 10: {kept} / {of}; \
         scoped top 10 = the unscoped top 50 restricted to the scopes (first 10): {same} / {} queries, mean overlap {:.2} / 10",
        qs.len(),
        overlap as f64 / qs.len() as f64
    );
    Ok(())
}

/// Gives every record its mixed real vector (`load --vectors-from`). On PostgreSQL the HNSW
/// index is dropped for the bulk load and built once afterwards: inserting 100k vectors into a
/// live index one by one costs far more than one build.
async fn write_vectors(
    store: &Arc<dyn Store>,
    pg: Option<&PgStore>,
    a: &Args,
    model: &str,
    n_texts: usize,
) -> anyhow::Result<()> {
    use knowhub_store_postgres::sqlx::{self, AssertSqlSafe};
    let t = Instant::now();
    let (m, base) = crate::synth::real_vectors(&a.vectors_from)?;
    anyhow::ensure!(m == model, "{:?} hold {m} vectors, the embedder makes {model}", a.vectors_from);
    anyhow::ensure!(base.len() == n_texts, "{} vectors for the corpus's {n_texts} real records", base.len());
    let dim = base[0].len();
    let mut n = 0;
    loop {
        let missing = store.missing_vectors(model, 4096).await?;
        if missing.is_empty() {
            break;
        }
        let items = crate::synth::vectors_for(missing, &base);
        n += items.len();
        store.set_vectors(model, &items).await?;
        if let (Some(s), true) = (pg, n == items.len()) {
            // The first batch created the index; drop it until the rest are in.
            sqlx::raw_sql(AssertSqlSafe(format!("DROP INDEX IF EXISTS vectors_hnsw_ip_{dim}")))
                .execute(s.pool())
                .await?;
        }
    }
    println!("vectors: {n} written in {:.1}s (mixed real vectors, not embedded)", t.elapsed().as_secs_f64());
    if let Some(s) = pg {
        let t = Instant::now();
        let mut conn = s.pool().acquire().await?;
        sqlx::raw_sql(AssertSqlSafe(format!(
            "SET maintenance_work_mem = '{}'; SET statement_timeout = 0",
            a.maintenance_work_mem.replace('\'', "")
        )))
        .execute(&mut *conn)
        .await?;
        sqlx::raw_sql(AssertSqlSafe(knowhub_store_postgres::hnsw_index_sql(dim))).execute(&mut *conn).await?;
        println!("pgvector: HNSW index over {dim} dims built in {:.1}s", t.elapsed().as_secs_f64());
    }
    Ok(())
}
