//! The embedded KnowHub store: one SQLite file (WAL, `synchronous=FULL`) in the data dir.
//!
//! - Writes go through one writer thread that groups concurrent requests into a single
//!   transaction (group commit): every acknowledged write is fsync'ed, yet throughput does not
//!   collapse to one fsync per submit (`writer`).
//! - Reads use a small pool of connections on the blocking thread pool (`db`).
//! - Full text: an FTS5 table over jieba/identifier-segmented text (`knowhub_core::text`),
//!   searched through the in-memory [`TermIndex`] (`text`, `index`).
//! - Vectors: stored as blobs with their model id and dimension, and held in memory in a
//!   [`FlatIndex`] for brute-force search, which is fast enough below ~1M records (`vectors`).
//!
//! One file per concern, named as its twin in the PostgreSQL store: `db`, `records`, `rows`,
//! `text`, `vectors`, `filter`, `evidence`, `review`, `keys`, `jobs`, `insight`, `migrations`.
//! This store's own machinery: `writer` (the group-commit thread), `index` (the in-memory
//! indexes) and `reindex` (rebuilding the database offline). This file only maps the `Store`
//! trait onto them: reads run on a pooled connection (`read`), writes on the writer thread (`run`).

mod db;
mod events;
mod evidence;
mod filter;
mod hold;
mod index;
mod insight;
mod jobs;
mod keys;
mod migrations;
mod records;
mod reindex;
mod review;
mod rows;
mod text;
mod vectors;
mod writer;

use async_trait::async_trait;
use knowhub_core::extract::{Enqueued, ExtractJob, JobFinish, NewExtraction};
use knowhub_core::store::ImportOutcome;
use knowhub_core::{
    Activity, ApiKey, BlockScores, Confirmation, Content, DisputeDecision, Experience, ExportRecord, InsertOutcome,
    Neighbour, NeighbourQuery, NewApiKey, NewExperience, Quarantine, QuarantineTarget, Release, ResourceFilter,
    ResourceSummary, Result, Review, SearchFilter, Status, Store, StoredPlaybook, SyncContext, Vote,
};

