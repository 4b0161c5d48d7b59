//! The KnowHub application service: everything a hub does, with no transport in sight.
//! HTTP (`knowhub-http`) and MCP (`knowhub-mcp`) are thin adapters over the same calls, so they
//! share validation, errors, roles, redaction and ranking. Callers arrive as a
//! [`knowhub_core::Caller`], resolved from a key by [`Hub::authenticate`]. What each operation
//! takes, with its limits and defaults, is in [`requests`]; what a client is told when it fails,
//! in [`error`].

pub mod auth;
pub mod error;
pub mod evidence;
pub mod extract;
pub mod feed;
pub mod hold;
pub mod hosts;
pub mod hub;
pub mod insight;
pub mod jobs;
pub mod limits;
pub mod metrics;
pub mod playbook;
pub mod requests;
pub mod review;
pub mod screen;
pub mod search;
pub mod submit;
pub mod sync;
pub mod webhooks;
pub mod written;

pub use auth::CreatedKey;
pub use error::ErrorBody;
pub use evidence::{EvidenceSettings, FeedbackResponse};
pub use extract::{ExtractSettings, Extractor};
pub use feed::{Change, ChangesPage, ChangesQuery, ChangesRequest};
pub use hold::{ExpirySettings, QuarantineList, QuarantineRequest, Released};
pub use hub::{AutoApprove, Health, Hub, HubOptions, LlmHealth};
pub use insight::{Dashboard, ExperienceView, HistoryEvent, HistoryPage, ResourcePage};
pub use jobs::{ExtractRequest, JobView};
pub use knowhub_core::Caller;
pub use limits::{Budget, RateLimits, RecordLimits, BURST};
pub use metrics::{Metrics, MetricsSnapshot};
pub use playbook::{Playbook, PlaybookKind, PlaybookLine, PlaybookQuery, PlaybookRequest};
pub use requests::{
    ApproveRequest, DashboardRequest, ExtractWait, FeedbackRequest, MergeRequest, NewKeyRequest, PendingQuery,
    PendingRequest, RejectRequest, ResourcesRequest, RevertRequest, ScopeRequest, SearchRequest, SubmitRequest,
};
pub use review::{PendingItem, PendingPage, QueueKind};
pub use search::{Explained, SearchConfig, SearchMode, SearchQuery, SearchResponse, Timings};
pub use submit::SubmitResponse;
pub use sync::{SyncPeer, SyncReport, SyncRequest};
pub use webhooks::Webhook;
pub use written::{DraftPlaybookRequest, DraftStatus, ReviewPlaybookRequest, WrittenPlaybook, WrittenState};
