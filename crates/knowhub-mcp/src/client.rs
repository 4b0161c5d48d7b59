//! The REST API as a [`Backend`]: what `knowhub mcp` (stdio) talks to, so any number of local
//! agents share one hub and one writer. Errors come back as the hub's own message; a hub that
//! does not answer is [`BackendError::Unreachable`], which the tools turn into a tool error so
//! the agent's turn goes on.

use std::time::Duration;

use async_trait::async_trait;
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{Caller, Content, Experience, SearchHit};
use knowhub_service::{ErrorBody, FeedbackRequest, SearchMode, SearchQuery};
use reqwest::{RequestBuilder, Url};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::backend::{Backend, BackendError, BackendResult, Submitted, Voted};

pub struct HttpBackend {
    http: reqwest::Client,
    base: Url,
    key: Option<String>,
}

#[derive(Deserialize)]
struct SearchBody {
    results: Vec<SearchHit>,
}

impl HttpBackend {
    /// `url` is the hub's base URL (`http://127.0.0.1:8000`); `timeout` bounds each request.
    pub fn new(url: &str, key: Option<String>, timeout: Duration) -> Result<Self, String> {
        let mut base = Url::parse(url.trim()).map_err(|e| format!("hub URL {url:?} is not a URL: {e}"))?;
        if !matches!(base.scheme(), "http" | "https") || base.host_str().is_none() {
            return Err(format!("hub URL {url:?} must be http:// or https:// with a host"));
        }
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(3)))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let key = key.map(|k| k.trim().to_string()).filter(|k| !k.is_empty());
        Ok(HttpBackend { http, base, key })
    }

    /// The hub's URL as a user configured it (for messages).
    pub fn url(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }

    fn endpoint(&self, path: &str) -> Url {
        self.base.join(path).unwrap_or_else(|_| self.base.clone())
    }

    async fn call<T: DeserializeOwned>(&self, req: RequestBuilder) -> BackendResult<T> {
        let req = match &self.key {
            Some(k) => req.bearer_auth(k),
            None => req,
        };
        let unreachable = |e: reqwest::Error| BackendError::Unreachable {
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
            return serde_json::from_slice(&body).map_err(|e| BackendError::Hub {
                code: "bad_response".into(),
                message: format!("the hub at {} answered HTTP {status} with unexpected JSON: {e}", self.url()),
                field: None,
            });
        }
        Err(match serde_json::from_slice::<ErrorBody>(&body) {
            Ok(ErrorBody { error: e }) => BackendError::Hub { code: e.code, message: e.message, field: e.field },
            Err(_) => BackendError::Hub {
                code: format!("http_{}", status.as_u16()),
                message: format!("the hub at {} answered HTTP {status} (is this a KnowHub URL?)", self.url()),
                field: None,
            },
        })
    }

    /// An id checked as the hub checks it, so it can never change the request path.
    fn id_path(prefix: &str, id: &str) -> BackendResult<String> {
        Ok(format!("{prefix}{}", knowhub_core::validate::id(id)?))
    }
}

fn mode(m: SearchMode) -> &'static str {
    match m {
        SearchMode::Hybrid => "hybrid",
        SearchMode::Fts => "fts",
        SearchMode::Vector => "vector",
    }
}

#[async_trait]
impl Backend for HttpBackend {
    async fn search(&self, _: Option<&Caller>, q: &SearchQuery) -> BackendResult<Vec<SearchHit>> {
        let mut params = vec![
            ("q", q.q.clone()),
            ("top_k", q.top_k.to_string()),
            ("min_score", q.filter.min_score.to_string()),
            ("mode", mode(q.mode).to_string()),
        ];
        if let Some(a) = &q.filter.agent_id {
            params.push(("agent_id", a.clone()));
        }
        if let Some(r) = q.min_relevance {
            params.push(("min_relevance", r.to_string()));
        }
        if let Some(o) = q.outcome {
            params.push(("outcome", o.to_string()));
        }
        let body: SearchBody = self.call(self.http.get(self.endpoint("api/search")).query(&params)).await?;
        Ok(body.results)
    }

    async fn submit(&self, _: Option<&Caller>, req: SubmitRequest) -> BackendResult<Submitted> {
        let mut out: Submitted = self.call(self.http.post(self.endpoint("api/submit")).json(&req)).await?;
        out.created = out.duplicate_of.is_none();
        Ok(out)
    }

    async fn feedback(&self, _: Option<&Caller>, req: FeedbackRequest) -> BackendResult<Voted> {
        let body =
            serde_json::json!({"id": req.id, "outcome": req.outcome, "note": req.note, "agent_id": req.agent_id});
        self.call(self.http.post(self.endpoint("api/feedback")).json(&body)).await
    }

    async fn content(&self, _: Option<&Caller>, id: &str) -> BackendResult<Content> {
        self.call(self.http.get(self.endpoint(&Self::id_path("api/content/", id)?))).await
    }

    async fn experience(&self, _: Option<&Caller>, id: &str) -> BackendResult<Experience> {
        self.call(self.http.get(self.endpoint(&Self::id_path("api/experiences/", id)?))).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_checked_and_joined_under_the_base() {
        assert!(HttpBackend::new("localhost:8000", None, Duration::from_secs(1)).is_err());
        assert!(HttpBackend::new("ftp://x", None, Duration::from_secs(1)).is_err());
        let b = HttpBackend::new("http://127.0.0.1:8000", Some("  ".into()), Duration::from_secs(1)).unwrap();
        assert_eq!(b.url(), "http://127.0.0.1:8000");
        assert!(b.key.is_none(), "a blank key is no key");
        assert_eq!(b.endpoint("api/search").as_str(), "http://127.0.0.1:8000/api/search");
        let p = HttpBackend::new("https://hub.example/knowhub", None, Duration::from_secs(1)).unwrap();
        assert_eq!(p.endpoint("api/submit").as_str(), "https://hub.example/knowhub/api/submit");
    }

    #[test]
    fn ids_cannot_escape_their_route() {
        assert_eq!(HttpBackend::id_path("api/content/", "0192-ab_c").unwrap(), "api/content/0192-ab_c");
        for bad in ["../keys", "a/b", "", "x?y=1"] {
            match HttpBackend::id_path("api/content/", bad) {
                Err(BackendError::Hub { code, .. }) => assert_eq!(code, "not_found", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
