//! Quarantine routes: pull back everything one key or agent wrote, list what is held, and lift a
//! quarantine by restoring or rejecting its records in bulk.

use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use knowhub_service::{Hub, QuarantineRequest};
use serde::{Deserialize, Serialize};

use crate::auth::{AsAdmin, AsReviewer};
use crate::error::ApiError;
use crate::input::{query_params, ApiJson, IdPath};
use crate::openapi::{CommonErrors, ErrorBody};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::new().routes(routes!(quarantine, release, list)).routes(routes!(revoke_key))
}

/// Quarantine a key (`{"key"}`) or an agent (`{"agent_id"}`, as stored): everything it wrote
/// leaves search at once, and what it writes next is held too (admin).
#[utoipa::path(post, path = "/api/quarantine", tag = "admin", request_body = QuarantineRequest,
    responses((status = 200, description = "The quarantine with the records it holds", body = knowhub_core::Quarantine), CommonErrors))]
async fn quarantine(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    ApiJson(body): ApiJson<QuarantineRequest>,
) -> Result<Response, ApiError> {
    let (target, _) = body.validate()?;
    Ok(Json(hub.quarantine(&caller, &target).await?).into_response())
}

/// Lift a quarantine: `"action": "restore"` (default) puts its records back in search,
/// `"reject"` rejects them all, with `reason` (admin).
#[utoipa::path(delete, path = "/api/quarantine", tag = "admin", request_body = QuarantineRequest,
    responses((status = 200, body = knowhub_service::Released), (status = 404, body = ErrorBody), CommonErrors))]
async fn release(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    ApiJson(body): ApiJson<QuarantineRequest>,
) -> Result<Response, ApiError> {
    let (target, release) = body.validate()?;
    Ok(Json(hub.release(&caller, &target, release).await?).into_response())
}

/// Active quarantines with the records each holds (reviewer); the records themselves are in
/// `GET /api/pending?kind=quarantined`.
#[utoipa::path(get, path = "/api/quarantine", tag = "review",
    responses((status = 200, body = knowhub_service::QuarantineList), CommonErrors))]
async fn list(State(hub): State<Arc<Hub>>, AsReviewer(caller): AsReviewer) -> Result<Response, ApiError> {
    Ok(Json(hub.quarantines(&caller).await?).into_response())
}

#[derive(Debug, Default, Deserialize)]
struct RevokeQuery {
    quarantine: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
struct Revoked {
    #[serde(flatten)]
    key: knowhub_core::ApiKey,
    /// With `?quarantine=true`: everything the key wrote, now held.
    #[serde(skip_serializing_if = "Option::is_none")]
    quarantine: Option<knowhub_core::Quarantine>,
}

/// Revoke a key by id or name; `?quarantine=true` also quarantines everything it wrote (admin).
#[utoipa::path(delete, path = "/api/keys/{id}", tag = "admin",
    params(("id" = String, Path, description = "The key's id or name"),
        ("quarantine" = Option<bool>, Query, description = "Also quarantine everything the key wrote (default false)")),
    responses((status = 200, body = Revoked), (status = 404, body = ErrorBody), CommonErrors))]
async fn revoke_key(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    IdPath(id): IdPath,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let q: RevokeQuery = query_params(raw)?;
    let also = match q.quarantine.as_deref().map(str::trim) {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(v) => {
            let e = knowhub_core::CoreError::invalid("quarantine", format!("must be true or false, got {v:?}"));
            return Err(ApiError::query(e));
        }
    };
    let out = if also {
        let (key, q) = hub.revoke_and_quarantine(&caller, &id).await?;
        Revoked { key, quarantine: Some(q) }
    } else {
        Revoked { key: hub.revoke_key(&caller, &id).await?, quarantine: None }
    };
    Ok(Json(out).into_response())
}
