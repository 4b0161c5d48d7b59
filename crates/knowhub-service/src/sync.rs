//! Hub-to-hub sync: this hub pulls another hub's change feed and applies it here.
//!
//! A record keeps its id on every hub, so a change names the same record everywhere. Each change
//! carries the record as it is now; applying it is a three-way merge on the record's *version*
//! (a hash of its text, rating, outcome and status) against the version both hubs last agreed
//! on (a merge base kept per peer and record, on both sides; the peer sends its own with each
//! change). A record changed only on the peer takes the peer's version; one changed only here is
//! left for the peer to pull; one changed on both keeps ours, and the peer's goes to the review
//! queue as a pending copy flagged `sync_conflict`. What the peer sends passes the same redaction
//! and screen as a submit: a new record the screen flags arrives pending, and a flagged edit is not
//! applied but queued as such a copy, with its findings. Applying the same change twice changes
//! nothing, so a pull is resumable from its stored cursor and two hubs that sync each other stop
//! once they agree. Confirmations and votes made on the peer count as the peer's callers
//! (`hub:<peer>:<name>`), never as new local ones.

use std::sync::Arc;
use std::time::Duration;

use knowhub_core::review::{Decision, Review, ValidEdits};
use knowhub_core::store::{DisputeDecision, ImportOutcome};
use knowhub_core::{Caller, Confirmation, CoreError, Experience, History, NewExperience, Result, Role, Status, Vote};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::feed::{Change, ChangesPage};
use crate::hub::Hub;

/// Changes asked for per page.
const PAGE: usize = 500;
/// How long a continuous pull long-polls the peer when it is caught up.
const LONG_POLL_SECS: u64 = 20;
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(60);
/// The flag of a pending copy that holds a peer's version of a record changed on both hubs.
pub const SYNC_CONFLICT: &str = "sync_conflict";

/// Where to pull from: the peer's URL and key, which of its scopes, into which scope here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SyncRequest {
    /// The other hub's base URL (`http://10.0.0.5:7077`).
    pub from: String,
    /// A key of the other hub: a reviewer's (or admin's) to pull pending and rejected records
    /// too; an agent's pulls approved records only.
    #[serde(default)]
    pub key: Option<String>,
    /// Pull only records in this scope of the other hub.
    #[serde(default)]
    pub scope: Option<String>,
    /// Store the pulled records in this scope here (default: the scope they have there).
    #[serde(default)]
    pub into: Option<String>,
}

/// A validated [`SyncRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct SyncPeer {
    pub url: String,
    pub key: Option<String>,
    pub scope: Option<String>,
    pub into: Option<String>,
}

impl SyncRequest {
    pub fn validate(self) -> Result<SyncPeer> {
        let url = reqwest::Url::parse(self.from.trim())
            .map_err(|e| CoreError::invalid("from", format!("{:?} is not a URL: {e}", self.from)))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(CoreError::invalid("from", format!("{:?} must be http:// or https:// with a host", self.from)));
        }
        let scope = |field: &str, s: Option<String>| -> Result<Option<String>> {
            match s.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                None => Ok(None),
                Some(s) => knowhub_core::scope::parse(field, s).map(Some),
            }
        };
        Ok(SyncPeer {
            url: url.as_str().trim_end_matches('/').to_string(),
            key: self.key.filter(|k| !k.trim().is_empty()),
            scope: scope("scope", self.scope)?,
            into: scope("into", self.into)?,
        })
    }
}

/// What one pull did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SyncReport {
    /// The other hub's id (what `provenance.hub` of its records says here).
    pub peer: String,
    /// Changes read from the other hub.
    pub read: u64,
    /// Records new here.
    pub created: u64,
    /// Records that took the other hub's version.
    pub updated: u64,
    /// Records deleted because the other hub deleted them.
    pub deleted: u64,
    /// Changes that wait in the review queue: records changed on both hubs (the other hub's
    /// version is queued), and changes this hub's screen holds (an edit made there, queued the
    /// same way; an approval there of a record pending here, which stays pending).
    pub conflicts: u64,
    /// Changes that needed nothing (already the same here, newer here, or deleted here).
    pub unchanged: u64,
    /// Where the next pull starts (the other hub's feed cursor).
    pub cursor: String,
}

