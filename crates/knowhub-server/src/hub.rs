//! The application service: validation, dedup-aware submit, hybrid search, background embedding.
//! It is transport-agnostic: the HTTP layer, the CLI and tests all drive it the same way.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use knowhub_ai::Embedder;
use knowhub_core::rank::{self, Fusion};
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{
    text, Content, CoreError, Experience, InsertOutcome, Result, SearchFilter, SearchHit, Source, Status, Store,
};
use serde::Serialize;
use tokio::sync::Notify;

/// Which signals a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    Hybrid,
    Fts,
    Vector,
}

impl SearchMode {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "hybrid" => Some(SearchMode::Hybrid),
            "fts" => Some(SearchMode::Fts),
            "vector" => Some(SearchMode::Vector),
            _ => None,
        }
    }
}

/// Ranking knobs, from config.
#[derive(Debug, Clone)]
pub struct SearchConfig {
    pub fusion: Fusion,
    /// Candidate pool per signal = top_k × this (seed: 4).
    pub candidate_multiplier: usize,
    /// MMR λ when diversity re-ranking is on.
    pub mmr_lambda: Option<f64>,
    /// Temporal decay half-life in days when decay is on.
    pub decay_half_life_days: Option<f64>,
    /// Weight of the rating/confirmations prior in the final order (0 = pure relevance).
    pub quality_weight: f64,
    /// In hybrid mode, score every candidate on both signals (a text hit outside the vector
    /// top list still gets its real cosine, and the reverse) instead of counting it as 0.
    pub score_union: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            fusion: Fusion::default(),
            candidate_multiplier: 4,
            mmr_lambda: None,
            decay_half_life_days: None,
            quality_weight: 0.1,
            score_union: true,
        }
    }
}

/// A validated search request.
#[derive(Debug, Clone)]
pub struct SearchQuery {
    pub q: String,
    pub top_k: usize,
    pub filter: SearchFilter,
    pub mode: SearchMode,
}

#[derive(Debug, Serialize)]
pub struct SearchResponse {
    pub count: usize,
    /// The mode actually used (hybrid degrades to fts without a usable embedder).
    pub mode: SearchMode,
    pub results: Vec<SearchHit>,
    /// Where the time went (for benchmarks and debug logs; not part of the API).
    #[serde(skip)]
    pub timings: Timings,
}

/// Milliseconds spent in each stage of one search.
#[derive(Debug, Default, Clone, Copy)]
pub struct Timings {
    pub embed_ms: f64,
    pub text_ms: f64,
    pub vector_ms: f64,
    /// Union scoring, fusion, loading records, decay/prior/MMR.
    pub merge_ms: f64,
}

