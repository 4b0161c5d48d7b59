//! Evidence, not clicks: who confirms a record, near-duplicates merged as confirmations,
//! contradicting records marked as contested, and outcome feedback from the agents that used one.

use knowhub_core::redact::{self, RedactionCounts};
use knowhub_core::validate::{self, MAX_NOTE, MAX_SHORT};
use knowhub_core::{
    now_rfc3339, Caller, CoreError, Experience, FeedbackCounts, FeedbackOutcome, InsertOutcome, NewExperience, Outcome,
    Result, Role, Vote,
};
use serde::Serialize;

use crate::hub::Hub;
use crate::requests::FeedbackRequest;

/// Thresholds for merging near-duplicates and marking contests, from config.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvidenceSettings {
    /// Two records with the same resource and outcome are the same experience when their
    /// multilingual-model cosine is at least this (chosen on dev data, docs/ranking.md §6).
    pub merge_cosine: f64,
    /// Same resource, opposite outcome and a cosine at least this (or the same task text): the two
    /// contest each other.
    pub contest_cosine: f64,
}

impl Default for EvidenceSettings {
    fn default() -> Self {
        EvidenceSettings { merge_cosine: MERGE_COSINE, contest_cosine: CONTEST_COSINE }
    }
}

/// See docs/ranking.md §6 (`knowhub-bench dedup`): the smallest threshold at which no look-alike
/// pair of the dev set (same tool, other task) is merged, plus a margin.
pub const MERGE_COSINE: f64 = 0.965;
/// Tasks this alike are the same task (the same conservative bar as merging).
pub const CONTEST_COSINE: f64 = 0.965;

/// Records with one resource key compared per submit (the oldest first).
const SAME_RESOURCE_MAX: usize = 50;

/// What two experiences with the same resource are compared on: what was done and what came
/// of it. (The whole record's vector would be dominated by the shared resource text.)
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

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeedbackResponse {
    pub id: String,
    pub outcome: FeedbackOutcome,
    /// Whose vote this is (a second vote by the same caller replaced the first).
    pub voter: String,
    pub feedback: FeedbackCounts,
    pub disputed: bool,
    #[serde(skip_serializing_if = "RedactionCounts::is_empty")]
    pub redactions: RedactionCounts,
}

fn opposite(a: Outcome, b: Outcome) -> bool {
    matches!((a, b), (Outcome::Success, Outcome::Failure) | (Outcome::Failure, Outcome::Success))
}

impl Hub {
    /// Stores a new experience, or adds its submitter as a confirmation of the record it repeats:
    /// the same text, or the same experience in other words (same resource and version, same
    /// outcome, no conflicting specifics, and `merge_text`s at least `merge_cosine` alike; without
    /// vectors, the same task). A record with the same resource, the opposite outcome and the same
    /// task (equal text, or tasks at least `contest_cosine` alike) is marked as contesting it.
    /// The new record's vector, computed for the comparison, is kept. Unless `sees_unreviewed`
    /// (the submitter reads pending records), only approved records are compared: a caller's
    /// submit must not merge into, contest, or so reveal, a record it may not read.
    pub(crate) async fn store_new(&self, new: NewExperience, sees_unreviewed: bool) -> Result<Stored> {
        let mut same = self.store.by_resource_key(&new.resource_key(), SAME_RESOURCE_MAX).await?;
        same.retain(|e| sees_unreviewed || e.status == knowhub_core::Status::Approved);
        let details = merge_text(&new.task, &new.result);
        let mergeable: Vec<&Experience> = same
            .iter()
            .filter(|e| {
                e.outcome == new.outcome
                    && knowhub_core::text::specifics_agree(&details, &merge_text(&e.task, &e.result))
            })
            .collect();
        let opposed: Vec<&Experience> = same.iter().filter(|e| opposite(e.outcome, new.outcome)).collect();
        let (vector, merge_cos, task_cos) = self.compare(&new, &mergeable, &opposed).await;
        let merge_into = match &merge_cos {
            Some(cos) => mergeable
                .iter()
                .zip(cos)
                .filter(|(_, c)| **c >= self.opts.evidence.merge_cosine)
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(e, _)| e.id.clone()),
            None => {
                let key = new.task_resource_hash();
                mergeable
                    .iter()
                    .find(|e| knowhub_core::text::task_resource_hash(&e.task, &e.resource) == key)
                    .map(|e| e.id.clone())
            }
        };
        if let Some(id) = merge_into {
            let e = self.store.confirm(&id, &new.confirmer).await?;
            return Ok(Stored { experience: e, duplicate_of: Some(id), created: false });
        }
        let task = knowhub_core::text::normalize(&new.task);
        let contested: Vec<String> = opposed
            .iter()
            .enumerate()
            .filter(|(i, e)| {
                knowhub_core::text::normalize(&e.task) == task
                    || task_cos.as_ref().is_some_and(|c| c[*i] >= self.opts.evidence.contest_cosine)
            })
            .map(|(_, e)| e.id.clone())
            .collect();
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
        if !stored.created || contested.is_empty() {
            return Ok(stored);
        }
        for other in &contested {
            self.store.contest(&stored.experience.id, other).await?;
        }
        let e = self.store.get(&stored.experience.id).await?.unwrap_or(stored.experience);
        Ok(Stored { experience: e, ..stored })
    }

    /// One embedding batch for the comparisons: the new record's own vector (kept if it is
    /// stored), and the primary model's cosine of its `merge_text` with each mergeable record's,
    /// and of its task with each opposed record's. `None`s without a working embedder.
    async fn compare(
        &self,
        new: &NewExperience,
        mergeable: &[&Experience],
        opposed: &[&Experience],
    ) -> (Option<Vec<f32>>, Option<Vec<f64>>, Option<Vec<f64>>) {
        if (mergeable.is_empty() && opposed.is_empty()) || !self.embedder.is_enabled() {
            return (None, None, None);
        }
        let mut texts = vec![new.search_text(), merge_text(&new.task, &new.result), new.task.clone()];
        texts.extend(mergeable.iter().map(|e| merge_text(&e.task, &e.result)));
        texts.extend(opposed.iter().map(|e| e.task.clone()));
        let mut v = match self.embedder.embed_passages(&texts).await {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(error = %e, "embedding for the near-duplicate check failed; exact duplicates only");
                return (None, None, None);
            }
        };
        let dims = self.embedder.primary_blocks().saturating_mul(knowhub_core::VECTOR_BLOCK);
        let cos = |a: &[f32], b: &[f32]| {
            let n = dims.min(a.len()).min(b.len());
            let (a, b) = (&a[..n], &b[..n]);
            let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
            let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
            let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
            f64::from(dot / (na * nb).max(f32::EPSILON))
        };
        let rest = v.split_off(3);
        let merge = rest[..mergeable.len()].iter().map(|x| cos(&v[1], x)).collect();
        let task = rest[mergeable.len()..].iter().map(|x| cos(&v[2], x)).collect();
        (v.into_iter().next(), Some(merge), Some(task))
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