/// A record's version for sync: what a reviewer or submitter can change about it, not its scope
/// (scopes may map between hubs) nor its evidence (merged apart, as a union).
pub fn version_of(e: &Experience) -> String {
    let mut h = Sha256::new();
    for part in [e.task.as_str(), e.resource.as_str(), e.result.as_str(), e.outcome.as_str(), e.status.as_str()] {
        h.update(part.as_bytes());
        h.update([0]);
    }
    h.update([e.score]);
    hex::encode(&h.finalize()[..16])
}

/// A caller of the other hub, as it counts here: `hub:<peer>:<name>`; one already named after a
/// hub stays as it is, and `None` for one of this hub's own coming back.
fn foreign(me: &str, peer: &str, name: &str) -> Option<String> {
    match name.strip_prefix("hub:") {
        Some(rest) if rest.split(':').next() == Some(me) => None,
        Some(_) => Some(name.to_string()),
        None => Some(format!("hub:{peer}:{name}")),
    }
}

enum Applied {
    /// The other hub's change is held for this hub's review (counted with the conflicts).
    Held,
    Created,
    Updated,
    Deleted,
    Conflict,
    Unchanged,
}

impl Hub {
    /// Pulls the other hub's changes since the last pull from it and applies them, until caught
    /// up. Admins only: it writes records as the other hub wrote them.
    pub async fn sync_from(&self, caller: &Caller, peer: &SyncPeer) -> Result<SyncReport> {
        caller.require(Role::Admin)?;
        let http = sync_client()?;
        let res = self.pull(&http, peer, 0, &mut None).await;
        self.metrics.sync_pull(&peer.url, res.as_ref().map_err(|e| e.to_string()));
        res
    }

