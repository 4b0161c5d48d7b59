//! Records held out of agents' results: quarantines (an admin pulls back everything one key or
//! agent wrote, then restores or rejects it in bulk) and expiry (a record leaves results when its
//! `expires_at` passes, until a new confirmation, a `helped` vote or a reviewer renews it).

use std::collections::BTreeMap;
use std::sync::Arc;

use knowhub_core::{now_rfc3339, Caller, CoreError, Experience, Quarantine, QuarantineTarget, Release, Result, Role};
use serde::{Deserialize, Serialize};

use crate::hub::Hub;

/// Longest `ttl_days` a record may ask for (ten years).
pub const MAX_TTL_DAYS: i64 = 3650;
/// How often the expiry sweep runs.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Default lifetimes, from config: records that name no expiry get their scope's, else `days`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExpirySettings {
    /// Days a record lives without re-confirmation; 0: forever.
    pub days: u32,
    /// Per scope, overriding `days` (0: forever).
    pub scopes: BTreeMap<String, u32>,
}

impl ExpirySettings {
    /// The default lifetime of a record in `scope`, in seconds (`None`: forever).
    pub fn ttl_secs(&self, scope: &str) -> Option<i64> {
        let days = self.scopes.get(scope).copied().unwrap_or(self.days);
        (days > 0).then(|| i64::from(days) * 86_400)
    }
}

/// `POST /api/quarantine` and `DELETE /api/quarantine`: whose writes, and (to lift) what
/// becomes of them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = QuarantineBody))]
#[serde(deny_unknown_fields)]
pub struct QuarantineRequest {
    /// An API key's name: everything written with it.
    pub key: Option<String>,
    /// An agent id as stored (`key/agent` with auth on).
    pub agent_id: Option<String>,
    /// Lifting only: `restore` (default) or `reject`.
    pub action: Option<String>,
    /// Lifting with `reject`: the reason kept on each record.
    pub reason: Option<String>,
}

impl QuarantineRequest {
    /// The target, and for a lift what to do with its records.
    pub fn validate(self) -> Result<(QuarantineTarget, Release)> {
        let short =
            |f: &str, v: Option<String>| knowhub_core::validate::optional(f, v, knowhub_core::validate::MAX_SHORT);
        let (key, agent) = (short("key", self.key)?, short("agent_id", self.agent_id)?);
        let target = match (key.is_empty(), agent.is_empty()) {
            (false, true) => QuarantineTarget::Key(key),
            (true, false) => QuarantineTarget::Agent(agent),
            _ => return Err(CoreError::invalid("key", "name exactly one of key or agent_id")),
        };
        let reason = short("reason", self.reason)?;
        let release = match self.action.as_deref().map(str::trim) {
            None | Some("") | Some("restore") => Release::Restore,
            Some("reject") => Release::Reject { reason: (!reason.is_empty()).then_some(reason) },
            Some(a) => return Err(CoreError::invalid("action", format!("must be restore | reject, got {a:?}"))),
        };
        Ok((target, release))
    }
}

/// What lifting a quarantine did.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Released {
    #[cfg_attr(feature = "openapi", schema(value_type = knowhub_core::QuarantineKind))]
    pub kind: String,
    pub value: String,
    /// `restore` or `reject`.
    pub action: String,
    /// Records it held.
    pub records: u64,
}

#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuarantineList {
    pub quarantines: Vec<Quarantine>,
}

/// `expires_at` `secs` from now.
fn after_secs(secs: i64) -> String {
    knowhub_core::model::format_rfc3339(time::OffsetDateTime::now_utc() + time::Duration::seconds(secs))
}

impl Hub {
    /// Holds everything `target` wrote out of search at once, and what it writes while the
    /// quarantine lasts (admin). Its records wait in the review queue (`kind=quarantined`).
    pub async fn quarantine(&self, caller: &Caller, target: &QuarantineTarget) -> Result<Quarantine> {
        caller.require(Role::Admin)?;
        let q = self.store.quarantine(target, &caller.name).await?;
        tracing::warn!(kind = target.kind(), value = target.value(), records = q.records, by = %caller.name, "quarantined");
        Ok(q)
    }