fn ms(t: std::time::Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

#[derive(Debug, Serialize)]
pub struct SubmitResponse {
    pub id: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    pub confirmations: u32,
    #[serde(skip)]
    pub created: bool,
}

#[derive(Debug, Serialize)]
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
pub struct LlmHealth {
    pub model: String,
    #[serde(flatten)]
    pub stats: knowhub_ai::LlmStats,
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
}

pub struct Hub {
    pub(crate) store: Arc<dyn Store>,
    embedder: Arc<Embedder>,
    cfg: SearchConfig,
    pub(crate) embed_wake: Notify,
    pub(crate) opts: HubOptions,
    pub(crate) extract_wake: Notify,
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
        Arc::new(Hub { store, embedder, cfg, embed_wake: Notify::new(), opts, extract_wake: Notify::new() })
    }

    pub fn options(&self) -> &HubOptions {
        &self.opts
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Validates and stores a manual submit. Vectors are computed in the background so a slow or
    /// failing embedder never fails (or slows) a submit; the record is full-text searchable at once.
    /// A submit by the local operator (no auth): approved unless policy says every submit is reviewed.
    pub async fn submit(&self, req: SubmitRequest) -> Result<SubmitResponse> {
        self.submit_as(req, &crate::auth::Caller::local()).await
    }

    pub async fn submit_as(&self, req: SubmitRequest, caller: &crate::auth::Caller) -> Result<SubmitResponse> {
        let approved = match self.opts.auto_approve {
            AutoApprove::All => true,
            AutoApprove::Reviewers => caller.role.allows(knowhub_core::Role::Reviewer),
            AutoApprove::None => false,
        };
        let new = req.validate(Source::Manual, if approved { Status::Approved } else { Status::Pending })?;
        let out = match self.store.insert(new).await? {
            InsertOutcome::Created(e) => {
                self.embed_wake.notify_one();
                SubmitResponse {
                    id: e.id,
                    status: e.status,
                    duplicate_of: None,
                    confirmations: e.confirmations,
                    created: true,
                }
            }
            InsertOutcome::Duplicate(e) => SubmitResponse {
                duplicate_of: Some(e.id.clone()),
                id: e.id,
                status: e.status,
                confirmations: e.confirmations,
                created: false,
            },
        };
        Ok(out)
    }

    pub async fn experience(&self, id: &str) -> Result<Experience> {
        let id = knowhub_core::validate::id(id)?;
        self.store.get(id).await?.ok_or_else(|| CoreError::NotFound(format!("experience {id}")))
    }

    pub async fn content(&self, id: &str) -> Result<Content> {
        let id = knowhub_core::validate::id(id)?;
        self.store.content(id).await?.ok_or_else(|| CoreError::NotFound(format!("content for experience {id}")))
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
            pending: self.store.count_status(Status::Pending).await?,
            llm: self
                .opts
                .extractor
                .as_ref()
                .map(|x| LlmHealth { model: x.llm.settings().model.clone(), stats: x.llm.stats() }),
        })
    }

    pub async fn search(&self, q: &SearchQuery) -> Result<SearchResponse> {
        let pool = q.top_k * self.cfg.candidate_multiplier.max(1);
        let tokens = text::query_tokens(&q.q);
        let want_vec = q.mode != SearchMode::Fts && self.embedder.is_enabled();
        let mut timings = Timings::default();
        // Full text does not wait for the query embedding: it runs while the model does.
        let text_fut = async {
            let t = std::time::Instant::now();
            let r = if q.mode == SearchMode::Vector && want_vec {
                Ok(Vec::new())
            } else {
                self.store.text_candidates(&tokens, &q.filter, pool).await
            };
            (r, ms(t))
        };
        let vec_fut = async {
            let t = std::time::Instant::now();
            let query_vec = if want_vec {
                match self.embedder.embed_query(&q.q).await {
                    Ok(v) => Some(v),
                    Err(e) => {
                        tracing::warn!(error = %e, "query embedding failed; falling back to full-text search");
                        None
                    }
                }
            } else {
                None
            };
            let embed_ms = ms(t);
            let t = std::time::Instant::now();
            let r = match (&query_vec, self.embedder.model_id()) {
                (Some(v), Some(model)) => match self.store.vector_candidates(model, &v.scan, &q.filter, pool).await {
                    // The candidates are scored with the query's full vector (see `QueryVectors`);
                    // the list is put in order once those scores are cosines (below).
                    Ok(hits) => match &v.rescore {
                        Some(r) => {
                            let ids: Vec<String> = hits.into_iter().map(|(id, _)| id).collect();
                            self.store.vector_scores(model, r, &ids).await
                        }
                        None => Ok(hits),
                    },
                    e => e,
                },
                _ => Ok(Vec::new()),
            };
            (query_vec, embed_ms, r, ms(t))
        };
        let ((text_hits, text_ms), (query_vec, embed_ms, vec_hits, vector_ms)) = tokio::join!(text_fut, vec_fut);
        let mode = match (q.mode, &query_vec) {
            (SearchMode::Fts, _) | (_, None) => SearchMode::Fts,
            (m, Some(_)) => m,
        };
        let (mut text_hits, mut vec_hits) = (text_hits?, vec_hits?);
        if mode == SearchMode::Fts && q.mode == SearchMode::Vector {
            // Vector search was asked for but the embedder failed: answer from full text.
            text_hits = self.store.text_candidates(&tokens, &q.filter, pool).await?;
        }
        (timings.embed_ms, timings.text_ms, timings.vector_ms) = (embed_ms, text_ms, vector_ms);
        let t = std::time::Instant::now();
        if mode == SearchMode::Hybrid && self.cfg.score_union {
            self.complete_union(&tokens, query_vec.as_deref().map(|v| v.scoring()), &mut text_hits, &mut vec_hits)
                .await?;
        }
        let mut ids: Vec<String> = text_hits.iter().chain(&vec_hits).map(|(id, _)| id.clone()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut records: HashMap<String, Experience> =
            self.store.get_many(&ids).await?.into_iter().map(|e| (e.id.clone(), e)).collect();
        if let Some(qv) = query_vec.as_deref().filter(|v| v.rescore.is_some()) {
            // Dot products with the full query become cosines over the parts it uses.
            for (id, s) in vec_hits.iter_mut() {
                if let Some(e) = records.get(id.as_str()) {
                    *s /= self.embedder.vector_norm(qv, &e.search_text());
                }
            }
            vec_hits.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        let fused = rank::fuse(&text_hits, &vec_hits, self.cfg.fusion);
        let now = time::OffsetDateTime::now_utc();
        // (experience, relevance shown to clients, score used for ordering)
        let mut ranked: Vec<(Experience, f64, f64)> = fused
            .into_iter()
            .filter_map(|f| records.remove(&f.id).map(|e| (e, f.relevance)))
            .map(|(e, mut rel)| {
                if let Some(h) = self.cfg.decay_half_life_days {
                    let age = knowhub_core::parse_rfc3339(&e.created_at)
                        .map(|t| (now - t).as_seconds_f64() / 86_400.0)
                        .unwrap_or(0.0);
                    rel *= rank::temporal_decay(age, h);
                }
                let order = rel * (1.0 + self.cfg.quality_weight * rank::quality_prior(e.score, e.confirmations));
                (e, rel, order)
            })
            .collect();
        ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
        let picked: Vec<(Experience, f64)> = match self.cfg.mmr_lambda {
            Some(lambda) if ranked.len() > 1 => {
                let sets: Vec<HashSet<String>> =
                    ranked.iter().map(|(e, _, _)| text::token_set(&e.search_text())).collect();
                let max = ranked[0].2.max(f64::EPSILON);
                let rel: Vec<f64> = ranked.iter().map(|r| r.2 / max).collect();
                let order = rank::mmr(&rel, |i, j| rank::jaccard(&sets[i], &sets[j]), lambda, q.top_k);
                let mut slots: Vec<Option<(Experience, f64, f64)>> = ranked.into_iter().map(Some).collect();
                order.into_iter().filter_map(|i| slots[i].take()).map(|(e, r, _)| (e, r)).collect()
            }
            _ => ranked.into_iter().take(q.top_k).map(|(e, r, _)| (e, r)).collect(),
        };
        let results: Vec<SearchHit> =
            picked.iter().map(|(e, r)| SearchHit::from_experience(e, (r * 10_000.0).round() / 10_000.0)).collect();
        timings.merge_ms = ms(t);
        Ok(SearchResponse { count: results.len(), mode, results, timings })
    }

    /// Adds to each candidate list the union members it lacks, with their real score.
    async fn complete_union(
        &self,
        tokens: &[String],
        query_vec: Option<&[f32]>,
        text: &mut Vec<(String, f64)>,
        vector: &mut Vec<(String, f64)>,
    ) -> Result<()> {
        let (Some(q), Some(model)) = (query_vec, self.embedder.model_id()) else { return Ok(()) };
        let in_text: HashSet<&str> = text.iter().map(|(i, _)| i.as_str()).collect();
        let in_vec: HashSet<&str> = vector.iter().map(|(i, _)| i.as_str()).collect();
        let need_text: Vec<String> =
            vector.iter().filter(|(i, _)| !in_text.contains(i.as_str())).map(|(i, _)| i.clone()).collect();
        let need_vec: Vec<String> =
            text.iter().filter(|(i, _)| !in_vec.contains(i.as_str())).map(|(i, _)| i.clone()).collect();
        let (more_text, more_vec) = tokio::try_join!(
            self.store.text_scores(tokens, &need_text),
            self.store.vector_scores(model, q, &need_vec)
        )?;
        for (list, more) in [(text, more_text), (vector, more_vec)] {
            list.extend(more);
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        Ok(())
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
