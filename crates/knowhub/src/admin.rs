//! `knowhub keys` (local: works on the data dir, also while a server runs) and `knowhub review`
//! (a client of a running hub, so reviews go through the same checks as the API).

use std::io::{BufRead, Write};
use std::sync::Arc;

use anyhow::bail;
use knowhub_client::Client;
use knowhub_core::{access, Store};
use knowhub_service::requests::PENDING_LIMIT;
use knowhub_service::{ApproveRequest, PendingItem, PendingRequest, RejectRequest};

use crate::client::{hub, print_json};
use crate::config::Config;
use crate::term::safe;

#[derive(Debug, clap::Subcommand)]
pub enum KeysCmd {
    /// Create a key; it is printed once, on the last line of standard output.
    Create {
        /// agent | reviewer | admin
        #[arg(long)]
        role: String,
        /// Who or what the key is for (unique among active keys).
        #[arg(long)]
        name: String,
        /// Scopes it reads: `*`, or a comma-separated list such as `org,team/backend`
        /// (default: `org` for an agent, `*` for a reviewer or admin). Its own `private/<name>`
        /// comes on top.
        #[arg(long)]
        read: Option<String>,
        /// The scope its writes go to when they name none (default `org`).
        #[arg(long)]
        write: Option<String>,
    },
    /// List keys (never the keys themselves: name, role, prefix, dates).
    List {
        #[arg(long)]
        json: bool,
    },
    /// Revoke an active key by id or name.
    Revoke { id_or_name: String },
}

/// The store for local admin commands. Not exclusive: a running server keeps its lock and sees
/// the change on its next request (keys are read from the database on every request).
async fn open_store(cfg: &Config) -> anyhow::Result<Arc<dyn Store>> {
    crate::backend::open(cfg, None, false).await
}

pub async fn keys(cfg: &Config, cmd: KeysCmd) -> anyhow::Result<()> {
    let store = open_store(cfg).await?;
    match cmd {
        KeysCmd::Create { role, name, read, write } => {
            let spec = knowhub_service::requests::NewKeyRequest { name, role, read, write }.validate().map_err(
                |e| match e {
                    knowhub_core::CoreError::Invalid { field, message } => anyhow::anyhow!("--{field}: {message}"),
                    other => other.into(),
                },
            )?;
            let (key, new) = access::generate_scoped_key(&spec.name, spec.role, spec.read, &spec.write)?;
            let k = store.create_key(new).await?;
            eprintln!(
                "created {} key {:?} (id {}) reading {} and writing to {}. Store it now: it is not shown again.",
                k.role,
                k.name,
                k.id,
                k.read_scopes.join(","),
                k.write_scope
            );
            if !cfg.auth {
                eprintln!(
                    "note: auth is off in this config; keys are only checked with auth = true (KNOWHUB_AUTH=true)"
                );
            }
            println!("{key}");
        }
        KeysCmd::List { json } => {
            let keys = store.list_keys().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&keys)?);
            } else if keys.is_empty() {
                println!("no keys; create one with: knowhub keys create --role admin --name NAME");
            } else {
                for k in keys {
                    let state =
                        k.revoked_at.as_deref().map(|t| format!("revoked {t}")).unwrap_or_else(|| "active".into());
                    println!(
                        "{}  {:<8}  {:<20}  {}…  reads {}  writes {}  created {}  {}",
                        k.id,
                        k.role,
                        safe(&k.name),
                        k.prefix,
                        safe(&k.read_scopes.join(",")),
                        safe(&k.write_scope),
                        k.created_at,
                        state
                    );
                }
            }
        }
        KeysCmd::Revoke { id_or_name } => match store.revoke_key(&id_or_name).await? {
            Some(k) => println!("revoked {} key {:?} ({})", k.role, k.name, k.id),
            None => bail!("no active key with id or name {id_or_name:?}"),
        },
    }
    Ok(())
}

#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    #[command(subcommand)]
    cmd: Option<ReviewCmd>,
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000", global = true)]
    url: String,
    /// A reviewer or admin key (when the hub requires keys).
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true, global = true)]
    api_key: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct QuarantineArgs {
    #[command(subcommand)]
    cmd: QuarantineCmd,
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000", global = true)]
    url: String,
    /// An admin key (a reviewer's may list).
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true, global = true)]
    api_key: Option<String>,
}

