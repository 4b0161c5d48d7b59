//! The routes behind the review console, as JSON for scripts and other front ends: resource
//! track records, one record's whole story, the dashboard, merging a queue item into an approved
//! record, and `/metrics` for Prometheus.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use knowhub_core::{Role, Status};
use knowhub_service::{DashboardRequest, Hub, MergeRequest, ResourcesRequest, RevertRequest, ScopeRequest};

use crate::auth::{AsAgent, AsReviewer};
use crate::counts::RequestCounts;
use crate::error::ApiError;
use crate::input::{query_params, ApiJson, IdPath};
use crate::openapi::{CommonErrors, ErrorBody};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::new()
        .routes(routes!(resources))
        .routes(routes!(resource))
        .routes(routes!(view))
        .routes(routes!(dashboard))
        .routes(routes!(merge))
        .routes(routes!(set_scope))
        .routes(routes!(history))
        .routes(routes!(revert))
        .routes(routes!(changes))
        .routes(routes!(metrics))
}

/// Tools, commands, libraries and APIs named in approved records, with their track records.
#[utoipa::path(get, path = "/api/resources", tag = "insight",
    params(("q" = Option<String>, Query, description = "Names containing this"),
        ("limit" = Option<u32>, Query, description = "At most this many, 1-100 (default 20)")),
    responses((status = 200, body = ResourceList), CommonErrors))]
async fn resources(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let (q, limit) = query_params::<ResourcesRequest>(raw)?.validate().map_err(ApiError::query)?;
    let resources = hub.resources(&caller, q.as_deref(), limit).await?;
    Ok(Json(ResourceList { count: resources.len(), resources }).into_response())
}

#[derive(serde::Serialize, utoipa::ToSchema)]
struct ResourceList {
    count: usize,
    resources: Vec<knowhub_core::insight::ResourceSummary>,
}

/// One resource: successes and failures, known failures first, its top experiences.
#[utoipa::path(get, path = "/api/resources/{name}", tag = "insight",
    params(("name" = String, Path, description = "The resource's name, as records spell it")),
    responses((status = 200, body = knowhub_service::ResourcePage), (status = 404, body = ErrorBody), CommonErrors))]
async fn resource(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(name): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.resource(&caller, &name).await?).into_response())
}

/// One record's whole story: content, history, feedback notes, contested counterpart (reviewer).
#[utoipa::path(get, path = "/api/experiences/{id}/view", tag = "insight",
    params(("id" = String, Path, description = "The experience's id")),
    responses((status = 200, body = knowhub_service::ExperienceView), (status = 404, body = ErrorBody), CommonErrors))]
async fn view(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.experience_view(&caller, &id).await?).into_response())
}

/// Use and curation per week, day and agent (reviewer).
#[utoipa::path(get, path = "/api/dashboard", tag = "insight",
    params(("weeks" = Option<u32>, Query, description = "Weeks back, 1-52 (default 8)")),
    responses((status = 200, body = knowhub_service::Dashboard), CommonErrors))]
async fn dashboard(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let weeks = query_params::<DashboardRequest>(raw)?.validate().map_err(ApiError::query)?;
    Ok(Json(hub.dashboard(&caller, weeks).await?).into_response())
}

/// Merge a pending item into an approved record: it becomes a confirmation (reviewer).
#[utoipa::path(post, path = "/api/merge/{id}", tag = "review",
    params(("id" = String, Path, description = "The pending item's id")), request_body = MergeRequest,
    responses((status = 200, description = "The approved record, confirmed", body = knowhub_core::Experience),
        (status = 404, body = ErrorBody),
        (status = 409, description = "Already reviewed; the message says by whom", body = ErrorBody), CommonErrors))]
async fn merge(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    ApiJson(body): ApiJson<MergeRequest>,
) -> Result<Response, ApiError> {
    let into = body.validate()?;
    Ok(Json(hub.merge(&caller, &id, &into).await?).into_response())
}

/// A record's history: every change, who made it and when, oldest first (reviewer). A deleted
/// record answers with its tombstone alone.
#[utoipa::path(get, path = "/api/experiences/{id}/history", tag = "review",
    params(("id" = String, Path, description = "The experience's id")),
    responses((status = 200, body = knowhub_service::HistoryPage), (status = 404, body = ErrorBody), CommonErrors))]
async fn history(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.history(&caller, &id).await?).into_response())
}

