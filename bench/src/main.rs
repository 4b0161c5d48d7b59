//! KnowHub benchmarks. Figures are medians/percentiles from one run; see bench/README.md.
//!
//! - `retrieval`: nDCG@10 and recall@5 on BEIR-format sets (CoSQA, ATEC, LCQMC) for each search mode.
//! - `load`: submit throughput and search latency (server-side and over HTTP on loopback) at N records.
//! - `submit`: submit latency on a fresh hub and on one with many records of the same resource.
//! - `mcp`: `kb_search` through `knowhub mcp` (stdio) beside the same search over HTTP, p50/p99.
//! - `hostile`: slow connections (slowloris) beside normal traffic; answers, p99, lost writes.
//! - `experiences`: search on the experience dev set (bench/data/experiences) at the server's defaults.
//! - `scopes`: scoped search (an agent's few scopes, one named scope) against unscoped, p50/p99 and recall.
//! - `playbooks`: each resource's playbook against its top-5 raw hits: tokens and lessons kept.
//! - `soak`: the real server under mixed load for a long time: RSS, p99 and errors per window.

mod abstain;
mod beir;
mod compose;
mod console;
mod crosslingual;
mod dedup;
mod experiences;
mod feedback;
mod guard;
mod hostile;
mod late;
mod load;
mod mcp;
mod pairs;
mod playbooks;
mod retrieval;
mod scopes;
mod secrets;
mod soak;
mod submit;
mod synth;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "knowhub-bench", about = "KnowHub benchmarks (retrieval quality, latency, throughput)")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Retrieval quality on BEIR-format datasets.
    Retrieval(retrieval::Args),
    /// Submit throughput and search latency at a given corpus size.
    Load(load::Args),
    /// Cross-lingual recall: translated queries against the untranslated corpus.
    Crosslingual(crosslingual::Args),
    /// "Nothing relevant": AUROC and abstention at min_relevance, answerable vs off-topic queries.
    Abstain(abstain::AbstainArgs),
    /// Search on the experience dev set as an agent gets it: answered, abstained, AUROC, reliability.
    Experiences(experiences::Args),
    /// Near-duplicate merging: similarity of same and look-alike experience pairs vs thresholds.
    Dedup(dedup::Args),
    /// Outcome feedback: reports until the helpful one of two look-alike experiences ranks first.
    Feedback(feedback::Args),
    /// Raw ranking signals per query and candidate, for fitting relevance calibration.
    Features(abstain::FeaturesArgs),
    /// kb_search through `knowhub mcp` (stdio) beside plain HTTP, p50/p99, in one run.
    Mcp(mcp::Args),
    /// Hostile clients: thousands of slow connections beside normal traffic, bounded, on loopback.
    Hostile(hostile::Args),
    /// The real server under mixed search/submit/extract load: RSS, p99, errors per window.
    Soak(soak::Args),
    /// False positives of the injection screen and redaction on the dev corpora and trajectories.
    Guard(guard::Args),
    /// Redaction on held-out secrets and look-alikes written blind to the rules, Rust beside TypeScript.
    Secrets(secrets::Args),
    /// The review console's queue page with 100 items: gather, render and the whole request.
    Console(console::Args),
    /// Submit p50/p99 on a fresh hub and on one holding many records of the same resource.
    Submit(submit::Args),
    /// Scoped search against unscoped on one hub of many scopes: p50/p99 ratios and recall.
    Scopes(scopes::Args),
    /// Playbooks against top-5 raw hits on the experience dev set: tokens, and lessons kept.
    Playbooks(playbooks::Args),
    /// Upgrade an E5-only benchmark hub to the local pair's vectors (computes the MiniLM half).
    Compose(compose::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    rt.block_on(async {
        match cli.cmd {
            Cmd::Retrieval(a) => retrieval::run(a).await,
            Cmd::Load(a) => load::run(a).await,
            Cmd::Crosslingual(a) => crosslingual::run(a).await,
            Cmd::Compose(a) => compose::run(a).await,
            Cmd::Features(a) => abstain::features(a).await,
            Cmd::Abstain(a) => abstain::abstain(a).await,
            Cmd::Dedup(a) => dedup::run(a).await,
            Cmd::Submit(a) => submit::run(a).await,
            Cmd::Experiences(a) => experiences::run(a).await,
            Cmd::Feedback(a) => feedback::run(a).await,
            Cmd::Mcp(a) => mcp::run(a).await,
            Cmd::Hostile(a) => hostile::run(a).await,
            Cmd::Guard(a) => guard::run(a).await,
            Cmd::Secrets(a) => secrets::run(a).await,
            Cmd::Soak(a) => soak::run(a).await,
            Cmd::Console(a) => console::run(a).await,
            Cmd::Scopes(a) => scopes::run(a).await,
            Cmd::Playbooks(a) => playbooks::run(a).await,
        }
    })
}

/// p-th percentile (0..=100) of a sample, nearest-rank.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}
