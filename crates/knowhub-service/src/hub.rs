//! The Hub: its options, reads of one record, health, background embedding. Submit is in
//! `submit`, search in `search`, the review queue in `review`, keys in `auth`, extraction in `jobs`.

use std::sync::Arc;
use std::time::Duration;

use knowhub_ai::Embedder;
use knowhub_core::{Caller, Content, CoreError, Experience, Result, Role, Status, Store};
use serde::Serialize;
use tokio::sync::Notify;

use crate::search::SearchConfig;

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    pub status: &'static str,
    pub version: &'static str,
    pub backend: &'static str,
    pub records: u64,
    pub embedder: String,
    pub vectors: u64,
    pub pending: u64,
    /// LLM extraction: model and this process's token accounting (absent when extraction is off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmHealth>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LlmHealth {
    pub model: String,
    /// The answer budget sent as `max_tokens` (a quarter of `context_tokens` at most).
    pub answer_tokens: u32,
    /// The model's context window, when configured (`llm.context_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_tokens: Option<u32>,
    #[serde(flatten)]
    pub stats: knowhub_ai::LlmStats,
}

/// Who answers for an agent (often an e-mail address) is for reviewers and admins to see, not
/// for other agents: with auth on, an agent key gets the field empty (omitted in JSON).
pub(crate) fn hide_submitter(caller: &Caller, submitted_by: &mut String) {
    if !caller.reads_everything() {
        submitted_by.clear();
    }
}

/// Which manual submits are approved at once (the rest wait in the review queue).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoApprove {
    /// Every manual submit (the default: agents are trusted on a private hub).
    #[default]
    All,
    /// Only submits by keys with the reviewer or admin role.
    Reviewers,
    /// None: every manual submit is reviewed.
    None,
}

/// Review, extraction and access policy, from config.
#[derive(Clone, Default)]
pub struct HubOptions {
    pub extractor: Option<Arc<crate::extract::Extractor>>,
    /// Extracted items wait for a reviewer (server default; a client may only ask for more review).
    pub require_approval: bool,
    pub auto_approve: AutoApprove,
    /// Require API keys.
    pub auth: bool,
    pub evidence: crate::evidence::EvidenceSettings,
    /// Per-caller budgets for writes and uploads (off by default; `knowhub serve` sets them).
    pub limits: crate::limits::RateLimits,
    /// New records per agent key before the rest wait for review (off by default; `knowhub
    /// serve` sets them).
    pub records: crate::limits::RecordLimits,
    /// Default lifetimes of records (none by default).
    pub expiry: crate::hold::ExpirySettings,
}

pub struct Hub {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) embedder: Arc<Embedder>,
    pub(crate) cfg: SearchConfig,
    pub(crate) embed_wake: Notify,
    /// Wakes change-feed readers waiting for an event.
    pub(crate) changed: Notify,
    pub(crate) opts: HubOptions,
    pub(crate) extract_wake: Notify,
    pub(crate) limiter: crate::limits::Limiter,
    pub(crate) metrics: crate::metrics::Metrics,
    /// Searches per (day, caller) and how many found something, not yet written to the store.
    pub(crate) usage: std::sync::Mutex<std::collections::HashMap<(String, String), (u64, u64)>>,
}

const EMBED_BATCH: usize = 32;

impl Hub {
    pub fn new(store: Arc<dyn Store>, embedder: Arc<Embedder>, cfg: SearchConfig) -> Arc<Self> {
        Self::with_options(store, embedder, cfg, HubOptions { require_approval: true, ..Default::default() })
    }

    pub fn with_options(
        store: Arc<dyn Store>,
        embedder: Arc<Embedder>,
        cfg: SearchConfig,
        opts: HubOptions,
    ) -> Arc<Self> {
        let limiter = crate::limits::Limiter::new(opts.limits);
        Arc::new(Hub {
            store,
            embedder,
            cfg,
            embed_wake: Notify::new(),
            changed: Notify::new(),
            opts,
            extract_wake: Notify::new(),
            limiter,
            metrics: Default::default(),
            usage: Default::default(),
        })
    }

    pub fn options(&self) -> &HubOptions {
        &self.opts
    }

    /// Failure votes that put an approved record back in the review queue.
    pub fn dispute_threshold(&self) -> u32 {
        self.cfg.dispute_threshold
    }

