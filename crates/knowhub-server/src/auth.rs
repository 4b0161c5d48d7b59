//! API-key authentication as axum extractors: a handler states the role it needs by taking
//! `AsAgent`, `AsReviewer` or `AsAdmin`. With auth off (the default on loopback) every request is
//! the local operator.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use knowhub_core::{access, CoreError, Result, Role};

use crate::error::ApiError;
use crate::hub::Hub;

/// Who is calling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub name: String,
    pub role: Role,
}

impl Caller {
    /// The operator of a hub without auth.
    pub fn local() -> Self {
        Caller { name: "local".into(), role: Role::Admin }
    }
}

impl Hub {
    /// Checks an `Authorization` header value against the stored keys and the role a route needs.
    pub async fn authenticate(&self, header: Option<&str>, need: Role) -> Result<Caller> {
        if !self.opts.auth {
            return Ok(Caller::local());
        }
        let Some(h) = header else {
            return Err(CoreError::Unauthorized("an API key is required: send Authorization: Bearer <key>".into()));
        };
        let key = match h.trim().split_once(' ') {
            Some((scheme, key)) if scheme.eq_ignore_ascii_case("bearer") && !key.trim().is_empty() => key.trim(),
            _ => return Err(CoreError::Unauthorized("malformed Authorization header: expected Bearer <key>".into())),
        };
        let found = self.store.key_by_hash(&access::hash_key(key)).await?;
        let k = match found {
            Some(k) if k.revoked_at.is_none() => k,
            // Same answer for unknown and revoked keys: a caller learns nothing about other keys.
            _ => return Err(CoreError::Unauthorized("invalid or revoked API key".into())),
        };
        if !k.role.allows(need) {
            return Err(CoreError::Forbidden(format!(
                "this operation needs the {need} role; key {:?} has the {} role",
                k.name, k.role
            )));
        }
        Ok(Caller { name: k.name, role: k.role })
    }
}

macro_rules! role_extractor {
    ($(#[$m:meta])* $name:ident, $role:expr) => {
        $(#[$m])*
        pub struct $name(pub Caller);

        impl FromRequestParts<Arc<Hub>> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> std::result::Result<Self, ApiError> {
                let header = parts.headers.get(axum::http::header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
                Ok($name(hub.authenticate(header, $role).await?))
            }
        }
    };
}

role_extractor!(
    /// search, submit, content, extract
    AsAgent,
    Role::Agent
);
role_extractor!(
    /// + pending, approve, reject
    AsReviewer,
    Role::Reviewer
);
role_extractor!(
    /// + keys, delete
    AsAdmin,
    Role::Admin
);