    /// Pulls continuously from `peer` (the `[sync]` config), long-polling when caught up and
    /// backing off while the other hub is down. Holds only a weak reference: it ends with the hub.
    pub fn spawn_sync(self: &Arc<Self>, peer: SyncPeer) -> tokio::task::JoinHandle<()> {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let Ok(http) = sync_client() else { return };
            let mut backoff = FIRST_RETRY;
            // The other hub's id, learnt on the first pull; forgotten after a failure, in case
            // the address now serves another hub.
            let mut their = None;
            loop {
                let Some(h) = weak.upgrade() else { return };
                let res = h.pull(&http, &peer, LONG_POLL_SECS, &mut their).await;
                if res.is_err() {
                    their = None;
                }
                h.metrics.sync_pull(&peer.url, res.as_ref().map_err(|e| e.to_string()));
                match res {
                    Ok(r) => {
                        backoff = FIRST_RETRY;
                        if r.read > 0 {
                            tracing::info!(from = %peer.url, created = r.created, updated = r.updated,
                                deleted = r.deleted, conflicts = r.conflicts, "synced");
                        }
                    }
                    Err(e) => {
                        tracing::warn!(from = %peer.url, error = %e, retry_in_s = backoff.as_secs(), "sync failed");
                        drop(h);
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(LAST_RETRY);
                    }
                }
            }
        })
    }

    /// One pull from `peer`. `known`: the other hub's id if an earlier pull learnt it; else it is
    /// asked for (one extra request) and kept there.
    async fn pull(
        &self,
        http: &reqwest::Client,
        peer: &SyncPeer,
        wait: u64,
        known: &mut Option<String>,
    ) -> Result<SyncReport> {
        let me = self.store.hub_id().await?;
        // The other hub's id comes with its first cursor; its position here is kept under it.
        let their = match known.clone() {
            Some(id) => id,
            None => {
                let first = fetch(http, peer, &me, None, 1, 0).await?;
                let id = first.cursor.split_once(':').map(|(h, _)| h.to_string()).unwrap_or_default();
                if id.is_empty() || id == me {
                    return Err(CoreError::invalid("from", format!("{} is this hub itself", peer.url)));
                }
                *known = Some(id.clone());
                id
            }
        };
        let name = format!("sync:{their}");
        let mut report = SyncReport { peer: their.clone(), ..Default::default() };
        let mut seq = self.store.cursor(&name).await?.unwrap_or(0);
        let mut waited = false;
        loop {
            let since = format!("{their}:{seq}");
            let page = fetch(http, peer, &me, Some(&since), PAGE, if waited { 0 } else { wait }).await?;
            waited = true;
            for change in page.changes {
                report.read += 1;
                let applied = self.apply(http, &me, &their, peer, change).await?;
                match applied {
                    Applied::Created => report.created += 1,
                    Applied::Updated => report.updated += 1,
                    Applied::Deleted => report.deleted += 1,
                    Applied::Conflict | Applied::Held => report.conflicts += 1,
                    Applied::Unchanged => report.unchanged += 1,
                }
            }
            let next = page.cursor.rsplit_once(':').and_then(|(_, s)| s.parse::<i64>().ok()).unwrap_or(seq);
            if next != seq {
                seq = next;
                self.store.set_cursor(&name, seq).await?;
            }
            report.cursor = page.cursor;
            if !page.more {
                return Ok(report);
            }
        }
    }

    async fn apply(
        &self,
        http: &reqwest::Client,
        me: &str,
        their: &str,
        peer: &SyncPeer,
        change: Change,
    ) -> Result<Applied> {
        let id = change.event.experience_id.clone();
        let by = format!("sync:{their}");
        let Some(remote) = change.experience else {
            return self.apply_delete(their, &id, &by).await;
        };
        // A private scope names a person of the other hub, not the caller of the same name here:
        // such records come only into a scope chosen for them.
        if peer.into.is_none() && remote.scope.starts_with("private/") {
            return Ok(Applied::Unchanged);
        }
        let theirs = version_of(&remote);
        let Some(local) = self.store.get(&id).await? else {
            // Gone here (a tombstone), or first written here and since deleted: not brought back.
            if remote.provenance.hub == me || !self.store.events(&id).await?.is_empty() {
                return Ok(Applied::Unchanged);
            }
            return self.apply_new(http, me, their, peer, remote, &change.confirmed_by, &change.votes, &by).await;
        };
        self.merge_evidence(me, their, &local, &change.confirmed_by, &change.votes).await;
        let ours = version_of(&local);
        let base = self.store.sync_base(their, &id).await?;
        let agreed = |v: &str| base.as_deref() == Some(v) || change.base.as_deref() == Some(v);
        if ours == theirs {
            // A record coming back as we have it (two hubs pulling each other) writes nothing.
            if base.as_deref() != Some(theirs.as_str()) {
                self.store.set_sync_base(their, &id, &theirs).await?;
            }
            return Ok(Applied::Unchanged);
        }
        if agreed(&theirs) {
            // Changed only here since the hubs agreed: the other hub pulls ours.
            return Ok(Applied::Unchanged);
        }
        // What would reach agents here passes this hub's screen first: an edit made there, or an
        // approval there of a record held here.
        let (remote, found) = self.screen_edit(me, their, peer, &local, remote).await;
        if found.is_empty() && agreed(&ours) && self.fast_forward(&local, &remote, &by).await? {
            self.store.set_sync_base(their, &id, &theirs).await?;
            return Ok(Applied::Updated);
        }
        let same_text = same_text(&local, &remote);
        if !found.is_empty() && same_text {
            // Approved there, held here: ours stays pending for this hub's reviewers.
            let detail = serde_json::json!({ "peer": their, "status": remote.status.as_str(), "held_for": found });
            self.note(&id, "held", &by, Some(detail)).await;
            return Ok(Applied::Held);
        }
        let held = !found.is_empty() && agreed(&ours);
        let queued = self.conflict(their, &local, remote, found, &by).await?;
        if held {
            // Not taken, so not agreed: the base stays, and a later clean edit there applies. The
            // same change read again finds its copy queued already.
            return Ok(if queued { Applied::Held } else { Applied::Unchanged });
        }
        self.store.set_sync_base(their, &id, &theirs).await?;
        Ok(Applied::Conflict)
    }

    /// A record deleted on the other hub goes here too, unless it changed here since the hubs
    /// last agreed on it (then it stays, and the history says why).
    async fn apply_delete(&self, their: &str, id: &str, by: &str) -> Result<Applied> {
        let Some(local) = self.store.get(id).await? else { return Ok(Applied::Unchanged) };
        let base = self.store.sync_base(their, id).await?;
        if base.as_deref().is_some_and(|b| b != version_of(&local)) {
            let detail = serde_json::json!({ "peer": their, "deleted_there": true });
            self.note(id, SYNC_CONFLICT, by, Some(detail)).await;
            return Ok(Applied::Conflict);
        }
        if self.store.delete(id).await? {
            self.changed.notify_waiters();
            tracing::info!(id, by, "experience deleted by sync");
            return Ok(Applied::Deleted);
        }
        Ok(Applied::Unchanged)
    }

    #[allow(clippy::too_many_arguments)]
    async fn apply_new(
        &self,
        http: &reqwest::Client,
        me: &str,
        their: &str,
        peer: &SyncPeer,
        remote: Experience,
        confirmed_by: &[Confirmation],
        votes: &[Vote],
        by: &str,
    ) -> Result<Applied> {
        let version = version_of(&remote);
        let id = remote.id.clone();
        let content = if remote.has_content { fetch_content(http, peer, &id).await } else { None };
        let mut n = self.foreign_record(me, their, peer, remote, confirmed_by, votes);
        n.content = content;
        // The other hub is not trusted more than a caller: text the screen flags waits for review
        // (a record rejected there stays rejected, with the findings).
        let fresh = self.screen_foreign(&mut n).await;
        if !fresh.is_empty() && n.status == Status::Approved {
            n.status = Status::Pending;
        }
        for f in fresh {
            if !n.flags.contains(&f) {
                n.flags.push(f);
            }
        }
        match self.store.import(n).await? {
            ImportOutcome::Inserted => {
                self.store.set_sync_base(their, &id, &version).await?;
                self.note(&id, "created", by, Some(serde_json::json!({ "peer": their }))).await;
                self.embed_wake.notify_one();
                Ok(Applied::Created)
            }
            // The same text is already stored here (an independent submit): nothing to add.
            ImportOutcome::Skipped => Ok(Applied::Unchanged),
        }
    }

    /// The other hub's record as one of ours: same id, its evidence as the other hub's callers,
    /// the hub it was first written on as provenance.
    fn foreign_record(
        &self,
        me: &str,
        their: &str,
        peer: &SyncPeer,
        r: Experience,
        confirmed_by: &[Confirmation],
        votes: &[Vote],
    ) -> NewExperience {
        let confirmed_by: Vec<Confirmation> = confirmed_by
            .iter()
            .filter_map(|c| foreign(me, their, &c.by).map(|by| Confirmation { by, at: c.at.clone() }))
            .collect();
        let votes: Vec<Vote> = votes
            .iter()
            .filter_map(|v| foreign(me, their, &v.voter).map(|voter| Vote { voter, ..v.clone() }))
            .collect();
        let scope = peer.into.clone().unwrap_or(r.scope);
        let origin = if r.provenance.hub.is_empty() { their.to_string() } else { r.provenance.hub };
        NewExperience {
            confirmer: format!("hub:{their}"),
            resource_version: r.resource_version,
            id: Some(r.id),
            task: r.task,
            resource: r.resource,
            result: r.result,
            score: r.score,
            outcome: r.outcome,
            agent_id: r.agent_id,
            submitted_by: r.submitted_by,
            session_key: r.session_key,
            source: r.source,
            status: r.status,
            scope,
            confidence: r.confidence,
            created_at: Some(r.created_at),
            updated_at: Some(r.updated_at),
            confirmations: (confirmed_by.len() as u32).max(r.confirmations).max(1),
            content: None,
            source_range: r.source_range,
            flags: r.flags,
            review: r.review,
            history: Some(History {
                last_confirmed_at: Some(r.last_confirmed_at),
                confirmed_by: if confirmed_by.is_empty() {
                    vec![Confirmation { by: format!("hub:{their}"), at: knowhub_core::now_rfc3339() }]
                } else {
                    confirmed_by
                },
                votes,
                reviewed_failed: r.feedback.reviewed_failed,
                contested_with: Vec::new(),
            }),
            provenance: knowhub_core::Provenance { key: String::new(), job_id: None, hub: origin },
            expires_at: r.expires_at,
            ttl_secs: r.ttl_secs,
        }
    }

    /// Adds the other hub's confirmers and votes this hub has not seen yet (a union: evidence
    /// never conflicts).
    async fn merge_evidence(
        &self,
        me: &str,
        their: &str,
        local: &Experience,
        confirmed: &[Confirmation],
        votes: &[Vote],
    ) {
        let have: Vec<Confirmation> = if confirmed.is_empty() {
            Vec::new()
        } else {
            self.store.confirmed_by(&local.id).await.unwrap_or_default()
        };
        for c in confirmed {
            let Some(by) = foreign(me, their, &c.by) else { continue };
            if have.iter().any(|h| h.by == by) {
                continue;
            }
            if let Err(e) = self.store.confirm(&local.id, &by).await {
                tracing::debug!(id = %local.id, error = %e, "sync: confirmation not merged");
            }
        }
        if local.status != Status::Approved || votes.is_empty() {
            return;
        }
        let have: Vec<Vote> = self.store.votes(&local.id).await.unwrap_or_default();
        for v in votes {
            let Some(voter) = foreign(me, their, &v.voter) else { continue };
            if have.iter().any(|h| h.voter == voter && h.outcome == v.outcome) {
                continue;
            }
            if let Err(e) = self.store.vote(&local.id, Vote { voter, ..v.clone() }).await {
                tracing::debug!(id = %local.id, error = %e, "sync: vote not merged");
            }
        }
    }

    /// The other hub's version of a record with its text redacted, and this hub's screen's
    /// findings on it (none: it may be applied). Screened when its text differs from ours, or
    /// when it is approved there and not here (ours may be held for what this hub's screen
    /// found); text as ours, on a record as approved here, is not screened again.
    async fn screen_edit(
        &self,
        me: &str,
        their: &str,
        peer: &SyncPeer,
        local: &Experience,
        mut remote: Experience,
    ) -> (Experience, Vec<String>) {
        let approving = remote.status == Status::Approved && local.status != Status::Approved;
        if same_text(local, &remote) && !approving {
            return (remote, Vec::new());
        }
        let mut n = self.foreign_record(me, their, peer, remote.clone(), &[], &[]);
        let found = self.screen_foreign(&mut n).await;
        (remote.task, remote.resource, remote.result) = (n.task, n.resource, n.result);
        (remote, found)
    }

    /// Takes the other hub's version of a record that changed only there. `false` when the
    /// change is not one a hub can make here (a rejected record approved again): a conflict.
    async fn fast_forward(&self, local: &Experience, remote: &Experience, by: &str) -> Result<bool> {
        let diff = |a: &String, b: &String| (a != b).then(|| b.clone());
        let edits = ValidEdits {
            task: diff(&local.task, &remote.task),
            resource: diff(&local.resource, &remote.resource),
            result: diff(&local.result, &remote.result),
            score: (local.score != remote.score).then_some(remote.score),
            outcome: (local.outcome != remote.outcome).then_some(remote.outcome),
        };
        let review = |decision| Review { decision, reviewer: by.to_string() };
        let before = serde_json::json!({
            "task": local.task, "resource": local.resource, "result": local.result,
            "score": local.score, "outcome": local.outcome.as_str(),
        });
        let id = local.id.as_str();
        match (local.status, remote.status) {
            (Status::Pending, Status::Approved) => {
                self.store.review(id, review(Decision::Approve(edits))).await?;
                self.note(id, "approved", by, None).await;
            }
            (Status::Pending, Status::Rejected) => {
                let reason = remote.review.as_ref().and_then(|r| r.note.clone());
                self.store.review(id, review(Decision::Reject { reason })).await?;
                self.note(id, "rejected", by, None).await;
            }
            (Status::Approved, Status::Rejected) => {
                let reason = remote.review.as_ref().and_then(|r| r.note.clone());
                self.store.resolve_dispute(id, DisputeDecision::Reject { reason }, by).await?;
                self.note(id, "rejected", by, None).await;
            }
            (Status::Approved, Status::Approved) if !edits.is_empty() => {
                self.store.review(id, review(Decision::Revise(edits))).await?;
                self.note(id, "edited", by, Some(serde_json::json!({ "before": before }))).await;
            }
            _ => return Ok(false),
        }
        self.embed_wake.notify_one();
        Ok(true)
    }

    /// Both hubs changed the record, or the screen holds the other hub's edit (`found`): ours
    /// stays, and the other hub's version waits in the review queue as a pending copy (flagged
    /// `sync_conflict`, with the other hub's flags and `found`, and named in the record's
    /// history). Its id is derived from the version, so pulling the same change again adds no
    /// second copy (`false`: it was queued already); it names the other hub as its origin, so
    /// that hub never pulls it back as new. `remote` comes through `screen_edit`, so its text is
    /// redacted already (or is ours).
    async fn conflict(
        &self,
        their: &str,
        local: &Experience,
        remote: Experience,
        found: Vec<String>,
        by: &str,
    ) -> Result<bool> {
        let mut h = Sha256::new();
        h.update(their.as_bytes());
        h.update(local.id.as_bytes());
        h.update(version_of(&remote).as_bytes());
        let copy_id = format!("conflict-{}", &hex::encode(h.finalize())[..24]);
        let n = NewExperience {
            confirmer: format!("hub:{their}"),
            id: Some(copy_id.clone()),
            task: remote.task,
            resource: remote.resource,
            result: remote.result,
            score: remote.score,
            outcome: remote.outcome,
            agent_id: remote.agent_id,
            resource_version: remote.resource_version,
            source: remote.source,
            status: Status::Pending,
            scope: local.scope.clone(),
            flags: copy_flags(&remote.flags, &found),
            provenance: knowhub_core::Provenance { key: String::new(), job_id: None, hub: their.to_string() },
            ..NewExperience::default()
        };
        if self.store.import(n).await? == ImportOutcome::Inserted {
            let mut detail = serde_json::json!({ "peer": their, "copy": copy_id, "status": remote.status.as_str() });
            if !found.is_empty() {
                detail["held_for"] = serde_json::json!(found);
            }
            self.note(&local.id, SYNC_CONFLICT, by, Some(detail)).await;
            self.note(&copy_id, "created", by, Some(serde_json::json!({ "peer": their, "conflict_with": local.id })))
                .await;
            return Ok(true);
        }
        Ok(false)
    }
}

