//! The KnowHub HTTP API: a thin axum adapter over [`knowhub_service::Hub`]. Handlers extract,
//! call the Hub as the authenticated caller, and map the result; `error` is the one place errors
//! become status codes.

pub mod auth;
mod conn;
pub mod console_api;
pub mod counts;
pub mod error;
pub mod guard;
pub mod hold;
pub mod http;
pub mod input;
pub mod openapi;
pub mod playbook;
pub mod sync;

pub use conn::{serve, serve_with, ConnLimits};
pub use http::{app, app_with};
