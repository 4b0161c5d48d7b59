//! The routes behind the review console, as JSON for scripts and other front ends: resource
//! track records, one record's whole story, the dashboard, merging a queue item into an approved
//! record, and `/metrics` for Prometheus.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use axum::extract::{MatchedPath, RawQuery, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use knowhub_core::{Role, Status};
use knowhub_service::Hub;
use serde::Deserialize;

use crate::auth::{AsAgent, AsReviewer};
use crate::error::ApiError;
use crate::http::{int_param, text_param, ApiJson, IdPath};

/// Requests answered, by route template, method and status (templates, never raw paths, so ids
/// cannot blow up the number of series).
#[derive(Default)]
pub struct RequestCounts(Mutex<BTreeMap<(String, String, u16), u64>>);

impl RequestCounts {
    fn add(&self, route: String, method: String, status: u16) {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *m.entry((route, method, status)).or_default() += 1;
    }
}

/// Counts every request that passes through the app.
pub async fn count_requests(State(counts): State<Arc<RequestCounts>>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map_or("unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().to_string();
    let res = next.run(req).await;
    counts.add(route, method, res.status().as_u16());
    res
}

pub fn routes(counts: Arc<RequestCounts>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/resources", get(resources))
        .route("/api/resources/{name}", get(resource))
        .route("/api/experiences/{id}/view", get(view))
        .route("/api/dashboard", get(dashboard))
        .route("/api/merge/{id}", post(merge))
        .route("/metrics", get(metrics).layer(axum::Extension(counts)))
}

#[derive(Deserialize)]
struct ResourcesParams {
    q: Option<String>,
    limit: Option<String>,
}

fn params<T: serde::de::DeserializeOwned>(raw: Option<String>) -> Result<T, ApiError> {
    serde_urlencoded::from_str(raw.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", format!("malformed query string: {e}")))
}

async fn resources(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p: ResourcesParams = params(raw)?;
    let max = knowhub_service::insight::RESOURCES_MAX as i64;
    let limit = int_param("limit", p.limit.as_deref(), 20, 1, max)? as usize;
    let q = text_param("q", p.q)?;
    let list = hub.resources(&caller, q.as_deref(), limit).await?;
    Ok(Json(serde_json::json!({ "count": list.len(), "resources": list })).into_response())
}

async fn resource(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(name): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.resource(&caller, &name).await?).into_response())
}

async fn view(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.experience_view(&caller, &id).await?).into_response())
}

#[derive(Deserialize)]
struct DashboardParams {
    weeks: Option<String>,
}

async fn dashboard(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p: DashboardParams = params(raw)?;
    let weeks = int_param("weeks", p.weeks.as_deref(), 8, 1, 52)? as u32;
    Ok(Json(hub.dashboard(&caller, weeks).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MergeBody {
    into: String,
}

async fn merge(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    ApiJson(body): ApiJson<MergeBody>,
) -> Result<Response, ApiError> {
    if body.into.contains('\0') {
        return Err(
            ApiError::new(StatusCode::BAD_REQUEST, "invalid_field", "into: must not contain NUL").with_field("into")
        );
    }
    Ok(Json(hub.merge(&caller, &id, &body.into).await?).into_response())
}

/// Prometheus text. With keys required it needs a reviewer or admin key (the scraper holds one).
async fn metrics(
    State(hub): State<Arc<Hub>>,
    axum::Extension(counts): axum::Extension<Arc<RequestCounts>>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let key = headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
    hub.authenticate(key, Role::Reviewer).await?;
    let s = hub.metrics().snapshot();
    let store = hub.store();
    let mut t = String::with_capacity(4096);
    let requests: Vec<(String, String)> = counts
        .0
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|((route, method, status), c)| {
            (format!("{{route=\"{}\",method=\"{method}\",status=\"{status}\"}}", escape(route)), c.to_string())
        })
        .collect();
    family(
        &mut t,
        "knowhub_http_requests_total",
        "counter",
        "HTTP requests answered, by route template, method and status.",
        requests,
    );
    let mut hist: Vec<(String, String)> =
        s.search_buckets.iter().map(|(le, c)| (format!("_bucket{{le=\"{le}\"}}"), c.to_string())).collect();
    hist.push(("_bucket{le=\"+Inf\"}".into(), s.searches.to_string()));
    hist.push(("_sum".into(), s.search_seconds_sum.to_string()));
    hist.push(("_count".into(), s.searches.to_string()));
    family(&mut t, "knowhub_search_duration_seconds", "histogram", "Time to answer an agent's search.", hist);
    let one = |v: u64| vec![(String::new(), v.to_string())];
    family(&mut t, "knowhub_searches_total", "counter", "Agents' searches answered by this replica.", one(s.searches));
    family(
        &mut t,
        "knowhub_search_abstentions_total",
        "counter",
        "Searches that returned nothing (no known experience was relevant enough).",
        one(s.abstentions),
    );
    let labelled = |key: &str, v: &[(&str, u64)]| -> Vec<(String, String)> {
        v.iter().map(|(l, c)| (format!("{{{key}=\"{l}\"}}"), c.to_string())).collect()
    };
    family(
        &mut t,
        "knowhub_feedback_total",
        "counter",
        "Outcome reports from agents.",
        labelled("outcome", &s.feedback),
    );
    family(
        &mut t,
        "knowhub_extraction_jobs_total",
        "counter",
        "Extraction jobs that ended (or went back to the queue), by how.",
        labelled("result", &s.jobs),
    );
    family(
        &mut t,
        "knowhub_llm_tokens_total",
        "counter",
        "LLM tokens used by extraction.",
        labelled("direction", &[("input", s.input_tokens), ("output", s.output_tokens)]),
    );
    let mut records = Vec::new();
    for st in Status::ALL {
        records.push((st.as_str(), store.count_status(*st).await?));
    }
    family(
        &mut t,
        "knowhub_records",
        "gauge",
        "Stored experiences by status (the whole hub).",
        labelled("status", &records),
    );
    let disputed = store.count_disputed(hub.dispute_threshold()).await?;
    family(
        &mut t,
        "knowhub_disputed",
        "gauge",
        "Approved records agents report failing (waiting for review).",
        one(disputed),
    );
    let text = t;
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response())
}

/// One metric family: its HELP and TYPE lines, then `name{labels} value` per sample (for a
/// histogram the "labels" part carries the `_bucket{le=..}`/`_sum`/`_count` suffix).
fn family(out: &mut String, name: &str, kind: &str, help: &str, samples: Vec<(String, String)>) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
    for (labels, v) in samples {
        let _ = writeln!(out, "{name}{labels} {v}");
    }
}

/// A label value as the exposition format wants it.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}
