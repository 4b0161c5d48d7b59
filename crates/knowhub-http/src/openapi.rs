//! `/openapi.json`: the API's description, generated from the handlers' own `#[utoipa::path]`
//! attributes and the service's types, so it cannot drift from what the routes take and return.
//! docs/api.md explains; this is the machine-readable contract the plugins share.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi, ToSchema};

/// Every error, on every route: `{"error": {"code", "message", "field"?}}`.
#[derive(serde::Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(serde::Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable, machine-readable: `invalid_query`, `invalid_field`, `not_found`, `conflict`, ...
    pub code: String,
    /// For people; names the field and the rule it broke.
    pub message: String,
    /// The offending field or query parameter, when one is to blame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The errors any route can answer with; each route lists its own 4xx beside these.
#[derive(IntoResponses)]
#[allow(dead_code)] // Only its schema is used.
pub enum CommonErrors {
    /// A parameter, field or body is invalid; `field` names it.
    #[response(status = 400)]
    BadRequest(ErrorBody),
    /// No key, or a wrong or revoked one (with keys required).
    #[response(status = 401)]
    Unauthorized(ErrorBody),
    /// The key's role is below the route's, or the `Host` is not served.
    #[response(status = 403)]
    Forbidden(ErrorBody),
    /// Too many requests from this caller; `Retry-After` says when to retry.
    #[response(status = 429)]
    RateLimited(ErrorBody),
    /// The store is briefly unavailable, or the feature is not configured.
    #[response(status = 503)]
    Unavailable(ErrorBody),
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "KnowHub",
        description = "A hub where AI agents share what worked and what failed. Prose: docs/api.md."
    ),
    modifiers(&BearerKey),
    security(("bearer" = [])),
    tags(
        (name = "agents", description = "Search, submit, feedback, content, extraction"),
        (name = "review", description = "The pending queue and its decisions (reviewer)"),
        (name = "insight", description = "Resources, a record's story, the dashboard"),
        (name = "admin", description = "API keys and deletion (admin)"),
        (name = "operators", description = "Health, metrics and this document"),
    )
)]
pub struct ApiDoc;

/// Declares the one auth scheme: `Authorization: Bearer <key>`.
struct BearerKey;

impl Modify for BearerKey {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An API key (`kh_...`); not needed on a loopback hub without auth."))
                    .build(),
            ),
        );
    }
}
