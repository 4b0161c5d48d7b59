//! The review queue, merges and deletes on the Hub.

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::{StreamExt, TryStreamExt};
use knowhub_core::review::{Decision, Edits, Review};
use knowhub_core::{
    Caller, CoreError, DisputeDecision, Experience, Result, Role, SearchFilter, SearchHit, Status, Vote,
};
use serde::{Deserialize, Serialize};

use crate::hub::Hub;
use crate::search::{SearchMode, SearchQuery};

/// Default and largest page of `GET /api/pending`.
pub const PENDING_PAGE: usize = crate::requests::PENDING_LIMIT.default as usize;
pub const PENDING_MAX: usize = crate::requests::PENDING_LIMIT.max as usize;
/// Approved experiences shown next to each pending one, so a reviewer can spot repeats.
const NEAREST: usize = 3;
/// Queue items prepared at once (searches for their neighbours overlap).
const PENDING_CONCURRENCY: usize = 8;

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingItem {
    #[serde(flatten)]
    pub experience: Experience,
    /// Why it is in the queue: `pending` (never approved) or `disputed` (approved, but agents
    /// report it failing; `votes` holds their notes).
    pub queue: String,
    pub nearest: Vec<SearchHit>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub votes: Vec<Vote>,
    /// The redacted messages an extracted record came from (kept until it is reviewed). Not
    /// `source`: the flattened record already has that field (manual | extracted | imported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_messages: Option<String>,
    /// `[REDACTED]` markers in its text and source: how much redaction took out.
    pub redactions: usize,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingPage {
    pub count: usize,
    pub total_pending: u64,
    pub total_disputed: u64,
    /// Pass as `after` for the next page; absent on the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_after: Option<String>,
    pub items: Vec<PendingItem>,
}

/// Which part of the review queue to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QueueKind {
    #[default]
    Pending,
    Disputed,
    /// Records held by a quarantine (lifted in bulk with `DELETE /api/quarantine`).
    Quarantined,
    /// Records past their `expires_at`, waiting to be re-confirmed (approve renews one).
    Expired,
}

impl QueueKind {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "pending" => Some(QueueKind::Pending),
            "disputed" => Some(QueueKind::Disputed),
            "quarantined" => Some(QueueKind::Quarantined),
            "expired" => Some(QueueKind::Expired),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            QueueKind::Pending => "pending",
            QueueKind::Disputed => "disputed",
            QueueKind::Quarantined => "quarantined",
            QueueKind::Expired => "expired",
        }
    }
}

/// The fields a reviewer's edit can change, as an `edited` event records them before and after
/// (and a revert reads them back).
fn edit_fields(x: &Experience) -> serde_json::Value {
    serde_json::json!({"task": x.task, "resource": x.resource, "result": x.result, "score": x.score, "outcome": x.outcome})
}

impl Hub {
    /// The review queue oldest first: pending items, or disputed ones with their votes, each
    /// with the nearest approved experiences (so a reviewer can spot repeats).
    pub async fn pending(
        &self,
        caller: &Caller,
        kind: QueueKind,
        after: Option<&str>,
        limit: usize,
    ) -> Result<PendingPage> {
        caller.require(Role::Reviewer)?;
        let limit = limit.clamp(1, PENDING_MAX);
        let threshold = self.cfg.dispute_threshold;
        let scopes = caller.readable();
        let scopes = scopes.as_deref();
        let items = match kind {
            QueueKind::Pending => self.store.pending(scopes, after, limit + 1).await?,
            QueueKind::Disputed => self.store.disputed(threshold, scopes, after, limit + 1).await?,
            QueueKind::Quarantined => {
                self.store.held(knowhub_core::hold::QUARANTINED, scopes, after, limit + 1).await?
            }
            QueueKind::Expired => self.store.held(knowhub_core::hold::EXPIRED, scopes, after, limit + 1).await?,
        };
        let more = items.len() > limit;
        let items: Vec<Experience> = items.into_iter().take(limit).collect();
        // Neighbours are searched from each item's stored vector, read in one round: a page of
        // 100 then needs no model call (items not embedded yet fall back to their text).
        let mut vectors: HashMap<String, Vec<f32>> = match self.embedder.model_id() {
            Some(model) => {
                let ids: Vec<String> = items.iter().map(|e| e.id.clone()).collect();
                self.store.vectors(model, &ids).await?.into_iter().collect()
            }
            None => HashMap::new(),
        };
        // Each item's neighbours, votes and source are independent reads: a page of 100 takes
        // them a few at a time instead of one after another.
        let out: Vec<PendingItem> = futures_util::stream::iter(items)
            .map(|e| {
                let near = vectors.remove(&e.id).and_then(|v| self.embedder.record_as_query(&v)).map(Arc::new);
                self.pending_item(caller, kind, e, near)
            })
            .buffered(PENDING_CONCURRENCY)
            .try_collect()
            .await?;
        Ok(PendingPage {
            count: out.len(),
            total_pending: self.store.count_status(Status::Pending, scopes).await?,
            total_disputed: self.store.count_disputed(threshold, scopes).await?,
            next_after: if more { out.last().map(|i| i.experience.id.clone()) } else { None },
            items: out,
        })
    }

