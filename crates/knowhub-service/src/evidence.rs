//! Evidence, not clicks: who confirms a record, near-duplicates merged as confirmations,
//! contradicting records marked as contested, and outcome feedback from the agents that used one.

use knowhub_core::redact::{self, RedactionCounts};
use knowhub_core::validate::{self, MAX_NOTE, MAX_SHORT};
use knowhub_core::{
    now_rfc3339, Caller, CoreError, Experience, FeedbackCounts, FeedbackOutcome, InsertOutcome, Neighbour,
    NeighbourQuery, NewExperience, Outcome, Result, Role, Vote,
};
use serde::{Deserialize, Serialize};

use crate::hub::Hub;
use crate::requests::FeedbackRequest;

/// Thresholds for merging near-duplicates and marking contests, from config.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvidenceSettings {
    /// Two records with the same resource and outcome are the same experience when their stored
    /// vectors' multilingual-model cosine is at least this (chosen on dev data, docs/ranking.md §6).
    pub merge_cosine: f64,
    /// Same resource, opposite outcome and a cosine at least this (or the same task text): the two
    /// contest each other.
    pub contest_cosine: f64,
    /// Distinct callers who must report the opposite outcome before a record is marked
    /// contested, as a dispute needs several: one caller's word does not cast doubt on a record.
    pub contest_callers: u32,
}

impl Default for EvidenceSettings {
    fn default() -> Self {
        EvidenceSettings {
            merge_cosine: MERGE_COSINE,
            contest_cosine: CONTEST_COSINE,
            contest_callers: CONTEST_CALLERS,
        }
    }
}

/// See `EvidenceSettings::contest_callers`.
pub const CONTEST_CALLERS: u32 = 2;

/// See docs/ranking.md §6 (`knowhub-bench dedup`): on the stored vectors (task, resource and
/// result), the smallest threshold at which no look-alike pair of the dev set is merged, plus a
/// margin.
pub const MERGE_COSINE: f64 = 0.97;
/// Records this alike, with opposite outcomes, are the same task (docs/ranking.md §6).
pub const CONTEST_COSINE: f64 = 0.97;

/// Records of each kind a new record is compared with (`Store::resource_neighbours`): the
/// nearest stored vectors among all records with its resource key, and those not embedded yet
/// (embedded here, newest first). Above the thresholds, 50 is far more than a resource holds.
const NEIGHBOURS: usize = 50;

/// The text `text::specifics_agree` reads to tell two experiences' specifics (numbers,
/// versions, codes) apart: what was done and what came of it.
pub fn merge_text(task: &str, result: &str) -> String {
    format!("{task}\n{result}")
}

/// Who a confirmation or a vote counts for: the key's name when auth is on (an agent cannot
/// pose as another), else the agent id the client gave, else one shared anonymous caller.
pub fn identity(caller: &Caller, agent_id: &str) -> String {
    if caller.authenticated {
        caller.name.clone()
    } else if !agent_id.trim().is_empty() {
        agent_id.trim().to_string()
    } else {
        "anonymous".to_string()
    }
}

/// How a new experience was stored.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub experience: Experience,
    /// The record it was merged into (exactly the same text, or the same meaning).
    pub duplicate_of: Option<String>,
    pub created: bool,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedbackResponse {
    pub id: String,
    pub outcome: FeedbackOutcome,
    /// Whose vote this is (a second vote by the same caller replaced the first).
    pub voter: String,
    pub feedback: FeedbackCounts,
    pub disputed: bool,
    #[serde(default, skip_serializing_if = "RedactionCounts::is_empty")]
    pub redactions: RedactionCounts,
}

/// Cosine of a stored or fresh vector with the (masked) query, over the query's non-zero blocks,
/// as the stores compute it.
fn cosine(query: &[f32], v: &[f32]) -> f64 {
    if query.len() != v.len() {
        return 0.0;
    }
    let dot: f64 = query.iter().zip(v).map(|(a, b)| f64::from(*a) * f64::from(*b)).sum();
    knowhub_core::store::masked_cosine(
        dot,
        &knowhub_core::store::block_norms(v),
        &knowhub_core::store::block_norms(query),
    )
}

fn opposite(a: Outcome, b: Outcome) -> bool {
    matches!((a, b), (Outcome::Success, Outcome::Failure) | (Outcome::Failure, Outcome::Success))
}

