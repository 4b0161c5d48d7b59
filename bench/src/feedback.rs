//! Does the hub learn which answers work? Each task has two plausible experiences that look
//! alike (another command, another version, another tool: bench/data/dedup_pairs.jsonl), one
//! helpful and one wrong, the wrong one ranked first for the task at the start. Simulated agents,
//! each a different caller, search, use the top hit and report the outcome through the real
//! service (`POST /api/feedback`'s code path). Reported: after how many reports the helpful one
//! ranks first, and that 50 reports from one agent count as one.
//!
//! `--pools` also runs each task in a hub of its own holding only its pair (pool 2) or its pair
//! and one other task's record (pool 3): with so few candidates a per-query normalisation decides
//! the order alone, which is where feedback used to be unable to lift the weaker record.

use std::path::PathBuf;
use std::sync::Arc;

use knowhub_core::{Caller, SearchFilter, Store};
use knowhub_service::{FeedbackRequest, Hub, SearchConfig, SearchMode, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::pairs::Exp;
use crate::retrieval;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, default_value = "bench/data/dedup_pairs.jsonl")]
    pairs: PathBuf,
    /// none | local
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Reports at most per task.
    #[arg(long, default_value_t = 6)]
    max_reports: usize,
    /// Candidate pools to run: 0 = every pair in one hub; 2 = each pair alone; 3 = each pair and
    /// one other record.
    #[arg(long, value_delimiter = ',', default_value = "0,2,3")]
    pools: Vec<usize>,
    /// The fusion to rank with (as `retrieval --fusions`; default: the server's).
    #[arg(long)]
    fusion: Option<String>,
}

fn submit(e: &Exp) -> knowhub_core::validate::SubmitRequest {
    knowhub_core::validate::SubmitRequest {
        task: Some(e.task.clone()),
        resource: Some(e.resource.clone()),
        result: Some(e.result.clone()),
        resource_version: e.resource_version.clone(),
        score: Some(4),
        agent_id: Some("seed".into()),
        ..Default::default()
    }
}

fn query(task: &str) -> SearchQuery {
    SearchQuery {
        q: task.to_string(),
        top_k: 5,
        filter: SearchFilter { min_score: 1, ..Default::default() },
        outcome: None,
        mode: SearchMode::Hybrid,
        min_relevance: Some(0.0),
        scope: None,
    }
}

async fn top(hub: &Hub, task: &str) -> anyhow::Result<Option<String>> {
    Ok(hub.search(&Caller::local(), &query(task)).await?.results.first().map(|h| h.id.clone()))
}

async fn report(hub: &Hub, id: &str, outcome: &str, agent: &str) -> anyhow::Result<()> {
    let req = FeedbackRequest {
        id: Some(id.to_string()),
        outcome: Some(outcome.to_string()),
        note: None,
        agent_id: Some(agent.to_string()),
    };
    hub.feedback(&Caller::local(), req).await?;
    Ok(())
}

/// One task: its query, and its two look-alikes' ids.
struct Task {
    query: String,
    x: String,
    y: String,
}

/// What one pool size gave.
#[derive(Default)]
struct Outcome {
    needed: Vec<Option<usize>>,
    skipped: usize,
    one_agent_ok: usize,
    one_agent_checked: usize,
}