    /// One queue item with what a reviewer needs beside it.
    async fn pending_item(
        &self,
        caller: &Caller,
        kind: QueueKind,
        e: Experience,
        near: Option<Arc<knowhub_ai::QueryVectors>>,
    ) -> Result<PendingItem> {
        let q = SearchQuery {
            q: format!("{} {}", e.task, e.resource).chars().take(crate::requests::MAX_QUERY).collect(),
            top_k: NEAREST + 1,
            filter: SearchFilter { min_score: 1, ..Default::default() },
            outcome: None,
            mode: SearchMode::Hybrid,
            min_relevance: Some(0.0),
            scope: None,
        };
        let nearest = self
            .search_near(caller, &q, near)
            .await?
            .results
            .into_iter()
            .filter(|h| h.id != e.id)
            .take(NEAREST)
            .collect();
        let (queue, votes) = match kind {
            QueueKind::Disputed => ("disputed".to_string(), self.store.votes(&e.id).await?),
            other => (other.as_str().to_string(), Vec::new()),
        };
        let source_messages = self.store.source(&e.id).await?;
        let redactions = [&e.task, &e.resource, &e.result]
            .into_iter()
            .chain(source_messages.as_ref())
            .map(|t| crate::insight::count_redactions(t))
            .sum();
        Ok(PendingItem { experience: e, queue, nearest, votes, source_messages, redactions })
    }

    /// A review that lost a race (the record is no longer pending) says who reviewed it and
    /// when, so a reviewer with a stale page knows what happened. Other errors pass through.
    async fn name_reviewer(&self, id: &str, err: CoreError) -> CoreError {
        let CoreError::Conflict(msg) = &err else { return err };
        match self.store.get(id).await {
            Ok(Some(Experience { review: Some(r), status, .. })) => {
                CoreError::Conflict(format!("{msg}: {status} by {} at {}", r.by, r.at))
            }
            _ => err,
        }
    }

    /// A disputed record (approved, reported failing) is one a reviewer decides on again.
    fn is_disputed(&self, e: &Experience) -> bool {
        e.status == Status::Approved && e.feedback.disputed(self.cfg.dispute_threshold)
    }

    /// Accepting a content proposal attaches its content to the record it names; the proposal is
    /// then closed (rejected, with a reason that says where its content went) so it never shows up
    /// as a record of its own. Content the screen flagged as steering a model is never attached.
    async fn accept_proposal(&self, caller: &Caller, p: &Experience, target: &str) -> Result<Experience> {
        if p.status != Status::Pending {
            let by = p.review.as_ref().map_or("someone", |r| r.by.as_str());
            return Err(CoreError::Conflict(format!("proposal {} was already reviewed by {by}", p.id)));
        }
        if p.flags.iter().any(|f| f == knowhub_core::guard::SUSPECTED_INJECTION) {
            return Err(CoreError::Conflict(format!(
                "proposal {} reads like a prompt injection ({}): reject it",
                p.id,
                p.flags.join(", ")
            )));
        }
        let c = self
            .store
            .content(&p.id)
            .await?
            .ok_or_else(|| CoreError::Conflict("the proposal holds no content".into()))?;
        self.store.set_content(target, &c.content, &c.content_type).await.map_err(|e| match e {
            CoreError::NotFound(_) => {
                CoreError::Conflict(format!("{target}, the record it proposes content for, is gone"))
            }
            e => e,
        })?;
        let reason = Some(format!("accepted: content attached to {target}"));
        self.store
            .review(&p.id, Review { decision: Decision::Reject { reason }, reviewer: caller.name.clone() })
            .await?;
        tracing::info!(proposal = %p.id, target, reviewer = %caller.name, "content proposal accepted");
        self.store.get(target).await?.ok_or_else(|| CoreError::NotFound(format!("experience {target}")))
    }