pub use db::{db_path, lock_dir, OpenOptions, SqliteStore, DB_FILE};
pub use index::{FlatIndex, TermIndex};
pub use reindex::{reindex, EmbedFn, ReindexProgress, ReindexStats};
pub use vectors::decode as decode_vector;

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    // --- records ---

    async fn insert(&self, new: NewExperience) -> Result<InsertOutcome> {
        records::insert(self, new).await
    }

    async fn import(&self, record: NewExperience) -> Result<ImportOutcome> {
        records::import(self, record).await
    }

    async fn get(&self, id: &str) -> Result<Option<Experience>> {
        let id = id.to_string();
        self.read(move |c| records::get(c, &id)).await
    }

    async fn by_content_hash(&self, hash: &str) -> Result<Option<Experience>> {
        let hash = hash.to_string();
        self.read(move |c| records::by_content_hash(c, &hash)).await
    }

    async fn get_many(&self, ids: &[String]) -> Result<Vec<Experience>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = ids.to_vec();
        self.read(move |c| records::get_many(c, &ids)).await
    }

    async fn content(&self, id: &str) -> Result<Option<Content>> {
        let id = id.to_string();
        self.read(move |c| records::content(c, &id)).await
    }

    async fn add_event(&self, id: &str, kind: &str, by: &str, detail: Option<serde_json::Value>) -> Result<()> {
        let (id, kind, by) = (id.to_string(), kind.to_string(), by.to_string());
        self.writer.run(move |c| events::add_tx(c, &id, &kind, &by, detail.as_ref())).await
    }

    async fn events(&self, id: &str) -> Result<Vec<knowhub_core::Event>> {
        let id = id.to_string();
        self.read(move |c| events::list(c, &id)).await
    }

    async fn changes(&self, after: i64, limit: usize) -> Result<Vec<knowhub_core::Event>> {
        self.read(move |c| events::after(c, after, limit)).await
    }

    async fn last_event(&self) -> Result<i64> {
        self.read(events::last).await
    }

    async fn hub_id(&self) -> Result<String> {
        self.read(events::hub_id).await
    }

    async fn cursor(&self, name: &str) -> Result<Option<i64>> {
        let name = name.to_string();
        self.read(move |c| events::cursor(c, &name)).await
    }

    async fn set_cursor(&self, name: &str, seq: i64) -> Result<()> {
        let name = name.to_string();
        self.writer.run(move |c| events::set_cursor_tx(c, &name, seq)).await
    }

    async fn sync_base(&self, peer: &str, id: &str) -> Result<Option<String>> {
        let (peer, id) = (peer.to_string(), id.to_string());
        self.read(move |c| events::sync_base(c, &peer, &id)).await
    }

    async fn sync_context(
        &self,
        peer: &str,
        ids: &[String],
        evidence: bool,
    ) -> Result<std::collections::HashMap<String, SyncContext>> {
        let (peer, ids) = (peer.to_string(), ids.to_vec());
        self.read(move |c| events::sync_context(c, &peer, &ids, evidence)).await
    }

    async fn set_sync_base(&self, peer: &str, id: &str, version: &str) -> Result<()> {
        let (peer, id, version) = (peer.to_string(), id.to_string(), version.to_string());
        self.writer.run(move |c| events::set_sync_base_tx(c, &peer, &id, &version)).await
    }

    async fn quarantine(&self, target: &QuarantineTarget, by: &str) -> Result<Quarantine> {
        hold::quarantine(self, target, by).await
    }

    async fn release(&self, target: &QuarantineTarget, release: Release, reviewer: &str) -> Result<u64> {
        hold::release(self, target, release, reviewer).await
    }

    async fn quarantines(&self) -> Result<Vec<Quarantine>> {
        self.read(hold::list).await
    }

    async fn held(
        &self,
        mask: i64,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>> {
        let (after, scopes) = (after.unwrap_or("").to_string(), scopes.map(<[String]>::to_vec));
        self.read(move |c| hold::held(c, mask, scopes.as_deref(), &after, limit)).await
    }

    async fn expire_due(&self, now: &str) -> Result<u64> {
        hold::expire_due(self, now).await
    }

    async fn set_expiry(&self, id: &str, expires_at: Option<&str>, now: &str) -> Result<Experience> {
        hold::set_expiry(self, id, expires_at, now).await
    }

    async fn set_scope(&self, id: &str, scope: &str, content_hash: &str) -> Result<Experience> {
        records::set_scope(self, id, scope, content_hash).await
    }

    async fn set_content(&self, id: &str, content: &str, content_type: &str) -> Result<()> {
        let (id, content, ct) = (id.to_string(), content.to_string(), content_type.to_string());
        self.writer.run(move |c| records::set_content_tx(c, &id, &content, &ct)).await
    }

    async fn count(&self) -> Result<u64> {
        self.read(records::count).await
    }

    async fn count_status(&self, status: Status, scopes: Option<&[String]>) -> Result<u64> {
        let scopes = crate::filter::scopes_json(scopes);
        self.read(move |c| records::count_status(c, status, scopes.as_deref())).await
    }

    async fn delete(&self, id: &str) -> Result<bool> {
        records::delete(self, id).await
    }

    async fn export_page(&self, after: Option<&str>, limit: usize) -> Result<Vec<ExportRecord>> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| records::export_page(c, &after, limit)).await
    }

    // --- text ---

    async fn text_candidates(
        &self,
        tokens: &[String],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        text::candidates(self, tokens, filter, limit).await
    }

    async fn text_scores(
        &self,
        tokens: &[String],
        ids: &[String],
        filter: &SearchFilter,
    ) -> Result<Vec<(String, f64)>> {
        Ok(text::scores(self, tokens, ids, filter))
    }

    // --- vectors ---

    async fn vector_candidates(
        &self,
        model: &str,
        query: &[f32],
        filter: &SearchFilter,
        limit: usize,
    ) -> Result<Vec<(String, f64)>> {
        Ok(vectors::candidates(self, model, query, filter, limit))
    }

    async fn vector_scores(&self, model: &str, query: &[f32], ids: &[String]) -> Result<Vec<(String, BlockScores)>> {
        Ok(vectors::scores(self, model, query, ids))
    }

    async fn vectors(&self, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let (model, ids) = (model.to_string(), ids.to_vec());
        self.read(move |c| vectors::by_ids(c, &model, &ids)).await
    }

    async fn set_vectors(&self, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
        vectors::set(self, model, items).await
    }

    async fn missing_vectors(&self, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
        let model = model.to_string();
        self.read(move |c| vectors::missing(c, &model, limit)).await
    }

    async fn vector_count(&self, model: &str) -> Result<u64> {
        let model = model.to_string();
        self.read(move |c| vectors::count(c, &model)).await
    }

    // --- evidence ---

    async fn confirm(&self, id: &str, confirmer: &str) -> Result<Experience> {
        let (id, who) = (id.to_string(), confirmer.to_string());
        self.writer.run(move |c| evidence::confirm_tx(c, &id, &who)).await
    }

    async fn by_resource_key(&self, key: &str, limit: usize) -> Result<Vec<Experience>> {
        let key = key.to_string();
        self.read(move |c| evidence::by_resource_key(c, &key, limit)).await
    }

    async fn resource_neighbours(&self, query: &NeighbourQuery) -> Result<Vec<Neighbour>> {
        evidence::neighbours(self, query).await
    }

    async fn contest(&self, a: &str, b: &str) -> Result<()> {
        let (a, b) = (a.to_string(), b.to_string());
        self.writer.run(move |c| evidence::contest_tx(c, &a, &b)).await
    }

    async fn vote(&self, id: &str, vote: Vote) -> Result<Experience> {
        let id = id.to_string();
        self.writer.run(move |c| evidence::vote_tx(c, &id, vote)).await
    }

    async fn votes(&self, id: &str) -> Result<Vec<Vote>> {
        let id = id.to_string();
        self.read(move |c| evidence::votes_of(c, &id)).await
    }

    async fn disputed(
        &self,
        threshold: u32,
        scopes: Option<&[String]>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Experience>> {
        let (after, scopes) = (after.unwrap_or("").to_string(), scopes.map(<[String]>::to_vec));
        self.read(move |c| evidence::disputed(c, threshold, scopes.as_deref(), &after, limit)).await
    }

    async fn count_disputed(&self, threshold: u32, scopes: Option<&[String]>) -> Result<u64> {
        let scopes = crate::filter::scopes_json(scopes);
        self.read(move |c| evidence::count_disputed(c, threshold, scopes.as_deref())).await
    }

    async fn resolve_dispute(&self, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience> {
        evidence::resolve(self, id, decision, reviewer).await
    }

    // --- review ---

    async fn pending(&self, scopes: Option<&[String]>, after: Option<&str>, limit: usize) -> Result<Vec<Experience>> {
        let (after, scopes) = (after.unwrap_or("").to_string(), scopes.map(<[String]>::to_vec));
        self.read(move |c| review::pending(c, scopes.as_deref(), &after, limit)).await
    }

    async fn review(&self, id: &str, review: Review) -> Result<Experience> {
        review::review(self, id, review).await
    }

    // --- keys ---

    async fn create_key(&self, key: NewApiKey) -> Result<ApiKey> {
        self.writer.run(move |c| keys::create_tx(c, key)).await
    }

    async fn key_by_hash(&self, hash: &str) -> Result<Option<ApiKey>> {
        let hash = hash.to_string();
        self.read(move |c| keys::by_hash(c, &hash)).await
    }

    async fn list_keys(&self) -> Result<Vec<ApiKey>> {
        self.read(keys::list).await
    }

    async fn revoke_key(&self, id_or_name: &str) -> Result<Option<ApiKey>> {
        let key = id_or_name.to_string();
        self.writer.run(move |c| keys::revoke_tx(c, &key)).await
    }

    async fn count_writes(&self, caller: &str, windows: &[u64], now: i64, delta: i64) -> Result<Vec<(u64, u64)>> {
        let (caller, windows) = (caller.to_string(), windows.to_vec());
        self.writer.run(move |c| keys::count_writes_tx(c, &caller, &windows, now, delta)).await
    }

    // --- jobs ---

    async fn enqueue_extraction(&self, new: NewExtraction) -> Result<Enqueued> {
        self.writer.run(move |c| jobs::enqueue_tx(c, new)).await
    }

    async fn claim_extraction(&self, lease_secs: u64) -> Result<Option<ExtractJob>> {
        self.writer.run(move |c| jobs::claim_tx(c, lease_secs)).await
    }

    async fn finish_extraction(&self, id: &str, finish: JobFinish) -> Result<()> {
        let id = id.to_string();
        self.writer.run(move |c| jobs::finish_tx(c, &id, finish)).await
    }

    async fn extraction(&self, id: &str) -> Result<Option<ExtractJob>> {
        let id = id.to_string();
        self.read(move |c| jobs::get(c, &id)).await
    }

    // --- insight ---

    async fn resources(
        &self,
        filter: &ResourceFilter,
        scopes: Option<&[String]>,
        limit: usize,
    ) -> Result<Vec<ResourceSummary>> {
        let (filter, scopes) = (filter.clone(), scopes.map(<[String]>::to_vec));
        self.read(move |c| insight::resources(c, &filter, scopes.as_deref(), limit)).await
    }

    async fn resource_keys_with(
        &self,
        keys: &[String],
        scopes: Option<&[String]>,
        at_least: u64,
    ) -> Result<Vec<String>> {
        let (keys, scopes) = (keys.to_vec(), scopes.map(<[String]>::to_vec));
        self.read(move |c| insight::resource_keys_with(c, &keys, scopes.as_deref(), at_least)).await
    }

    async fn confirmed_by(&self, id: &str) -> Result<Vec<Confirmation>> {
        let id = id.to_string();
        self.read(move |c| insight::confirmed_by(c, &id)).await
    }

    async fn set_source(&self, id: &str, text: &str) -> Result<()> {
        let (id, text) = (id.to_string(), text.to_string());
        self.writer.run(move |c| insight::set_source_tx(c, &id, &text)).await
    }

    async fn source(&self, id: &str) -> Result<Option<String>> {
        let id = id.to_string();
        self.read(move |c| insight::source(c, &id)).await
    }

    async fn record_usage(&self, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
        let (day, agent) = (day.to_string(), agent_id.to_string());
        self.writer.run(move |c| insight::record_usage_tx(c, &day, &agent, searches, found)).await
    }

    async fn activity(&self, since_day: &str, scopes: Option<&[String]>) -> Result<Activity> {
        let (since, scopes) = (since_day.to_string(), crate::filter::scopes_json(scopes));
        self.read(move |c| insight::activity(c, &since, scopes.as_deref())).await
    }

    async fn written_playbook(&self, key: &str) -> Result<Option<StoredPlaybook>> {
        let key = key.to_string();
        self.read(move |c| insight::written_playbook(c, &key)).await
    }

    async fn put_written_playbook(&self, playbook: &StoredPlaybook) -> Result<()> {
        let p = playbook.clone();
        self.writer.run(move |c| insight::put_written_playbook_tx(c, &p)).await
    }

    async fn written_playbooks(&self, status: Option<&str>, limit: usize) -> Result<Vec<StoredPlaybook>> {
        let status = status.map(str::to_string);
        self.read(move |c| insight::written_playbooks(c, status.as_deref(), limit)).await
    }
}
