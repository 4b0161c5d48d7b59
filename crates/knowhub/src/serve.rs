//! `knowhub serve` and `knowhub reindex`: wiring config -> store -> embedder -> Hub -> HTTP.
//! The backend is chosen here, once.

use std::sync::Arc;

use anyhow::Context;
use knowhub_ai::Embedder;
use knowhub_service::{AutoApprove, Extractor, Hub, HubOptions};

use crate::config::{Config, LogFormat, Overrides};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the chosen address is printed).
    #[arg(long, env = "KNOWHUB_BIND")]
    bind: Option<String>,
    /// Host names accepted in the Host header, comma-separated (default: loopback and the bind
    /// address; any host on a non-loopback bind with auth on). Guards against DNS rebinding.
    #[arg(long, alias = "mcp-allowed-hosts", env = "KNOWHUB_ALLOWED_HOSTS", value_delimiter = ',')]
    allowed_hosts: Vec<String>,
    /// Signs the review console's session cookies. Replicas behind one address must share it;
    /// without it each process draws its own, and sessions end when it restarts.
    #[arg(long, env = "KNOWHUB_CONSOLE_SECRET", hide_env_values = true, value_parser = secret)]
    console_secret: Option<crate::config::Secret>,
}

fn secret(s: &str) -> Result<crate::config::Secret, String> {
    if s.trim().len() < 16 {
        return Err("must be at least 16 characters".into());
    }
    Ok(crate::config::Secret(s.to_string()))
}

fn init_logging(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_env("KNOWHUB_LOG").unwrap_or_else(|_| "info,tower_http=warn".into());
    let b = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let _ = match format {
        LogFormat::Json => b.json().try_init(),
        LogFormat::Text => b.try_init(),
    };
}

/// Builds the configured embedder; a broken setup degrades to full-text search with a clear error.
pub fn build_embedder(cfg: &Config) -> Embedder {
    let (e, problem) = Embedder::from_settings(&cfg.embedder.settings());
    if let Some(p) = problem {
        tracing::error!("{p}");
        eprintln!("knowhub: {p}");
    }
    e
}

pub async fn run(o: &Overrides, args: ServeArgs) -> anyhow::Result<()> {
    let cfg = Config::load(o)?;
    init_logging(cfg.log_format);
    let bind = args.bind.unwrap_or_else(|| cfg.bind.clone());
    let listener = tokio::net::TcpListener::bind(&bind).await.with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    if !addr.ip().is_loopback() && !cfg.auth {
        anyhow::bail!(
            "refusing to listen on {addr} without API keys: anyone who can reach it could read and write this hub. \
             Set auth = true (KNOWHUB_AUTH=true) and create keys with `knowhub keys create`, or bind to 127.0.0.1"
        );
    }
    let extractor = match cfg.llm.settings()? {
        Some(s) => {
            let (model, url) = (s.model.clone(), s.base_url.clone());
            let (answer, window) = (s.answer_tokens(), s.context_tokens);
            let llm = knowhub_ai::LlmClient::new(s).map_err(|e| anyhow::anyhow!("llm: {e}"))?;
            tracing::info!(%model, base_url = %url, answer_tokens = answer, context_tokens = ?window, "LLM extraction enabled");
            Some(Extractor::new(llm, cfg.extraction.settings()?))
        }
        None => None,
    };
    let opts = HubOptions {
        extractor,
        require_approval: cfg.extraction.require_approval,
        auto_approve: match cfg.review.auto_approve {
            crate::config::AutoApproveKind::All => AutoApprove::All,
            crate::config::AutoApproveKind::Reviewers => AutoApprove::Reviewers,
            crate::config::AutoApproveKind::None => AutoApprove::None,
        },
        auth: cfg.auth,
        evidence: cfg.dedup.settings()?,
        expiry: cfg.expiry.settings()?,
        limits: cfg.limits.rates(),
        records: cfg.limits.records(),
    };
    let embedder = Arc::new(build_embedder(&cfg));
    let model = embedder.model_id().map(str::to_string);
    let store = crate::backend::open(&cfg, model.clone(), true).await?;
    knowhub_core::text::warm_up();
    let hub = Hub::with_options(store, embedder, cfg.search.to_search_config(&cfg.feedback), opts);
    let _worker = hub.spawn_embed_worker();
    let _extract_worker = hub.spawn_extract_worker();
    let _usage = hub.spawn_usage_flusher();
    let _expiry = hub.spawn_expiry_sweeper();
    let _webhooks = hub.spawn_webhooks(cfg.webhook_settings()?);
    let _sync: Vec<_> = cfg.sync_peers()?.into_iter().map(|p| hub.spawn_sync(p)).collect();
    if cfg.auth {
        let keys = hub.list_keys(&knowhub_core::Caller::local()).await?;
        if !keys.iter().any(|k| k.revoked_at.is_none()) {
            tracing::warn!("auth is on but no active API key exists: create one with `knowhub keys create --role admin --name NAME`");
        }
    }
    let h = hub.health().await?;
    tracing::info!(%addr, store = %crate::backend::describe(&cfg), records = h.records, embedder = %h.embedder, "knowhub ready");
    println!("knowhub listening on http://{addr}");
    let hosts = knowhub_http::guard::allowed_hosts(addr, cfg.auth, &args.allowed_hosts);
    let console = knowhub_console::Console::new(hub.clone(), args.console_secret.as_ref().map(|s| s.0.as_str()));
    let adapters = knowhub_console::router(console).merge(knowhub_mcp::http::router(hub.clone(), hosts.clone()));
    let app = knowhub_http::app_with(hub.clone(), adapters)
        .layer(axum::middleware::from_fn_with_state(Arc::new(hosts), knowhub_http::guard::check_host));
    let limits = cfg.limits.connections()?.fit_to_fd_limit();
    tracing::info!(
        max_connections = limits.max_connections,
        per_address = limits.max_per_address,
        header_timeout_s = limits.header_timeout.as_secs(),
        "connection limits"
    );
    knowhub_http::serve_with(listener, app, limits, shutdown()).await?;
    if let Err(e) = hub.flush_usage().await {
        tracing::warn!(error = %e, "search counts since the last flush were not recorded");
    }
    tracing::info!("knowhub stopped");
    Ok(())
}

async fn shutdown() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => return ctrl_c.await.unwrap_or(()),
        };
        tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

pub async fn reindex(cfg: &Config, re_embed: bool) -> anyhow::Result<()> {
    if cfg.database_url.is_some() {
        anyhow::bail!(
            "reindex rebuilds the SQLite data dir; with PostgreSQL the database maintains its indexes and the \
             servers re-embed records lacking a vector of the current model in the background"
        );
    }
    init_logging(cfg.log_format);
    let embedder = Arc::new(build_embedder(cfg));
    let model = embedder.model_id().map(str::to_string);
    let dir = cfg.data_dir.clone();
    let handle = tokio::runtime::Handle::current();
    let stats = tokio::task::spawn_blocking(move || {
        let bars = crate::transfer::Bars::new();
        let mut embed = |texts: &[String]| {
            handle
                .block_on(embedder.embed_passages(texts))
                .map_err(|e| knowhub_core::CoreError::Unavailable(e.to_string()))
        };
        knowhub_store_sqlite::reindex(&dir, model.as_deref(), re_embed, &mut embed, &mut |p| {
            bars.update(p.phase, p.done, p.total)
        })
    })
    .await??;
    eprintln!(
        "knowhub: reindexed {} records ({} vectors kept, {} embedded) in {}",
        stats.records,
        stats.vectors_kept,
        stats.vectors_embedded,
        cfg.data_dir.display()
    );
    Ok(())
}