async fn new_hub(
    embedder: &Arc<knowhub_ai::Embedder>,
    cfg: &SearchConfig,
) -> anyhow::Result<(Arc<Hub>, tempfile::TempDir)> {
    let dir = tempfile::tempdir()?;
    let store = Arc::new(SqliteStore::open(
        dir.path(),
        OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
    )?);
    Ok((Hub::new(store as Arc<dyn Store>, embedder.clone(), cfg.clone()), dir))
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let pairs: Vec<_> = crate::pairs::load(&a.pairs)?
        .into_iter()
        .filter(|p| matches!(p.kind.as_str(), "other_command" | "other_version" | "same_task_other_tool"))
        .collect();
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let mut cfg = SearchConfig::default();
    if let Some(f) = &a.fusion {
        (cfg.fusion, cfg.score_union) = retrieval::parse_fusion(f)?;
    }
    println!(
        "| pool | tasks | reports until the helpful one ranks first: 1 | ≤ 2 | ≤ 3 | never (≤ {}) |",
        a.max_reports
    );
    println!("|---|---|---|---|---|---|");
    let mut notes = Vec::new();
    for &pool in &a.pools {
        let mut out = Outcome::default();
        if pool == 0 {
            let (hub, _dir) = new_hub(&embedder, &cfg).await?;
            let mut tasks = Vec::new();
            for p in &pairs {
                let x = hub.submit(&Caller::local(), submit(&p.a)).await?.id;
                let y = hub.submit(&Caller::local(), submit(&p.b)).await?.id;
                tasks.push(Task { query: p.a.task.clone(), x, y });
            }
            if let Some(m) = embedder.model_id() {
                retrieval::embed_all(&hub, m).await?;
            }
            for (i, t) in tasks.iter().enumerate() {
                measure(&hub, t, i, a.max_reports, &mut out).await?;
            }
        } else {
            for (i, p) in pairs.iter().enumerate() {
                let (hub, _dir) = new_hub(&embedder, &cfg).await?;
                let x = hub.submit(&Caller::local(), submit(&p.a)).await?.id;
                let y = hub.submit(&Caller::local(), submit(&p.b)).await?.id;
                for k in 1..pool.saturating_sub(1) {
                    let other = &pairs[(i + k * 7) % pairs.len()];
                    hub.submit(&Caller::local(), submit(&other.a)).await?;
                }
                if let Some(m) = embedder.model_id() {
                    retrieval::embed_all(&hub, m).await?;
                }
                measure(&hub, &Task { query: p.a.task.clone(), x, y }, i, a.max_reports, &mut out).await?;
            }
        }
        let n = out.needed.len();
        let within = |k: usize| out.needed.iter().filter(|d| d.is_some_and(|d| d <= k)).count();
        let pct = |c: usize| format!("{:.1}% ({c})", 100.0 * c as f64 / n.max(1) as f64);
        println!(
            "| {} | {n} | {} | {} | {} | {} |",
            if pool == 0 { "all".to_string() } else { pool.to_string() },
            pct(within(1)),
            pct(within(2)),
            pct(within(3)),
            pct(out.needed.iter().filter(|d| d.is_none()).count())
        );
        notes.push(format!(
            "pool {pool}: one agent, 50 failure reports counted as one on {}/{} records; {} tasks skipped (another \
             task's record ranked first)",
            out.one_agent_ok, out.one_agent_checked, out.skipped
        ));
    }
    for n in notes {
        println!("{n}");
    }
    println!(
        "without votes the order is unchanged: feedback factor {}",
        cfg.feedback.factor(&knowhub_core::rank::Prior::default())
    );
    Ok(())
}

/// Reports on one task until its helpful record ranks first (or `max_reports` run out).
async fn measure(hub: &Hub, t: &Task, i: usize, max_reports: usize, out: &mut Outcome) -> anyhow::Result<()> {
    let Some(first) = top(hub, &t.query).await? else {
        out.skipped += 1;
        return Ok(());
    };
    // The wrong one is whichever of the two the hub ranks first for the task today.
    let (wrong, helpful) = if first == t.x {
        (&t.x, &t.y)
    } else if first == t.y {
        (&t.y, &t.x)
    } else {
        out.skipped += 1; // another task's record ranks first: not this benchmark's case
        return Ok(());
    };
    // Every third task first gets 50 failure reports from one agent: they must count as one.
    if i.is_multiple_of(3) {
        for _ in 0..50 {
            report(hub, wrong, "failed", &format!("spammer-{i}")).await?;
        }
        let e = hub.store().get(wrong).await?.unwrap_or_else(|| panic!("record {wrong} vanished"));
        out.one_agent_checked += 1;
        out.one_agent_ok += usize::from(e.feedback.failed == 1);
    }
    let mut done = None;
    for n in 1..=max_reports {
        let used = top(hub, &t.query).await?.unwrap_or_default();
        let outcome = if &used == helpful {
            "helped"
        } else if &used == wrong {
            "failed"
        } else {
            "irrelevant"
        };
        report(hub, &used, outcome, &format!("agent-{i}-{n}")).await?;
        if top(hub, &t.query).await?.as_ref() == Some(helpful) {
            done = Some(n);
            break;
        }
    }
    out.needed.push(done);
    Ok(())
}
