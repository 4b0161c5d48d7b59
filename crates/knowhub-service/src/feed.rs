//! The change feed: the hub's events in order, each with the record as it is now (or its
//! tombstone), limited to what the caller may read, resumable from a cursor, long-polled.

use std::time::Duration;

use knowhub_core::{Caller, Confirmation, CoreError, Event, Experience, Result, Role, Vote};
use serde::{Deserialize, Serialize};

use crate::hub::Hub;
use crate::requests::IntRange;

/// Changes per page.
pub const CHANGES_LIMIT: IntRange = IntRange { min: 1, max: 1000, default: 100 };
/// Seconds a request may wait for a change (long-poll).
pub const CHANGES_WAIT: IntRange = IntRange { min: 0, max: 60, default: 0 };
/// How often a waiting request looks again for changes another replica made.
const RECHECK: Duration = Duration::from_millis(500);

/// `GET /api/changes`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChangesRequest {
    /// The `cursor` of the previous page; omitted: from the beginning.
    pub since: Option<String>,
    pub limit: Option<String>,
    /// Seconds to wait when nothing is new yet.
    pub wait: Option<String>,
    /// The id of the hub that pulls (sync): each change then carries what a merge needs, the
    /// version both hubs last agreed on and the record's confirmers and votes (reviewers only).
    pub peer: Option<String>,
    /// Only records in this scope (and tombstones); a scope the key may not read is refused.
    pub scope: Option<String>,
}

/// A validated [`ChangesRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ChangesQuery {
    /// `(hub id, seq)` from the cursor; `None`: from the beginning.
    pub since: Option<(String, i64)>,
    pub limit: usize,
    pub wait: Duration,
    pub peer: Option<String>,
    pub scope: Option<String>,
}

/// A cursor: the hub's id and the position, so one from another hub is refused.
fn cursor(hub: &str, seq: i64) -> String {
    format!("{hub}:{seq}")
}

impl ChangesRequest {
    pub fn validate(self) -> Result<ChangesQuery> {
        let since = match self.since.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s) => {
                let parsed = s.split_once(':').and_then(|(hub, seq)| {
                    let seq = seq.parse::<i64>().ok().filter(|n| *n >= 0)?;
                    (!hub.is_empty() && hub.chars().all(|c| c.is_ascii_hexdigit())).then(|| (hub.to_string(), seq))
                });
                Some(parsed.ok_or_else(|| CoreError::invalid("since", format!("{s:?} is not a feed cursor")))?)
            }
        };
        let limit = CHANGES_LIMIT.parse("limit", self.limit.as_deref())? as usize;
        let wait = CHANGES_WAIT.parse("wait", self.wait.as_deref())? as u64;
        let peer = match self.peer.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p) if p.len() <= 64 && p.chars().all(|c| c.is_ascii_hexdigit()) => Some(p.to_string()),
            Some(p) => return Err(CoreError::invalid("peer", format!("{p:?} is not a hub id"))),
        };
        let scope = match self.scope.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s) => Some(knowhub_core::scope::parse("scope", s)?),
        };
        Ok(ChangesQuery { since, limit, wait: Duration::from_secs(wait), peer, scope })
    }
}

/// One change: the event, and the record as it is now (`None` once deleted).
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Change {
    #[serde(flatten)]
    pub event: Event,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experience: Option<Experience>,
    /// With `peer`: the record's version this hub and that peer last agreed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// With `peer`: who confirmed the record (reviewers only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirmed_by: Vec<Confirmation>,
    /// With `peer`: the votes on the record (reviewers only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub votes: Vec<Vote>,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChangesPage {
    pub changes: Vec<Change>,
    /// Pass as `since` for the next page (it moves past changes the caller may not read too).
    pub cursor: String,
    /// More changes are waiting: ask again at once.
    pub more: bool,
}

impl Hub {
    /// The changes after `q.since` that the caller may read, waiting up to `q.wait` for one.
    /// Agents get approved records in their scopes (and tombstones, which name only an id),
    /// without who made the change; reviewers get every event in their scopes.
    pub async fn changes(&self, caller: &Caller, q: &ChangesQuery) -> Result<ChangesPage> {
        caller.require(Role::Agent)?;
        if q.scope.is_some() {
            // The same refusal as every scoped read: 403 naming the field, never an empty feed.
            caller.read_filter("scope", q.scope.as_deref())?;
        }
        let hub = self.store.hub_id().await?;
        let mut since = match &q.since {
            Some((from, _)) if *from != hub => {
                return Err(CoreError::invalid("since", "this cursor is from another hub's feed"));
            }
            Some((_, seq)) => *seq,
            None => 0,
        };
        let deadline = tokio::time::Instant::now() + q.wait;
        loop {
            let events = self.store.changes(since, q.limit + 1).await?;
            let more = events.len() > q.limit;
            let events: Vec<Event> = events.into_iter().take(q.limit).collect();
            if let Some(last) = events.last() {
                since = last.seq;
            }
            let changes = self.readable_changes(caller, events, q).await?;
            let now = tokio::time::Instant::now();
            if !changes.is_empty() || more || now >= deadline {
                return Ok(ChangesPage { changes, cursor: cursor(&hub, since), more });
            }
            // Woken by a change on this replica, or looking again for one made on another.
            let _ = tokio::time::timeout(RECHECK.min(deadline - now), self.changed.notified()).await;
        }
    }

    async fn readable_changes(&self, caller: &Caller, events: Vec<Event>, q: &ChangesQuery) -> Result<Vec<Change>> {
        let mut ids: Vec<String> = events.iter().map(|e| e.experience_id.clone()).collect();
        ids.sort();
        ids.dedup();
        let records: std::collections::HashMap<String, Experience> =
            self.store.get_many(&ids).await?.into_iter().map(|e| (e.id.clone(), e)).collect();
        // What a sync peer needs beside each record, read for the whole page at once.
        let context = match &q.peer {
            Some(peer) => {
                let visible: Vec<String> =
                    records.values().filter(|e| Self::may_read(caller, e)).map(|e| e.id.clone()).collect();
                self.store.sync_context(peer, &visible, caller.reads_everything()).await?
            }
            None => Default::default(),
        };
        let mut out = Vec::with_capacity(events.len());
        for mut event in events {
            let experience = match records.get(&event.experience_id) {
                Some(e) if Self::may_read(caller, e) && q.scope.as_ref().is_none_or(|s| *s == e.scope) => {
                    let mut e = e.clone();
                    crate::hub::hide_submitter(caller, &mut e.submitted_by);
                    Some(e)
                }
                Some(_) => continue,
                None if event.kind == "deleted" => None,
                None => continue,
            };
            if !caller.reads_everything() {
                event.by = String::new();
                event.detail = None;
            }
            let mut change = Change { event, experience, base: None, confirmed_by: Vec::new(), votes: Vec::new() };
            if let Some(ctx) = change.experience.as_ref().and_then(|e| context.get(&e.id)) {
                // A record changed twice on the page carries the same context on both changes.
                change.base = ctx.base.clone();
                change.confirmed_by = ctx.confirmed_by.clone();
                change.votes = ctx.votes.clone();
            }
            out.push(change);
        }
        Ok(out)
    }
}
