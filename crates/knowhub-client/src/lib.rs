//! A typed client of a hub's REST API, for the programs that talk to a running hub: the CLI
//! (`knowhub search | submit | feedback`), `knowhub review`, and `knowhub mcp` over stdio.
//!
//! It sends the service's own request types and reads back the service's own responses, so a
//! client cannot drift from the API it calls. A hub that refuses a call answers with the API's
//! one error body, read into [`Error::Api`]; a hub that does not answer at all is
//! [`Error::Unreachable`], which callers treat apart (an agent's turn goes on without the hub).

use std::time::Duration;

use knowhub_core::{Content, CoreError, Experience};
use knowhub_service::{
    ApproveRequest, ErrorBody, FeedbackRequest, FeedbackResponse, PendingPage, PendingRequest, RejectRequest,
    SearchRequest, SearchResponse, SubmitRequest, SubmitResponse,
};
use reqwest::{Method, RequestBuilder, StatusCode, Url};
use serde::de::DeserializeOwned;

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// The hub answered with an error: the REST API's `{"error": {"code", "message", "field"}}`
    /// and the HTTP status it came with. An answer in another shape (not a KnowHub URL, a
    /// proxy's error page) has the code `http_<status>`; a success whose body is not the
    /// operation's answer has the code `bad_response`.
    #[error("hub answered {status}: {message}")]
    Api { status: u16, code: String, message: String, field: Option<String> },
    /// The hub did not answer: down, a wrong host or port, or too slow for the client's timeout.
    #[error("cannot reach the hub at {url} ({reason})")]
    Unreachable { url: String, reason: String },
}

impl From<CoreError> for Error {
    /// What the REST API answers for `e`: the same status, code, message and field. Lets an
    /// in-process caller report errors exactly as this client does.
    fn from(e: CoreError) -> Self {
        let status = knowhub_service::error::http_status(&e);
        let ErrorBody { error } = ErrorBody::from(e);
        Error::Api { status, code: error.code, message: error.message, field: error.field }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// A hub URL this client cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidUrl(String);

/// A client of one hub, with one key. Cheap to clone (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base: Url,
    key: Option<String>,
}

impl Client {
    /// A client of the hub at `url` (`http://127.0.0.1:8000`, or under a path prefix), sending
    /// `key` as a bearer token unless it is blank. `timeout` bounds each call; without one a call
    /// waits as long as the hub takes.
    pub fn new(
        url: &str,
        key: Option<String>,
        timeout: impl Into<Option<Duration>>,
    ) -> std::result::Result<Self, InvalidUrl> {
        let mut base = Url::parse(url.trim()).map_err(|e| InvalidUrl(format!("hub URL {url:?} is not a URL: {e}")))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err(InvalidUrl(format!("hub URL {url:?} must be http:// or https:// with a host")));
        }
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let mut http = reqwest::Client::builder();
        if let Some(t) = timeout.into() {
            // A hub that is down is told quickly even when answers may take long.
            http = http.timeout(t).connect_timeout(t.min(Duration::from_secs(3)));
        }
        let http = http.build().map_err(|e| InvalidUrl(format!("cannot build the HTTP client: {e}")))?;
        let key = key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
        Ok(Client { http, base, key })
    }

    /// The hub's URL as configured (for messages).
    pub fn url(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }

    /// `GET /api/search`.
    pub async fn search(&self, req: &SearchRequest) -> Result<SearchResponse> {
        Ok(self.call(self.request(Method::GET, "api/search").query(req)).await?.1)
    }

    /// `POST /api/submit`; `created` tells a new record (201) from a confirmation (200).
    pub async fn submit(&self, req: &SubmitRequest) -> Result<SubmitResponse> {
        let (status, mut out): (_, SubmitResponse) =
            self.call(self.request(Method::POST, "api/submit").json(req)).await?;
        out.created = status == StatusCode::CREATED;
        Ok(out)
    }

    /// `POST /api/feedback`.
    pub async fn feedback(&self, req: &FeedbackRequest) -> Result<FeedbackResponse> {
        Ok(self.call(self.request(Method::POST, "api/feedback").json(req)).await?.1)
    }

