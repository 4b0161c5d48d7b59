//! Routes. Handlers stay thin: extract, call the Hub, map the result.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use knowhub_core::review::Edits;
use knowhub_core::validate::SubmitRequest;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi as _;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use knowhub_service::{
    ExtractRequest, ExtractWait, FeedbackRequest, Hub, NewKeyRequest, PendingRequest, RejectRequest, SearchQuery,
    SearchRequest,
};

use crate::auth::{AsAdmin, AsAgent, AsReviewer};
use crate::error::ApiError;
use crate::input::{query_params, ApiJson, IdPath, OptionalJson};

/// Largest accepted request body (the service's limit, shared with `/mcp`).
pub use knowhub_service::requests::MAX_BODY;

/// A request body must arrive within this (a client trickling bytes holds a connection).
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The API alone (tests, benchmarks, embedders of the library).
pub fn app(hub: Arc<Hub>) -> Router {
    app_with(hub, Router::new())
}

/// The API plus other adapters' routes (the console, MCP), all counted in `/metrics` by route.
/// The API's own layers (body limits, the JSON guard, its 404) stay on the API's routes.
pub fn app_with(hub: Arc<Hub>, adapters: Router) -> Router {
    let counts = Arc::new(crate::counts::RequestCounts::default());
    let (routes, doc) = api_routes().split_for_parts();
    // Serialised once: the document is fixed for the life of the process.
    let doc = bytes::Bytes::from(crate::openapi::document(doc).to_string());
    routes
        .route("/openapi.json", get(move || async move { ([(header::CONTENT_TYPE, "application/json")], doc.clone()) }))
        .fallback(|| async { ApiError::not_found("no such route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "method not allowed on this route")
        })
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(axum::middleware::from_fn(crate::guard::check_request))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error").into_response()
        }))
        .with_state(hub)
        .merge(adapters)
        .layer(axum::middleware::from_fn_with_state(counts.clone(), crate::counts::count_requests))
        .layer(axum::Extension(counts))
        .layer(TraceLayer::new_for_http())
}

/// Every documented route: the path, methods and schemas in `/openapi.json` come from the
/// handlers' own attributes, registered here together with the handlers.
pub fn api_routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::with_openapi(crate::openapi::ApiDoc::openapi())
        .routes(routes!(search))
        .routes(routes!(submit))
        .routes(routes!(feedback))
        .routes(routes!(content))
        .routes(routes!(experience, delete_experience))
        .routes(routes!(extract))
        .routes(routes!(extract_job))
        .routes(routes!(pending))
        .routes(routes!(approve))
        .routes(routes!(reject))
        .routes(routes!(create_key, list_keys))
        .routes(routes!(health))
        .merge(crate::console_api::routes())
        .merge(crate::hold::routes())
        .merge(crate::sync::routes())
        .merge(crate::playbook::routes())
}

fn parse_search(raw: Option<String>) -> Result<SearchQuery, ApiError> {
    query_params::<SearchRequest>(raw)?.validate().map_err(ApiError::query)
}

/// Search approved experiences (hybrid BM25 + vectors); abstains with no hits when nothing is
/// relevant enough.
#[utoipa::path(get, path = "/api/search", tag = "agents",
    params(
        ("q" = String, Query, description = "The question; up to 2000 characters"),
        ("top_k" = Option<u32>, Query, description = "Hits wanted, 1-50 (default 5)"),
        ("min_score" = Option<u8>, Query, description = "Lowest rating of successes, 1-5 (default 3)"),
        ("agent_id" = Option<String>, Query, description = "Only this agent's records"),
        ("mode" = Option<String>, Query, description = "hybrid | fts | vector (default hybrid)"),
        ("min_relevance" = Option<f64>, Query, description = "Relevance floor, 0-1 (default: the hub's)"),
        ("outcome" = Option<String>, Query, description = "Only this outcome: success | failure | partial (default: all; failure lessons are returned whatever min_score says)"),
        ("scope" = Option<String>, Query, description = "Only this scope, one the key reads (default: every scope it reads; 403 for one it may not read)"),
    ),
    responses((status = 200, body = knowhub_service::SearchResponse), crate::openapi::CommonErrors))]
async fn search(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let q = parse_search(raw)?;
    Ok(Json(hub.search(&caller, &q).await?).into_response())
}

