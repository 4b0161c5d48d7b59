//! The storage interface. SQLite (embedded default) and PostgreSQL implement it; the hybrid
//! merge, MMR and decay live above it, so only candidate retrieval differs per backend.

use async_trait::async_trait;

use crate::access::{ApiKey, NewApiKey};
use crate::error::CoreError;
use crate::error::Result;
use crate::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use crate::insight::{Activity, ResourceFilter, ResourceSummary, StoredPlaybook};
use crate::model::{
    Confirmation, Content, Event, Experience, ExportRecord, NewExperience, Quarantine, QuarantineTarget, Release,
    Status, SyncContext, Vote,
};
use crate::review::Review;

/// What search may return. Only `approved` records are ever searchable.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchFilter {
    /// Minimum 1-5 rating.
    pub min_score: u8,
    pub agent_id: Option<String>,
    pub status: Status,
    /// Only records in these scopes (`None`: every scope; `Some(empty)`: none).
    pub scopes: Option<Vec<String>>,
}

impl Default for SearchFilter {
    fn default() -> Self {
        SearchFilter { min_score: 1, agent_id: None, status: Status::Approved, scopes: None }
    }
}

impl SearchFilter {
    /// Whether `scope` passes the scope part of the filter.
    pub fn allows_scope(&self, scope: &str) -> bool {
        self.scopes.as_ref().is_none_or(|v| v.iter().any(|s| s == scope))
    }
}

/// Width of the column blocks in which vector scores are reported. The local embedder's vector
/// is two models' vectors end to end (E5 and MiniLM, 384 dims each), so per-block scores let it
/// read each model's cosine from one store call; any other vector is just several blocks.
pub const VECTOR_BLOCK: usize = 384;

/// One record's vector against a query vector, block by block (`VECTOR_BLOCK` dims each, the
/// last one possibly shorter): the dot product of each block with the query's, and each block's
/// L2 norm as stored with the vector. Cosines over any set of blocks follow without going back
/// to the record's text or the embedder.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockScores {
    pub dots: Vec<f64>,
    pub norms: Vec<f64>,
}

impl BlockScores {
    /// Cosine over the blocks where `query` is non-zero, scaled by the query's norm over them.
    pub fn cosine(&self, query_norms: &[f64]) -> f64 {
        let dot = self.dots.iter().zip(query_norms).filter(|(_, q)| **q > 0.0).map(|(d, _)| d).sum();
        masked_cosine(dot, &self.norms, query_norms)
    }
}

/// Cosine of a stored vector (its block `norms`) with a query (its block norms), given their dot
/// product over the blocks where the query is non-zero: a query with zeros past its first blocks
/// (the local pair's E5 half) is compared on those blocks alone.
pub fn masked_cosine(dot: f64, norms: &[f64], query_norms: &[f64]) -> f64 {
    let (mut vv, mut qq) = (0.0, 0.0);
    for (n, q) in norms.iter().zip(query_norms) {
        if *q > 0.0 {
            vv += n * n;
            qq += q * q;
        }
    }
    if vv <= 0.0 || qq <= 0.0 {
        0.0
    } else {
        dot / (vv.sqrt() * qq.sqrt())
    }
}

/// What a new record is compared with before it is stored (`Store::resource_neighbours`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NeighbourQuery {
    /// `text::resource_key` of the new record: only records with this key are compared.
    pub resource_key: String,
    /// `text::task_resource_hash` of the new record: records with the same task are always
    /// returned, so the comparisons that need no vector (same task) see all of them.
    pub task_resource_hash: String,
    /// The model of `vector`; empty when there is none (then no record counts as embedded).
    pub model: String,
    /// The new record's vector, zero in the blocks not to compare on.
    pub vector: Vec<f32>,
    /// Embedded records less alike than this are left out.
    pub min_cosine: f64,
    /// At most this many embedded records, and this many not embedded.
    pub limit: usize,
    /// Only records in this scope: a record is never merged with, confirmed by or contested by
    /// one its readers cannot see.
    pub scope: String,
}

/// A stored record a new one is compared with, and its cosine with the new record's vector
/// (`None`: it has no vector of the query's model yet).
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour {
    pub experience: Experience,
    pub cosine: Option<f64>,
}

