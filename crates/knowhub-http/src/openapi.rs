//! `/openapi.json`: the API's description, generated from the handlers' own `#[utoipa::path]`
//! attributes and the service's types, so it cannot drift from what the routes take and return.
//! docs/api.md explains; this is the machine-readable contract the plugins share.

use knowhub_service::requests::{self as req, IntRange};
use serde_json::{json, Value};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{IntoResponses, Modify, OpenApi};

/// The one error shape, defined with the service's errors.
pub use knowhub_service::error::{ErrorBody, ErrorDetail};

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

/// A limit of the service's request types, as the document states it.
#[derive(Debug, Clone, Copy)]
enum Limit {
    /// At most this many characters.
    Chars(usize),
    /// An integer within bounds, with the value an absent one takes.
    Int(IntRange),
    /// An integer within bounds, with no default stated (a body field whose default the
    /// service fills in elsewhere is still stated: see `Int`).
    Bounds(i64, i64),
    /// A number within bounds.
    Number(f64, f64),
}

/// Query and path parameters with limits: (path, method, parameter, limit).
fn parameter_limits() -> Vec<(&'static str, &'static str, &'static str, Limit)> {
    use Limit::*;
    let mut out = vec![
        ("/api/search", "get", "q", Chars(req::MAX_QUERY)),
        ("/api/search", "get", "top_k", Int(req::TOP_K)),
        ("/api/search", "get", "min_score", Int(req::MIN_SCORE)),
        ("/api/search", "get", "agent_id", Chars(req::MAX_AGENT_ID)),
        ("/api/search", "get", "min_relevance", Number(req::MIN_RELEVANCE.0, req::MIN_RELEVANCE.1)),
        ("/api/pending", "get", "limit", Int(req::PENDING_LIMIT)),
        ("/api/resources", "get", "q", Chars(req::MAX_RESOURCE_QUERY)),
        ("/api/resources", "get", "limit", Int(req::RESOURCES_LIMIT)),
        ("/api/dashboard", "get", "weeks", Int(req::DASHBOARD_WEEKS)),
        ("/api/extract", "post", "wait", Bounds(req::EXTRACT_WAIT.min, req::EXTRACT_WAIT.max)),
        ("/api/playbooks/{resource}", "get", "resource", Chars(req::MAX_RESOURCE)),
        ("/api/playbooks/{resource}", "get", "budget", Int(knowhub_service::playbook::BUDGET)),
        ("/api/playbooks/{resource}", "get", "scope", Chars(req::MAX_SCOPE)),
    ];
    // An experience's id: nothing longer names a record.
    for (path, method) in [
        ("/api/content/{id}", "get"),
        ("/api/experiences/{id}", "get"),
        ("/api/experiences/{id}", "delete"),
        ("/api/experiences/{id}/view", "get"),
        ("/api/approve/{id}", "post"),
        ("/api/reject/{id}", "post"),
        ("/api/merge/{id}", "post"),
    ] {
        out.push((path, method, "id", Chars(req::MAX_ID)));
    }
    out
}

/// Request body fields with limits: (schema, property, limit).
fn field_limits() -> Vec<(&'static str, &'static str, Limit)> {
    use Limit::*;
    vec![
        ("SubmitRequest", "task", Chars(req::MAX_TASK)),
        ("SubmitRequest", "resource", Chars(req::MAX_RESOURCE)),
        ("SubmitRequest", "result", Chars(req::MAX_RESULT)),
        ("SubmitRequest", "score", Int(req::SCORE)),
        ("SubmitRequest", "agent_id", Chars(req::MAX_AGENT_ID)),
        ("SubmitRequest", "submitted_by", Chars(req::MAX_AGENT_ID)),
        ("SubmitRequest", "session_key", Chars(req::MAX_AGENT_ID)),
        ("SubmitRequest", "content", Chars(req::MAX_CONTENT)),
        ("SubmitRequest", "content_type", Chars(req::MAX_CONTENT_TYPE)),
        ("SubmitRequest", "resource_version", Chars(req::MAX_VERSION)),
        ("FeedbackRequest", "id", Chars(req::MAX_ID)),
        ("FeedbackRequest", "note", Chars(req::MAX_FEEDBACK_NOTE)),
        ("FeedbackRequest", "agent_id", Chars(req::MAX_AGENT_ID)),
        ("Edits", "task", Chars(req::MAX_TASK)),
        ("Edits", "resource", Chars(req::MAX_RESOURCE)),
        ("Edits", "result", Chars(req::MAX_RESULT)),
        ("Edits", "score", Bounds(req::SCORE.min, req::SCORE.max)),
        ("RejectBody", "reason", Chars(req::MAX_REASON)),
        ("MergeBody", "into", Chars(req::MAX_ID)),
        ("NewKeyBody", "name", Chars(req::MAX_KEY_NAME)),
    ]
}

fn state(schema: &mut Value, limit: Limit) {
    let Some(m) = schema.as_object_mut() else { return };
    match limit {
        Limit::Chars(n) => {
            m.insert("maxLength".into(), json!(n));
        }
        Limit::Int(r) => {
            m.extend([
                ("minimum".into(), json!(r.min)),
                ("maximum".into(), json!(r.max)),
                ("default".into(), json!(r.default)),
            ]);
        }
        Limit::Bounds(lo, hi) => {
            m.extend([("minimum".into(), json!(lo)), ("maximum".into(), json!(hi))]);
        }
        Limit::Number(lo, hi) => {
            m.extend([("minimum".into(), json!(lo)), ("maximum".into(), json!(hi))]);
        }
    }
}

/// Writes the limits into `doc`; returns the targets it could not find (none, as a test checks).
fn state_limits(doc: &mut Value) -> Vec<String> {
    let mut missed = Vec::new();
    for (path, method, name, limit) in parameter_limits() {
        let params = doc["paths"][path][method]["parameters"].as_array_mut();
        match params.and_then(|ps| ps.iter_mut().find(|p| p["name"] == name)) {
            Some(p) => state(&mut p["schema"], limit),
            None => missed.push(format!("{method} {path} ?{name}")),
        }
    }
    for (schema, field, limit) in field_limits() {
        match doc["components"]["schemas"][schema]["properties"].get_mut(field) {
            Some(p) => state(p, limit),
            None => missed.push(format!("{schema}.{field}")),
        }
    }
    missed
}

/// The document as `/openapi.json` serves it: the routes' own description, plus the limits of
/// the service's request types (maxLength, minimum, maximum, default), so clients such as the
/// plugins can check theirs against it.
pub fn document(doc: utoipa::openapi::OpenApi) -> Value {
    let mut v = serde_json::to_value(doc).expect("the OpenAPI document serialises");
    let missed = state_limits(&mut v);
    debug_assert!(missed.is_empty(), "limits for parts the document lacks: {missed:?}");
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_finds_its_parameter_or_field() {
        let (_, doc) = crate::http::api_routes().split_for_parts();
        let mut v = serde_json::to_value(doc).unwrap();
        assert_eq!(state_limits(&mut v), Vec::<String>::new());
        let q = v["paths"]["/api/search"]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "q")
            .cloned();
        assert_eq!(q.unwrap()["schema"]["maxLength"], json!(req::MAX_QUERY));
        assert_eq!(v["components"]["schemas"]["SubmitRequest"]["properties"]["score"]["maximum"], json!(5));
    }
}