/// The same task, resource, result and version.
fn same_text(a: &Experience, b: &Experience) -> bool {
    (&a.task, &a.resource, &a.result, &a.resource_version) == (&b.task, &b.resource, &b.result, &b.resource_version)
}

/// A conflict copy's flags: `sync_conflict`, what the other hub had flagged, and what this hub's
/// screen found, each once.
fn copy_flags(theirs: &[String], found: &[String]) -> Vec<String> {
    let mut out = vec![SYNC_CONFLICT.to_string()];
    for f in theirs.iter().chain(found) {
        if !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

fn sync_client() -> Result<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(LONG_POLL_SECS + 30))
        .build()
        .map_err(|e| CoreError::Internal(format!("sync client: {e}")))
}

/// One page of the other hub's feed. Its refusals come back naming what is missing: a key it
/// does not know, or one without the right to read.
async fn fetch(
    http: &reqwest::Client,
    peer: &SyncPeer,
    me: &str,
    since: Option<&str>,
    limit: usize,
    wait: u64,
) -> Result<ChangesPage> {
    let mut q: Vec<(&str, String)> = vec![("limit", limit.to_string()), ("peer", me.to_string())];
    if let Some(s) = &peer.scope {
        q.push(("scope", s.clone()));
    }
    if let Some(s) = since {
        q.push(("since", s.to_string()));
    }
    if wait > 0 {
        q.push(("wait", wait.to_string()));
    }
    let mut req = http.get(format!("{}/api/changes", peer.url)).query(&q);
    if let Some(k) = &peer.key {
        req = req.bearer_auth(k);
    }
    let res =
        req.send().await.map_err(|e| CoreError::Unavailable(format!("cannot reach the hub at {}: {e}", peer.url)))?;
    let status = res.status().as_u16();
    let body = res.bytes().await.map_err(|e| CoreError::Unavailable(format!("reading from {}: {e}", peer.url)))?;
    if status == 200 {
        return serde_json::from_slice(&body)
            .map_err(|e| CoreError::Unavailable(format!("{} did not answer as a KnowHub feed: {e}", peer.url)));
    }
    let said = serde_json::from_slice::<crate::ErrorBody>(&body).map(|b| b.error.message).unwrap_or_default();
    Err(match status {
        401 => CoreError::invalid("key", format!("the hub at {} does not accept this key ({said})", peer.url)),
        403 => CoreError::invalid(
            "key",
            format!(
                "this key lacks the read right the pull needs on the hub at {}{} ({said})",
                peer.url,
                peer.scope.as_deref().map(|s| format!(", on the scope {s}")).unwrap_or_default()
            ),
        ),
        400 => CoreError::invalid("from", format!("the hub at {} refused the pull: {said}", peer.url)),
        s => CoreError::Unavailable(format!("the hub at {} answered {s}: {said}", peer.url)),
    })
}

