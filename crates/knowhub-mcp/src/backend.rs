//! Where the tools get their answers: the Hub in this process (`/mcp` on `knowhub serve`), or a
//! hub's REST API through [`knowhub_client::Client`] (`knowhub mcp` over stdio). Both answer with
//! the service's own types and fail with [`knowhub_client::Error`]: the API's error (code,
//! message, field), or a hub that does not answer. The tools do not know which one they have.

use std::sync::Arc;

use async_trait::async_trait;
use knowhub_client::{Client, Error, Result};
use knowhub_core::{Caller, Content, CoreError, Experience, SearchHit};
use knowhub_service::{
    FeedbackRequest, FeedbackResponse, Hub, Playbook, PlaybookQuery, PlaybookRequest, SearchQuery, SearchRequest,
    SubmitRequest, SubmitResponse,
};

/// The REST API as a backend: what `knowhub mcp` (stdio) talks to, so any number of local agents
/// share one hub and one writer.
pub type HttpBackend = Client;

/// The hub operations the MCP tools and resources use. `caller` is the request's authenticated
/// caller where the transport has one (HTTP); a REST client carries its own key instead.
#[async_trait]
pub trait Backend: Send + Sync + 'static {
    async fn search(&self, caller: Option<&Caller>, q: &SearchQuery) -> Result<Vec<SearchHit>>;
    async fn submit(&self, caller: Option<&Caller>, req: SubmitRequest) -> Result<SubmitResponse>;
    async fn feedback(&self, caller: Option<&Caller>, req: FeedbackRequest) -> Result<FeedbackResponse>;
    async fn content(&self, caller: Option<&Caller>, id: &str) -> Result<Content>;
    async fn experience(&self, caller: Option<&Caller>, id: &str) -> Result<Experience>;
    async fn playbook(&self, caller: Option<&Caller>, resource: &str, q: &PlaybookQuery) -> Result<Playbook>;
}

/// The Hub of this process, called as the request's caller (who the `/mcp` auth layer resolved).
/// Its errors read as the REST API's would (`Error: From<CoreError>`).
pub struct InProcess {
    pub hub: Arc<Hub>,
}

fn need(caller: Option<&Caller>) -> Result<&Caller> {
    // The auth layer in front of /mcp always sets one; reaching this is a wiring bug.
    caller.ok_or_else(|| Error::from(CoreError::Internal("MCP request without a resolved caller".into())))
}

#[async_trait]
impl Backend for InProcess {
    async fn search(&self, caller: Option<&Caller>, q: &SearchQuery) -> Result<Vec<SearchHit>> {
        Ok(self.hub.search(need(caller)?, q).await?.results)
    }

    async fn submit(&self, caller: Option<&Caller>, req: SubmitRequest) -> Result<SubmitResponse> {
        Ok(self.hub.submit(need(caller)?, req).await?)
    }

    async fn feedback(&self, caller: Option<&Caller>, req: FeedbackRequest) -> Result<FeedbackResponse> {
        Ok(self.hub.feedback(need(caller)?, req).await?)
    }

    async fn content(&self, caller: Option<&Caller>, id: &str) -> Result<Content> {
        Ok(self.hub.content(need(caller)?, id).await?)
    }

    async fn experience(&self, caller: Option<&Caller>, id: &str) -> Result<Experience> {
        Ok(self.hub.experience(need(caller)?, id).await?)
    }

    async fn playbook(&self, caller: Option<&Caller>, resource: &str, q: &PlaybookQuery) -> Result<Playbook> {
        Ok(self.hub.playbook(need(caller)?, resource, q).await?)
    }
}

#[async_trait]
impl Backend for Client {
    async fn search(&self, _: Option<&Caller>, q: &SearchQuery) -> Result<Vec<SearchHit>> {
        Ok(Client::search(self, &SearchRequest::from(q)).await?.results)
    }

    async fn submit(&self, _: Option<&Caller>, req: SubmitRequest) -> Result<SubmitResponse> {
        Client::submit(self, &req).await
    }

    async fn feedback(&self, _: Option<&Caller>, req: FeedbackRequest) -> Result<FeedbackResponse> {
        Client::feedback(self, &req).await
    }

    async fn content(&self, _: Option<&Caller>, id: &str) -> Result<Content> {
        Client::content(self, id).await
    }

    async fn experience(&self, _: Option<&Caller>, id: &str) -> Result<Experience> {
        Client::experience(self, id).await
    }

    async fn playbook(&self, _: Option<&Caller>, resource: &str, q: &PlaybookQuery) -> Result<Playbook> {
        let req = PlaybookRequest { budget: Some(q.budget_tokens.to_string()), scope: q.scope.clone() };
        Client::playbook(self, resource, &req).await
    }
}