impl Hub {
    /// Stores a new experience, or adds its submitter as a confirmation of the record it repeats:
    /// the same text, or the same experience in other words (same resource and version, same
    /// outcome, no conflicting specifics, and stored vectors at least `merge_cosine` alike;
    /// without vectors, the same task). A record with the same resource, the opposite outcome and
    /// the same task (equal text, or vectors at least `contest_cosine` alike) is marked as
    /// contesting it once `contest_callers` distinct callers stand behind the new account (its
    /// confirmations), whether they arrive with this submit or later ones. The new record's vector is computed once, compared with the stored vectors
    /// of every record with its resource key through the store's index, and kept. Unless
    /// `sees_unreviewed` (the submitter reads pending records), only approved records are
    /// compared: a caller's submit must not merge into, contest, or so reveal, a record it may
    /// not read.
    pub(crate) async fn store_new(&self, new: NewExperience, sees_unreviewed: bool) -> Result<Stored> {
        let vector = self.embed_new(&new).await;
        let mut same = self.neighbours(&new, vector.as_deref()).await?;
        same.retain(|n| sees_unreviewed || n.experience.status == knowhub_core::Status::Approved);
        let details = merge_text(&new.task, &new.result);
        let key = new.task_resource_hash();
        let merge_into = same
            .iter()
            .filter(|n| {
                let e = &n.experience;
                e.outcome == new.outcome
                    && knowhub_core::text::specifics_agree(&details, &merge_text(&e.task, &e.result))
            })
            .filter_map(|n| match n.cosine {
                Some(c) => (c >= self.opts.evidence.merge_cosine).then_some((n, c)),
                // Not comparable by vector (no embedder, or it failed): the same task.
                None => (knowhub_core::text::task_resource_hash(&n.experience.task, &n.experience.resource) == key)
                    .then_some((n, f64::NEG_INFINITY)),
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(n, _)| n.experience.id.clone());
        let task = knowhub_core::text::normalize(&new.task);
        let contested: Vec<String> = same
            .iter()
            .filter(|n| {
                opposite(n.experience.outcome, new.outcome)
                    && (knowhub_core::text::normalize(&n.experience.task) == task
                        || n.cosine.is_some_and(|c| c >= self.opts.evidence.contest_cosine))
            })
            .map(|n| n.experience.id.clone())
            .collect();
        if let Some(id) = merge_into {
            let e = self.store.confirm(&id, &new.confirmer).await?;
            return self.contest(Stored { experience: e, duplicate_of: Some(id), created: false }, &contested).await;
        }
        let stored = match self.store.insert(new).await? {
            InsertOutcome::Duplicate(e) => Stored { duplicate_of: Some(e.id.clone()), experience: e, created: false },
            InsertOutcome::Created(e) => {
                match (vector, self.embedder.model_id()) {
                    (Some(v), Some(model)) => self.store.set_vectors(model, &[(e.id.clone(), v)]).await?,
                    _ => self.embed_wake.notify_one(),
                }
                Stored { experience: e, duplicate_of: None, created: true }
            }
        };
        self.contest(stored, &contested).await
    }

    /// Marks `stored` and each of `others` as contesting each other once enough distinct callers
    /// stand behind `stored` (`EvidenceSettings::contest_callers`).
    async fn contest(&self, stored: Stored, others: &[String]) -> Result<Stored> {
        let e = &stored.experience;
        let new: Vec<&String> = others.iter().filter(|o| **o != e.id && !e.contested_with.contains(o)).collect();
        if new.is_empty() || e.confirmations < self.opts.evidence.contest_callers {
            return Ok(stored);
        }
        for other in new {
            self.store.contest(&e.id, other).await?;
        }
        let e = self.store.get(&stored.experience.id).await?.unwrap_or(stored.experience);
        Ok(Stored { experience: e, ..stored })
    }

    /// The new record's vector (of its search text, as stored); `None` without a working
    /// embedder, and then the background worker embeds it once stored.
    async fn embed_new(&self, new: &NewExperience) -> Option<Vec<f32>> {
        if !self.embedder.is_enabled() || self.embedder.model_id().is_none() {
            return None;
        }
        match self.embedder.embed_passages(&[new.search_text()]).await {
            Ok(mut v) if v.len() == 1 => v.pop(),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "embedding for the near-duplicate check failed; exact duplicates only");
                None
            }
        }
    }

    /// The records the new one is compared with, each with the primary model's cosine of its
    /// vector with the new record's: the nearest stored vectors among all records with the
    /// resource key (a query over the store's index), and the few not embedded yet (stored by a
    /// path that leaves embedding to the background worker, or while the embedder failed),
    /// embedded here in one batch. Without vectors, cosines are `None`.
    async fn neighbours(&self, new: &NewExperience, vector: Option<&[f32]>) -> Result<Vec<Neighbour>> {
        let dims = self.embedder.primary_blocks().saturating_mul(knowhub_core::VECTOR_BLOCK);
        let (model, query) = match (vector, self.embedder.model_id()) {
            (Some(v), Some(m)) => {
                // The primary model's blocks only: zeros elsewhere leave them out of the cosine.
                let mut q = v.to_vec();
                q.iter_mut().skip(dims).for_each(|x| *x = 0.0);
                (m.to_string(), q)
            }
            _ => (String::new(), Vec::new()),
        };
        let min_cosine = self.opts.evidence.merge_cosine.min(self.opts.evidence.contest_cosine);
        let q = NeighbourQuery {
            resource_key: new.resource_key(),
            task_resource_hash: new.task_resource_hash(),
            model,
            vector: query,
            min_cosine,
            limit: NEIGHBOURS,
        };
        let mut found = self.store.resource_neighbours(&q).await?;
        let bare: Vec<usize> = (0..found.len()).filter(|i| found[*i].cosine.is_none()).collect();
        if q.vector.is_empty() || bare.is_empty() {
            return Ok(found);
        }
        let texts: Vec<String> = bare.iter().map(|i| found[*i].experience.search_text()).collect();
        match self.embedder.embed_passages(&texts).await {
            Ok(vs) => {
                for (i, v) in bare.into_iter().zip(vs) {
                    found[i].cosine = Some(cosine(&q.vector, &v));
                }
            }
            Err(e) => tracing::warn!(error = %e, "embedding records not embedded yet failed; compared by task only"),
        }
        Ok(found)
    }

    /// An agent's report on an experience it used. One vote per caller (see `identity`); a
    /// second replaces the first. The note is redacted: reviewers read it.
    pub async fn feedback(&self, caller: &Caller, req: FeedbackRequest) -> Result<FeedbackResponse> {
        caller.require(Role::Agent)?;
        self.limiter.take(caller, crate::limits::Budget::Write)?;
        let id = validate::required("id", req.id, validate::MAX_ID)?;
        let id = validate::id(&id)?.to_string();
        let outcome = match req.outcome.as_deref().map(str::trim) {
            None | Some("") => return Err(CoreError::invalid("outcome", "is required: helped | failed | irrelevant")),
            Some(o) => FeedbackOutcome::parse(&o.to_ascii_lowercase()).ok_or_else(|| {
                CoreError::invalid("outcome", format!("must be one of {}, got {o:?}", FeedbackOutcome::expected()))
            })?,
        };
        let agent_id = validate::optional("agent_id", req.agent_id, MAX_SHORT)?;
        let note = validate::optional("note", req.note, MAX_NOTE)?;
        let red = redact::redact(&note);
        let voter = identity(caller, &agent_id);
        let vote =
            Vote { voter: voter.clone(), outcome, note: (!red.text.is_empty()).then_some(red.text), at: now_rfc3339() };
        // Whoever may not read a record learns nothing from voting on it: a pending or rejected
        // one answers exactly as a missing one does (the store would say which it is).
        if !self.store.get(&id).await?.is_some_and(|e| Self::may_read(caller, &e)) {
            return Err(knowhub_core::store::not_found(&id));
        }
        let e = self.store.vote(&id, vote).await?;
        self.metrics.feedback(outcome);
        tracing::info!(id = %e.id, %voter, outcome = %outcome, helped = e.feedback.helped, failed = e.feedback.failed, "feedback");
        Ok(FeedbackResponse {
            id: e.id,
            outcome,
            voter,
            feedback: e.feedback,
            disputed: e.feedback.disputed(self.cfg.dispute_threshold),
            redactions: red.counts,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_prefers_the_key() {
        assert_eq!(identity(&Caller::key("bot-key", Role::Agent), "claims-to-be-alice"), "bot-key");
        assert_eq!(identity(&Caller::local(), " alice "), "alice");
        assert_eq!(identity(&Caller::local(), ""), "anonymous");
    }

    #[test]
    fn outcomes_oppose() {
        assert!(opposite(Outcome::Success, Outcome::Failure));
        assert!(opposite(Outcome::Failure, Outcome::Success));
        assert!(!opposite(Outcome::Partial, Outcome::Failure));
        assert!(!opposite(Outcome::Success, Outcome::Success));
    }
}
