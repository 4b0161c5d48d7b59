//! Submit, top to bottom: validate, sanitise and screen, decide (status, record limits, repeats
//! the caller may not read), write (a new record or a confirmation of a near-duplicate, contests,
//! content proposals). Extraction writes its records through the same [`Hub::store_new`].

use knowhub_ai::screen::{InjectionClassifier, CLASSIFIER_FLAG};
use knowhub_core::guard;
use knowhub_core::redact::RedactionCounts;
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{
    Caller, Experience, InsertOutcome, Neighbour, NeighbourQuery, NewExperience, Outcome, Result, Role, Source, Status,
};
use serde::{Deserialize, Serialize};

use crate::evidence::merge_text;
use crate::hub::{AutoApprove, Hub};
use crate::limits::{Budget, BURST};

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SubmitResponse {
    pub id: String,
    pub status: Status,
    /// The record this submit confirmed instead of creating one (same text, or same meaning
    /// with the same resource and outcome).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// Distinct callers that submitted it.
    pub confirmations: u32,
    /// Records with the same task and resource that report the opposite outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contested_with: Vec<String>,
    /// e.g. `suspected_injection`: kept for review, not searchable until approved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// What the server redacted before storing (secrets, personal data).
    #[serde(default, skip_serializing_if = "RedactionCounts::is_empty")]
    pub redactions: RedactionCounts,
    /// Why something of the submit was not stored (content for an already reviewed record).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The pending proposal that holds content sent for an already reviewed record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_proposal: Option<String>,
    /// A new record (`201 Created`), not a confirmation (`200`): told by the status, not the body.
    #[serde(skip)]
    pub created: bool,
}

/// How a new experience was stored.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub experience: Experience,
    /// The record it was merged into (exactly the same text, or the same meaning).
    pub duplicate_of: Option<String>,
    pub created: bool,
}

/// Records of each kind a new record is compared with (`Store::resource_neighbours`): the
/// nearest stored vectors among all records with its resource key, and those not embedded yet
/// (embedded here, newest first). Above the thresholds, 50 is far more than a resource holds.
const NEIGHBOURS: usize = 50;

impl Hub {
    /// Validates and stores a manual submit, or counts it as a confirmation of the record it
    /// repeats. Secrets and personal data are redacted as in extraction, and text that reads like
    /// a prompt injection is never approved automatically. The record is full-text searchable at
    /// once. Its vector is computed here for the near-duplicate check and stored with it; if the
    /// embedder fails, the background worker embeds it later, so a slow or failing embedder never
    /// fails a submit.
    pub async fn submit(&self, caller: &Caller, req: SubmitRequest) -> Result<SubmitResponse> {
        // Validate: who may write, their write budget, and the request itself.
        caller.require(Role::Agent)?;
        self.limiter.take(caller, Budget::Write)?;
        let scope = caller.write_target("scope", req.scope.as_deref())?;
        let (expires_at, ttl_secs) = self.expiry_for(&scope, req.expires_at.as_deref(), req.ttl_days)?;
        let mut new = req.validate(Source::Manual, Status::Pending)?;
        new.scope = scope;
        (new.expires_at, new.ttl_secs) = (expires_at, ttl_secs);
        if caller.authenticated {
            new.provenance.key = caller.name.clone();
        }

        // Sanitise and screen: redaction and the injection rules, then the rules on decoded text
        // and the classifier. Each finding is a review flag.
        let (redactions, mut flags) = knowhub_core::sanitise::sanitise(&mut new);
        let (more, score) = self.screen_more(&new, &flags).await;
        flags.extend(more);

        // Decide: a key past its record limits is held too; any flag but a lone fetch-and-run
        // command keeps the record pending, else the auto-approve policy says. Whose word it is comes from the key, not the body.
        if self.over_record_limits(caller).await? {
            flags.push(BURST.to_string());
        }
        let approved = match self.opts.auto_approve {
            AutoApprove::All => true,
            AutoApprove::Reviewers => caller.role.allows(Role::Reviewer),
            AutoApprove::None => false,
        };
        // A fetch-and-run command as the only finding reads like install documentation: when the
        // classifier scored the record, it holds the write only at or above the classifier's bar
        // for such records; the record keeps `dangerous_command` either way.
        let version = new.resource_version.as_deref().unwrap_or("");
        let content = new.content.as_ref().map_or("", |(c, _)| c.as_str());
        let fetch_run_only = flags.iter().all(|f| f == guard::DANGEROUS_COMMAND)
            && guard::only_fetch_and_run(&[&new.task, &new.resource, version, &new.result, content]);
        let bar = InjectionClassifier::shipped().map(InjectionClassifier::fetch_run_threshold);
        let install_note = fetch_run_only && score.zip(bar).is_some_and(|(s, b)| s < b);
        if fetch_run_only && !install_note && score.is_some() && !flags.iter().any(|f| f == CLASSIFIER_FLAG) {
            flags.push(CLASSIFIER_FLAG.to_string());
        }
        let holding = flags.iter().any(|f| !(install_note && f == guard::DANGEROUS_COMMAND));
        new.status = if approved && !holding { Status::Approved } else { Status::Pending };
        new.flags.extend(flags);
        new.agent_id = caller.bound_agent_id(&new.agent_id);
        new.confirmer = crate::evidence::identity(caller, &new.agent_id);
        // A repeat of a record the caller may not read (pending, rejected) is answered as a new
        // pending record would be: its id, status, flags and confirmations are not the caller's
        // to learn, and the caller's word is no evidence for it.
        if let Some(h) = self.hidden_repeat(&new, caller.reads_everything()).await? {
            return Ok(as_if_new(new.flags, redactions, &new.confirmer, &h.id));
        }

        // Write: a new record, or a confirmation of a near-duplicate (with contests marked), and
        // content for an already reviewed record as a proposal of its own.
        let (sent_flags, confirmer) = (new.flags.clone(), new.confirmer.clone());
        let proposal = new.content.is_some().then(|| new.clone());
        let s = self.store_new(new, caller.reads_everything()).await?;
        if !s.created && !Self::may_read(caller, &s.experience) {
            // The same text arrived from someone else between the look-up and the write.
            return Ok(as_if_new(sent_flags, redactions, &confirmer, &s.experience.id));
        }
        let (mut note, mut content_proposal) = (None, None);
        if let Some(p) = proposal.filter(|_| !s.created && s.experience.status != Status::Pending) {
            if let Some(pid) = self.propose_content(&s.experience.id, p).await? {
                note = Some(format!(
                    "content not attached: {} was already reviewed, so the content waits for a reviewer as proposal {pid}",
                    s.experience.id
                ));
                content_proposal = Some(pid);
            }
        }
        Ok(SubmitResponse {
            id: s.experience.id,
            status: s.experience.status,
            duplicate_of: s.duplicate_of,
            confirmations: s.experience.confirmations,
            contested_with: s.experience.contested_with,
            flags: s.experience.flags,
            redactions,
            note,
            content_proposal,
            created: s.created,
        })
    }