    /// `GET /api/content/{id}`.
    pub async fn content(&self, id: &str) -> Result<Content> {
        Ok(self.call(self.request(Method::GET, &id_path("api/content/", id)?)).await?.1)
    }

    /// `GET /api/experiences/{id}`.
    pub async fn experience(&self, id: &str) -> Result<Experience> {
        Ok(self.call(self.request(Method::GET, &id_path("api/experiences/", id)?)).await?.1)
    }

    /// `GET /api/pending`: a page of the review queue.
    pub async fn pending(&self, req: &PendingRequest) -> Result<PendingPage> {
        Ok(self.call(self.request(Method::GET, "api/pending").query(req)).await?.1)
    }

    /// `POST /api/approve/{id}`, with the reviewer's corrections (none: approved as is).
    pub async fn approve(&self, id: &str, edits: &ApproveRequest) -> Result<Experience> {
        Ok(self.call(self.request(Method::POST, &id_path("api/approve/", id)?).json(edits)).await?.1)
    }

    /// `POST /api/reject/{id}`.
    pub async fn reject(&self, id: &str, req: &RejectRequest) -> Result<Experience> {
        Ok(self.call(self.request(Method::POST, &id_path("api/reject/", id)?).json(req)).await?.1)
    }

    /// `POST /api/quarantine`: hold everything a key or agent wrote out of search (admin).
    pub async fn quarantine(&self, req: &knowhub_service::QuarantineRequest) -> Result<knowhub_core::Quarantine> {
        Ok(self.call(self.request(Method::POST, "api/quarantine").json(req)).await?.1)
    }

    /// `POST /api/sync`: pull another hub's changes into this one until caught up (admin).
    pub async fn sync(&self, req: &knowhub_service::SyncRequest) -> Result<knowhub_service::SyncReport> {
        Ok(self.call(self.request(Method::POST, "api/sync").json(req)).await?.1)
    }

    /// `DELETE /api/quarantine`: lift one, restoring or rejecting its records (admin).
    pub async fn release(&self, req: &knowhub_service::QuarantineRequest) -> Result<knowhub_service::Released> {
        Ok(self.call(self.request(Method::DELETE, "api/quarantine").json(req)).await?.1)
    }

    /// `GET /api/quarantine`: the active quarantines (reviewer).
    pub async fn quarantines(&self) -> Result<knowhub_service::QuarantineList> {
        Ok(self.call(self.request(Method::GET, "api/quarantine")).await?.1)
    }

    /// `GET /api/playbooks/{resource}`.
    pub async fn playbook(
        &self,
        resource: &str,
        req: &knowhub_service::PlaybookRequest,
    ) -> Result<knowhub_service::Playbook> {
        Ok(self.call(self.playbook_request(Method::GET, resource, None).query(req)).await?.1)
    }

    /// `POST /api/playbooks/{resource}/draft`: the hub's model rewrites the playbook, for review.
    pub async fn draft_playbook(
        &self,
        resource: &str,
        req: &knowhub_service::DraftPlaybookRequest,
    ) -> Result<knowhub_service::WrittenPlaybook> {
        Ok(self.call(self.playbook_request(Method::POST, resource, Some("draft")).json(req)).await?.1)
    }

    /// `POST /api/playbooks/{resource}/review`: approve or reject the written playbook.
    pub async fn review_playbook(
        &self,
        resource: &str,
        req: &knowhub_service::ReviewPlaybookRequest,
    ) -> Result<knowhub_service::WrittenPlaybook> {
        Ok(self.call(self.playbook_request(Method::POST, resource, Some("review")).json(req)).await?.1)
    }

    /// A request to `api/playbooks/{resource}[/{then}]`: the resource's name travels as one path
    /// segment, so no name can change the route.
    fn playbook_request(&self, method: Method, resource: &str, then: Option<&str>) -> RequestBuilder {
        let mut url = self.endpoint("api/playbooks/");
        if let Ok(mut segs) = url.path_segments_mut() {
            segs.pop_if_empty().push(resource);
            segs.extend(then);
        }
        let req = self.http.request(method, url);
        match &self.key {
            Some(k) => req.bearer_auth(k),
            None => req,
        }
    }

