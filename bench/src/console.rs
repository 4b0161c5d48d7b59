//! The review console's queue page with 100 waiting items: how long the service takes to gather
//! them (each with its 3 nearest approved records), how long the page takes to render, and the
//! whole `GET /ui/pending?limit=100` through the router, as medians over many runs in one
//! process. Records are the hand-written pairs of bench/data/dedup_pairs.jsonl: one of each pair
//! approved, the other waiting, so every item has real neighbours.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use knowhub_core::Caller;
use knowhub_service::{AutoApprove, Hub, HubOptions, QueueKind, SearchConfig};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::{pairs, percentile, retrieval};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, default_value = "bench/data/dedup_pairs.jsonl")]
    pairs: PathBuf,
    /// Items waiting in the queue (and shown on the page).
    #[arg(long, default_value_t = 100)]
    items: usize,
    /// Timed runs of each measurement.
    #[arg(long, default_value_t = 50)]
    runs: usize,
    /// none | local: the nearest records come from hybrid search with this embedder.
    #[arg(long, default_value = "none")]
    embedder: String,
}

fn req(e: &pairs::Exp, agent: &str) -> knowhub_core::validate::SubmitRequest {
    knowhub_core::validate::SubmitRequest {
        task: Some(e.task.clone()),
        resource: Some(e.resource.clone()),
        result: Some(e.result.clone()),
        outcome: Some(e.outcome.clone()),
        resource_version: e.resource_version.clone(),
        score: Some(4),
        agent_id: Some(agent.into()),
        ..Default::default()
    }
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name:<34} median {:>8.2} ms   p90 {:>8.2} ms   min {:>8.2} ms   ({} runs)",
        percentile(&ms, 50.0),
        percentile(&ms, 90.0),
        ms[0],
        ms.len()
    );
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let pairs = pairs::load(&a.pairs)?;
    let dir = tempfile::tempdir()?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let model = embedder.model_id().map(str::to_string);
    let store = Arc::new(SqliteStore::open(dir.path(), OpenOptions { vector_model: model.clone(), exclusive: true })?);
    let opts = HubOptions { auto_approve: AutoApprove::None, require_approval: true, ..Default::default() };
    let hub = Hub::with_options(store, embedder, SearchConfig::default(), opts);
    let local = Caller::local();
    // Approved: the first of every pair; waiting: the second, then more of the first in other
    // words until the queue holds `items`.
    for p in &pairs {
        let r = hub.submit(&local, req(&p.a, "seed")).await?;
        if r.status == knowhub_core::Status::Pending {
            hub.approve(&local, &r.id, None).await?;
        }
    }
    // Count what is really waiting: with vectors, a close paraphrase becomes a confirmation of
    // an approved record instead of a queue item.
    'fill: for round in 0..20 {
        for p in &pairs {
            if hub.store().count_status(knowhub_core::Status::Pending, None).await? as usize >= a.items {
                break 'fill;
            }
            let mut e = p.b.clone();
            if round > 0 {
                e.task = format!("{} (run {round})", e.task);
            }
            hub.submit(&local, req(&e, "agent-b")).await?;
        }
    }
    if let Some(m) = &model {
        while hub.embed_pending(m).await? > 0 {}
        let (n, all) = (hub.store().vector_count(m).await?, hub.store().count().await?);
        anyhow::ensure!(n == all, "{n} of {all} records have vectors");
    }
    // The first view, before any query vector is cached (items' neighbours come from their
    // stored vectors, so it should cost what later views do).
    let t = Instant::now();
    let page = hub.pending(&local, QueueKind::Pending, None, a.items).await?;
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    anyhow::ensure!(page.items.len() == a.items, "expected {} waiting items, got {}", a.items, page.items.len());
    let with_nearest = page.items.iter().filter(|i| !i.nearest.is_empty()).count();

    let console = knowhub_console::Console::new(hub.clone(), None);
    let session = console
        .session(&Default::default(), knowhub_console::i18n::Lang::En)
        .await
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let html = knowhub_console::render_pending(&session, QueueKind::Pending, &page, None).into_string();
    println!(
        "console bench: {} waiting items ({} with nearest records), {} approved, embedder {}, page {} KB",
        page.items.len(),
        with_nearest,
        pairs.len(),
        a.embedder,
        html.len() / 1024
    );

    let (mut gather, mut render, mut whole) = (Vec::new(), Vec::new(), Vec::new());
    let app = knowhub_console::router(console);
    for _ in 0..a.runs {
        let t = Instant::now();
        let p = hub.pending(&local, QueueKind::Pending, None, a.items).await?;
        gather.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let out = knowhub_console::render_pending(&session, QueueKind::Pending, &p, None).into_string();
        render.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(out);
        let t = Instant::now();
        let req = axum::http::Request::get(format!("/ui/pending?limit={}", a.items)).body(axum::body::Body::empty())?;
        let res = tower::ServiceExt::oneshot(app.clone(), req).await?;
        anyhow::ensure!(res.status() == 200, "GET /ui/pending: {}", res.status());
        let body = http_body_util::BodyExt::collect(res.into_body()).await?.to_bytes();
        whole.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(body);
    }
    println!("{:<34} {first_ms:>15.2} ms   (once, empty query cache)", "service: first view, cold cache");
    summary("service: pending(100) + nearest", gather);
    summary("render: queue page (maud)", render);
    summary("GET /ui/pending?limit=N (router)", whole);
    println!(
        "assets: console.css {} B + console.js {} B = {} B",
        knowhub_console::assets::CSS.len(),
        knowhub_console::assets::JS.len(),
        knowhub_console::assets::CSS.len() + knowhub_console::assets::JS.len()
    );
    Ok(())
}