    /// The pending or rejected record with `new`'s exact text, when its writer may not read such
    /// records (`sees_unreviewed` false). Submit and extraction answer such a repeat as a new
    /// pending record and store nothing, so it neither reveals nor confirms the hidden one.
    pub(crate) async fn hidden_repeat(&self, new: &NewExperience, sees_unreviewed: bool) -> Result<Option<Experience>> {
        if sees_unreviewed {
            return Ok(None);
        }
        Ok(self.store.by_content_hash(&new.content_hash()).await?.filter(|e| e.status != Status::Approved))
    }

    /// Stores a new experience, or adds its submitter as a confirmation of the record it repeats:
    /// the same text, or the same experience in other words (same resource and version, same
    /// outcome, no conflicting specifics, and stored vectors at least `merge_cosine` alike;
    /// without vectors, the same task). A record with the same resource, the opposite outcome and
    /// the same task (equal text, or vectors at least `contest_cosine` alike) is marked as
    /// contesting it once `contest_callers` distinct callers stand behind the new account (its
    /// confirmations), whether they arrive with this submit or later ones. The new record's vector
    /// is computed once, compared with the stored vectors of every record with its resource key
    /// through the store's index, and kept. Unless
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
        let confirmer = new.confirmer.clone();
        if let Some(id) = merge_into {
            let e = self.renew(self.store.confirm(&id, &new.confirmer).await?).await?;
            self.note(&id, "confirmed", &confirmer, Some(serde_json::json!({"near_duplicate": true}))).await;
            return self.contest(Stored { experience: e, duplicate_of: Some(id), created: false }, &contested).await;
        }
        let stored = match self.store.insert(new).await? {
            InsertOutcome::Duplicate(e) => {
                let e = self.renew(e).await?;
                self.note(&e.id, "confirmed", &confirmer, None).await;
                Stored { duplicate_of: Some(e.id.clone()), experience: e, created: false }
            }
            InsertOutcome::Created(e) => {
                let detail =
                    serde_json::json!({"status": e.status, "scope": e.scope, "source": e.source, "flags": e.flags});
                self.note(&e.id, "submitted", &confirmer, Some(detail)).await;
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
            scope: new.scope.clone(),
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

    /// Content submitted for a record a reviewer has already seen does not change it: it is stored
    /// as a pending proposal (its own record, flagged with the target) that a reviewer accepts or
    /// rejects. `None` when the record already holds exactly this content.
    async fn propose_content(&self, target: &str, mut p: NewExperience) -> Result<Option<String>> {
        let proposed = p.content.as_ref().map(|(c, _)| c.as_str());
        if self.store.content(target).await?.is_some_and(|c| Some(c.content.as_str()) == proposed) {
            return Ok(None);
        }
        p.propose_content_for(target);
        p.status = Status::Pending;
        p.id = None;
        let id = match self.store.insert(p).await? {
            InsertOutcome::Created(e) => {
                self.embed_wake.notify_one();
                e.id
            }
            InsertOutcome::Duplicate(e) => e.id,
        };
        tracing::info!(target, proposal = %id, "content proposed for a reviewed record");
        Ok(Some(id))
    }
}

/// The answer to a submit that repeats record `hidden`, which the caller may not read: what a
/// brand-new pending record would get (a fresh id, one confirmation, the flags of this submit
/// alone). Nothing is stored, and `hidden` is not confirmed: the decision on it covers this text.
fn as_if_new(flags: Vec<String>, redactions: RedactionCounts, by: &str, hidden: &str) -> SubmitResponse {
    let id = knowhub_core::new_id();
    tracing::info!(%id, hidden, by, "repeat of a record its submitter may not read: answered as new, nothing stored");
    SubmitResponse {
        id,
        status: Status::Pending,
        duplicate_of: None,
        confirmations: 1,
        contested_with: Vec::new(),
        flags,
        redactions,
        note: None,
        content_proposal: None,
        created: true,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_oppose() {
        assert!(opposite(Outcome::Success, Outcome::Failure));
        assert!(opposite(Outcome::Failure, Outcome::Success));
        assert!(!opposite(Outcome::Partial, Outcome::Failure));
        assert!(!opposite(Outcome::Success, Outcome::Success));
    }
}
