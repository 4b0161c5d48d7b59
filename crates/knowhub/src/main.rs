//! `knowhub`: the one binary. `serve` runs the hub; the other commands are its CLI.

mod admin;
mod backend;
mod client;
mod config;
mod mcp;
mod playbook;
mod serve;
mod term;
mod transfer;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::config::Overrides;

#[derive(Parser)]
#[command(
    name = "knowhub",
    version,
    about = "A self-hosted hub where AI agents share experiences: task, resource, result, score."
)]
struct Cli {
    #[command(flatten)]
    overrides: Overrides,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the HTTP server (default 127.0.0.1:8000, data in ./knowhub-data), with MCP on /mcp.
    Serve(serve::ServeArgs),
    /// MCP server on stdio for a local agent host, backed by a running hub (see docs/mcp.md).
    Mcp(mcp::McpArgs),
    /// Search a running hub.
    Search(client::SearchArgs),
    /// Submit one experience to a running hub.
    Submit(client::SubmitArgs),
    /// Report how an experience worked out once you used it: helped | failed | irrelevant.
    Feedback(client::FeedbackArgs),
    /// A resource's playbook from a running hub: known failures first, what works by evidence,
    /// version notes, contested points, each line citing its experience ids.
    Playbook(playbook::PlaybookArgs),
    /// Import experiences from a JSONL file (an export, or plain submit bodies) into the data dir.
    Import {
        /// JSONL file, or - for standard input (the default, so `export | import` pipes).
        #[arg(default_value = "-")]
        file: PathBuf,
        /// Skip the learned injection screen (the rules still run): for a file this hub or a
        /// trusted one exported, whose records were screened there. It embeds every record's
        /// pieces with the local model, which costs seconds per hundred records.
        #[arg(long)]
        no_classifier: bool,
    },
    /// Write every experience, with its content, as JSONL (from the data dir); or, with a host's
    /// format, the playbooks of a running hub where agents read instructions on their own.
    Export {
        /// Output file (default: standard output); for a host's format, the file (the folder for
        /// `skill`) to write, by default AGENTS.md, CLAUDE.md, .cursor/rules/knowhub-playbooks.mdc
        /// or .claude/skills/knowhub-playbooks. Outside the working directory only with --force.
        #[arg(short, long, visible_alias = "out")]
        output: Option<PathBuf>,
        /// jsonl (every record, for `import`) | agents-md | claude-md | cursor-rules | skill
        #[arg(long, default_value = "jsonl")]
        format: String,
        /// Playbooks only from this scope (one the key reads); default: every scope it reads.
        #[arg(long)]
        scope: Option<String>,
        /// Only these resources' playbooks (repeatable); default: every resource the key reads.
        #[arg(long = "resource")]
        resources: Vec<String>,
        /// Each playbook's size in estimated tokens (100-4000; default: the hub's, 400).
        #[arg(long)]
        budget: Option<u32>,
        /// Write nothing: exit 1 when the file's playbook block is missing, stale or edited by hand.
        #[arg(long)]
        check: bool,
        /// Write outside the working directory, or over a block edited by hand.
        #[arg(long)]
        force: bool,
        #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
        url: String,
        #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
        api_key: Option<String>,
    },
    /// Rebuild the full-text index and the vectors into a new database, then swap it in.
    Reindex {
        /// Re-embed every record, even those that already have a vector from the current model.
        #[arg(long)]
        re_embed: bool,
    },
    /// Manage API keys in the data dir (works while a server runs).
    Keys {
        #[command(subcommand)]
        cmd: admin::KeysCmd,
    },
    /// Review pending experiences on a running hub (interactive without a subcommand).
    Review(admin::ReviewArgs),
    /// Quarantine what one key or agent wrote on a running hub, list quarantines, lift one.
    Quarantine(admin::QuarantineArgs),
    /// Pull another hub's changes into a running hub (resumable; `[sync]` does it continuously).
    Sync(admin::SyncArgs),
    /// Create or update the database schema (PostgreSQL: run once before rolling out replicas).
    Migrate,
    /// Configuration helpers.
    Config {
        #[command(subcommand)]
        cmd: ConfigCmd,
    },
}

#[derive(Subcommand)]
enum ConfigCmd {
    /// Print an example config file with every key and its default.
    Default,
    /// Print the effective configuration (secrets hidden).
    Show,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("knowhub: cannot start the async runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match rt.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("knowhub: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<std::process::ExitCode> {
    let ok = std::process::ExitCode::SUCCESS;
    match cli.cmd {
        Cmd::Serve(args) => serve::run(&cli.overrides, args).await.map(|_| ok),
        Cmd::Mcp(args) => mcp::run(args).await.map(|_| ok),
        Cmd::Search(args) => client::search(args).await,
        Cmd::Submit(args) => client::submit(args).await.map(|_| ok),
        Cmd::Feedback(args) => client::feedback(args).await.map(|_| ok),
        Cmd::Playbook(args) => playbook::show(args).await.map(|_| ok),
        Cmd::Import { file, no_classifier } => {
            transfer::import(&config::Config::load(&cli.overrides)?, &file, !no_classifier).await
        }
        Cmd::Export { output, format, scope, resources, budget, check, force, url, api_key } => {
            if format == "jsonl" {
                if check || scope.is_some() || !resources.is_empty() || budget.is_some() {
                    anyhow::bail!("--check, --scope, --resource and --budget go with a host's format (--format agents-md | claude-md | cursor-rules | skill)");
                }
                return transfer::export(&config::Config::load(&cli.overrides)?, output.as_deref()).await.map(|_| ok);
            }
            let format = playbook::Format::parse(&format).ok_or_else(|| {
                anyhow::anyhow!("--format must be jsonl | agents-md | claude-md | cursor-rules | skill, got {format:?}")
            })?;
            playbook::export(playbook::ExportArgs {
                format,
                scope,
                resources,
                out: output,
                force,
                check,
                budget,
                url,
                api_key,
            })
            .await
        }
        Cmd::Reindex { re_embed } => serve::reindex(&config::Config::load(&cli.overrides)?, re_embed).await.map(|_| ok),
        Cmd::Migrate => backend::migrate(&config::Config::load(&cli.overrides)?).await.map(|_| ok),
        Cmd::Keys { cmd } => admin::keys(&config::Config::load(&cli.overrides)?, cmd).await.map(|_| ok),
        Cmd::Review(args) => admin::review(args).await.map(|_| ok),
        Cmd::Quarantine(args) => admin::quarantine(args).await.map(|_| ok),
        Cmd::Sync(args) => admin::sync(args).await.map(|_| ok),
        Cmd::Config { cmd: ConfigCmd::Default } => {
            print!("{}", config::DEFAULT_TOML);
            Ok(ok)
        }
        Cmd::Config { cmd: ConfigCmd::Show } => {
            println!("{:#?}", config::Config::load(&cli.overrides)?);
            Ok(ok)
        }
    }
}