/// Submit an experience; a duplicate of an existing one becomes a confirmation (200).
#[utoipa::path(post, path = "/api/submit", tag = "agents", request_body = SubmitRequest,
    responses(
        (status = 201, description = "Stored", body = knowhub_service::SubmitResponse),
        (status = 200, description = "Confirmed an existing record", body = knowhub_service::SubmitResponse),
        (status = 413, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn submit(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    ApiJson(req): ApiJson<SubmitRequest>,
) -> Result<Response, ApiError> {
    let out = hub.submit(&caller, req).await?;
    let status = if out.created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(out)).into_response())
}

/// Report whether a found experience helped, failed or was irrelevant.
#[utoipa::path(post, path = "/api/feedback", tag = "agents", request_body = FeedbackRequest,
    responses((status = 201, body = knowhub_service::FeedbackResponse),
        (status = 404, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn feedback(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    ApiJson(req): ApiJson<FeedbackRequest>,
) -> Result<Response, ApiError> {
    Ok((StatusCode::CREATED, Json(hub.feedback(&caller, req).await?)).into_response())
}

/// The long detail attached to an approved experience.
#[utoipa::path(get, path = "/api/content/{id}", tag = "agents", params(("id" = String, Path, description = "The experience's id")),
    responses((status = 200, body = knowhub_core::Content), (status = 404, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn content(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.content(&caller, &id).await?).into_response())
}

/// One experience (approved ones for agents; any status for reviewers).
#[utoipa::path(get, path = "/api/experiences/{id}", tag = "agents", params(("id" = String, Path, description = "The experience's id")),
    responses((status = 200, body = knowhub_core::Experience), (status = 404, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn experience(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.experience(&caller, &id).await?).into_response())
}

/// Delete an experience for good (admin).
#[utoipa::path(delete, path = "/api/experiences/{id}", tag = "admin", params(("id" = String, Path, description = "The experience's id")),
    responses((status = 200, body = Deleted), (status = 404, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn delete_experience(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    hub.delete(&caller, &id).await?;
    Ok(Json(Deleted { deleted: id }).into_response())
}

#[derive(serde::Serialize, utoipa::ToSchema)]
struct Deleted {
    /// The id that was deleted.
    deleted: String,
}

/// Upload a conversation; an LLM extracts experiences into the pending queue.
#[utoipa::path(post, path = "/api/extract", tag = "agents", request_body = ExtractRequest,
    params(("wait" = Option<u32>, Query, description = "Seconds to wait for the job to finish (0-120)")),
    responses(
        (status = 202, description = "Queued or running", body = knowhub_service::jobs::JobView),
        (status = 200, description = "Finished within `wait`", body = knowhub_service::jobs::JobView),
        (status = 413, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn extract(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    RawQuery(raw): RawQuery,
    ApiJson(req): ApiJson<ExtractRequest>,
) -> Result<Response, ApiError> {
    let wait = query_params::<ExtractWait>(raw)?.validate().map_err(ApiError::query)?;
    let view = hub.extract(&caller, req, wait).await?;
    let status = if view.finished() { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(view)).into_response())
}

/// An extraction job's state and, once done, what it produced.
#[utoipa::path(get, path = "/api/extract/{id}", tag = "agents", params(("id" = String, Path, description = "The job's id")),
    responses((status = 200, body = knowhub_service::jobs::JobView), (status = 404, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn extract_job(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(id): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.extraction_job(&caller, &id).await?).into_response())
}

/// The review queue, oldest first (reviewer).
#[utoipa::path(get, path = "/api/pending", tag = "review",
    params(
        ("after" = Option<String>, Query, description = "Continue after this id (the page's `next`)"),
        ("limit" = Option<u32>, Query, description = "Items per page, 1-100"),
        ("kind" = Option<String>, Query, description = "pending | disputed (default pending)"),
    ),
    responses((status = 200, body = knowhub_service::review::PendingPage), crate::openapi::CommonErrors))]
async fn pending(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let p = query_params::<PendingRequest>(raw)?.validate().map_err(ApiError::query)?;
    Ok(Json(hub.pending(&caller, p.kind, p.after.as_deref(), p.limit).await?).into_response())
}

/// Approve a pending record, optionally with corrections (reviewer).
#[utoipa::path(post, path = "/api/approve/{id}", tag = "review", params(("id" = String, Path, description = "The pending record's id")),
    request_body(content = Option<Edits>, description = "Corrections; an empty body approves as is"),
    responses((status = 200, body = knowhub_core::Experience), (status = 404, body = crate::openapi::ErrorBody),
        (status = 409, description = "Already reviewed; the message says by whom", body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn approve(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    OptionalJson(edits): OptionalJson<Edits>,
) -> Result<Response, ApiError> {
    Ok(Json(hub.approve(&caller, &id, edits).await?).into_response())
}

/// Reject a pending record, with a reason (reviewer).
#[utoipa::path(post, path = "/api/reject/{id}", tag = "review", params(("id" = String, Path, description = "The pending record's id")),
    request_body(content = Option<RejectRequest>, description = "An optional reason"),
    responses((status = 200, body = knowhub_core::Experience), (status = 404, body = crate::openapi::ErrorBody),
        (status = 409, description = "Already reviewed; the message says by whom", body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn reject(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(id): IdPath,
    OptionalJson(body): OptionalJson<RejectRequest>,
) -> Result<Response, ApiError> {
    Ok(Json(hub.reject(&caller, &id, body.and_then(|b| b.reason)).await?).into_response())
}

/// Create an API key; its secret is shown only in this answer (admin).
#[utoipa::path(post, path = "/api/keys", tag = "admin", request_body = NewKeyRequest,
    responses((status = 201, body = knowhub_service::auth::CreatedKey), (status = 409, body = crate::openapi::ErrorBody), crate::openapi::CommonErrors))]
async fn create_key(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    ApiJson(body): ApiJson<NewKeyRequest>,
) -> Result<Response, ApiError> {
    let spec = body.validate()?;
    Ok((StatusCode::CREATED, Json(hub.create_scoped_key(&caller, spec).await?)).into_response())
}

/// Every key, without secrets (admin).
#[utoipa::path(get, path = "/api/keys", tag = "admin", responses((status = 200, body = KeyList), crate::openapi::CommonErrors))]
async fn list_keys(State(hub): State<Arc<Hub>>, AsAdmin(caller): AsAdmin) -> Result<Response, ApiError> {
    Ok(Json(KeyList { keys: hub.list_keys(&caller).await? }).into_response())
}

#[derive(serde::Serialize, utoipa::ToSchema)]
struct KeyList {
    keys: Vec<knowhub_core::ApiKey>,
}

/// Up or not, for load balancers; with auth on, counts and LLM usage only for a caller with a key.
#[utoipa::path(get, path = "/healthz", tag = "operators", security((), ("bearer" = [])),
    responses((status = 200, description = "`{\"status\":\"ok\"}` alone without a valid key", body = knowhub_service::Health)))]
async fn health(State(hub): State<Arc<Hub>>, headers: axum::http::HeaderMap) -> Result<Response, ApiError> {
    let key = headers.get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
    if hub.options().auth && hub.authenticate(key, knowhub_core::Role::Agent).await.is_err() {
        return Ok(Json(serde_json::json!({ "status": "ok" })).into_response());
    }
    Ok(Json(hub.health().await?).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_params_are_checked() {
        assert!(parse_search(None).is_err());
        assert!(parse_search(Some("q=%20%20".into())).is_err());
        let q = parse_search(Some("q=%E8%B6%85%E6%97%B6&top_k=7&min_score=1&agent_id=main".into())).unwrap();
        assert_eq!(
            (q.q.as_str(), q.top_k, q.filter.min_score, q.filter.agent_id.as_deref()),
            ("超时", 7, 1, Some("main"))
        );
        let d = parse_search(Some("q=x".into())).unwrap();
        assert_eq!(
            (d.top_k, d.filter.min_score, d.mode, d.min_relevance),
            (5, 3, knowhub_service::SearchMode::Hybrid, None)
        );
        assert_eq!(parse_search(Some("q=x&min_relevance=0.25".into())).unwrap().min_relevance, Some(0.25));
        for bad in [
            "q=x&top_k=0",
            "q=x&top_k=51",
            "q=x&top_k=abc",
            "q=x&min_score=6",
            "q=x&min_score=2.5",
            "q=x&mode=magic",
            "q=x&min_relevance=1.5",
            "q=x&min_relevance=-0.1",
            "q=x&min_relevance=NaN",
            "q=x&min_relevance=high",
        ] {
            let e = parse_search(Some(bad.into())).unwrap_err();
            assert_eq!(e.status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(e.field.is_some(), "{bad}");
            assert_eq!(e.code, "invalid_query", "{bad}");
        }
    }
}