/// Whose writes: one of the two.
#[derive(Debug, clap::Args)]
#[group(required = true, multiple = false)]
struct Whose {
    /// An API key's name: everything written with it.
    #[arg(long)]
    key: Option<String>,
    /// An agent id as stored (`key/agent` with auth on).
    #[arg(long)]
    agent_id: Option<String>,
}

#[derive(Debug, clap::Subcommand)]
enum QuarantineCmd {
    /// Hold everything a key or agent wrote out of search, now and while the quarantine lasts.
    Add {
        #[command(flatten)]
        whose: Whose,
    },
    /// The active quarantines and how many records each holds.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Lift a quarantine: restore its records (default) or reject them all.
    Lift {
        #[command(flatten)]
        whose: Whose,
        #[arg(long)]
        reject: bool,
        /// With --reject: the reason kept on each record.
        #[arg(long)]
        reason: Option<String>,
    },
}

pub async fn quarantine(a: QuarantineArgs) -> anyhow::Result<()> {
    let client = hub(&a.url, a.api_key)?;
    let req = |w: Whose| knowhub_service::QuarantineRequest { key: w.key, agent_id: w.agent_id, ..Default::default() };
    match a.cmd {
        QuarantineCmd::Add { whose } => {
            let q = client.quarantine(&req(whose)).await?;
            println!("quarantined {} {}: {} records held out of search", q.kind, safe(&q.value), q.records);
        }
        QuarantineCmd::List { json } => {
            let l = client.quarantines().await?;
            if json {
                print_json(&l)?;
            } else if l.quarantines.is_empty() {
                println!("no quarantines");
            }
            for q in l.quarantines.iter().filter(|_| !json) {
                println!("{} {}  {} records  by {} at {}", q.kind, safe(&q.value), q.records, safe(&q.by), q.at);
            }
        }
        QuarantineCmd::Lift { whose, reject, reason } => {
            let action = Some(if reject { "reject" } else { "restore" }.to_string());
            let r = client.release(&knowhub_service::QuarantineRequest { action, reason, ..req(whose) }).await?;
            println!("lifted the quarantine of {} {}: {} records {}d", r.kind, safe(&r.value), r.records, r.action);
        }
    }
    Ok(())
}

#[derive(Debug, clap::Subcommand)]
enum ReviewCmd {
    /// List pending experiences (or, with --disputed, approved ones that agents report failing), oldest first.
    List {
        #[arg(long, default_value_t = PENDING_LIMIT.default as u32)]
        limit: u32,
        #[arg(long)]
        disputed: bool,
        #[arg(long)]
        json: bool,
    },
    /// Approve a pending experience, optionally correcting fields (a disputed one: keep it).
    Approve {
        id: String,
        #[arg(long)]
        task: Option<String>,
        #[arg(long)]
        resource: Option<String>,
        #[arg(long)]
        result: Option<String>,
        #[arg(long)]
        score: Option<i64>,
        #[arg(long)]
        outcome: Option<String>,
    },
    /// Reject a pending or disputed experience.
    Reject {
        id: String,
        #[arg(long)]
        reason: Option<String>,
    },
}

/// A number as JSON writes it (`null` when absent), as the queue's JSON shows it.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn show(item: &PendingItem) {
    let e = &item.experience;
    println!(
        "\n── {} [{}] ({}, {}, confidence {})",
        safe(&e.id),
        safe(&item.queue),
        e.source,
        e.outcome,
        json(&e.confidence)
    );
    println!("task:     {}", safe(&e.task));
    println!("resource: {}", safe(&e.resource));
    println!("result:   {}", safe(&e.result));
    println!(
        "score {}/5 · agent {} · session {} · messages {}",
        e.score,
        safe(&e.agent_id),
        safe(e.session_key.as_deref().unwrap_or("")),
        match e.source_range {
            Some(r) => format!("#{}-#{}", r.from, r.to),
            None => "-".into(),
        }
    );
    if !e.flags.is_empty() {
        println!("FLAGS: {}", safe(&e.flags.join(", ")));
    }
    if item.queue == "disputed" {
        println!("feedback: helped {} · failed {}", e.feedback.helped, e.feedback.failed);
        for v in &item.votes {
            let note = v.note.as_deref().map(|n| format!(": {}", safe(n))).unwrap_or_default();
            println!("  {} by {}{note}", v.outcome, safe(&v.voter));
        }
    }
    for n in &item.nearest {
        println!(
            "  similar approved: {} | {} (relevance {:.2}, {})",
            safe(&n.task),
            safe(&n.resource),
            n.relevance,
            safe(&n.id)
        );
    }
}

