//! `GET /api/playbooks/{resource}`: a resource's playbook (see `knowhub_service::playbook`), and
//! its model-written version's draft and review (`knowhub_service::written`).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use knowhub_service::{DraftPlaybookRequest, Hub, PlaybookRequest, ReviewPlaybookRequest};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{AsAgent, AsReviewer};
use crate::error::ApiError;
use crate::input::{query_params, ApiJson, IdPath, OptionalJson};
use crate::openapi::{CommonErrors, ErrorBody};

pub fn routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::new().routes(routes!(playbook)).routes(routes!(draft, written)).routes(routes!(review))
}

/// What the hub knows about one resource, distilled from its approved records: known failures
/// first, what works by evidence, version notes, contested points; every line cites its ids.
#[utoipa::path(get, path = "/api/playbooks/{resource}", tag = "agents",
    params(("resource" = String, Path, description = "The resource's name (any spelling records use) or its key"),
        ("budget" = Option<u32>, Query, description = "Largest playbook in estimated tokens, 100-4000 (default 400)"),
        ("scope" = Option<String>, Query, description = "Only records in this scope, one the key reads (default: every scope it reads)")),
    responses((status = 200, body = knowhub_service::Playbook), (status = 404, body = ErrorBody), CommonErrors))]
async fn playbook(
    State(hub): State<Arc<Hub>>,
    AsAgent(caller): AsAgent,
    IdPath(resource): IdPath,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let q = query_params::<PlaybookRequest>(raw)?.validate().map_err(ApiError::query)?;
    Ok(Json(hub.playbook(&caller, &resource, &q).await?).into_response())
}

/// Asks the configured LLM to write the resource's playbook from its distilled lines; the draft
/// waits for review (replacing an earlier one). 503 `not_configured` without an LLM, 502
/// `upstream` when the model fails or gives nothing usable.
#[utoipa::path(post, path = "/api/playbooks/{resource}/draft", tag = "review", request_body = DraftPlaybookRequest,
    params(("resource" = String, Path, description = "The resource's name (any spelling records use) or its key")),
    responses((status = 201, body = knowhub_service::WrittenPlaybook), (status = 404, body = ErrorBody),
        (status = 502, body = ErrorBody), CommonErrors))]
async fn draft(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(resource): IdPath,
    OptionalJson(req): OptionalJson<DraftPlaybookRequest>,
) -> Result<Response, ApiError> {
    let out = hub.draft_playbook(&caller, &resource, req.unwrap_or_default()).await?;
    Ok((StatusCode::CREATED, Json(out)).into_response())
}

/// The resource's written playbook, whatever its review status, and whether it is stale.
#[utoipa::path(get, path = "/api/playbooks/{resource}/draft", tag = "review",
    params(("resource" = String, Path, description = "The resource's name (any spelling records use) or its key")),
    responses((status = 200, body = knowhub_service::WrittenPlaybook), (status = 404, body = ErrorBody), CommonErrors))]
async fn written(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(resource): IdPath,
) -> Result<Response, ApiError> {
    Ok(Json(hub.written_playbook(&caller, &resource).await?).into_response())
}

/// Approves or rejects the resource's written playbook. Approving a stale one is 409.
#[utoipa::path(post, path = "/api/playbooks/{resource}/review", tag = "review", request_body = ReviewPlaybookRequest,
    params(("resource" = String, Path, description = "The resource's name (any spelling records use) or its key")),
    responses((status = 200, body = knowhub_service::WrittenPlaybook), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), CommonErrors))]
async fn review(
    State(hub): State<Arc<Hub>>,
    AsReviewer(caller): AsReviewer,
    IdPath(resource): IdPath,
    ApiJson(req): ApiJson<ReviewPlaybookRequest>,
) -> Result<Response, ApiError> {
    Ok(Json(hub.review_playbook(&caller, &resource, req).await?).into_response())
}
