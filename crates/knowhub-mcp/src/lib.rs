//! KnowHub over MCP (Model Context Protocol), on the official Rust SDK (`rmcp`).
//!
//! Tools `kb_search`, `kb_submit`, `kb_content`, `kb_feedback` ([`tools`]), experiences as resources
//! (`knowhub://experience/{id}`), and instructions that tell the model when to search and when to
//! submit ([`server`]). Two transports over one handler:
//! - `/mcp` on `knowhub serve` ([`http`]): stateless Streamable HTTP over the Hub in-process,
//!   the caller resolved from the same bearer keys as the REST API;
//! - `knowhub mcp` over stdio: a client of a hub's REST API ([`HttpBackend`], the
//!   `knowhub-client` crate), so local agents share one hub.
//!
//! Everything a model reads is wrapped as untrusted data by `knowhub_core::prompt`.

pub mod args;
pub mod backend;
pub mod http;
pub mod server;
pub mod tools;

pub use backend::{Backend, HttpBackend, InProcess};
pub use server::{KnowHubMcp, INSTRUCTIONS};
