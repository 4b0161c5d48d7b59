//! Who is calling: an `Authorization` header value checked against the stored keys. Transports
//! pass the header they received; the answer is a [`Caller`] the service checks roles against.

use knowhub_core::{access, Caller, CoreError, Result, Role};

use crate::hub::Hub;

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
        let caller = Caller::key(k.name, k.role);
        caller.require(need)?;
        Ok(caller)
    }
}