/// A record's long content from the other hub; `None` when it cannot be read (the record
/// arrives without it rather than not at all).
async fn fetch_content(http: &reqwest::Client, peer: &SyncPeer, id: &str) -> Option<(String, String)> {
    let mut req = http.get(format!("{}/api/experiences/{id}/content", peer.url));
    if let Some(k) = &peer.key {
        req = req.bearer_auth(k);
    }
    let c: knowhub_core::Content = req.send().await.ok()?.error_for_status().ok()?.json().await.ok()?;
    Some((c.content, c.content_type))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_of_the_other_hub_are_named_after_it_and_ours_come_home() {
        assert_eq!(foreign("aa", "bb", "alice").as_deref(), Some("hub:bb:alice"));
        assert_eq!(foreign("aa", "bb", "hub:cc:carol").as_deref(), Some("hub:cc:carol"));
        assert_eq!(foreign("aa", "bb", "hub:aa:alice"), None);
        assert_eq!(foreign("aa", "bb", "hub:aa"), None);
    }

    #[test]
    fn a_request_is_checked() {
        let ok = SyncRequest { from: "http://127.0.0.1:7077/".into(), key: None, scope: None, into: None };
        assert_eq!(ok.clone().validate().unwrap().url, "http://127.0.0.1:7077");
        let field = |r: SyncRequest| r.validate().unwrap_err().field().map(str::to_string);
        assert_eq!(field(SyncRequest { from: "ftp://x".into(), ..ok.clone() }).as_deref(), Some("from"));
        assert_eq!(field(SyncRequest { scope: Some("team/".into()), ..ok.clone() }).as_deref(), Some("scope"));
        assert_eq!(field(SyncRequest { into: Some("nowhere".into()), ..ok }).as_deref(), Some("into"));
    }
}
