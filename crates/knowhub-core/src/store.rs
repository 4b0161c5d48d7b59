//! The storage interface. SQLite (embedded default) and PostgreSQL implement it; the hybrid
//! merge, MMR and decay live above it, so only candidate retrieval differs per backend.

use async_trait::async_trait;

use crate::access::{ApiKey, NewApiKey};
use crate::error::CoreError;
use crate::error::Result;
use crate::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use crate::model::{Content, Experience, ExportRecord, NewExperience, Status};
use crate::review::Review;

/// What search may return. Only `approved` records are ever searchable.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchFilter {
    /// Minimum 1-5 rating.
    pub min_score: u8,
    pub agent_id: Option<String>,
    pub status: Status,
}

impl Default for SearchFilter {
    fn default() -> Self {
        SearchFilter { min_score: 1, agent_id: None, status: Status::Approved }
    }
}

/// Result of writing an experience.
#[derive(Debug, Clone, PartialEq)]
pub enum InsertOutcome {
    Created(Experience),
    /// Same task+resource+result already stored (for `source = extracted`: same task+resource,
    /// see `text::task_resource_hash`): its `confirmations` went up by one.
    Duplicate(Experience),
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

    /// Nearest neighbours of an L2-normalised query vector among vectors of `model`, best first,
    /// as `(id, cosine)`.
    async fn vector_candidates(
        &self,
        model: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>>;

    /// BM25 of the given records for the query tokens (records that match none are left out).
    /// Lets fusion score every candidate on both signals, not only those each list returned.
    async fn text_scores(&self, tokens: &[String], ids: &[String]) -> Result<Vec<(String, f64)>>;

    /// Cosine between the query vector and the given records' vectors of `model`.
    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, f64)>>;

    /// Stores vectors (already L2-normalised) computed by `model`, replacing any older ones.
    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()>;

    /// Up to `limit` records with no vector from `model` yet, as `(id, search text)`.
    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>>;

    /// How many records have a vector from `model`.
    async fn vector_count(&self, model: &str) -> Result<u64>;

    /// Records in id order after `after`, with their content, for export.
    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>>;

    // --- review queue ---

    /// Pending records in id order (ids are time-ordered, so oldest first) after `after`.
    async fn pending(&self, after: Option<&str>, limit: usize) -> Result<Vec<Experience>>;

    async fn count_status(&self, status: Status) -> Result<u64>;

    /// Applies a reviewer's decision to a pending record, atomically.
    /// `NotFound` for an unknown id; `Conflict` when it is not pending (any more), or when the
    /// edits make it identical to another stored record. Edited text is re-indexed and its vector
    /// dropped, so the embedding worker recomputes it.
    async fn review(&self, id: &str, review: Review) -> Result<Experience>;

    /// Deletes a record with its content and vectors; `false` if there was none.
    async fn delete(&self, id: &str) -> Result<bool>;

    // --- API keys ---

    /// `Conflict` if an active (unrevoked) key already has this name.
    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey>;

    /// The key with this hash, revoked or not.
    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>>;

    /// All keys, oldest first, revoked ones included.
    async fn list_keys(&self) -> Result<Vec<ApiKey>>;

    /// Revokes the active key with this id or name; `None` if there is no such active key.
    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>>;

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
}

/// `NotFound` for `id`, for stores to share the wording.
pub fn not_found(id: &str) -> CoreError {
    CoreError::NotFound(format!("experience {id}"))
}
