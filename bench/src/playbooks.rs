//! Playbooks against raw hits on the experience dev set (bench/data/experiences): every record
//! submitted to a fresh hub (approved on submit, near-duplicates merged as the server merges them),
//! then for each resource with at least `--min-records` records, its playbook (`Hub::playbook` at
//! `--budget`) beside its top-5 raw hits (a search for the resource's name, the text `kb_search`
//! gives a model). Reported per resource: the tokens of each (the same estimate the playbook's
//! budget uses), and the share of the resource's distinct approved lessons each keeps (an
//! experience counts as kept when a playbook line cites it, or when it is one of the hits), for
//! failures and partial results first, then all.
//!
//! With `--llm` (and `KNOWHUB_LLM_BASE_URL`, `KNOWHUB_LLM_MODEL`, optionally `KNOWHUB_LLM_PROVIDER`,
//! `KNOWHUB_LLM_API_KEY`, as the server reads them) each resource's playbook is also drafted by
//! that model (`Hub::draft_playbook` at the same budget), and the written version is measured the
//! same way.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use knowhub_core::validate::SubmitRequest;
use knowhub_core::{prompt, Caller, Outcome, Status, Store};
use knowhub_service::extract::transcript::estimate_tokens;
use knowhub_service::{Hub, PlaybookQuery, SearchConfig, SearchQuery};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use serde::Deserialize;

use crate::retrieval;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder with records.jsonl.
    #[arg(long, default_value = "bench/data/experiences")]
    data: PathBuf,
    /// none | openai | local (the raw hits' ranking; the playbook uses no model).
    #[arg(long, default_value = "none")]
    embedder: String,
    /// Resources with at least this many records.
    #[arg(long, default_value_t = 5)]
    min_records: usize,
    /// The playbook's budget in estimated tokens (the hub's default: 400).
    #[arg(long, default_value_t = 400)]
    budget: usize,
    /// Also measure the model-written playbook, drafted by the model `KNOWHUB_LLM_*` name.
    #[arg(long)]
    llm: bool,
}

/// The model `KNOWHUB_LLM_*` name, as the server would use it.
fn llm_from_env() -> anyhow::Result<Arc<knowhub_service::Extractor>> {
    let mut ls = knowhub_ai::LlmSettings::from_env()?;
    ls.timeout = std::time::Duration::from_secs(600);
    Ok(knowhub_service::Extractor::new(knowhub_ai::LlmClient::new(ls)?, Default::default()))
}

#[derive(Debug, Deserialize)]
struct Record {
    task: String,
    resource: String,
    #[serde(default)]
    resource_version: Option<String>,
    result: String,
    score: u8,
    outcome: String,
    id: String,
}