pub async fn review(a: ReviewArgs) -> anyhow::Result<()> {
    let hub = hub(&a.url, a.api_key)?;
    match a.cmd {
        Some(ReviewCmd::List { limit, disputed, json }) => {
            let req = PendingRequest {
                kind: Some(if disputed { "disputed" } else { "pending" }.into()),
                limit: Some(i64::from(limit).clamp(PENDING_LIMIT.min, PENDING_LIMIT.max).to_string()),
                after: None,
            };
            let page = hub.pending(&req).await?;
            if json {
                print_json(&page)?;
            } else {
                println!("{} pending, {} disputed", page.total_pending, page.total_disputed);
                page.items.iter().for_each(show);
            }
        }
        Some(ReviewCmd::Approve { id, task, resource, result, score, outcome }) => {
            let e = hub.approve(&id, &ApproveRequest { task, resource, result, score, outcome }).await?;
            println!("approved {}", e.id);
        }
        Some(ReviewCmd::Reject { id, reason }) => {
            let e = hub.reject(&id, &RejectRequest { reason }).await?;
            println!("rejected {}", e.id);
        }
        None => interactive(&hub).await?,
    }
    Ok(())
}

/// Walks the queue, pending items then disputed ones: a line per decision on standard input
/// (a terminal, or a script).
async fn interactive(hub: &Client) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let (mut approved, mut rejected, mut skipped) = (0, 0, 0);
    let mut after: Option<String> = None;
    let mut kind = "pending";
    loop {
        let req = PendingRequest {
            kind: Some(kind.into()),
            limit: Some(PENDING_LIMIT.default.to_string()),
            after: after.clone(),
        };
        let items = hub.pending(&req).await?.items;
        if items.is_empty() {
            if kind == "disputed" {
                break;
            }
            (kind, after) = ("disputed", None);
            continue;
        }
        for item in &items {
            show(item);
            let id = item.experience.id.clone();
            print!("[a]pprove  [r]eject  [s]kip  [q]uit > ");
            std::io::stdout().flush()?;
            let Some(line) = lines.next().transpose()? else {
                println!();
                return summary(approved, rejected, skipped);
            };
            match line.trim().chars().next().map(|c| c.to_ascii_lowercase()) {
                Some('a') => {
                    hub.approve(&id, &ApproveRequest::default()).await?;
                    approved += 1;
                }
                Some('r') => {
                    print!("reason (optional) > ");
                    std::io::stdout().flush()?;
                    let reason = lines.next().transpose()?.unwrap_or_default();
                    hub.reject(&id, &RejectRequest { reason: Some(reason.trim().to_string()) }).await?;
                    rejected += 1;
                }
                Some('q') => return summary(approved, rejected, skipped),
                _ => skipped += 1,
            }
            after = Some(id);
        }
    }
    summary(approved, rejected, skipped)
}

fn summary(a: u32, r: u32, s: u32) -> anyhow::Result<()> {
    println!("approved {a}, rejected {r}, skipped {s}");
    Ok(())
}

/// `knowhub sync`: the hub at `--url` pulls another hub's changes (`--from`) into itself.
#[derive(Debug, clap::Args)]
pub struct SyncArgs {
    /// The other hub's URL.
    #[arg(long)]
    from: String,
    /// A key of the other hub (a reviewer's pulls pending and rejected records too).
    #[arg(long, env = "KNOWHUB_SYNC_KEY", hide_env_values = true)]
    key: Option<String>,
    /// Only the other hub's records in this scope.
    #[arg(long)]
    scope: Option<String>,
    /// Store them in this scope here (default: the scope they have there).
    #[arg(long)]
    into: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// This hub.
    #[arg(long, env = "KNOWHUB_URL", default_value = "http://127.0.0.1:8000")]
    url: String,
    /// An admin key of this hub.
    #[arg(long, env = "KNOWHUB_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

pub async fn sync(a: SyncArgs) -> anyhow::Result<()> {
    let client = hub(&a.url, a.api_key)?;
    let req = knowhub_service::SyncRequest { from: a.from, key: a.key, scope: a.scope, into: a.into };
    let r = client.sync(&req).await?;
    if a.json {
        return print_json(&r);
    }
    println!(
        "synced from hub {}: {} changes read, {} new, {} updated, {} deleted, {} conflicts (in the review queue), {} unchanged",
        r.peer, r.read, r.created, r.updated, r.deleted, r.conflicts, r.unchanged
    );
    Ok(())
}