/// One record with the query's resource key, as a backend sees it before loading rows.
#[derive(Debug, Clone, PartialEq)]
pub struct NeighbourRow {
    pub id: String,
    /// Insertion order (higher is newer).
    pub seq: i64,
    pub same_task: bool,
    pub cosine: Option<f64>,
}

/// The rows `resource_neighbours` returns, in its order (both backends choose alike): the
/// embedded ones at least `min_cosine` alike, nearest first, at most `limit`; then the newest
/// `limit` without a vector; then any other with the same task.
pub fn pick_neighbours(mut rows: Vec<NeighbourRow>, q: &NeighbourQuery) -> Vec<(String, Option<f64>)> {
    let mut near: Vec<&NeighbourRow> = rows.iter().filter(|r| r.cosine.is_some_and(|c| c >= q.min_cosine)).collect();
    near.sort_by(|a, b| b.cosine.unwrap_or(0.0).total_cmp(&a.cosine.unwrap_or(0.0)).then(a.seq.cmp(&b.seq)));
    near.truncate(q.limit);
    let mut out: Vec<(String, Option<f64>)> = near.iter().map(|r| (r.id.clone(), r.cosine)).collect();
    let mut seen: std::collections::HashSet<String> = out.iter().map(|(id, _)| id.clone()).collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.seq));
    let unembedded = rows.iter().filter(|r| r.cosine.is_none()).take(q.limit);
    let same_task = rows.iter().filter(|r| r.same_task).take(q.limit);
    for r in unembedded.chain(same_task) {
        if seen.insert(r.id.clone()) {
            out.push((r.id.clone(), r.cosine));
        }
    }
    out
}

/// Orders loaded records as `pick_neighbours` chose them (records deleted meanwhile drop out).
pub fn order_neighbours(picked: &[(String, Option<f64>)], records: Vec<Experience>) -> Vec<Neighbour> {
    let mut by_id: std::collections::HashMap<String, Experience> =
        records.into_iter().map(|e| (e.id.clone(), e)).collect();
    picked.iter().filter_map(|(id, c)| by_id.remove(id).map(|e| Neighbour { experience: e, cosine: *c })).collect()
}

/// Per-block L2 norms of a vector (`VECTOR_BLOCK` dims each).
pub fn block_norms(v: &[f32]) -> Vec<f64> {
    v.chunks(VECTOR_BLOCK).map(|b| b.iter().map(|x| f64::from(*x) * f64::from(*x)).sum::<f64>().sqrt()).collect()
}

/// Result of writing an experience.
#[derive(Debug, Clone, PartialEq)]
pub enum InsertOutcome {
    Created(Experience),
    /// Same task+resource+result already stored: the submitter was added to its confirmers
    /// (`confirmations` counts distinct callers, so a repeat by the same one changes nothing).
    Duplicate(Experience),
}

/// A reviewer's decision on a disputed record (approved, but reported as failing).
#[derive(Debug, Clone, PartialEq)]
pub enum DisputeDecision {
    /// Keep it: the failures seen so far stop counting towards a dispute.
    Keep,
    /// Reject it: it leaves search.
    Reject { reason: Option<String> },
}

/// Result of importing one exported record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportOutcome {
    Inserted,
    /// The id, or the same task+resource+result, is already there: nothing changed.
    Skipped,
}

