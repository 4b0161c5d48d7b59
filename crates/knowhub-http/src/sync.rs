//! Hub-to-hub sync: pull another hub's changes into this one, on demand (`knowhub sync`).

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use knowhub_service::{Hub, SyncRequest};

use crate::auth::AsAdmin;
use crate::error::ApiError;
use crate::input::ApiJson;
use crate::openapi::CommonErrors;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn routes() -> OpenApiRouter<Arc<Hub>> {
    OpenApiRouter::new().routes(routes!(sync))
}

/// Pull another hub's changes since the last pull from it and apply them here, until caught up
/// (admin). The other hub's key travels in the body and is used only for that pull.
#[utoipa::path(post, path = "/api/sync", tag = "admin", request_body = SyncRequest,
    responses((status = 200, description = "What the pull did", body = knowhub_service::SyncReport), CommonErrors))]
async fn sync(
    State(hub): State<Arc<Hub>>,
    AsAdmin(caller): AsAdmin,
    ApiJson(body): ApiJson<SyncRequest>,
) -> Result<Response, ApiError> {
    let peer = body.validate()?;
    Ok(Json(hub.sync_from(&caller, &peer).await?).into_response())
}
