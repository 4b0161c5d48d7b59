//! `POST /api/extract` and `GET /api/extract/{id}` on the Hub, and the extraction worker.

use std::sync::Arc;
use std::time::{Duration, Instant};

use knowhub_core::extract::NewExtraction;
use knowhub_core::redact::RedactionCounts;
use knowhub_core::{new_id, Caller, CoreError, ExtractJob, MessageRange, Result, Role};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::extract::{self, transcript, JobResult};
use crate::hub::Hub;

/// Most messages one upload may carry (the plugin sends ≤512 KB chunks, far fewer).
pub const MAX_MESSAGES: usize = knowhub_core::extract::MAX_MESSAGES;
/// Longest `wait` a client may ask for.
pub const MAX_WAIT_SECS: u64 = crate::requests::EXTRACT_WAIT.max as u64;

/// The body of `POST /api/extract`.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExtractRequest {
    pub messages: Option<Vec<Value>>,
    pub agent_id: Option<String>,
    pub submitted_by: Option<String>,
    pub session_key: Option<String>,
    /// OpenClaw's session id: the fallback key when no session_key is given.
    pub session_id: Option<String>,
    /// A client may ask for review even where the server would approve directly, never the reverse.
    pub require_approval: Option<bool>,
    /// Informational (the plugin's redaction mode); the server always redacts.
    pub privacy_mode: Option<String>,
    /// Informational: which client sent it.
    pub source: Option<String>,
    /// The scope what is extracted goes to: one the caller's key may write (default: its write scope).
    pub scope: Option<String>,
}

/// The answer to an upload, and to `GET /api/extract/{id}`.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct JobView {
    pub job_id: Option<String>,
    /// queued | running | done | failed | nothing_new
    pub status: &'static str,
    pub session_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_range: Option<MessageRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped_messages: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redactions: Option<RedactionCounts>,
    pub attempts: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_url: Option<String>,
    pub extracted_count: usize,
    pub experiences: Vec<extract::ExtractedItem>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub details: Option<Details>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Details {
    /// Absent for a failed job (its answers were not used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_low_confidence: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped_invalid: Vec<String>,
    /// Absent for a failed job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capped: Option<bool>,
    /// LLM tokens the job's answers used, over all its attempts.
    pub input_tokens: u64,
    pub output_tokens: u64,
}

fn short(field: &str, v: Option<String>) -> Result<String> {
    knowhub_core::validate::optional(field, v, knowhub_core::validate::MAX_SHORT)
}

/// A job's stored result: a finished job's [`JobResult`], or only the tokens a failed or
/// retried attempt spent. One parse tells which (the full result is tried first).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum StoredResult {
    Done(JobResult),
    Tokens(extract::Tokens),
}

impl JobView {
    fn of(job: &ExtractJob) -> Self {
        let range = (job.message_count > 0).then(|| MessageRange {
            from: job.first_index as u32,
            to: (job.first_index + u64::from(job.message_count) - 1) as u32,
        });
        let mut v = JobView {
            job_id: Some(job.id.clone()),
            status: job.status.as_str(),
            session_key: job.session_key.clone(),
            message_range: range,
            skipped_messages: None,
            redactions: None,
            attempts: job.attempts,
            error: job.error.clone(),
            status_url: Some(format!("/api/extract/{}", job.id)),
            extracted_count: 0,
            experiences: Vec::new(),
            details: None,
        };
        match job.result.as_deref().and_then(|r| serde_json::from_str::<StoredResult>(r).ok()) {
            Some(StoredResult::Done(r)) => {
                v.extracted_count = r.extracted_count;
                v.experiences = r.experiences;
                v.details = Some(Details {
                    dropped_low_confidence: Some(r.dropped_low_confidence),
                    dropped_invalid: r.dropped_invalid,
                    capped: Some(r.capped),
                    input_tokens: r.input_tokens,
                    output_tokens: r.output_tokens,
                });
            }
            Some(StoredResult::Tokens(t)) => {
                v.details = Some(Details {
                    dropped_low_confidence: None,
                    dropped_invalid: Vec::new(),
                    capped: None,
                    input_tokens: t.input_tokens,
                    output_tokens: t.output_tokens,
                });
            }
            None => {}
        }
        v
    }