fn share(n: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{}/{} ({:.0}%)", n, of, 100.0 * n as f64 / of as f64)
    }
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(a.data.join("records.jsonl"))?;
    let records: Vec<Record> =
        text.lines().filter(|l| !l.trim().is_empty()).map(serde_json::from_str).collect::<Result<_, _>>()?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let tmp = tempfile::tempdir()?;
    let store = Arc::new(SqliteStore::open(
        tmp.path(),
        OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
    )?);
    let opts = knowhub_service::HubOptions {
        extractor: if a.llm { Some(llm_from_env()?) } else { None },
        ..Default::default()
    };
    let hub = Hub::with_options(store as Arc<dyn Store>, embedder.clone(), SearchConfig::default(), opts);
    let me = Caller::local();
    // The distinct approved lessons of each resource (hub ids, after merging), with their outcome.
    let mut lessons: BTreeMap<String, HashMap<String, Outcome>> = BTreeMap::new();
    for r in &records {
        let req = SubmitRequest {
            task: Some(r.task.clone()),
            resource: Some(r.resource.clone()),
            result: Some(r.result.clone()),
            score: Some(i64::from(r.score)),
            outcome: Some(r.outcome.clone()),
            resource_version: r.resource_version.clone(),
            agent_id: Some(format!("agent-{}", r.id)),
            ..Default::default()
        };
        let out = hub.submit(&me, req).await?;
        if out.status == Status::Approved {
            let e = hub.experience(&me, &out.id).await?;
            lessons.entry(r.resource.clone()).or_default().insert(out.id.clone(), e.outcome);
        }
    }
    if let Some(m) = embedder.model_id() {
        retrieval::embed_all(&hub, m).await?;
    }
    let counts: HashMap<&str, usize> = records.iter().fold(HashMap::new(), |mut m, r| {
        *m.entry(r.resource.as_str()).or_default() += 1;
        m
    });
    println!(
        "| resource | records | lessons (failures) | playbook tokens | top-5 tokens | playbook keeps failures | top-5 keeps failures | playbook keeps lessons | top-5 keeps lessons |{}",
        if a.llm { " written tokens | written keeps failures | written keeps lessons |" } else { "" }
    );
    println!("|---|---|---|---|---|---|---|---|---|{}", if a.llm { "---|---|---|" } else { "" });
    let (mut wt, mut wf, mut wl, mut wn) = (0usize, 0usize, 0usize, 0usize);
    let (mut pt, mut rt, mut n) = (0usize, 0usize, 0usize);
    let (mut pf, mut rf, mut tf, mut pl, mut rl, mut tl) = (0, 0, 0, 0, 0, 0);
    let mut names: Vec<&str> = counts.iter().filter(|(_, c)| **c >= a.min_records).map(|(r, _)| *r).collect();
    names.sort();
    for name in names {
        let Some(mine) = lessons.get(name) else { continue };
        let failures: BTreeSet<&String> =
            mine.iter().filter(|(_, o)| **o != Outcome::Success).map(|(i, _)| i).collect();
        let p = hub.playbook(&me, name, &PlaybookQuery { budget_tokens: a.budget, scope: None }).await?;
        let cited: BTreeSet<&String> = p.lines.iter().flat_map(|l| l.ids.iter()).collect();
        let mut q = SearchQuery::new(name);
        q.filter.min_score = 1;
        q.min_relevance = Some(0.0);
        let hits = hub.search(&me, &q).await?.results;
        let raw = estimate_tokens(&prompt::experiences(&hits).text);
        let hit_ids: BTreeSet<&String> = hits.iter().map(|h| &h.id).collect();
        let keep = |set: &BTreeSet<&String>, of: &dyn Fn(&String) -> bool| {
            mine.keys().filter(|i| of(i) && set.contains(i)).count()
        };
        let is_failure = |i: &String| failures.contains(i);
        let any = |_: &String| true;
        let (kpf, krf, kpl, krl) =
            (keep(&cited, &is_failure), keep(&hit_ids, &is_failure), keep(&cited, &any), keep(&hit_ids, &any));
        let written = if a.llm {
            let req = knowhub_service::DraftPlaybookRequest { budget: Some(a.budget as i64), scope: None };
            match hub.draft_playbook(&me, name, req).await {
                Ok(w) => {
                    let cited: BTreeSet<&String> = w.playbook.lines.iter().flat_map(|l| l.ids.iter()).collect();
                    let (f, l) = (keep(&cited, &is_failure), keep(&cited, &any));
                    (wt, wf, wl, wn) = (wt + w.playbook.tokens, wf + f, wl + l, wn + 1);
                    format!(" {} | {} | {} |", w.playbook.tokens, share(f, failures.len()), share(l, mine.len()))
                }
                Err(e) => format!(" ({e}) | | |"),
            }
        } else {
            String::new()
        };
        println!(
            "| {name} | {} | {} ({}) | {} | {raw} | {} | {} | {} | {} |{written}",
            counts[name],
            mine.len(),
            failures.len(),
            p.tokens,
            share(kpf, failures.len()),
            share(krf, failures.len()),
            share(kpl, mine.len()),
            share(krl, mine.len()),
        );
        (pt, rt, n) = (pt + p.tokens, rt + raw, n + 1);
        (pf, rf, tf, pl, rl, tl) = (pf + kpf, rf + krf, tf + failures.len(), pl + kpl, rl + krl, tl + mine.len());
    }
    let written =
        if a.llm { format!(" {wt} ({wn} drafted) | {} | {} |", share(wf, tf), share(wl, tl)) } else { String::new() };
    println!(
        "| **all {n}** | | {tl} ({tf}) | {pt} (mean {:.0}) | {rt} (mean {:.0}) | {} | {} | {} | {} |{written}",
        pt as f64 / n.max(1) as f64,
        rt as f64 / n.max(1) as f64,
        share(pf, tf),
        share(rf, tf),
        share(pl, tl),
        share(rl, tl),
    );
    Ok(())
}
