//! KnowHub on PostgreSQL + pgvector, for running several server replicas on one database.
//!
//! - Everything lives in the database; this store keeps no in-memory index or cache of records,
//!   because another replica may write at any time. All retrieval is SQL.
//! - Dedup is enforced by the database (unique `content_hash`, `INSERT .. ON CONFLICT`), so
//!   concurrent identical submits from any number of processes add confirmers, never rows.
//!   Confirmers and votes are rows keyed by caller, and the counts on the record are recomputed
//!   from them under the record's row lock (see `evidence`).
//! - Full text: a `tsvector` built in the app from the same tokens the SQLite store indexes
//!   (`knowhub_core::text::tokenize`), because PostgreSQL has no Chinese parser; ranked by
//!   IDF-weighted BM25, selecting through the selective tokens only (see `text`).
//! - Vectors: pgvector, column `vector` without a fixed dimension plus one partial HNSW index per
//!   dimension in use, so changing the embedding model needs no migration (see `vectors`).
//! - Outages: a pool with a short acquire timeout and a statement timeout, so requests fail fast
//!   with `CoreError::Unavailable` (HTTP 503) while the database is down, and later requests get
//!   fresh connections by themselves once it is back (see `db`).
//!
//! One file per concern, named as its twin in the SQLite store: `db`, `records`, `rows`, `text`,
//! `vectors`, `filter`, `evidence`, `review`, `keys`, `jobs`, `insight`, `migrations`; plus
//! `test_support` (throwaway servers for tests). This file only maps the `Store` trait onto them.

mod db;
mod events;
mod evidence;
mod filter;
mod hold;
mod insight;
mod jobs;
mod keys;
mod migrations;
mod records;
mod review;
mod rows;
pub mod test_support;
mod text;
mod vectors;

use async_trait::async_trait;
use knowhub_core::access::{ApiKey, NewApiKey};
use knowhub_core::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use knowhub_core::review::Review;
use knowhub_core::store::ImportOutcome;
use knowhub_core::{
    Activity, BlockScores, Confirmation, Content, DisputeDecision, Experience, ExportRecord, InsertOutcome, Neighbour,
    NeighbourQuery, NewExperience, Quarantine, QuarantineTarget, Release, ResourceFilter, ResourceSummary, Result,
    SearchFilter, Status, Store, StoredPlaybook, Vote,
};