    /// Approves a pending record, or keeps a disputed one (its failures so far stop counting).
    pub async fn approve(&self, caller: &Caller, id: &str, edits: Option<Edits>) -> Result<Experience> {
        caller.require(Role::Reviewer)?;
        let id = knowhub_core::validate::id(id)?;
        let mut edits = edits.unwrap_or_default().validate()?;
        // A reviewer's edit is a write like any other: secrets pasted into it are redacted too.
        for t in [&mut edits.task, &mut edits.resource, &mut edits.result].into_iter().flatten() {
            *t = knowhub_core::redact::redact(t).text;
        }
        // One read decides the path: a content proposal, a disputed record, or a plain review.
        let current = self.in_scope(caller, id).await?;
        if let Some(target) = current.content_for() {
            if !edits.is_empty() {
                return Err(CoreError::invalid(
                    "edits",
                    "a content proposal is accepted or rejected as it is (edit the record itself afterwards)",
                ));
            }
            return self.accept_proposal(caller, &current, target).await;
        }
        if edits.is_empty() && current.expired && current.status == Status::Approved {
            let e = self.renew(current).await?;
            tracing::info!(id, reviewer = %caller.name, "expired experience re-confirmed");
            return Ok(e);
        }
        if edits.is_empty() && self.is_disputed(&current) {
            let e = self.store.resolve_dispute(id, DisputeDecision::Keep, &caller.name).await?;
            self.note(id, "kept", &caller.name, None).await;
            tracing::info!(id, reviewer = %caller.name, "disputed experience kept");
            return Ok(e);
        }
        let edited = !edits.is_empty();
        let e =
            self.store.review(id, Review { decision: Decision::Approve(edits), reviewer: caller.name.clone() }).await;
        let e = match e {
            Ok(e) => e,
            Err(err) => return Err(self.name_reviewer(id, err).await),
        };
        if edited {
            let detail = serde_json::json!({"before": edit_fields(&current), "after": edit_fields(&e)});
            self.note(id, "edited", &caller.name, Some(detail)).await;
        }
        self.note(id, "approved", &caller.name, None).await;
        tracing::info!(id, reviewer = %caller.name, "experience approved");
        self.embed_wake.notify_one(); // edited text needs a new vector
        Ok(e)
    }

    pub async fn reject(&self, caller: &Caller, id: &str, reason: Option<String>) -> Result<Experience> {
        caller.require(Role::Reviewer)?;
        let id = knowhub_core::validate::id(id)?;
        let reason = Some(knowhub_core::validate::optional("reason", reason, crate::requests::MAX_REASON)?)
            .filter(|r| !r.is_empty());
        if self.is_disputed(&self.in_scope(caller, id).await?) {
            let detail = serde_json::json!({"reason": reason, "disputed": true});
            let e = self.store.resolve_dispute(id, DisputeDecision::Reject { reason }, &caller.name).await?;
            self.note(id, "rejected", &caller.name, Some(detail)).await;
            tracing::info!(id, reviewer = %caller.name, "disputed experience rejected");
            return Ok(e);
        }
        let detail = serde_json::json!({"reason": reason});
        let e = self
            .store
            .review(id, Review { decision: Decision::Reject { reason }, reviewer: caller.name.clone() })
            .await;
        let e = match e {
            Ok(e) => e,
            Err(err) => return Err(self.name_reviewer(id, err).await),
        };
        self.note(id, "rejected", &caller.name, Some(detail)).await;
        tracing::info!(id, reviewer = %caller.name, "experience rejected");
        Ok(e)
    }

    pub async fn delete(&self, caller: &Caller, id: &str) -> Result<()> {
        caller.require(Role::Admin)?;
        let id = knowhub_core::validate::id(id)?;
        self.in_scope(caller, id).await?;
        if !self.store.delete(id).await? {
            return Err(knowhub_core::store::not_found(id));
        }
        tracing::info!(id, by = %caller.name, "experience deleted");
        Ok(())
    }

