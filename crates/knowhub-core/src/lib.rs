//! KnowHub's domain: what an experience is, how input is validated, how bilingual text is
//! segmented for full-text search, how text and vector candidates are fused and re-ranked, and the
//! `Store` trait every backend implements. Nothing here knows about HTTP or a particular database.

pub mod access;
pub mod calibrate;
pub mod checksum;
pub mod decode;
pub mod error;
pub mod extract;
pub mod guard;
pub mod insight;
pub mod model;
pub mod normalize;
pub mod prompt;
pub mod rank;
pub mod redact;
pub mod review;
pub mod sanitise;
pub mod scope;
pub mod secret_rules;
pub mod store;
pub mod text;
pub mod validate;

pub use access::{ApiKey, Caller, NewApiKey, Role};
pub use error::{CoreError, Result};
pub use extract::{Enqueued, ExtractJob, JobFinish, JobStatus, NewExtraction};
pub use insight::{Activity, DayCount, DayJobs, DayUsage, ResourceFilter, ResourceSummary, StoredPlaybook};
pub use model::*;
pub use review::{Decision, Review};
pub use scope::ReadScopes;
pub use store::{
    BlockScores, DisputeDecision, InsertOutcome, Neighbour, NeighbourQuery, SearchFilter, Store, VECTOR_BLOCK,
};
