//! The storage interface. SQLite (embedded default) and PostgreSQL implement it; the hybrid
//! merge, MMR and decay live above it, so only candidate retrieval differs per backend.

use async_trait::async_trait;

use crate::error::Result;
use crate::model::{Content, Experience, ExportRecord, NewExperience, Status};

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
    /// Same task+resource+result already stored: its `confirmations` went up by one.
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
}
