//! `GET /api/playbooks/{resource}`: a resource's playbook (see `knowhub_service::playbook`).

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use knowhub_service::{Hub, PlaybookRequest};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::AsAgent;
use crate::error::ApiError;
use crate::input::{query_params, IdPath};
use crate::openapi::{CommonErrors, ErrorBody};

pub fn routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::new().routes(routes!(playbook))
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