    /// Lifts a quarantine, restoring or rejecting everything it held in one step (admin).
    pub async fn release(&self, caller: &Caller, target: &QuarantineTarget, release: Release) -> Result<Released> {
        caller.require(Role::Admin)?;
        let action = if matches!(release, Release::Restore) { "restore" } else { "reject" };
        let records = self.store.release(target, release, &caller.name).await?;
        tracing::info!(kind = target.kind(), value = target.value(), records, action, by = %caller.name, "quarantine lifted");
        Ok(Released { kind: target.kind().into(), value: target.value().into(), action: action.into(), records })
    }

    /// Every active quarantine (reviewers and admins).
    pub async fn quarantines(&self, caller: &Caller) -> Result<QuarantineList> {
        caller.require(Role::Reviewer)?;
        Ok(QuarantineList { quarantines: self.store.quarantines().await? })
    }

    /// Revokes a key and, when asked, quarantines everything it wrote (admin).
    pub async fn revoke_and_quarantine(
        &self,
        caller: &Caller,
        id_or_name: &str,
    ) -> Result<(knowhub_core::ApiKey, Quarantine)> {
        let k = self.revoke_key(caller, id_or_name).await?;
        let q = self.quarantine(caller, &QuarantineTarget::Key(k.name.clone())).await?;
        Ok((k, q))
    }

    /// The expiry a new record in `scope` gets: what the writer asked for (`expires_at`, or
    /// `ttl_days` from now), else the scope's default. Returns `(expires_at, ttl_secs)`.
    pub(crate) fn expiry_for(
        &self,
        scope: &str,
        expires_at: Option<&str>,
        ttl_days: Option<i64>,
    ) -> Result<(Option<String>, Option<i64>)> {
        let now = time::OffsetDateTime::now_utc();
        match (expires_at.map(str::trim).filter(|s| !s.is_empty()), ttl_days) {
            (Some(_), Some(_)) => Err(CoreError::invalid("ttl_days", "give expires_at or ttl_days, not both")),
            (Some(at), None) => {
                let t = knowhub_core::validate::rfc3339("expires_at", at)?;
                if t <= now {
                    return Err(CoreError::invalid("expires_at", format!("{at} is not in the future")));
                }
                Ok((Some(knowhub_core::model::format_rfc3339(t)), Some((t - now).whole_seconds().max(1))))
            }
            (None, Some(d)) if !(1..=MAX_TTL_DAYS).contains(&d) => {
                Err(CoreError::invalid("ttl_days", format!("must be 1 to {MAX_TTL_DAYS}, got {d}")))
            }
            (None, Some(d)) => Ok((Some(after_secs(d * 86_400)), Some(d * 86_400))),
            (None, None) => Ok(match self.opts.expiry.ttl_secs(scope) {
                Some(s) => (Some(after_secs(s)), Some(s)),
                None => (None, None),
            }),
        }
    }

    /// A record that expires lives another `ttl_secs` from now (a confirmation, a `helped` vote,
    /// a reviewer's renewal); an expired one comes back.
    pub(crate) async fn renew(&self, e: Experience) -> Result<Experience> {
        let renewed = match (e.ttl_secs, &e.expires_at) {
            (Some(ttl), Some(_)) => self.store.set_expiry(&e.id, Some(&after_secs(ttl)), &now_rfc3339()).await?,
            // An expiry without a lifetime (an import's): re-confirmed, it lives on.
            (None, Some(_)) if e.expired => self.store.set_expiry(&e.id, None, &now_rfc3339()).await?,
            _ => return Ok(e),
        };
        let detail = serde_json::json!({"expires_at": renewed.expires_at, "was_expired": e.expired});
        self.note(&e.id, "renewed", "", Some(detail)).await;
        Ok(renewed)
    }

    /// Marks what is due as expired now, and every minute after (each replica runs one; the
    /// update is idempotent).
    pub fn spawn_expiry_sweeper(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(h) = hub.upgrade() else { return };
                match h.store.expire_due(&now_rfc3339()).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(records = n, "experiences expired: waiting to be re-confirmed"),
                    Err(e) => tracing::warn!(error = %e, "expiry sweep failed; retrying"),
                }
                drop(h);
                tokio::time::sleep(SWEEP_EVERY).await;
            }
        })
    }
}
