//! The KnowHub application service: everything a hub does, with no transport in sight.
//! HTTP (`knowhub-http`) and MCP (`knowhub-mcp`) are thin adapters over the same calls, so they
//! share validation, errors, roles, redaction and ranking. Callers arrive as a
//! [`knowhub_core::Caller`], resolved from a key by [`Hub::authenticate`].

pub mod auth;
pub mod evidence;
pub mod extract;
pub mod hub;
pub mod insight;
pub mod jobs;
pub mod limits;
pub mod metrics;
pub mod review;
pub mod search;

pub use evidence::{EvidenceSettings, FeedbackRequest, FeedbackResponse};
pub use extract::{ExtractSettings, Extractor};
pub use hub::{AutoApprove, Health, Hub, HubOptions, LlmHealth, SubmitResponse};
pub use insight::{Dashboard, ExperienceView, HistoryEvent, ResourcePage};
pub use jobs::{ExtractRequest, JobView};
pub use knowhub_core::Caller;
pub use limits::{Budget, RateLimits};
pub use metrics::{Metrics, MetricsSnapshot};
pub use review::{CreatedKey, PendingItem, PendingPage, QueueKind};
pub use search::{Explained, SearchConfig, SearchMode, SearchQuery, SearchResponse, Timings};
