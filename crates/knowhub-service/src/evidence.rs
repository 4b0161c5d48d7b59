//! Evidence, not clicks: who confirms a record, the thresholds at which a submit merges into a
//! near-duplicate or contests a contradicting record (applied in `submit`), and outcome feedback
//! from the agents that used one.

use knowhub_core::redact::{self, RedactionCounts};
use knowhub_core::validate::{self, MAX_NOTE, MAX_SHORT};
use knowhub_core::{now_rfc3339, Caller, CoreError, FeedbackCounts, FeedbackOutcome, Result, Role, Vote};
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

impl Hub {
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
        let before = match self.store.get(&id).await? {
            Some(e) if Self::may_read(caller, &e) => e,
            _ => return Err(knowhub_core::store::not_found(&id)),
        };
        let was_disputed = before.feedback.disputed(self.cfg.dispute_threshold);
        let mut e = self.store.vote(&id, vote).await?;
        self.note(&id, "voted", &voter, Some(serde_json::json!({"outcome": outcome}))).await;
        if !was_disputed && e.feedback.disputed(self.cfg.dispute_threshold) {
            self.note(&id, "disputed", &voter, Some(serde_json::json!({"failed": e.feedback.failed}))).await;
        }
        if outcome == FeedbackOutcome::Helped {
            e = self.renew(e).await?;
        }
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
}
