//! Search as one forward pipeline: candidates from each signal, their scores and records from
//! the store in one more round, then the pure ranking in `knowhub_core::rank` (fusion,
//! calibration, priors, selection).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use knowhub_ai::QueryVectors;
use knowhub_core::calibrate::{Calibration, DEFAULT_MIN_RELEVANCE};
use knowhub_core::rank::{self, Candidate, FeedbackPrior, Fusion, Prior, RankParams};
use knowhub_core::{text, BlockScores, Caller, Experience, Outcome, Result, Role, SearchFilter, SearchHit};
use serde::{Deserialize, Serialize};

use crate::hub::Hub;

/// The flag of a search hit that another record contradicts (`contested_with`).
pub(crate) const CONTESTED: &str = "contested";

/// Which signals a search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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
    /// Temporal decay half-life in days when decay is on (counted from the last confirmation).
    pub decay_half_life_days: Option<f64>,
    /// Weight of the rating/confirmations prior in the final order (0 = pure relevance).
    pub quality_weight: f64,
    /// How outcome votes move the order.
    pub feedback: FeedbackPrior,
    /// Distinct callers reporting a failure (more than report success) that make a record
    /// disputed: demoted and listed for review. 0 turns disputes off.
    pub dispute_threshold: u32,
    /// Default `min_relevance` of a search that names none.
    pub min_relevance: f64,
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
            feedback: FeedbackPrior::default(),
            dispute_threshold: 3,
            min_relevance: DEFAULT_MIN_RELEVANCE,
            score_union: true,
        }
    }
}

/// A validated search request.
#[derive(Debug, Clone)]
pub struct SearchQuery {
    pub q: String,
    pub top_k: usize,
    /// `min_score` is the lowest rating of the *successes* returned: a failure lesson is a
    /// warning whatever its rating (failures are rated low by nature), so the rating floor never
    /// hides one.
    pub filter: SearchFilter,
    /// Only experiences with this outcome (`Some(Success)` is how a caller leaves failure lessons
    /// out); `None`: every outcome.
    pub outcome: Option<Outcome>,
    pub mode: SearchMode,
    /// Overrides the configured `min_relevance` (0 returns every candidate).
    pub min_relevance: Option<f64>,
    /// Only this scope (one the caller reads); `None`: every scope the caller reads. The
    /// filter's own `scopes` are always set from the caller, never taken from a request.
    pub scope: Option<String>,
}

