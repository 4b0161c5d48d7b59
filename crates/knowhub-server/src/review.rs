//! The review queue, deletes and key management on the Hub.

use knowhub_core::review::{Decision, Edits, Review};
use knowhub_core::{access, ApiKey, CoreError, Experience, Result, Role, SearchFilter, SearchHit, Status};
use serde::Serialize;

use crate::auth::Caller;
use crate::hub::{Hub, SearchMode, SearchQuery};

/// Default and largest page of `GET /api/pending`.
pub const PENDING_PAGE: usize = 20;
pub const PENDING_MAX: usize = 100;
/// Approved experiences shown next to each pending one, so a reviewer can spot repeats.
const NEAREST: usize = 3;

#[derive(Debug, Serialize)]
pub struct PendingItem {
    #[serde(flatten)]
    pub experience: Experience,
    pub nearest: Vec<SearchHit>,
}

#[derive(Debug, Serialize)]
pub struct PendingPage {
    pub count: usize,
    pub total_pending: u64,
    /// Pass as `after` for the next page; absent on the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_after: Option<String>,
    pub items: Vec<PendingItem>,
}

/// A new key, shown once.
#[derive(Debug, Serialize)]
pub struct CreatedKey {
    pub key: String,
    #[serde(flatten)]
    pub info: ApiKey,
}

impl Hub {
    /// Pending items oldest first, each with the nearest approved experiences.
    pub async fn pending(&self, after: Option<&str>, limit: usize) -> Result<PendingPage> {
        let limit = limit.clamp(1, PENDING_MAX);
        let items = self.store.pending(after, limit + 1).await?;
        let more = items.len() > limit;
        let mut out = Vec::with_capacity(limit);
        for e in items.into_iter().take(limit) {
            let q = SearchQuery {
                q: format!("{} {}", e.task, e.resource).chars().take(2_000).collect(),
                top_k: NEAREST,
                filter: SearchFilter { min_score: 1, agent_id: None, status: Status::Approved },
                mode: SearchMode::Hybrid,
            };
            let nearest = self.search(&q).await?.results;
            out.push(PendingItem { experience: e, nearest });
        }
        Ok(PendingPage {
            count: out.len(),
            total_pending: self.store.count_status(Status::Pending).await?,
            next_after: if more { out.last().map(|i| i.experience.id.clone()) } else { None },
            items: out,
        })
    }

    pub async fn approve(&self, id: &str, edits: Option<Edits>, caller: &Caller) -> Result<Experience> {
        let id = knowhub_core::validate::id(id)?;
        let edits = edits.unwrap_or_default().validate()?;
        let e =
            self.store.review(id, Review { decision: Decision::Approve(edits), reviewer: caller.name.clone() }).await?;
        tracing::info!(id, reviewer = %caller.name, "experience approved");
        self.embed_wake.notify_one(); // edited text needs a new vector
        Ok(e)
    }

    pub async fn reject(&self, id: &str, reason: Option<String>, caller: &Caller) -> Result<Experience> {
        let id = knowhub_core::validate::id(id)?;
        let reason = reason.map(|r| r.trim().to_string()).filter(|r| !r.is_empty());
        if reason.as_ref().is_some_and(|r| r.chars().count() > 2_000) {
            return Err(CoreError::invalid("reason", "is over 2000 characters"));
        }
        let e = self
            .store
            .review(id, Review { decision: Decision::Reject { reason }, reviewer: caller.name.clone() })
            .await?;
        tracing::info!(id, reviewer = %caller.name, "experience rejected");
        Ok(e)
    }

    pub async fn delete(&self, id: &str, caller: &Caller) -> Result<()> {
        let id = knowhub_core::validate::id(id)?;
        if !self.store.delete(id).await? {
            return Err(knowhub_core::store::not_found(id));
        }
        tracing::info!(id, by = %caller.name, "experience deleted");
        Ok(())
    }

    pub async fn create_key(&self, name: &str, role: Role) -> Result<CreatedKey> {
        let (key, new) = access::generate_key(name, role)?;
        let info = self.store.create_key(new).await?;
        tracing::info!(name = %info.name, role = %info.role, prefix = %info.prefix, "API key created");
        Ok(CreatedKey { key, info })
    }

    pub async fn list_keys(&self) -> Result<Vec<ApiKey>> {
        self.store.list_keys().await
    }

    pub async fn revoke_key(&self, id_or_name: &str) -> Result<ApiKey> {
        let k = self
            .store
            .revoke_key(id_or_name.trim())
            .await?
            .ok_or_else(|| CoreError::NotFound(format!("active key {id_or_name:?}")))?;
        tracing::info!(name = %k.name, prefix = %k.prefix, "API key revoked");
        Ok(k)
    }
}
