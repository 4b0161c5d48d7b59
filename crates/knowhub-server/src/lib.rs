//! The KnowHub application service ([`Hub`]) and its HTTP face ([`http::app`]).
//! The Hub knows nothing of HTTP; `error` is the one place errors become status codes.

pub mod error;
pub mod http;
pub mod hub;

pub use http::app;
pub use hub::{Hub, SearchConfig, SearchMode, SearchQuery, Timings};
