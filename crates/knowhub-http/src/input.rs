//! What a handler takes from a request: a JSON body, a route's `{id}`, a query string. Every
//! rejection is the API's one error shape, naming the offending field, so the API's routes and
//! the console's JSON routes answer bad input alike.

use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::http::MAX_BODY;

/// JSON body extractor whose every rejection is our error shape, naming the offending field.
pub struct ApiJson<T>(pub T);

async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<bytes::Bytes, ApiError> {
    bytes::Bytes::from_request(req, state).await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                format!("request body is over {MAX_BODY} bytes"),
            )
        } else if e.status() == StatusCode::REQUEST_TIMEOUT {
            ApiError::new(StatusCode::REQUEST_TIMEOUT, "request_timeout", "the request body did not arrive in time")
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "invalid_body", e.body_text())
        }
    })
}

fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path == "?" || path.is_empty() {
            ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", format!("invalid JSON body: {inner}"))
        } else {
            ApiError::new(StatusCode::BAD_REQUEST, "invalid_json", format!("{path}: {inner}")).with_field(path)
        }
    })
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        crate::guard::require_json(req.headers())?;
        Ok(ApiJson(parse_json(&body_bytes(req, state).await?)?))
    }
}

/// A JSON body that may be empty (`None` then). The content type is still required: it is what
/// keeps a web page from sending the request cross-site.
pub struct OptionalJson<T>(pub Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        crate::guard::require_json(req.headers())?;
        let bytes = body_bytes(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(None));
        }
        Ok(OptionalJson(Some(parse_json(&bytes)?)))
    }
}

/// The `{id}` of a route, whose rejection (an id that is not valid UTF-8 once decoded, or holds
/// U+0000, which no store keeps) is our error shape like every other.
pub struct IdPath(pub String);

impl<S: Send + Sync> FromRequestParts<S> for IdPath {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_path", e.body_text()))?;
        if id.contains('\0') {
            return Err(ApiError::new(StatusCode::BAD_REQUEST, "invalid_path", "the id must not contain NUL (U+0000)"));
        }
        Ok(IdPath(id))
    }
}

/// The parameters of a query string, each bad value its own `invalid_query` naming it.
pub fn query_params<T: DeserializeOwned>(raw: Option<String>) -> Result<T, ApiError> {
    serde_urlencoded::from_str(raw.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", format!("malformed query string: {e}")))
}
