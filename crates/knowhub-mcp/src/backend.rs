//! Where the tools get their answers: the Hub in this process (`/mcp` on `knowhub serve`), or a
//! hub's REST API ([`crate::client::HttpBackend`], for `knowhub mcp` over stdio). Two real
//! implementations of the same five calls; the tools do not know which one they have.

use std::sync::Arc;

use async_trait::async_trait;
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{Caller, Content, CoreError, Experience, SearchHit};
use knowhub_service::{ErrorBody, FeedbackRequest, Hub, SearchQuery};
use serde::{Deserialize, Serialize};

/// What a submit did, in the REST API's words (`POST /api/submit`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Submitted {
    pub id: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    pub confirmations: u32,
    /// The pending proposal holding content sent for an already reviewed record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_proposal: Option<String>,
    /// A new record (201), rather than a confirmation of an existing one (200).
    #[serde(default)]
    pub created: bool,
}

/// What a vote did, in the REST API's words (`POST /api/feedback`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Voted {
    pub id: String,
    pub outcome: String,
    pub voter: String,
    pub feedback: knowhub_core::FeedbackCounts,
    pub disputed: bool,
}

/// Why a backend call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum BackendError {
    /// The hub answered with an error: the REST API's `{"error": {"code", "message", "field"}}`.
    Hub { code: String, message: String, field: Option<String> },
    /// The hub did not answer (stdio mode: down, wrong URL, timed out).
    Unreachable { url: String, reason: String },
}

impl From<CoreError> for BackendError {
    /// The same codes and messages the REST API gives (and the same hiding of internal details):
    /// both come from core.
    fn from(e: CoreError) -> Self {
        let ErrorBody { error } = ErrorBody::from(e);
        BackendError::Hub { code: error.code, message: error.message, field: error.field }
    }
}

pub type BackendResult<T> = Result<T, BackendError>;

/// The hub operations the MCP tools and resources use. `caller` is the request's authenticated
/// caller where the transport has one (HTTP); a REST client carries its own key instead.
#[async_trait]
pub trait Backend: Send + Sync + 'static {
    async fn search(&self, caller: Option<&Caller>, q: &SearchQuery) -> BackendResult<Vec<SearchHit>>;
    async fn submit(&self, caller: Option<&Caller>, req: SubmitRequest) -> BackendResult<Submitted>;
    async fn feedback(&self, caller: Option<&Caller>, req: FeedbackRequest) -> BackendResult<Voted>;
    async fn content(&self, caller: Option<&Caller>, id: &str) -> BackendResult<Content>;
    async fn experience(&self, caller: Option<&Caller>, id: &str) -> BackendResult<Experience>;
}

/// The Hub of this process, called as the request's caller (who the `/mcp` auth layer resolved).
pub struct InProcess {
    pub hub: Arc<Hub>,
}

fn need(caller: Option<&Caller>) -> BackendResult<&Caller> {
    // The auth layer in front of /mcp always sets one; reaching this is a wiring bug.
    caller.ok_or_else(|| CoreError::Internal("MCP request without a resolved caller".into()).into())
}

#[async_trait]
impl Backend for InProcess {
    async fn search(&self, caller: Option<&Caller>, q: &SearchQuery) -> BackendResult<Vec<SearchHit>> {
        Ok(self.hub.search(need(caller)?, q).await?.results)
    }

    async fn submit(&self, caller: Option<&Caller>, req: SubmitRequest) -> BackendResult<Submitted> {
        let r = self.hub.submit(need(caller)?, req).await?;
        Ok(Submitted {
            id: r.id,
            status: r.status.to_string(),
            duplicate_of: r.duplicate_of,
            confirmations: r.confirmations,
            content_proposal: r.content_proposal,
            created: r.created,
        })
    }

    async fn feedback(&self, caller: Option<&Caller>, req: FeedbackRequest) -> BackendResult<Voted> {
        let r = self.hub.feedback(need(caller)?, req).await?;
        Ok(Voted {
            id: r.id,
            outcome: r.outcome.to_string(),
            voter: r.voter,
            feedback: r.feedback,
            disputed: r.disputed,
        })
    }

    async fn content(&self, caller: Option<&Caller>, id: &str) -> BackendResult<Content> {
        Ok(self.hub.content(need(caller)?, id).await?)
    }

    async fn experience(&self, caller: Option<&Caller>, id: &str) -> BackendResult<Experience> {
        Ok(self.hub.experience(need(caller)?, id).await?)
    }
}
