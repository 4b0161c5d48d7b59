//! Sign-in for the console. A reviewer or admin pastes a key once; the server answers with a
//! session cookie (HttpOnly, SameSite=Strict) that names the key and an expiry, signed with the
//! console secret. Every request re-reads the key, so revoking it ends its sessions at once.
//! Forms carry a CSRF token derived from the session; POSTs without it, or sent cross-site, are
//! refused.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::{header, HeaderMap, Method};
use knowhub_core::{access, ApiKey, Caller, CoreError, Role};
use sha2::{Digest, Sha256};

use crate::i18n::Lang;
use crate::Console;

pub const COOKIE: &str = "knowhub_session";
pub const LANG_COOKIE: &str = "knowhub_lang";
/// A session lasts a working day.
pub const TTL_SECS: u64 = 12 * 3600;

/// HMAC-SHA256 (RFC 2104); sha2 is already a dependency and this is all the MAC we need.
pub fn hmac(key: &[u8], msg: &[u8]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    inner.update(msg);
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// Constant-time comparison, so a forged MAC or token cannot be found byte by byte.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The signed-in person (or the local operator on a hub without keys).
#[derive(Debug, Clone)]
pub struct Session {
    pub caller: Caller,
    /// Goes into every form; checked on every POST.
    pub csrf: String,
    pub lang: Lang,
    /// False on a hub without keys: there is nothing to sign out of.
    pub signed_in: bool,
}

impl Session {
    pub fn is_admin(&self) -> bool {
        self.caller.role.allows(Role::Admin)
    }
}

/// Why a request has no session.
#[derive(Debug)]
pub enum NoSession {
    /// No cookie, an expired one or one that fails its signature: sign in.
    SignIn,
    /// The key behind it was revoked or lost its role.
    Ended,
    Store(CoreError),
}

impl Console {
    /// A new cookie value for `key`.
    pub fn issue(&self, key: &ApiKey) -> Result<String, CoreError> {
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce).map_err(|e| CoreError::Internal(format!("random source: {e}")))?;
        let body = format!("{}.{}.{}", key.id, now() + TTL_SECS, hex::encode(nonce));
        Ok(format!("{body}.{}", hex::encode(hmac(&self.secret, body.as_bytes()))))
    }

    fn csrf_for(&self, nonce: &str) -> String {
        hex::encode(&hmac(&self.secret, format!("csrf|{nonce}").as_bytes())[..16])
    }

    /// The session a request carries.
    pub async fn session(&self, headers: &HeaderMap, lang: Lang) -> Result<Session, NoSession> {
        if !self.hub.options().auth {
            return Ok(Session { caller: Caller::local(), csrf: self.csrf_for("local"), lang, signed_in: false });
        }
        let value = cookie(headers, COOKIE).ok_or(NoSession::SignIn)?;
        let parts: Vec<&str> = value.split('.').collect();
        let [id, expiry, nonce, mac] = parts[..] else { return Err(NoSession::SignIn) };
        let body = format!("{id}.{expiry}.{nonce}");
        let good = hex::decode(mac).is_ok_and(|m| same(&m, &hmac(&self.secret, body.as_bytes())));
        if !good || expiry.parse::<u64>().map_or(true, |e| e <= now()) {
            return Err(NoSession::SignIn);
        }
        let keys = self.hub.store().list_keys().await.map_err(NoSession::Store)?;
        let key = keys.into_iter().find(|k| k.id == id).ok_or(NoSession::Ended)?;
        if key.revoked_at.is_some() || !key.role.allows(Role::Reviewer) {
            return Err(NoSession::Ended);
        }
        Ok(Session { caller: Caller::key(key.name, key.role), csrf: self.csrf_for(nonce), lang, signed_in: true })
    }

    /// Checks a key typed into the sign-in form: a clear refusal for a wrong, revoked or agent key.
    pub async fn sign_in(&self, key: &str) -> Result<ApiKey, CoreError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(CoreError::Unauthorized("paste an API key".into()));
        }
        let found = self.hub.store().key_by_hash(&access::hash_key(key)).await?;
        match found {
            Some(k) if k.revoked_at.is_none() => {
                if k.role.allows(Role::Reviewer) {
                    Ok(k)
                } else {
                    Err(CoreError::Forbidden(format!(
                        "key {:?} is an agent key: the console needs a reviewer or admin key",
                        k.name
                    )))
                }
            }
            _ => Err(CoreError::Unauthorized("invalid or revoked API key".into())),
        }
    }
}

/// Checks a state-changing request: same-site only (the browser says so in `Sec-Fetch-Site`
/// or `Origin`), and the form's token matches the session's.
pub fn check_post(method: &Method, headers: &HeaderMap, session_csrf: &str, form_csrf: Option<&str>) -> bool {
    if method != Method::POST {
        return true;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site != "same-origin" && site != "none" {
            return false;
        }
    }
    if let (Some(origin), Some(host)) = (
        headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()),
        headers.get(header::HOST).and_then(|v| v.to_str().ok()),
    ) {
        let origin_host = origin.split("://").nth(1).unwrap_or(origin);
        if origin != "null" && origin_host != host {
            return false;
        }
    }
    form_csrf.is_some_and(|t| same(t.as_bytes(), session_csrf.as_bytes()))
}

/// A cookie's value from the request.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|p| p.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// `Set-Cookie` for a session (or, with `None`, one that clears it).
pub fn set_cookie(value: Option<&str>) -> String {
    match value {
        Some(v) => format!("{COOKIE}={v}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age={TTL_SECS}"),
        None => format!("{COOKIE}=; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=0"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231 test case 2.
        let mac = hmac(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(hex::encode(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        // Test case 6: a key longer than the block is hashed first.
        let mac = hmac(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First");
        assert_eq!(hex::encode(mac), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    }

    #[test]
    fn posts_need_the_token_and_the_same_site() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:8000".parse().unwrap());
        assert!(check_post(&Method::POST, &h, "tok", Some("tok")));
        assert!(!check_post(&Method::POST, &h, "tok", Some("other")));
        assert!(!check_post(&Method::POST, &h, "tok", None));
        assert!(check_post(&Method::GET, &h, "tok", None));
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert!(!check_post(&Method::POST, &h, "tok", Some("tok")));
        h.insert(header::ORIGIN, "http://127.0.0.1:8000".parse().unwrap());
        assert!(check_post(&Method::POST, &h, "tok", Some("tok")));
        h.insert("sec-fetch-site", "cross-site".parse().unwrap());
        assert!(!check_post(&Method::POST, &h, "tok", Some("tok")));
    }

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, "a=1; knowhub_session=abc.def; knowhub_lang=zh".parse().unwrap());
        assert_eq!(cookie(&h, COOKIE), Some("abc.def"));
        assert_eq!(cookie(&h, LANG_COOKIE), Some("zh"));
        assert_eq!(cookie(&h, "missing"), None);
    }
}
