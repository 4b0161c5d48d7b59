//! `knowhub search` / `knowhub submit`: thin HTTP clients of a running hub.

use anyhow::{bail, Context};
use knowhub_service::requests::{MIN_SCORE, TOP_K};
use serde_json::Value;

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

/// Adds the API key, when there is one.
pub fn authed(req: reqwest::RequestBuilder, key: Option<&str>) -> reqwest::RequestBuilder {
    match key.map(str::trim).filter(|k| !k.is_empty()) {
        Some(k) => req.bearer_auth(k),
        None => req,
    }
}

/// Sends a request to the hub at `url` (with the key, when there is one) and reads its JSON answer.
pub async fn send(req: reqwest::RequestBuilder, url: &str, key: Option<&str>) -> anyhow::Result<(u16, Value)> {
    let resp = authed(req, key).send().await.with_context(|| format!("cannot reach {url}"))?;
    read_json(resp).await
}

pub async fn read_json(resp: reqwest::Response) -> anyhow::Result<(u16, Value)> {
    let status = resp.status().as_u16();
    let body: Value = resp.json().await.context("the hub answered with something that is not JSON")?;
    if status >= 400 {
        let msg = body["error"]["message"].as_str().unwrap_or("unknown error");
        bail!("hub answered {status}: {msg}");
    }
    Ok((status, body))
}

pub async fn search(a: SearchArgs) -> anyhow::Result<std::process::ExitCode> {
    let mut params =
        vec![("q", a.query.clone()), ("top_k", a.top_k.to_string()), ("min_score", a.min_score.to_string())];
    if let Some(ag) = &a.agent_id {
        params.push(("agent_id", ag.clone()));
    }
    if let Some(m) = &a.mode {
        params.push(("mode", m.clone()));
    }
    if let Some(r) = a.min_relevance {
        params.push(("min_relevance", r.to_string()));
    }
    let url = format!("{}/api/search", a.url.trim_end_matches('/'));
    let (_, body) = send(reqwest::Client::new().get(&url).query(&params), &url, a.api_key.as_deref()).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let results = body["results"].as_array().cloned().unwrap_or_default();
    if results.is_empty() {
        println!("no experience matches {:?}", a.query);
    }
    for (i, r) in results.iter().enumerate() {
        let flags: Vec<&str> = r["flags"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).collect();
        println!(
            "{}. [{}] {}\n   resource: {}{}\n   result:   {}\n   score {}/5 · {} · relevance {:.3} · confirmations {} · helped {} · failed {}{} · id {}",
            i + 1,
            safe(r["outcome"].as_str().unwrap_or("")),
            safe(r["task"].as_str().unwrap_or("")),
            safe(r["resource"].as_str().unwrap_or("")),
            r["resource_version"].as_str().map(|v| format!(" ({})", safe(v))).unwrap_or_default(),
            safe(r["result"].as_str().unwrap_or("")),
            r["score"],
            safe(r["agent_id"].as_str().filter(|s| !s.is_empty()).unwrap_or("-")),
            r["relevance"].as_f64().unwrap_or(0.0),
            r["confirmations"],
            r["feedback"]["helped"],
            r["feedback"]["failed"],
            if flags.is_empty() { String::new() } else { format!(" · {}", safe(&flags.join(", "))) },
            safe(r["id"].as_str().unwrap_or("")),
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

pub async fn feedback(a: FeedbackArgs) -> anyhow::Result<()> {
    let body = serde_json::json!({"id": a.id, "outcome": a.outcome, "note": a.note, "agent_id": a.agent_id});
    let url = format!("{}/api/feedback", a.url.trim_end_matches('/'));
    let (_, body) = send(reqwest::Client::new().post(&url).json(&body), &url, a.api_key.as_deref()).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else {
        println!(
            "recorded {} for {} (helped {}, failed {}{})",
            body["outcome"].as_str().unwrap_or(""),
            body["id"].as_str().unwrap_or(""),
            body["feedback"]["helped"],
            body["feedback"]["failed"],
            if body["disputed"].as_bool() == Some(true) { "; now disputed: sent to review" } else { "" }
        );
    }
    Ok(())
}

pub async fn submit(a: SubmitArgs) -> anyhow::Result<()> {
    let content = match &a.content_file {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?),
        None => None,
    };
    let body = serde_json::json!({
        "task": a.task, "resource": a.resource, "result": a.result, "score": a.score,
        "outcome": a.outcome, "agent_id": a.agent_id, "submitted_by": a.submitted_by, "content": content,
        "resource_version": a.resource_version,
    });
    let url = format!("{}/api/submit", a.url.trim_end_matches('/'));
    let (status, body) = send(reqwest::Client::new().post(&url).json(&body), &url, a.api_key.as_deref()).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else if status == 201 {
        println!("submitted: {} ({})", body["id"].as_str().unwrap_or(""), body["status"].as_str().unwrap_or(""));
    } else {
        println!("already known: {} (confirmations: {})", body["id"].as_str().unwrap_or(""), body["confirmations"]);
    }
    if let Some(c) = body["contested_with"].as_array().filter(|c| !c.is_empty()) {
        println!(
            "contested: the opposite outcome is reported by {}",
            c.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join(", ")
        );
    }
    if !a.json {
        if let Some(p) = body["content_proposal"].as_str() {
            println!(
                "content not attached: the record was already reviewed; it waits for a reviewer as proposal {}",
                crate::term::safe(p)
            );
        }
    }
    Ok(())
}
