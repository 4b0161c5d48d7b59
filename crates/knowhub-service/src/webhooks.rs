//! Webhooks: each configured receiver follows the change feed from a stored position and gets
//! every event it asked for, one POST each, in order, signed (HMAC-SHA256 of the timestamp and
//! the body), retried with backoff until it answers 2xx. Delivery runs in its own task: a slow or
//! dead receiver never slows a write.

use std::sync::Arc;
use std::time::Duration;

use knowhub_core::{CoreError, Event, Result};
use sha2::{Digest, Sha256};

use crate::hub::Hub;

/// One receiver, from config.
#[derive(Debug, Clone, PartialEq)]
pub struct Webhook {
    /// Names its position in the feed (kept across restarts) and its metrics.
    pub name: String,
    pub url: String,
    /// Event kinds to deliver (`approved`, `disputed`, ...); empty: all.
    pub events: Vec<String>,
    /// Only events on records in these scopes (and tombstones, which name only an id), as the
    /// feed's `?scope=` gives them; empty: every scope. A receiver run for one team is sent
    /// nothing of another's.
    pub scopes: Vec<String>,
    /// Signs each delivery; the receiver checks `X-KnowHub-Signature` with it.
    pub secret: String,
}

impl Webhook {
    /// Checks what config gives: a name, an http(s) URL, a secret.
    pub fn validate(&self) -> Result<()> {
        if self.name.trim().is_empty() || self.name.contains(char::is_whitespace) {
            return Err(CoreError::invalid("name", "a webhook needs a name without spaces"));
        }
        let url = reqwest::Url::parse(&self.url)
            .map_err(|e| CoreError::invalid("url", format!("{:?} is not a URL: {e}", self.url)))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err(CoreError::invalid("url", format!("{:?} must be http:// or https:// with a host", self.url)));
        }
        if self.secret.len() < 16 {
            return Err(CoreError::invalid("secret", "must be at least 16 characters"));
        }
        for scope in &self.scopes {
            knowhub_core::scope::parse("scopes", scope)?;
        }
        Ok(())
    }
}

/// HMAC-SHA256 (RFC 2104) of `msg` under `key`, as lowercase hex.
pub fn sign(key: &[u8], msg: &[u8]) -> String {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let inner = Sha256::new().chain_update(pad(0x36)).chain_update(msg).finalize();
    hex::encode(Sha256::new().chain_update(pad(0x5c)).chain_update(inner).finalize())
}

/// The signature a delivery carries: `sha256=` and the HMAC of `"{timestamp}.{body}"`. The
/// timestamp is signed too, so a receiver can refuse an old delivery replayed.
pub fn signature(secret: &str, timestamp: i64, body: &str) -> String {
    format!("sha256={}", sign(secret.as_bytes(), format!("{timestamp}.{body}").as_bytes()))
}

const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(60);
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
const PAGE: usize = 100;

impl Hub {
    /// Starts one delivery task per webhook. A new webhook starts at the newest event (it is
    /// not sent the hub's whole past); after that its position is stored.
    pub fn spawn_webhooks(self: &Arc<Self>, hooks: Vec<Webhook>) -> Vec<tokio::task::JoinHandle<()>> {
        hooks.into_iter().map(|h| tokio::spawn(deliver_forever(Arc::downgrade(self), h))).collect()
    }
}

