//! Who is calling, and the keys that say so: an `Authorization` header value checked against the
//! stored keys (transports pass the header they received; the answer is a [`Caller`] the service
//! checks roles against), and the admin operations that create, list and revoke those keys.

use knowhub_core::{access, ApiKey, Caller, CoreError, Result, Role};
use serde::Serialize;

use crate::hub::Hub;

/// A new key, shown once.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedKey {
    pub key: String,
    #[serde(flatten)]
    pub info: ApiKey,
}

impl Hub {
    /// Resolves an `Authorization` header value (`Bearer <key>`) to a caller with at least the
    /// role `need`. With auth off every caller is the local operator.
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
        let caller = Caller::of_key(&k);
        caller.require(need)?;
        Ok(caller)
    }

    /// A key with its role's default scopes (see `ReadScopes::default_for`).
    pub async fn create_key(&self, caller: &Caller, name: &str, role: Role) -> Result<CreatedKey> {
        let spec =
            crate::requests::NewKeyRequest { name: name.into(), role: role.as_str().into(), ..Default::default() };
        self.create_scoped_key(caller, spec.validate()?).await
    }

    pub async fn create_scoped_key(&self, caller: &Caller, spec: crate::requests::KeySpec) -> Result<CreatedKey> {
        caller.require(Role::Admin)?;
        let (key, new) = access::generate_scoped_key(&spec.name, spec.role, spec.read, &spec.write)?;
        let info = self.store.create_key(new).await?;
        tracing::info!(name = %info.name, role = %info.role, prefix = %info.prefix, read = %info.read_scopes.join(","),
            write = %info.write_scope, "API key created");
        Ok(CreatedKey { key, info })
    }

    pub async fn list_keys(&self, caller: &Caller) -> Result<Vec<ApiKey>> {
        caller.require(Role::Admin)?;
        self.store.list_keys().await
    }

    pub async fn revoke_key(&self, caller: &Caller, id_or_name: &str) -> Result<ApiKey> {
        caller.require(Role::Admin)?;
        let k = self
            .store
            .revoke_key(id_or_name.trim())
            .await?
            .ok_or_else(|| CoreError::NotFound(format!("active key {id_or_name:?}")))?;
        tracing::info!(name = %k.name, prefix = %k.prefix, "API key revoked");
        Ok(k)
    }
}
