//! The KnowHub application service ([`Hub`]) and its HTTP face ([`http::app`]).
//! The Hub knows nothing of HTTP; `error` is the one place errors become status codes.

pub mod auth;
pub mod error;
pub mod extract;
pub mod http;
pub mod hub;
pub mod jobs;
pub mod review;

pub use auth::Caller;
pub use extract::{ExtractSettings, Extractor};
pub use http::app;
pub use hub::{AutoApprove, Hub, HubOptions, SearchConfig, SearchMode, SearchQuery, Timings};
