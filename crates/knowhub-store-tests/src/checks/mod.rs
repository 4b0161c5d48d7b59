//! The checks, one file per concern, named as the stores' modules. Every `pub async fn` in these
//! files is a check: the build script lists them for [`conformance_tests!`](crate::conformance_tests),
//! so a new one runs on every backend without being added anywhere else. Helpers shared by
//! several files live here and are not `pub`.

use std::sync::Arc;

use knowhub_core::review::{Decision, Review, ValidEdits};
use knowhub_core::{InsertOutcome, MessageRange, NewExperience, SearchFilter, Source, Status, Store};

use crate::exp;

pub mod events;
pub mod evidence;
pub mod filter;
pub mod hold;
pub mod insight;
pub mod jobs;
pub mod keys;
pub mod records;
pub mod review;
pub mod scopes;
pub mod text;
pub mod vectors;

fn extracted(task: &str, resource: &str, result: &str) -> NewExperience {
    let mut e = exp(task, resource, result, 4, "extractor");
    e.source = Source::Extracted;
    e.status = Status::Pending;
    e.session_key = Some("s1".into());
    e.source_range = Some(MessageRange { from: 2, to: 5 });
    e.flags = vec!["suspected_injection".into()];
    e
}

async fn created(s: &Arc<dyn Store>, e: NewExperience) -> knowhub_core::Experience {
    match s.insert(e).await.unwrap() {
        InsertOutcome::Created(e) => e,
        other => panic!("expected Created, got {other:?}"),
    }
}

async fn search(s: &Arc<dyn Store>, q: &str, f: &SearchFilter) -> Vec<String> {
    s.text_candidates(&knowhub_core::text::query_tokens(q), f, 20).await.unwrap().into_iter().map(|x| x.0).collect()
}

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

fn approve(edits: ValidEdits) -> Review {
    Review { decision: Decision::Approve(edits), reviewer: "rita".into() }
}

fn vote(voter: &str, outcome: knowhub_core::FeedbackOutcome, note: Option<&str>) -> knowhub_core::Vote {
    knowhub_core::Vote { voter: voter.into(), outcome, note: note.map(str::to_string), at: knowhub_core::now_rfc3339() }
}