    /// This replica's counters, for `/metrics`.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    pub async fn experience(&self, caller: &Caller, id: &str) -> Result<Experience> {
        caller.require(Role::Agent)?;
        let id = knowhub_core::validate::id(id)?;
        let mut e = self.store.get(id).await?.ok_or_else(|| CoreError::NotFound(format!("experience {id}")))?;
        if !Self::may_read(caller, &e) {
            return Err(CoreError::NotFound(format!("experience {id}")));
        }
        self.hide_contests(caller, vec![(&mut e.contested_with, None)]).await?;
        hide_submitter(caller, &mut e.submitted_by);
        Ok(e)
    }

    /// Leaves out of what `caller` is shown the contest marks that name records it may not read
    /// (a pending or rejected record's id is no agent's to learn), and the `contested` flag with
    /// the last of them. Each item is a record's `contested_with` and, for a search hit, its flags.
    pub(crate) async fn hide_contests(
        &self,
        caller: &Caller,
        mut items: Vec<(&mut Vec<String>, Option<&mut Vec<String>>)>,
    ) -> Result<()> {
        if (caller.reads_everything() && caller.readable().is_none()) || items.iter().all(|(c, _)| c.is_empty()) {
            return Ok(());
        }
        let ids: Vec<String> = items.iter().flat_map(|(c, _)| c.iter().cloned()).collect();
        let readable: std::collections::HashSet<String> =
            self.store.get_many(&ids).await?.into_iter().filter(|e| Self::may_read(caller, e)).map(|e| e.id).collect();
        for (contested, flags) in items.iter_mut() {
            let before = contested.len();
            contested.retain(|id| readable.contains(id));
            if let Some(flags) = flags.as_mut().filter(|_| before > 0 && contested.is_empty()) {
                flags.retain(|f| f != crate::search::CONTESTED);
            }
        }
        Ok(())
    }

    pub async fn content(&self, caller: &Caller, id: &str) -> Result<Content> {
        caller.require(Role::Agent)?;
        let id = knowhub_core::validate::id(id)?;
        let e = self.store.get(id).await?;
        if !e.as_ref().is_some_and(|e| Self::may_read(caller, e)) {
            return Err(CoreError::NotFound(format!("content for experience {id}")));
        }
        self.store.content(id).await?.ok_or_else(|| CoreError::NotFound(format!("content for experience {id}")))
    }

    /// Agents read approved records only: pending ones are unreviewed (maybe poisoned) and
    /// rejected ones were judged wrong. Reviewers, and the operator of a hub without keys, read all.
    /// Nobody reads a record outside the scopes their key reads.
    pub(crate) fn may_read(caller: &Caller, e: &Experience) -> bool {
        let live = e.status == Status::Approved && !e.quarantined && !e.expired;
        caller.can_read(&e.scope) && (live || caller.reads_everything())
    }

    /// Appends an event to a record's history. The change itself is done: a failure to record it
    /// is logged, not returned.
    pub(crate) async fn note(&self, id: &str, kind: &str, by: &str, detail: Option<serde_json::Value>) {
        if let Err(e) = self.store.add_event(id, kind, by, detail).await {
            tracing::warn!(id, kind, error = %e, "history event not recorded");
        }
        self.changed.notify_waiters();
    }

    /// The record `id` when `caller` may see it in any status (its scope is one the caller
    /// reads), else `NotFound`, worded as for a record that does not exist.
    pub(crate) async fn in_scope(&self, caller: &Caller, id: &str) -> Result<Experience> {
        match self.store.get(id).await? {
            Some(e) if caller.can_read(&e.scope) => Ok(e),
            _ => Err(knowhub_core::store::not_found(id)),
        }
    }

    pub async fn health(&self) -> Result<Health> {
        let records = self.store.count().await?;
        let (embedder, vectors) = match self.embedder.model_id() {
            Some(m) => (m.to_string(), self.store.vector_count(m).await?),
            None => ("none".to_string(), 0),
        };
        Ok(Health {
            status: "ok",
            version: env!("CARGO_PKG_VERSION"),
            backend: self.store.backend(),
            records,
            embedder,
            vectors,
            pending: self.store.count_status(Status::Pending, None).await?,
            llm: self.opts.extractor.as_ref().map(|x| {
                let s = x.llm.settings();
                LlmHealth {
                    model: s.model.clone(),
                    answer_tokens: s.answer_tokens(),
                    context_tokens: s.context_tokens,
                    stats: x.llm.stats(),
                }
            }),
        })
    }

    /// Embeds records that lack a vector from the current model: new submits (woken by
    /// `submit`), and a backlog after a restart, an embedder outage or a model change.
    pub fn spawn_embed_worker(self: &Arc<Self>) -> Option<tokio::task::JoinHandle<()>> {
        let model = self.embedder.model_id()?.to_string();
        let hub = self.clone();
        Some(tokio::spawn(async move {
            let mut backoff = Duration::from_millis(500);
            loop {
                match hub.embed_pending(&model).await {
                    Ok(0) => {
                        backoff = Duration::from_millis(500);
                        let _ = tokio::time::timeout(Duration::from_secs(30), hub.embed_wake.notified()).await;
                    }
                    Ok(_) => backoff = Duration::from_millis(500),
                    Err(e) => {
                        tracing::warn!(error = %e, retry_in_ms = backoff.as_millis() as u64, "background embedding failed; records stay full-text searchable");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(60));
                    }
                }
            }
        }))
    }

    /// One round of background embedding; returns how many records got vectors.
    pub async fn embed_pending(&self, model: &str) -> Result<usize> {
        let todo = self.store.missing_vectors(model, EMBED_BATCH).await?;
        if todo.is_empty() {
            return Ok(0);
        }
        let texts: Vec<String> = todo.iter().map(|(_, t)| t.clone()).collect();
        let vecs = self.embedder.embed_passages(&texts).await.map_err(|e| CoreError::Unavailable(e.to_string()))?;
        let items: Vec<(String, Vec<f32>)> = todo.into_iter().map(|(id, _)| id).zip(vecs).collect();
        self.store.set_vectors(model, &items).await?;
        Ok(items.len())
    }
}