impl SearchQuery {
    /// A query with the defaults an API caller gets (top 5, successes rated ≥ 3 and every failure
    /// lesson, hybrid).
    pub fn new(q: impl Into<String>) -> Self {
        SearchQuery {
            q: q.into(),
            top_k: crate::requests::TOP_K.default as usize,
            filter: SearchFilter { min_score: crate::requests::MIN_SCORE.default as u8, ..Default::default() },
            outcome: None,
            mode: SearchMode::Hybrid,
            min_relevance: None,
            scope: None,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
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

/// What one search gathered from the stores before ranking.
struct Gathered {
    ids: Vec<String>,
    bm25: HashMap<String, f64>,
    blocks: HashMap<String, BlockScores>,
    records: HashMap<String, Experience>,
    /// The query's vectors, when the vector signal took part.
    query: Option<Arc<QueryVectors>>,
    mode: SearchMode,
}

/// One candidate of a search with its signals and its score at each ranking stage.
#[derive(Debug, Clone)]
pub struct Explained {
    pub id: String,
    pub candidate: Candidate,
    pub fused: f64,
    pub relevance: f64,
    pub order: f64,
}

impl Hub {
    /// Every candidate a search considers (the pool for `q.top_k`), best order first, with its
    /// raw signals and each stage's score, nothing cut: for benchmarks and debugging.
    pub async fn explain(&self, caller: &Caller, q: &SearchQuery) -> Result<Vec<Explained>> {
        caller.require(Role::Agent)?;
        let q = &as_meant(caller, q)?;
        let tokens = text::query_tokens(&q.q);
        let g = self.gather(q, &tokens, None, &mut Timings::default()).await?;
        let cands = self.candidates(&g, &tokens);
        let params = RankParams {
            min_relevance: 0.0,
            top_k: usize::MAX,
            mmr_lambda: None,
            ..self.rank_params(q, g.query.is_some())
        };
        Ok(rank::rank(&cands, &params, &|_, _| 0.0)
            .into_iter()
            .map(|r| Explained {
                id: g.ids[r.index].clone(),
                candidate: cands[r.index].clone(),
                fused: r.fused,
                relevance: r.relevance,
                order: r.order,
            })
            .collect())
    }

    /// Candidates from each signal -> their scores and records -> `rank::rank` -> hits, each
    /// naming its resource's playbook when the caller has one to read.
    pub async fn search(&self, caller: &Caller, q: &SearchQuery) -> Result<SearchResponse> {
        let started = std::time::Instant::now();
        let mut r = self.search_uncounted(caller, q).await?;
        let names: Vec<&str> = r.results.iter().map(|h| h.resource.as_str()).collect();
        let with = self.playbooks_for(caller, &names).await?;
        for h in r.results.iter_mut() {
            h.playbook = with.contains(&h.resource).then(|| h.resource.clone());
        }
        self.observe_search(caller, started.elapsed().as_secs_f64(), !r.results.is_empty());
        Ok(r)
    }

    /// A search the hub makes for itself (a queue item's neighbours): not an agent's, so it is
    /// left out of the usage counts and `/metrics`.
    pub(crate) async fn search_uncounted(&self, caller: &Caller, q: &SearchQuery) -> Result<SearchResponse> {
        self.search_near(caller, q, None).await
    }

    /// A search whose query vector is already known (a stored record's, see
    /// `Embedder::record_as_query`): the text still drives full-text search.
    pub(crate) async fn search_near(
        &self,
        caller: &Caller,
        q: &SearchQuery,
        vector: Option<Arc<QueryVectors>>,
    ) -> Result<SearchResponse> {
        caller.require(Role::Agent)?;
        let q = &as_meant(caller, q)?;
        let mut timings = Timings::default();
        let tokens = text::query_tokens(&q.q);
        let g = self.gather(q, &tokens, vector, &mut timings).await?;
        let t = std::time::Instant::now();
        let cands = self.candidates(&g, &tokens);
        let params = self.rank_params(q, g.query.is_some());
        let sets = std::sync::OnceLock::new();
        let similarity = |i: usize, j: usize| {
            let sets: &Vec<HashSet<String>> =
                sets.get_or_init(|| g.ids.iter().map(|id| text::token_set(&g.records[id].search_text())).collect());
            rank::jaccard(&sets[i], &sets[j])
        };
        let mut results: Vec<SearchHit> = rank::rank(&cands, &params, &similarity)
            .iter()
            .map(|r| {
                let e = &g.records[&g.ids[r.index]];
                SearchHit::from_experience(e, rank::shown_relevance(r.relevance), self.computed_flags(e))
            })
            .collect();
        self.hide_contests(caller, results.iter_mut().map(|h| (&mut h.contested_with, Some(&mut h.flags))).collect())
            .await?;
        for h in results.iter_mut() {
            crate::hub::hide_submitter(caller, &mut h.submitted_by);
        }
        timings.merge_ms = ms(t);
        Ok(SearchResponse { count: results.len(), mode: g.mode, results, timings })
    }

    /// Flags a record carries in answers beside its stored ones: `disputed`, `contested`.
    pub(crate) fn computed_flags(&self, e: &Experience) -> Vec<String> {
        let mut f = e.flags.clone();
        if e.feedback.disputed(self.cfg.dispute_threshold) {
            f.push("disputed".into());
        }
        if !e.contested_with.is_empty() {
            f.push(CONTESTED.into());
        }
        f
    }

    fn rank_params(&self, q: &SearchQuery, dense: bool) -> RankParams {
        RankParams {
            fusion: self.cfg.fusion,
            calibration: if dense { self.embedder.calibration() } else { Calibration::TextOnly },
            quality_weight: self.cfg.quality_weight,
            feedback: self.cfg.feedback,
            decay_half_life_days: self.cfg.decay_half_life_days,
            min_relevance: q.min_relevance.unwrap_or(self.cfg.min_relevance),
            top_k: q.top_k,
            mmr_lambda: self.cfg.mmr_lambda,
        }
    }

    /// Candidates from each signal (full text does not wait for the query embedding), then, in
    /// one round, every candidate's score on the signal that did not find it and its record.
    async fn gather(
        &self,
        q: &SearchQuery,
        tokens: &[String],
        given: Option<Arc<QueryVectors>>,
        timings: &mut Timings,
    ) -> Result<Gathered> {
        let pool = q.top_k * self.cfg.candidate_multiplier.max(1);
        // The stores apply the rating floor to every record; failure lessons are exempt from it,
        // so the stores gather without it and it is applied here, on the records.
        let filter = SearchFilter { min_score: 1, ..q.filter.clone() };
        let model = self.embedder.model_id();
        let want_vec = q.mode != SearchMode::Fts && self.embedder.is_enabled();
        let text_fut = async {
            let t = std::time::Instant::now();
            let r = if q.mode == SearchMode::Vector && want_vec {
                Ok(Vec::new())
            } else {
                self.store.text_candidates(tokens, &filter, pool).await
            };
            (r, ms(t))
        };
        let vec_fut = async {
            let t = std::time::Instant::now();
            let query = if !want_vec {
                None
            } else if given.is_some() {
                given
            } else {
                match self.embedder.embed_query(&q.q).await {
                    Ok(v) => Some(v),
                    Err(e) => {
                        tracing::warn!(error = %e, "query embedding failed; falling back to full-text search");
                        None
                    }
                }
            };
            let embed_ms = ms(t);
            let t = std::time::Instant::now();
            let r = match (&query, model) {
                (Some(v), Some(m)) => self.store.vector_candidates(m, &v.scan, &filter, pool).await,
                _ => Ok(Vec::new()),
            };
            (query, embed_ms, r, ms(t))
        };
        let ((text_hits, text_ms), (query, embed_ms, vec_hits, vector_ms)) = tokio::join!(text_fut, vec_fut);
        (timings.embed_ms, timings.text_ms, timings.vector_ms) = (embed_ms, text_ms, vector_ms);
        let mode = match (q.mode, &query) {
            (SearchMode::Fts, _) | (_, None) => SearchMode::Fts,
            (m, Some(_)) => m,
        };
        let (mut text_hits, vec_hits) = (text_hits?, vec_hits?);
        if mode == SearchMode::Fts && q.mode == SearchMode::Vector {
            // Vector search was asked for but the embedder failed: answer from full text.
            text_hits = self.store.text_candidates(tokens, &filter, pool).await?;
        }
        let query = query.filter(|_| mode != SearchMode::Fts);
        let mut ids: Vec<String> = Vec::with_capacity(text_hits.len() + vec_hits.len());
        let mut seen = HashSet::new();
        for (id, _) in text_hits.iter().chain(&vec_hits) {
            if seen.insert(id.as_str()) {
                ids.push(id.clone());
            }
        }
        let mut bm25: HashMap<String, f64> = text_hits.iter().cloned().collect();
        // In hybrid mode, union members a list lacks get their real score on that signal.
        let union = mode == SearchMode::Hybrid && self.cfg.score_union;
        let need_text: Vec<String> =
            if union { ids.iter().filter(|i| !bm25.contains_key(*i)).cloned().collect() } else { Vec::new() };
        let scored: Vec<String> = match query {
            None => Vec::new(),
            Some(_) if union => ids.clone(),
            Some(_) => vec_hits.iter().map(|(i, _)| i.clone()).collect(),
        };
        let t = std::time::Instant::now();
        let vector_scores = async {
            match (&query, model) {
                (Some(v), Some(m)) if !scored.is_empty() => self.store.vector_scores(m, v.scoring(), &scored).await,
                _ => Ok(Vec::new()),
            }
        };
        let (more_text, blocks, records) = tokio::try_join!(
            self.store.text_scores(tokens, &need_text, &filter),
            vector_scores,
            self.store.get_many(&ids)
        )?;
        timings.merge_ms += ms(t);
        bm25.extend(more_text);
        let records: HashMap<String, Experience> = records.into_iter().map(|e| (e.id.clone(), e)).collect();
        // A record deleted between the two rounds is simply not a candidate.
        ids.retain(|id| {
            records
                .get(id)
                .is_some_and(|e| rated_enough(e, q.filter.min_score) && q.outcome.is_none_or(|o| e.outcome == o))
        });
        Ok(Gathered { ids, bm25, blocks: blocks.into_iter().collect(), records, query, mode })
    }

    /// Each gathered record as the ranking sees it.
    fn candidates(&self, g: &Gathered, tokens: &[String]) -> Vec<Candidate> {
        let now = time::OffsetDateTime::now_utc();
        g.ids
            .iter()
            .map(|id| {
                let e = &g.records[id];
                let age_days = knowhub_core::parse_rfc3339(&e.last_confirmed_at)
                    .or_else(|| knowhub_core::parse_rfc3339(&e.created_at))
                    .map(|t| (now - t).as_seconds_f64() / 86_400.0)
                    .unwrap_or(0.0);
                Candidate {
                    bm25: g.bm25.get(id).copied(),
                    dense: g.query.as_ref().zip(g.blocks.get(id)).map(|(q, b)| q.dense(b)),
                    coverage: text::coverage(tokens, &e.search_text()),
                    experience: !e.result.trim().is_empty(),
                    prior: Prior {
                        rating: e.score,
                        confirmations: e.confirmations,
                        helped: e.feedback.helped,
                        failed: e.feedback.failed,
                        disputed: e.feedback.disputed(self.cfg.dispute_threshold),
                        age_days,
                    },
                }
            })
            .collect()
    }
}

/// `q` with its `agent_id` filter read as `caller` means it (`Caller::agent_filter`): with auth
/// on, a bare agent name is one of the caller's own.
/// The query as the stores must run it for `caller`: its agent filter read as the caller means
/// it, and only the scopes the caller reads (`Forbidden` for a scope it asks for but may not read).
fn as_meant(caller: &Caller, q: &SearchQuery) -> Result<SearchQuery> {
    let mut q = q.clone();
    if let Some(a) = &q.filter.agent_id {
        q.filter.agent_id = Some(caller.agent_filter(a));
    }
    q.filter.scopes = caller.read_filter("scope", q.scope.as_deref())?;
    Ok(q)
}

/// Whether `e` passes the rating floor: a failure lesson always does.
fn rated_enough(e: &Experience, min_score: u8) -> bool {
    e.outcome == Outcome::Failure || e.score >= min_score
}