    /// `GET /api/resources`: the names of the resources in approved records the key reads, most
    /// used first.
    pub async fn resource_names(&self, limit: u32) -> Result<Vec<String>> {
        #[derive(serde::Deserialize)]
        struct Named {
            resource: String,
        }
        #[derive(serde::Deserialize)]
        struct List {
            resources: Vec<Named>,
        }
        let req = self.request(Method::GET, "api/resources").query(&[("limit", limit.to_string())]);
        Ok(self.call::<List>(req).await?.1.resources.into_iter().map(|r| r.resource).collect())
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let req = self.http.request(method, self.endpoint(path));
        match &self.key {
            Some(k) => req.bearer_auth(k),
            None => req,
        }
    }

    fn endpoint(&self, path: &str) -> Url {
        self.base.join(path).unwrap_or_else(|_| self.base.clone())
    }

    /// Sends `req` and reads the answer: the operation's JSON on success, the API's error body
    /// otherwise.
    async fn call<T: DeserializeOwned>(&self, req: RequestBuilder) -> Result<(StatusCode, T)> {
        let unreachable = |e: reqwest::Error| Error::Unreachable {
            url: self.url().to_string(),
            reason: if e.is_timeout() {
                "timed out".into()
            } else if e.is_connect() {
                "connection refused or no route".into()
            } else {
                e.without_url().to_string()
            },
        };
        let resp = req.send().await.map_err(unreachable)?;
        let status = resp.status();
        let body = resp.bytes().await.map_err(unreachable)?;
        if status.is_success() {
            return serde_json::from_slice(&body).map(|v| (status, v)).map_err(|e| Error::Api {
                status: status.as_u16(),
                code: "bad_response".into(),
                message: format!("the hub at {} answered HTTP {status} with unexpected JSON: {e}", self.url()),
                field: None,
            });
        }
        Err(match serde_json::from_slice::<ErrorBody>(&body) {
            Ok(ErrorBody { error: e }) => {
                Error::Api { status: status.as_u16(), code: e.code, message: e.message, field: e.field }
            }
            Err(_) => Error::Api {
                status: status.as_u16(),
                code: format!("http_{}", status.as_u16()),
                message: format!("the hub at {} answered HTTP {status} (is this a KnowHub URL?)", self.url()),
                field: None,
            },
        })
    }
}

/// An id checked as the hub checks it, so it can never change the request's path; a bad one is
/// the hub's own `not_found`, without a request.
fn id_path(prefix: &str, id: &str) -> Result<String> {
    Ok(format!("{prefix}{}", knowhub_core::validate::id(id)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked_and_joined_under_the_base() {
        assert!(Client::new("localhost:8000", None, None).is_err());
        assert!(Client::new("ftp://x", None, None).is_err());
        let b = Client::new("http://127.0.0.1:8000", Some("  ".into()), Duration::from_secs(1)).unwrap();
        assert_eq!(b.url(), "http://127.0.0.1:8000");
        assert!(b.key.is_none(), "a blank key is no key");
        assert_eq!(b.endpoint("api/search").as_str(), "http://127.0.0.1:8000/api/search");
        let p = Client::new("https://hub.example/knowhub", None, None).unwrap();
        assert_eq!(p.endpoint("api/submit").as_str(), "https://hub.example/knowhub/api/submit");
    }

    #[test]
    fn ids_cannot_escape_their_route() {
        assert_eq!(id_path("api/content/", "0192-ab_c").unwrap(), "api/content/0192-ab_c");
        for bad in ["../keys", "a/b", "", "x?y=1"] {
            match id_path("api/content/", bad) {
                Err(Error::Api { status, code, .. }) => {
                    assert_eq!((status, code.as_str()), (404, "not_found"), "{bad}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
