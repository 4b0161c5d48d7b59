//! `knowhub search` / `knowhub submit` / `knowhub feedback`: a running hub's REST API through
//! `knowhub-client`, its answers printed for a person (or as JSON with `--json`).

use anyhow::Context;
use knowhub_client::Client;
use knowhub_service::requests::{MIN_SCORE, TOP_K};
use knowhub_service::{FeedbackRequest, SearchRequest, SubmitRequest};

use crate::term::safe;

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What to look for (Chinese, English or mixed).
    query: String,
    /// Hub URL.
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    #[arg(long, default_value_t = TOP_K.default as u32)]
    top_k: u32,
    /// Minimum 1-5 rating.
    #[arg(long, default_value_t = MIN_SCORE.default as u32)]
    min_score: u32,
    /// Only experiences from this agent.
    #[arg(long)]
    agent_id: Option<String>,
    /// hybrid | fts | vector
    #[arg(long)]
    mode: Option<String>,
    /// Only hits at least this relevant (0..1, roughly the probability that a hit answers the
    /// query); the hub's default when not given.
    #[arg(long)]
    min_relevance: Option<f64>,
    /// Only this scope (org, team/NAME, project/NAME, private/OWNER); default: every scope the
    /// key reads.
    #[arg(long)]
    scope: Option<String>,
    /// Print the raw JSON response.
    #[arg(long)]
    json: bool,
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct FeedbackArgs {
    /// The experience's id (from a search result).
    id: String,
    /// What happened when you used it: helped | failed | irrelevant.
    outcome: String,
    /// Why, in a sentence (reviewers read it).
    #[arg(long)]
    note: Option<String>,
    /// Who is reporting (counts once per experience; with auth the key decides).
    #[arg(long, env = "KNOWHUB_AGENT_ID")]
    agent_id: Option<String>,
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    #[arg(long)]
    json: bool,
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct SubmitArgs {
    #[arg(long)]
    task: String,
    /// The tool, command, library or API used.
    #[arg(long)]
    resource: String,
    #[arg(long)]
    result: String,
    /// 1-5
    #[arg(long, default_value_t = 3)]
    score: i64,
    /// success | failure | partial
    #[arg(long)]
    outcome: Option<String>,
    /// The resource's version the experience holds for, e.g. "3.2".
    #[arg(long)]
    resource_version: Option<String>,
    #[arg(long)]
    agent_id: Option<String>,
    #[arg(long)]
    submitted_by: Option<String>,
    /// Where to store it (org, team/NAME, project/NAME, private/OWNER): one the key may write;
    /// default: the key's write scope.
    #[arg(long)]
    scope: Option<String>,
    /// File whose text is attached as the experience's long content.
    #[arg(long)]
    content_file: Option<std::path::PathBuf>,
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    #[arg(long)]
    json: bool,
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

/// A client of the hub at `url`. No timeout: a person waits for the answer or presses Ctrl-C.
pub fn hub(url: &str, key: Option<String>) -> anyhow::Result<Client> {
    Ok(Client::new(url, key, None)?)
}

/// Prints an answer as pretty JSON.
pub fn print_json(v: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

pub async fn search(a: SearchArgs) -> anyhow::Result<std::process::ExitCode> {
    let req = SearchRequest {
        q: Some(a.query.clone()),
        top_k: Some(a.top_k.to_string()),
        min_score: Some(a.min_score.to_string()),
        agent_id: a.agent_id,
        mode: a.mode,
        min_relevance: a.min_relevance.map(|r| r.to_string()),
        outcome: None,
        scope: a.scope,
    };
    let body = hub(&a.url, a.api_key)?.search(&req).await?;
    if a.json {
        print_json(&body)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if body.results.is_empty() {
        println!("no experience matches {:?}", a.query);
    }
    for (i, r) in body.results.iter().enumerate() {
        println!(
            "{}. [{}] {}\n   resource: {}{}\n   result:   {}\n   score {}/5 · {} · {} · relevance {:.3} · confirmations {} · helped {} · failed {}{} · id {}",
            i + 1,
            r.outcome,
            safe(&r.task),
            safe(&r.resource),
            r.resource_version.as_deref().map(|v| format!(" ({})", safe(v))).unwrap_or_default(),
            safe(&r.result),
            r.score,
            safe(Some(r.agent_id.as_str()).filter(|s| !s.is_empty()).unwrap_or("-")),
            safe(&r.scope),
            r.relevance,
            r.confirmations,
            r.feedback.helped,
            r.feedback.failed,
            if r.flags.is_empty() { String::new() } else { format!(" · {}", safe(&r.flags.join(", "))) },
            safe(&r.id),
        );
        if !r.origin_hub.is_empty() {
            println!("   from hub {}", safe(&r.origin_hub));
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

pub async fn feedback(a: FeedbackArgs) -> anyhow::Result<()> {
    let req = FeedbackRequest { id: Some(a.id), outcome: Some(a.outcome), note: a.note, agent_id: a.agent_id };
    let body = hub(&a.url, a.api_key)?.feedback(&req).await?;
    if a.json {
        print_json(&body)?;
    } else {
        println!(
            "recorded {} for {} (helped {}, failed {}{})",
            body.outcome,
            body.id,
            body.feedback.helped,
            body.feedback.failed,
            if body.disputed { "; now disputed: sent to review" } else { "" }
        );
    }
    Ok(())
}

pub async fn submit(a: SubmitArgs) -> anyhow::Result<()> {
    let content = match &a.content_file {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?),
        None => None,
    };
    let req = SubmitRequest {
        task: Some(a.task),
        resource: Some(a.resource),
        result: Some(a.result),
        score: Some(a.score),
        outcome: a.outcome,
        agent_id: a.agent_id,
        submitted_by: a.submitted_by,
        content,
        resource_version: a.resource_version,
        scope: a.scope,
        ..Default::default()
    };
    let body = hub(&a.url, a.api_key)?.submit(&req).await?;
    if a.json {
        print_json(&body)?;
    } else if body.created {
        println!("submitted: {} ({})", body.id, body.status);
    } else {
        println!("already known: {} (confirmations: {})", body.id, body.confirmations);
    }
    if !body.contested_with.is_empty() {
        println!("contested: the opposite outcome is reported by {}", body.contested_with.join(", "));
    }
    if !a.json {
        if let Some(p) = &body.content_proposal {
            println!(
                "content not attached: the record was already reviewed; it waits for a reviewer as proposal {}",
                safe(p)
            );
        }
    }
    Ok(())
}