#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// Short backend name for health output and logs.
    fn backend(&self) -> &'static str;

    /// Durably stores a new experience, or adds a confirmation to its duplicate.
    async fn insert(&self, new: NewExperience) -> Result<InsertOutcome>;

    /// Stores a record exactly as exported (id, timestamps, counters), or skips it if present.
    async fn import(&self, record: NewExperience) -> Result<ImportOutcome>;

    async fn get(&self, id: &str) -> Result<Option<Experience>>;

    /// Records for the given ids, in no particular order; unknown ids are left out.
    async fn get_many(&self, ids: &[String]) -> Result<Vec<Experience>>;

    /// The record whose `content_hash` is `hash` (`NewExperience::content_hash`), whatever its
    /// status: what a submit of the same text would be counted as a repeat of.
    async fn by_content_hash(&self, hash: &str) -> Result<Option<Experience>>;

    async fn content(&self, id: &str) -> Result<Option<Content>>;

    /// Number of stored experiences (all statuses).
    async fn count(&self) -> Result<u64>;

    /// Full-text candidates for pre-segmented query tokens (any token may match), best first,
    /// as `(id, bm25)` with bm25 > 0 and higher meaning more relevant.
    async fn text_candidates(
        &self,
        tokens: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>>;

    /// Nearest neighbours of a query vector among vectors of `model`, best first, as
    /// `(id, dot product)`: the cosine for unit vectors, and for the local pair's scan query
    /// (`[e5 ; 0]`) each record's E5 cosine, its E5 block being unit length.
    async fn vector_candidates(
        &self,
        model: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>>;

    /// BM25 of the given records for the query tokens (records that match none are left out),
    /// weighed as `text_candidates` with `filter` weighs them. Lets fusion score every candidate
    /// on both signals, not only those each list returned.
    async fn text_scores(&self, tokens: &[String], ids: &[String], filter: &SearchFilter)
        -> Result<Vec<(String, f64)>>;

    /// The given records' vectors of `model` against the query vector, block by block (records
    /// without such a vector are left out).
    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, BlockScores)>>;

    /// The given records' stored vectors of `model` (records without one are left out), so a
    /// record's own neighbours (the review queue's "nearest") need no model call.
    async fn vectors(&self, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>>;

    /// Stores vectors computed by `model` with their block norms, replacing any older ones.
    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()>;

    /// Up to `limit` records with no vector from `model` yet, as `(id, search text)`.
    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>>;

    /// How many records have a vector from `model`.
    async fn vector_count(&self, model: &str) -> Result<u64>;

    /// Records in id order after `after`, with their content, for export.
    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>>;

    // --- evidence: confirmations, near-duplicates, contests, outcome votes ---

    /// Adds `confirmer` to the record's distinct confirmers (a repeat changes nothing); a new
    /// one also moves `last_confirmed_at` to now. `NotFound` for an unknown id.
    async fn confirm(&self, id: &str, confirmer: &str) -> Result<Experience>;

    /// Approved and pending records whose `resource_key` is `key`, oldest first.
    async fn by_resource_key(&self, key: &str, limit: usize) -> Result<Vec<Experience>>;

    /// The approved and pending records with the query's resource key that a new record is
    /// compared with (`pick_neighbours` says which, in what order): those whose stored vector of
    /// the query's model is nearest (a query over all of them, however many share the key),
    /// those without one yet, and those with the same task. No model is called.
    async fn resource_neighbours(&self, query: &NeighbourQuery) -> Result<Vec<Neighbour>>;

    /// Marks two records as contesting each other (idempotent).
    async fn contest(&self, a: &str, b: &str) -> Result<()>;

    /// Stores a caller's vote on an approved record, replacing that caller's earlier vote, and
    /// returns the record with its new counts; a `helped` vote moves `last_confirmed_at` to
    /// now. `NotFound` for an unknown id, `Conflict` when the record is not approved.
    async fn vote(&self, id: &str, vote: Vote) -> Result<Experience>;

    /// A record's votes, newest first.
    async fn votes(&self, id: &str) -> Result<Vec<Vote>>;

    /// Approved records that are disputed at `threshold` (`FeedbackCounts::disputed`), in one of
    /// `scopes` (`None`: any), in id order after `after`.
    async fn disputed(
        &self,
        threshold: u32,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>>;

    /// How many approved records in one of `scopes` (`None`: any) are disputed at `threshold`.
    async fn count_disputed(&self, threshold: u32, scopes: Option<&[String]>) -> Result<u64>;

    /// Applies a reviewer's decision on an approved record. `NotFound` for an unknown id,
    /// `Conflict` when it is not approved.
    async fn resolve_dispute(&self, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience>;

    // --- review queue ---

    /// Pending records in one of `scopes` (`None`: any), in id order (ids are time-ordered, so
    /// oldest first) after `after`.
    async fn pending(&self, scopes: Option<&[String]>, after: Option<&str>, limit: usize) -> Result<Vec<Experience>>;

    /// How many records in one of `scopes` (`None`: any) have `status`.
    async fn count_status(&self, status: Status, scopes: Option<&[String]>) -> Result<u64>;

    /// Applies a reviewer's decision to a pending record (or, `Decision::Revise`, edits to an
    /// approved one), atomically.
    /// `NotFound` for an unknown id; `Conflict` when it is not pending (any more), or when the
    /// edits make it identical to another stored record. Edited text is re-indexed and its vector
    /// dropped, so the embedding worker recomputes it.
    async fn review(&self, id: &str, review: Review) -> Result<Experience>;

    /// Deletes a record with its content and vectors; `false` if there was none.
    async fn delete(&self, id: &str) -> Result<bool>;

    /// Moves a record to `scope`, where its identity is `content_hash`
    /// (`Experience::content_hash_in`). `NotFound` for an unknown id; `Conflict` when the same
    /// text is already stored in that scope.
    async fn set_scope(&self, id: &str, scope: &str, content_hash: &str) -> Result<Experience>;

    /// Sets (or replaces) a record's long content: the one way content reaches a reviewed record,
    /// called when a reviewer accepts a content proposal. `NotFound` when there is no such record.
    async fn set_content(&self, id: &str, content: &str, content_type: &str) -> Result<()>;

    // --- history ---

    /// Appends one event to a record's history.
    async fn add_event(&self, id: &str, kind: &str, by: &str, detail: Option<serde_json::Value>) -> Result<()>;

    /// A record's events, oldest first (a deleted record's: its tombstone alone).
    async fn events(&self, id: &str) -> Result<Vec<Event>>;

    /// The hub's events after `after` (a `seq`), in order, at most `limit`: the change feed.
    async fn changes(&self, after: i64, limit: usize) -> Result<Vec<Event>>;

    /// The newest event's `seq` (0 when there is none).
    async fn last_event(&self) -> Result<i64>;

    /// This hub's id, made once when its database was created: feed cursors carry it, so a
    /// cursor from another hub is told apart.
    async fn hub_id(&self) -> Result<String>;

    /// A named follower's position in the change feed (a webhook), `None` before its first.
    async fn cursor(&self, name: &str) -> Result<Option<i64>>;

    /// Moves a named follower's position (stored, so it resumes after a restart).
    async fn set_cursor(&self, name: &str, seq: i64) -> Result<()>;

    /// The version of a record this hub and the hub `peer` last agreed on (sync's merge base),
    /// `None` before they did.
    async fn sync_base(&self, peer: &str, id: &str) -> Result<Option<String>>;

    /// For a page of the change feed read by the hub `peer`, in one call rather than three reads
    /// per change: each record's merge base (`sync_base`) and, with `evidence`, its confirmations
    /// and votes (`confirmed_by`, `votes`). Ids of no stored record are left out.
    async fn sync_context(
        &self,
        peer: &str,
        ids: &[String],
        evidence: bool,
    ) -> Result<std::collections::HashMap<String, SyncContext>>;

    /// Stores the version of a record this hub and `peer` now agree on.
    async fn set_sync_base(&self, peer: &str, id: &str, version: &str) -> Result<()>;

    // --- quarantine and expiry: records held out of search (`model::hold`) ---

    /// Holds everything `target` wrote, and what it writes while the quarantine lasts, out of
    /// search, atomically. Idempotent. Returns the quarantine with the records it holds.
    async fn quarantine(&self, target: &QuarantineTarget, by: &str) -> Result<Quarantine>;

    /// Lifts a quarantine: its records are restored (those another quarantine still holds stay
    /// held) or rejected by `reviewer`. `NotFound` when there is none. Returns how many records
    /// it held.
    async fn release(&self, target: &QuarantineTarget, release: Release, reviewer: &str) -> Result<u64>;

    /// Every active quarantine, oldest first.
    async fn quarantines(&self) -> Result<Vec<Quarantine>>;

    /// Records with any of the `hold` bits in `mask`, in one of `scopes` (`None`: any), in id
    /// order after `after`.
    async fn held(
        &self,
        mask: i64,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>>;

    /// Marks the records whose `expires_at` is at or before `now` (RFC 3339) expired; returns
    /// how many it marked.
    async fn expire_due(&self, now: &str) -> Result<u64>;

    /// Sets a record's `expires_at` (`None`: never), marking it expired exactly when that is at
    /// or before `now`. `NotFound` for an unknown id.
    async fn set_expiry(&self, id: &str, expires_at: Option<&str>, now: &str) -> Result<Experience>;

    // --- API keys ---

    /// `Conflict` if an active (unrevoked) key already has this name.
    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey>;

    /// The key with this hash, revoked or not.
    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>>;

    /// All keys, oldest first, revoked ones included.
    async fn list_keys(&self) -> Result<Vec<ApiKey>>;

    /// Revokes the active key with this id or name; `None` if there is no such active key.
    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>>;

    /// Adds `delta` (1 to count a write, -1 to take one back; never below 0) to `caller`'s count in
    /// the fixed window holding `now` (Unix seconds) of each size in `windows` (seconds),
    /// atomically: several replicas may count for one caller at once, and each sees its own
    /// change. Returns per window `(count in the current window after the change, count in the
    /// previous window)`. The caller's older windows are forgotten.
    async fn count_writes(&self, caller: &str, windows: &[u64], now: i64, delta: i64) -> Result<Vec<(u64, u64)>>;

    // --- extraction jobs ---

    /// Atomically matches the upload against the session's processed messages
    /// (`extract::overlap`), records the new ones, and queues a job for them.
    async fn enqueue_extraction(&self, new: NewExtraction) -> Result<Enqueued>;

    /// Takes the oldest runnable job (queued and due, or running with an expired lease, i.e. its
    /// worker died), marks it running for `lease_secs` and counts the attempt. Safe with many
    /// workers and replicas: a job is handed to one at a time.
    async fn claim_extraction(&self, lease_secs: u64) -> Result<Option<ExtractJob>>;

    async fn finish_extraction(&self, id: &str, finish: JobFinish) -> Result<()>;

    async fn extraction(&self, id: &str) -> Result<Option<ExtractJob>>;

    // --- for the console: track records, history, activity ---

    /// Resources of approved records in one of `scopes` (`None`: any) with their track record,
    /// most-used first (ties by key), at most `limit`.
    async fn resources(
        &self,
        filter: &ResourceFilter,
        scopes: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<ResourceSummary>>;

    /// Those of `keys` (resource keys) with at least `at_least` live approved records in one of
    /// `scopes` (`None`: any), in the order given. Stops counting a key at `at_least`, so a
    /// resource with thousands of records costs what one with `at_least` does: a search asks this
    /// for the resources of its hits.
    async fn resource_keys_with(
        &self,
        keys: &[String],
        scopes: Option<&[String]>,
        at_least: u64,
    ) -> Result<Vec<String>>;

    /// Who confirmed a record and when, oldest first (the submitter is the first).
    async fn confirmed_by(&self, id: &str) -> Result<Vec<Confirmation>>;

    /// Keeps the redacted source messages an extracted record came from, for its reviewer.
    /// They are dropped when the record is reviewed (approved or rejected): a transcript is not
    /// kept longer than the review needs it. `NotFound` for an unknown id.
    async fn set_source(&self, id: &str, text: &str) -> Result<()>;

    /// The source messages kept for a record (see `set_source`).
    async fn source(&self, id: &str) -> Result<Option<String>>;

    /// Adds search counts for one day and agent (an upsert that adds, so replicas may each
    /// flush their own counts).
    async fn record_usage(&self, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()>;

    /// Day-by-day activity from `since_day` (`YYYY-MM-DD`, inclusive) on. Records and votes
    /// only of records in one of `scopes` (`None`: any); usage and jobs are not scoped.
    async fn activity(&self, since_day: &str, scopes: Option<&[String]>) -> Result<Activity>;

    // --- playbooks a model wrote (`insight::StoredPlaybook`), one per resource key ---

    /// The written playbook of a resource key, `None` when there is none.
    async fn written_playbook(&self, key: &str) -> Result<Option<StoredPlaybook>>;

    /// Stores a written playbook, replacing the one its key had.
    async fn put_written_playbook(&self, playbook: &StoredPlaybook) -> Result<()>;

    /// Written playbooks with `status` (`None`: any), most recently changed first (ties by key),
    /// at most `limit`.
    async fn written_playbooks(&self, status: Option<&str>, limit: usize) -> Result<Vec<StoredPlaybook>>;
}

/// `NotFound` for `id`, for stores to share the wording.
pub fn not_found(id: &str) -> CoreError {
    CoreError::NotFound(format!("experience {id}"))
}