/// The hub's changes in order, each with the record as it is now (or its tombstone), limited to
/// what the key may read; resume with `since=<cursor>`, wait up to `wait` seconds for one.
#[utoipa::path(get, path = "/api/changes", tag = "agents",
    params(("since" = Option<String>, Query, description = "The cursor of the previous page (default: the beginning)"),
        ("limit" = Option<u32>, Query, description = "Changes per page, 1-1000 (default 100)"),
        ("wait" = Option<u32>, Query, description = "Seconds to wait when nothing is new, 0-60 (default 0)"),
        ("peer" = Option<String>, Query, description = "The pulling hub's id (sync): each change then carries the agreed version and, for reviewers, its confirmers and votes"),
        ("scope" = Option<String>, Query, description = "Only records in this scope (and deletions); one the key may not read is 403")),
    responses((status = 200, body = knowhub_service::ChangesPage), CommonErrors))]
async fn changes(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let q = query_params::<knowhub_service::ChangesRequest>(raw)?.validate().map_err(ApiError::query)?;
    Ok(Json(hub.changes(&caller, &q).await?).into_response())
}

/// Undo a reviewer's edit: the fields go back to what they were before the `edited` event
/// `event` (reviewer).
#[utoipa::path(post, path = "/api/experiences/{id}/revert", tag = "review",
    params(("id" = String, Path, description = "The experience's id")), request_body = RevertRequest,
    responses((status = 200, body = knowhub_core::Experience), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), CommonErrors))]
async fn revert(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    ApiJson(body): ApiJson<RevertRequest>,
) -> Result<Response, ApiError> {
    Ok(Json(hub.revert(&caller, &id, body.event).await?).into_response())
}

/// Move a record to another scope, e.g. promote a team's lesson to the org (reviewer; both
/// scopes must be ones the key reads).
#[utoipa::path(post, path = "/api/experiences/{id}/scope", tag = "review",
    params(("id" = String, Path, description = "The experience's id")), request_body = ScopeRequest,
    responses((status = 200, description = "The record in its new scope", body = knowhub_core::Experience),
        (status = 404, body = ErrorBody),
        (status = 409, description = "The same experience is already in that scope", body = ErrorBody), CommonErrors))]
async fn set_scope(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    ApiJson(body): ApiJson<ScopeRequest>,
) -> Result<Response, ApiError> {
    let scope = body.validate()?;
    Ok(Json(hub.set_scope(&caller, &id, &scope).await?).into_response())
}

/// Prometheus text. With keys required it needs a reviewer or admin key (the scraper holds one).
#[utoipa::path(get, path = "/metrics", tag = "operators",
    responses((status = 200, description = "Prometheus exposition format", content_type = "text/plain", body = String),
        CommonErrors))]
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
        .snapshot()
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
    if !s.webhooks.is_empty() {
        let per_hook = |f: fn(&knowhub_service::metrics::WebhookStats) -> u64| -> Vec<(String, String)> {
            s.webhooks.iter().map(|w| (format!("{{hook=\"{}\"}}", w.name), f(w).to_string())).collect()
        };
        family(
            &mut t,
            "knowhub_webhook_last_status",
            "gauge",
            "The HTTP status of each webhook's last delivery attempt (0: no answer).",
            per_hook(|w| u64::from(w.last_status)),
        );
        family(
            &mut t,
            "knowhub_webhook_delivered_total",
            "counter",
            "Events each webhook took.",
            per_hook(|w| w.delivered),
        );
        family(
            &mut t,
            "knowhub_webhook_failures_total",
            "counter",
            "Delivery attempts each webhook refused or did not answer (each is retried).",
            per_hook(|w| w.failed),
        );
    }
    if !s.sync.is_empty() {
        let per_peer = |f: fn(&knowhub_service::metrics::SyncStats) -> u64| -> Vec<(String, String)> {
            s.sync.iter().map(|p| (format!("{{from=\"{}\"}}", p.from), f(p).to_string())).collect()
        };
        family(
            &mut t,
            "knowhub_sync_up",
            "gauge",
            "Whether the last pull from each hub succeeded.",
            per_peer(|p| u64::from(p.ok)),
        );
        family(&mut t, "knowhub_sync_read_total", "counter", "Changes read from each hub.", per_peer(|p| p.read));
        family(
            &mut t,
            "knowhub_sync_created_total",
            "counter",
            "Records new here from each hub.",
            per_peer(|p| p.created),
        );
        family(
            &mut t,
            "knowhub_sync_conflicts_total",
            "counter",
            "Records changed on both hubs (sent to review).",
            per_peer(|p| p.conflicts),
        );
        family(
            &mut t,
            "knowhub_sync_failures_total",
            "counter",
            "Pulls from each hub that failed (each is retried).",
            per_peer(|p| p.failures),
        );
    }
    let mut records = Vec::new();
    for st in Status::ALL {
        records.push((st.as_str(), store.count_status(*st, None).await?));
    }
    family(
        &mut t,
        "knowhub_records",
        "gauge",
        "Stored experiences by status (the whole hub).",
        labelled("status", &records),
    );
    let disputed = store.count_disputed(hub.dispute_threshold(), None).await?;
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
