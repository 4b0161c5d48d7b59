//! `knowhub mcp`: an MCP server on stdin/stdout for a local agent host (Claude Code, Codex,
//! Cursor), talking to a running hub over its REST API. It opens no store and loads no model, so
//! it starts at once; stdout carries only the protocol, logs go to stderr.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use knowhub_mcp::{HttpBackend, KnowHubMcp};
use rmcp::service::ServerInitializeError;
use rmcp::ServiceExt;

#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// The hub's URL.
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    /// API key for a hub with auth on (an agent key is enough).
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// Recorded as the agent of submits whose call names none (e.g. claude-code, codex).
    #[arg(long, env = "KNOWHUB_AGENT_ID")]
    agent_id: Option<String>,
    /// Seconds to wait for the hub on each call before the tool reports it unreachable.
    #[arg(long, default_value_t = 15)]
    timeout: u64,
}

pub async fn run(a: McpArgs) -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("KNOWHUB_LOG")
        .unwrap_or_else(|_| "warn,rmcp::service=error".into());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(false).try_init();
    let backend = HttpBackend::new(&a.url, a.api_key, Duration::from_secs(a.timeout.clamp(1, 600)))
        .map_err(|e| anyhow::anyhow!("--url: {e}"))?;
    tracing::info!(url = backend.url(), "knowhub mcp: serving MCP on stdio");
    let server = match KnowHubMcp::new(Arc::new(backend), a.agent_id).serve(rmcp::transport::stdio()).await {
        Ok(s) => s,
        // A client that closes before (or right after a 2026-07-28 `server/discover`, without)
        // an `initialize`: a normal end, not a failure.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(e).context("MCP handshake on stdio failed"),
    };
    let reason = server.waiting().await.context("MCP stdio session failed")?;
    tracing::info!(?reason, "knowhub mcp: stdio closed");
    Ok(())
}