async fn deliver_forever(hub: std::sync::Weak<Hub>, hook: Webhook) {
    let http = match reqwest::Client::builder().timeout(SEND_TIMEOUT).build() {
        Ok(c) => c,
        Err(e) => return tracing::error!(hook = %hook.name, error = %e, "webhook client"),
    };
    let key = format!("webhook:{}", hook.name);
    loop {
        let Some(h) = hub.upgrade() else { return };
        match next_page(&h, &key).await {
            Ok(events) if !events.is_empty() => {
                for ev in events {
                    let seq = ev.seq;
                    if hook.events.is_empty() || hook.events.contains(&ev.kind) {
                        deliver(&h, &http, &hook, ev).await;
                    }
                    if let Err(e) = h.store.set_cursor(&key, seq).await {
                        tracing::warn!(hook = %hook.name, error = %e, "webhook position not stored");
                    }
                }
            }
            // Nothing new: woken by a change on this replica, or looking again in a second.
            Ok(_) => {
                let _ = tokio::time::timeout(Duration::from_secs(1), h.changed.notified()).await;
            }
            Err(e) => {
                tracing::warn!(hook = %hook.name, error = %e, "webhook could not read the feed; retrying");
                drop(h);
                tokio::time::sleep(FIRST_RETRY).await;
            }
        }
    }
}

/// The events after the hook's position (a new hook starts at the newest event).
async fn next_page(h: &Hub, key: &str) -> Result<Vec<Event>> {
    let pos = match h.store.cursor(key).await? {
        Some(p) => p,
        None => {
            let last = h.store.last_event().await?;
            h.store.set_cursor(key, last).await?;
            last
        }
    };
    h.store.changes(pos, PAGE).await
}

/// Sends one event until the receiver takes it (2xx), backing off between tries.
async fn deliver(h: &Hub, http: &reqwest::Client, hook: &Webhook, ev: Event) {
    let experience = h.store.get(&ev.experience_id).await.ok().flatten();
    if !hook.scopes.is_empty() {
        match &experience {
            Some(e) if !hook.scopes.contains(&e.scope) => return,
            // Gone since (its tombstone follows) or unreadable now: its scope is unknown.
            None if ev.kind != "deleted" => return,
            _ => {}
        }
    }
    let body = serde_json::json!({
        "seq": ev.seq, "kind": ev.kind, "experience_id": ev.experience_id, "by": ev.by, "at": ev.at,
        "detail": ev.detail, "experience": experience,
    })
    .to_string();
    let mut backoff = FIRST_RETRY;
    loop {
        let ts = time::OffsetDateTime::now_utc().unix_timestamp();
        let sent = http
            .post(&hook.url)
            .header("content-type", "application/json")
            .header("x-knowhub-event", &ev.kind)
            .header("x-knowhub-delivery", ev.seq.to_string())
            .header("x-knowhub-timestamp", ts.to_string())
            .header("x-knowhub-signature", signature(&hook.secret, ts, &body))
            .body(body.clone())
            .send()
            .await;
        let status = match &sent {
            Ok(r) => r.status().as_u16(),
            Err(_) => 0,
        };
        h.metrics.webhook(&hook.name, status);
        if (200..300).contains(&status) {
            return;
        }
        tracing::warn!(hook = %hook.name, seq = ev.seq, status, retry_in_s = backoff.as_secs(), "webhook delivery failed");
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(LAST_RETRY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231 test cases 1 and 2, and case 6 (a key longer than the block).
    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        assert_eq!(sign(&[0x0b; 20], b"Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
        assert_eq!(
            sign(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            sign(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn config_is_checked() {
        let ok = Webhook {
            name: "ops".into(),
            url: "https://chat.example/hook".into(),
            events: vec![],
            scopes: vec!["team/ops".into()],
            secret: "s".repeat(16),
        };
        assert!(ok.validate().is_ok());
        let bad = |w: Webhook, field: &str| assert_eq!(w.validate().unwrap_err().field(), Some(field));
        bad(Webhook { url: "ftp://x/y".into(), ..ok.clone() }, "url");
        bad(Webhook { url: "not a url".into(), ..ok.clone() }, "url");
        bad(Webhook { secret: "short".into(), ..ok.clone() }, "secret");
        bad(Webhook { name: "a b".into(), ..ok.clone() }, "name");
        bad(Webhook { scopes: vec!["nowhere/x".into()], ..ok.clone() }, "scopes");
    }
}