    /// Undoes a reviewer's edit: the record's fields go back to what they were before the
    /// `edited` event `event` of its history. The revert is itself an edit in the history.
    pub async fn revert(&self, caller: &Caller, id: &str, event: i64) -> Result<Experience> {
        caller.require(Role::Reviewer)?;
        let id = knowhub_core::validate::id(id)?;
        let current = self.in_scope(caller, id).await?;
        let ev = self.store.events(id).await?.into_iter().find(|v| v.seq == event && v.kind == "edited");
        let before = ev.and_then(|v| v.detail).and_then(|d| d.get("before").cloned()).ok_or_else(|| {
            CoreError::invalid("event", format!("{event} is not an edit in the history of experience {id}"))
        })?;
        let text = |f: &str| before.get(f).and_then(|v| v.as_str()).map(str::to_string);
        let edits = knowhub_core::review::ValidEdits {
            task: text("task"),
            resource: text("resource"),
            result: text("result"),
            score: before.get("score").and_then(|v| v.as_u64()).and_then(|s| u8::try_from(s).ok()),
            outcome: text("outcome").as_deref().and_then(knowhub_core::Outcome::parse),
        };
        let review = Review { decision: Decision::Revise(edits), reviewer: caller.name.clone() };
        let e = match self.store.review(id, review).await {
            Ok(e) => e,
            Err(err) => return Err(self.name_reviewer(id, err).await),
        };
        let detail = serde_json::json!({"before": edit_fields(&current), "after": edit_fields(&e), "reverts": event});
        self.note(id, "edited", &caller.name, Some(detail)).await;
        self.embed_wake.notify_one();
        tracing::info!(id, event, reviewer = %caller.name, "edit reverted");
        Ok(e)
    }

    /// Moves a record to another scope (a team's lesson promoted to the whole org, say). The
    /// reviewer must read both scopes; the same text already in the new scope is a conflict.
    pub async fn set_scope(&self, caller: &Caller, id: &str, scope: &str) -> Result<Experience> {
        caller.require(Role::Reviewer)?;
        let id = knowhub_core::validate::id(id)?;
        let scope = knowhub_core::scope::parse("scope", scope)?;
        let e = self.in_scope(caller, id).await?;
        if !caller.can_write(&scope) {
            return Err(CoreError::Forbidden(format!("scope: key {:?} may not write to scope {scope:?}", caller.name)));
        }
        if e.content_for().is_some() {
            return Err(CoreError::invalid("scope", "a content proposal stays with its record; accept or reject it"));
        }
        if e.scope == scope {
            return Ok(e);
        }
        let moved = self.store.set_scope(id, &scope, &e.content_hash_in(&scope)).await?;
        self.note(id, "scope_changed", &caller.name, Some(serde_json::json!({"from": e.scope, "to": scope}))).await;
        tracing::info!(id, from = %e.scope, to = %scope, reviewer = %caller.name, "experience moved to another scope");
        Ok(moved)
    }

    /// A pending record is the same experience as an approved one: it becomes a confirmation of
    /// that record (by its submitter) and leaves the queue, rejected with a reason that names
    /// the record it was merged into.
    pub async fn merge(&self, caller: &Caller, id: &str, into: &str) -> Result<Experience> {
        caller.require(Role::Reviewer)?;
        let id = knowhub_core::validate::id(id)?;
        let into = knowhub_core::validate::id(into)?;
        if id == into {
            return Err(CoreError::invalid("into", "a record cannot be merged into itself"));
        }
        let p = self.in_scope(caller, id).await?;
        if p.status != Status::Pending {
            let by = p.review.as_ref().map_or("someone".to_string(), |r| format!("{} at {}", r.by, r.at));
            return Err(CoreError::Conflict(format!(
                "experience {id} is {}, not pending: {} by {by}",
                p.status, p.status
            )));
        }
        let target = self.in_scope(caller, into).await?;
        if target.status != Status::Approved {
            return Err(CoreError::Conflict(format!("experience {into} is {}, not approved", target.status)));
        }
        let reason = Some(format!("merged into {into}"));
        let review = Review { decision: Decision::Reject { reason }, reviewer: caller.name.clone() };
        self.store.review(id, review).await?;
        let confirmer = crate::evidence::identity(&Caller::key(p.submitted_by.clone(), Role::Agent), &p.agent_id);
        let t = self.store.confirm(into, &confirmer).await?;
        self.note(id, "merged", &caller.name, Some(serde_json::json!({"into": into}))).await;
        self.note(into, "confirmed", &confirmer, Some(serde_json::json!({"merged": id}))).await;
        tracing::info!(id, into, reviewer = %caller.name, "pending experience merged");
        Ok(t)
    }
}
