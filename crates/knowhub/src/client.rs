//! `knowhub search` / `knowhub submit`: thin HTTP clients of a running hub.

use anyhow::{bail, Context};
use serde_json::Value;

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What to look for (Chinese, English or mixed).
    query: String,
    /// Hub URL.
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    #[arg(long, default_value_t = 5)]
    top_k: u32,
    /// Minimum 1-5 rating.
    #[arg(long, default_value_t = 3)]
    min_score: u32,
    /// Only experiences from this agent.
    #[arg(long)]
    agent_id: Option<String>,
    /// hybrid | fts | vector
    #[arg(long)]
    mode: Option<String>,
    /// Print the raw JSON response.
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
    let url = format!("{}/api/search", a.url.trim_end_matches('/'));
    let resp = authed(reqwest::Client::new().get(&url).query(&params), a.api_key.as_deref())
        .send()
        .await
        .with_context(|| format!("cannot reach {url}"))?;
    let (_, body) = read_json(resp).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let results = body["results"].as_array().cloned().unwrap_or_default();
    if results.is_empty() {
        println!("no experiences found for {:?}", a.query);
    }
    for (i, r) in results.iter().enumerate() {
        println!(
            "{}. [{}] {}\n   resource: {}\n   result:   {}\n   score {}/5 · {} · relevance {:.3} · confirmations {} · id {}",
            i + 1,
            r["outcome"].as_str().unwrap_or(""),
            r["task"].as_str().unwrap_or(""),
            r["resource"].as_str().unwrap_or(""),
            r["result"].as_str().unwrap_or(""),
            r["score"],
            r["agent_id"].as_str().filter(|s| !s.is_empty()).unwrap_or("-"),
            r["relevance"].as_f64().unwrap_or(0.0),
            r["confirmations"],
            r["id"].as_str().unwrap_or(""),
        );
    }
    Ok(std::process::ExitCode::SUCCESS)
}

pub async fn submit(a: SubmitArgs) -> anyhow::Result<()> {
    let content = match &a.content_file {
        Some(p) => Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?),
        None => None,
    };
    let body = serde_json::json!({
        "task": a.task, "resource": a.resource, "result": a.result, "score": a.score,
        "outcome": a.outcome, "agent_id": a.agent_id, "submitted_by": a.submitted_by, "content": content,
    });
    let url = format!("{}/api/submit", a.url.trim_end_matches('/'));
    let resp = authed(reqwest::Client::new().post(&url).json(&body), a.api_key.as_deref())
        .send()
        .await
        .with_context(|| format!("cannot reach {url}"))?;
    let (status, body) = read_json(resp).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&body)?);
    } else if status == 201 {
        println!("submitted: {}", body["id"].as_str().unwrap_or(""));
    } else {
        println!("already known: {} (confirmations: {})", body["id"].as_str().unwrap_or(""), body["confirmations"]);
    }
    Ok(())
}
