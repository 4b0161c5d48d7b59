//! KnowHub's domain: what an experience is, how input is validated, how bilingual text is
//! segmented for full-text search, how text and vector candidates are fused and re-ranked, and the
//! `Store` trait every backend implements. Nothing here knows about HTTP or a particular database.

pub mod error;
pub mod model;
pub mod rank;
pub mod redact;
pub mod store;
pub mod text;
pub mod validate;

pub use error::{CoreError, Result};
pub use model::*;
pub use store::{InsertOutcome, SearchFilter, Store};