    pub fn finished(&self) -> bool {
        matches!(self.status, "done" | "failed" | "nothing_new")
    }
}

impl Hub {
    /// Validates, redacts and queues an upload; returns at once (or after `wait`, if the job ends sooner).
    pub async fn extract(&self, caller: &Caller, req: ExtractRequest, wait: Option<Duration>) -> Result<JobView> {
        caller.require(Role::Agent)?;
        if self.opts.extractor.is_none() {
            return Err(CoreError::NotConfigured(
                "LLM extraction is not configured on this server: set KNOWHUB_LLM_BASE_URL and KNOWHUB_LLM_MODEL \
                 (and KNOWHUB_LLM_PROVIDER=anthropic for Anthropic)"
                    .into(),
            ));
        }
        self.limiter.take(caller, crate::limits::Budget::Upload)?;
        let scope = caller.write_target("scope", Some(&short("scope", req.scope.clone())?))?;
        let raw = req.messages.ok_or_else(|| CoreError::invalid("messages", "is required"))?;
        if raw.is_empty() {
            return Err(CoreError::invalid("messages", "must not be empty"));
        }
        if raw.len() > MAX_MESSAGES {
            return Err(CoreError::invalid(
                "messages",
                format!("holds {} messages; the limit is {MAX_MESSAGES}", raw.len()),
            ));
        }
        let agent_id = caller.bound_agent_id(&short("agent_id", req.agent_id)?);
        let submitted_by = match short("submitted_by", req.submitted_by)? {
            s if s.is_empty() && caller.name != "local" => caller.name.clone(),
            s => s,
        };
        let mut session_key = short("session_key", req.session_key)?;
        if session_key.is_empty() {
            session_key = short("session_id", req.session_id)?;
        }
        if session_key.is_empty() {
            // Without a key nothing can be matched later: every upload is processed as new.
            session_key = format!("anonymous:{}", new_id());
        } else if caller.authenticated {
            // A session belongs to the key that uploads it: another key naming the same session
            // neither sees which messages it holds nor adds to it.
            session_key = format!("{}/{session_key}", caller.name);
        }
        let mut counts = RedactionCounts::default();
        let (mut hashes, mut messages) = (Vec::with_capacity(raw.len()), Vec::with_capacity(raw.len()));
        for (i, m) in raw.iter().enumerate() {
            let prepared = transcript::normalise(m).map_err(|e| CoreError::invalid(format!("messages[{i}]"), e))?;
            hashes.push(transcript::fingerprint(m));
            // Messages with nothing for the LLM still count for the session's numbering.
            let mut p = prepared.unwrap_or(transcript::Prepared {
                role: "empty".into(),
                text: String::new(),
                calls: Vec::new(),
                tool: None,
                is_error: false,
            });
            transcript::redact_message(&mut p, &mut counts);
            messages.push(serde_json::to_string(&p).map_err(|e| CoreError::Internal(e.to_string()))?);
        }
        let require_approval = self.opts.require_approval || req.require_approval.unwrap_or(false);
        let out = self
            .store
            .enqueue_extraction(NewExtraction {
                job_id: new_id(),
                session_key: session_key.clone(),
                caller: crate::evidence::identity(caller, &agent_id),
                agent_id,
                submitted_by,
                require_approval,
                scope,
                key: if caller.authenticated { caller.name.clone() } else { String::new() },
                hashes,
                messages,
            })
            .await?;
        let Some(job) = out.job else {
            return Ok(JobView {
                job_id: None,
                status: "nothing_new",
                session_key,
                message_range: None,
                skipped_messages: Some(out.skipped),
                redactions: Some(counts),
                attempts: 0,
                error: None,
                status_url: None,
                extracted_count: 0,
                experiences: Vec::new(),
                details: None,
            });
        };
        tracing::info!(job = %job.id, session_key = %job.session_key, new_messages = job.message_count,
            skipped = out.skipped, redactions = counts.total(), "extraction queued");
        self.extract_wake.notify_one();
        let id = job.id.clone();
        let mut view = JobView::of(&job);
        if let Some(wait) = wait {
            let deadline = Instant::now() + wait.min(Duration::from_secs(MAX_WAIT_SECS));
            while Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if let Some(j) = self.store.extraction(&id).await? {
                    view = JobView::of(&j);
                    if view.finished() {
                        break;
                    }
                }
            }
        }
        view.skipped_messages = Some(out.skipped);
        view.redactions = Some(counts);
        Ok(view)
    }

    /// Whether the uploader of a job (its `caller`: the key's name with auth on) may read pending
    /// and rejected records, as a reviewer or admin may. Without auth every caller is the
    /// operator. A name held by several keys counts as the least of them.
    pub(crate) async fn uploader_reads_everything(&self, uploader: &str) -> Result<bool> {
        if !self.opts.auth {
            return Ok(true);
        }
        let keys = self.store.list_keys().await?;
        let mut roles = keys.iter().filter(|k| k.name == uploader && k.revoked_at.is_none()).map(|k| k.role);
        Ok(roles.next().is_some_and(|first| roles.chain([first]).all(|r| r.allows(Role::Reviewer))))
    }

    pub async fn extraction_job(&self, caller: &Caller, id: &str) -> Result<JobView> {
        caller.require(Role::Agent)?;
        let id = knowhub_core::validate::id(id).map_err(|_| CoreError::NotFound(format!("extraction job {id:?}")))?;
        let job =
            self.store.extraction(id).await?.ok_or_else(|| CoreError::NotFound(format!("extraction job {id}")))?;
        // An agent key sees only its own jobs (they hold redacted conversation lines and the
        // pending proposals); another key's job is "not found", not "forbidden".
        if !caller.reads_everything() && job.caller != caller.name {
            return Err(CoreError::NotFound(format!("extraction job {id}")));
        }
        Ok(JobView::of(&job))
    }

    /// Runs queued extraction jobs until the process ends. Several replicas may run workers: the
    /// store hands each job to one of them.
    pub fn spawn_extract_worker(self: &Arc<Self>) -> Option<tokio::task::JoinHandle<()>> {
        let ex = self.opts.extractor.clone()?;
        let hub = self.clone();
        Some(tokio::spawn(async move {
            let mut backoff = Duration::from_millis(500);
            loop {
                match hub.store.claim_extraction(ex.settings.lease_secs).await {
                    Ok(Some(job)) => {
                        backoff = Duration::from_millis(500);
                        let id = job.id.clone();
                        let done = match extract::run_job(&hub, &ex, job).await {
                            Ok((finish, created, spent)) => {
                                // Every attempt's tokens, retried and failed ones included.
                                hub.metrics.job(&finish, spent.input_tokens, spent.output_tokens);
                                if created > 0 {
                                    hub.embed_wake.notify_one();
                                }
                                hub.store.finish_extraction(&id, finish).await
                            }
                            // Storing items failed (store outage): the lease expires and the job runs again.
                            Err(e) => Err(e),
                        };
                        if let Err(e) = done {
                            tracing::warn!(job = %id, error = %e, "extraction job could not be finished; it will be retried");
                        }
                    }
                    Ok(None) => {
                        let _ = tokio::time::timeout(extract::POLL, hub.extract_wake.notified()).await;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot claim extraction jobs; retrying");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(30));
                    }
                }
            }
        }))
    }
}