pub use db::{PgOptions, PgStore};
/// The lock that orders event writers against feed readers; for tests that write events as the
/// store does.
#[doc(hidden)]
pub use events::FEED_LOCK;
pub use migrations::latest_version;
pub use sqlx;
pub use vectors::hnsw_index_sql;

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    // --- records ---

    async fn insert(&self, new: NewExperience) -> Result<InsertOutcome> {
        records::insert(&self.pool, new).await
    }

    async fn import(&self, record: NewExperience) -> Result<ImportOutcome> {
        records::import(&self.pool, record).await
    }

    async fn get(&self, id: &str) -> Result<Option<Experience>> {
        records::get(&self.pool, id).await
    }

    async fn by_content_hash(&self, hash: &str) -> Result<Option<Experience>> {
        records::by_content_hash(&self.pool, hash).await
    }

    async fn get_many(&self, ids: &[String]) -> Result<Vec<Experience>> {
        records::get_many(&self.pool, ids).await
    }

    async fn content(&self, id: &str) -> Result<Option<Content>> {
        records::content(&self.pool, id).await
    }

    async fn add_event(&self, id: &str, kind: &str, by: &str, detail: Option<serde_json::Value>) -> Result<()> {
        events::add(&self.pool, id, kind, by, detail.as_ref()).await
    }

    async fn events(&self, id: &str) -> Result<Vec<knowhub_core::Event>> {
        events::list(&self.pool, id).await
    }

    async fn changes(&self, after: i64, limit: usize) -> Result<Vec<knowhub_core::Event>> {
        events::after(&self.pool, after, limit).await
    }

    async fn last_event(&self) -> Result<i64> {
        events::last(&self.pool).await
    }

    async fn hub_id(&self) -> Result<String> {
        events::hub_id(&self.pool).await
    }

    async fn cursor(&self, name: &str) -> Result<Option<i64>> {
        events::cursor(&self.pool, name).await
    }

    async fn set_cursor(&self, name: &str, seq: i64) -> Result<()> {
        events::set_cursor(&self.pool, name, seq).await
    }

    async fn sync_base(&self, peer: &str, id: &str) -> Result<Option<String>> {
        events::sync_base(&self.pool, peer, id).await
    }

    async fn sync_context(
        &self,
        peer: &str,
        ids: &[String],
        evidence: bool,
    ) -> Result<std::collections::HashMap<String, knowhub_core::SyncContext>> {
        events::sync_context(&self.pool, peer, ids, evidence).await
    }

    async fn set_sync_base(&self, peer: &str, id: &str, version: &str) -> Result<()> {
        events::set_sync_base(&self.pool, peer, id, version).await
    }

    async fn quarantine(&self, target: &QuarantineTarget, by: &str) -> Result<Quarantine> {
        hold::quarantine(&self.pool, target, by).await
    }

    async fn release(&self, target: &QuarantineTarget, release: Release, reviewer: &str) -> Result<u64> {
        hold::release(&self.pool, target, release, reviewer).await
    }

    async fn quarantines(&self) -> Result<Vec<Quarantine>> {
        hold::list(&self.pool).await
    }

    async fn held(
        &self,
        mask: i64,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>> {
        hold::held(&self.pool, mask, scopes, after.unwrap_or(""), limit).await
    }

    async fn expire_due(&self, now: &str) -> Result<u64> {
        hold::expire_due(&self.pool, now).await
    }

    async fn set_expiry(&self, id: &str, expires_at: Option<&str>, now: &str) -> Result<Experience> {
        hold::set_expiry(&self.pool, id, expires_at, now).await
    }

    async fn set_scope(&self, id: &str, scope: &str, content_hash: &str) -> Result<Experience> {
        records::set_scope(&self.pool, id, scope, content_hash).await
    }

    async fn set_content(&self, id: &str, content: &str, content_type: &str) -> Result<()> {
        records::set_content(&self.pool, id, content, content_type).await
    }

    async fn count(&self) -> Result<u64> {
        records::count(&self.pool).await
    }

    async fn count_status(&self, status: Status, scopes: Option<&[String]>) -> Result<u64> {
        records::count_status(&self.pool, status, scopes).await
    }

    async fn delete(&self, id: &str) -> Result<bool> {
        records::delete(&self.pool, id).await
    }

    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>> {
        records::export_page(&self.pool, after.unwrap_or(""), limit).await
    }

    // --- text ---

    async fn text_candidates(
        &self,
        tokens: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        text::candidates(&self.stats, &self.pool, tokens, filter, limit).await
    }

    async fn text_scores(
        &self,
        tokens: &[String],
        ids: &[String],
        filter: &SearchFilter,
    ) -> Result<Vec<(String, f64)>> {
        text::scores(&self.stats, &self.pool, tokens, ids, filter).await
    }

    // --- vectors ---

    async fn vector_candidates(
        &self,
        model: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        vectors::candidates(self, model, query, filter, limit).await
    }

    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, BlockScores)>> {
        vectors::scores(&self.pool, model, query, ids).await
    }

    async fn vectors(&self, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
        vectors::by_ids(&self.pool, model, ids).await
    }

    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
        vectors::set(self, model, items).await
    }

    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
        vectors::missing(&self.pool, model, limit).await
    }

    async fn vector_count(&self, model: &str) -> Result<u64> {
        vectors::count(&self.pool, model).await
    }

    // --- evidence ---

    async fn confirm(&self, id: &str, confirmer: &str) -> Result<Experience> {
        evidence::confirm(&self.pool, id, confirmer).await
    }

    async fn by_resource_key(&self, key: &str, limit: usize) -> Result<Vec<Experience>> {
        evidence::by_resource_key(&self.pool, key, limit).await
    }

    async fn resource_neighbours(&self, query: &NeighbourQuery) -> Result<Vec<Neighbour>> {
        evidence::neighbours(&self.pool, query).await
    }

    async fn contest(&self, a: &str, b: &str) -> Result<()> {
        evidence::contest(&self.pool, a, b).await
    }

    async fn vote(&self, id: &str, vote: Vote) -> Result<Experience> {
        evidence::vote(&self.pool, id, vote).await
    }

    async fn votes(&self, id: &str) -> Result<Vec<Vote>> {
        evidence::votes_of(&self.pool, id).await
    }

    async fn disputed(
        &self,
        threshold: u32,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>> {
        evidence::disputed(&self.pool, threshold, scopes, after.unwrap_or(""), limit).await
    }

    async fn count_disputed(&self, threshold: u32, scopes: Option<&[String]>) -> Result<u64> {
        evidence::count_disputed(&self.pool, threshold, scopes).await
    }

    async fn resolve_dispute(&self, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience> {
        evidence::resolve(&self.pool, id, decision, reviewer).await
    }

    // --- review ---

    async fn pending(&self, scopes: Option<&[String]>, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        review::pending(&self.pool, scopes, after.unwrap_or(""), limit).await
    }

    async fn review(&self, id: &str, review: Review) -> Result<Experience> {
        review::review(&self.pool, id, review).await
    }

    // --- keys ---

    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey> {
        keys::create(&self.pool, key).await
    }

    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>> {
        keys::by_hash(&self.pool, hash).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>> {
        keys::list(&self.pool).await
    }

    async fn count_writes(&self, caller: &str, windows: &[u64], now: i64, delta: i64) -> Result<Vec<(u64, u64)>> {
        keys::count_writes(&self.pool, caller, windows, now, delta).await
    }

    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>> {
        keys::revoke(&self.pool, id_or_name).await
    }

    // --- jobs ---

    async fn enqueue_extraction(&self, new: NewExtraction) -> Result<Enqueued> {
        jobs::enqueue(&self.pool, new).await
    }

    async fn claim_extraction(&self, lease_secs: u64) -> Result<Option<ExtractJob>> {
        jobs::claim(&self.pool, lease_secs).await
    }

    async fn finish_extraction(&self, id: &str, finish: JobFinish) -> Result<()> {
        jobs::finish(&self.pool, id, finish).await
    }

    async fn extraction(&self, id: &str) -> Result<Option<ExtractJob>> {
        jobs::get(&self.pool, id).await
    }

    // --- insight ---

    async fn resources(
        &self,
        filter: &ResourceFilter,
        scopes: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<ResourceSummary>> {
        insight::resources(&self.pool, filter, scopes, limit).await
    }

    async fn resource_keys_with(
        &self,
        keys: &[String],
        scopes: Option<&[String]>,
        at_least: u64,
    ) -> Result<Vec<String>> {
        insight::resource_keys_with(&self.pool, keys, scopes, at_least).await
    }

    async fn confirmed_by(&self, id: &str) -> Result<Vec<Confirmation>> {
        insight::confirmed_by(&self.pool, id).await
    }

    async fn set_source(&self, id: &str, text: &str) -> Result<()> {
        insight::set_source(&self.pool, id, text).await
    }

    async fn source(&self, id: &str) -> Result<Option<String>> {
        insight::source(&self.pool, id).await
    }

    async fn record_usage(&self, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
        insight::record_usage(&self.pool, day, agent_id, searches, found).await
    }

    async fn activity(&self, since_day: &str, scopes: Option<&[String]>) -> Result<Activity> {
        insight::activity(&self.pool, since_day, scopes).await
    }

    async fn written_playbook(&self, key: &str) -> Result<Option<StoredPlaybook>> {
        insight::written_playbook(&self.pool, key).await
    }

    async fn put_written_playbook(&self, playbook: &StoredPlaybook) -> Result<()> {
        insight::put_written_playbook(&self.pool, playbook).await
    }

    async fn written_playbooks(&self, status: Option<&str>, limit: usize) -> Result<Vec<StoredPlaybook>> {
        insight::written_playbooks(&self.pool, status, limit).await
    }
}
