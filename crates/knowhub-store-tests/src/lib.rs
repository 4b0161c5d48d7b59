//! One conformance suite for every `Store` backend, so SQLite and PostgreSQL cannot drift apart.
//!
//! Each check is a `pub async fn` in [`checks`] taking a fresh, empty store. A backend's test file
//! runs them all with [`conformance_tests!`], giving it a factory `async fn() -> Option<Harness>`
//! (`None` only when the backend's tests were switched off explicitly, which the factory reports).
//! The build script finds the checks in `src/checks/`, so there is no list to keep by hand.
//! Vectors are stored under [`MODEL`]; stores that load one model's vectors must be opened with it.

use std::sync::Arc;

use knowhub_core::validate::SubmitRequest;
use knowhub_core::{NewExperience, Source, Status, Store};

pub mod checks;

/// The embedding model id the checks store vectors under.
pub const MODEL: &str = "test-model";

/// A store under test plus whatever must live as long as it (a temp dir, a server).
pub struct Harness {
    pub store: Arc<dyn Store>,
    pub guard: Box<dyn std::any::Any + Send + Sync>,
}

// `conformance_tests!` and `CHECKS`, written by build.rs from the checks in `src/checks/`.
include!(concat!(env!("OUT_DIR"), "/conformance.rs"));

/// A submit with the three required fields and a rating of 4 (for service and API tests).
pub fn submit_req(task: &str, resource: &str, result: &str) -> knowhub_core::validate::SubmitRequest {
    knowhub_core::validate::SubmitRequest {
        task: Some(task.into()),
        resource: Some(resource.into()),
        result: Some(result.into()),
        score: Some(4),
        ..Default::default()
    }
}

/// A validated manual submit.
pub fn exp(task: &str, resource: &str, result: &str, score: i64, agent: &str) -> NewExperience {
    let mut e =
        SubmitRequest { score: Some(score), agent_id: Some(agent.into()), ..submit_req(task, resource, result) }
            .validate(Source::Manual, Status::Approved)
            .unwrap();
    e.confirmer = agent.to_string();
    e
}

/// An export record as an import sees it.
pub fn to_new(r: &knowhub_core::ExportRecord) -> NewExperience {
    let e = &r.experience;
    NewExperience {
        confirmer: String::new(),
        resource_version: e.resource_version.clone(),
        history: Some(knowhub_core::History {
            last_confirmed_at: Some(e.last_confirmed_at.clone()),
            confirmed_by: r.confirmed_by.clone(),
            votes: r.votes.clone(),
            reviewed_failed: e.feedback.reviewed_failed,
            contested_with: e.contested_with.clone(),
        }),
        id: Some(e.id.clone()),
        task: e.task.clone(),
        resource: e.resource.clone(),
        result: e.result.clone(),
        score: e.score,
        outcome: e.outcome,
        agent_id: e.agent_id.clone(),
        submitted_by: e.submitted_by.clone(),
        session_key: e.session_key.clone(),
        source: e.source,
        status: e.status,
        confidence: e.confidence,
        created_at: Some(e.created_at.clone()),
        updated_at: Some(e.updated_at.clone()),
        confirmations: e.confirmations,
        content: r.content.clone().map(|c| (c, r.content_type.clone().unwrap_or_default())),
        source_range: e.source_range,
        flags: e.flags.clone(),
        review: e.review.clone(),
        scope: e.scope.clone(),
        provenance: e.provenance.clone(),
        expires_at: e.expires_at.clone(),
        ttl_secs: e.ttl_secs,
    }
}
