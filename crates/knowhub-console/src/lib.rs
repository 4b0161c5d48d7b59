//! The KnowHub review console: server-rendered pages at `/ui/` for the people who curate a hub.
//! Like the HTTP API it is a thin adapter over [`knowhub_service::Hub`]: every page calls the
//! same service methods as the API, as the signed-in key, and parses its forms into the same
//! request types (`knowhub_service::requests`); errors get the status the API gives their core
//! code ([`status_of`]). Pages are rendered with maud (escaped by default),
//! served with a strict Content-Security-Policy, and the only script is `assets/console.js`.

pub mod assets;
pub mod i18n;
pub mod layout;
mod pages;
pub mod session;

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use knowhub_core::CoreError;
use knowhub_service::Hub;
use maud::html;

use crate::i18n::{t, Lang, L};
use crate::layout::{page, Nav};
use crate::session::{NoSession, Session};

pub use pages::render_pending;

/// The console's state: the hub and the secret that signs session cookies.
pub struct Console {
    pub hub: Arc<Hub>,
    secret: Vec<u8>,
}

impl Console {
    /// `secret` signs session cookies; replicas behind one address must share it. Without one, a
    /// random secret is drawn, so sessions last until the process restarts.
    pub fn new(hub: Arc<Hub>, secret: Option<&str>) -> Arc<Console> {
        let secret = match secret.map(str::trim).filter(|s| !s.is_empty()) {
            Some(s) => s.as_bytes().to_vec(),
            None => {
                let mut b = vec![0u8; 32];
                if getrandom::fill(&mut b).is_err() {
                    // No random source: fall back to something unguessable enough to keep
                    // sessions per-process (never a fixed value).
                    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                    b = session::hmac(&t.as_nanos().to_le_bytes(), &std::process::id().to_le_bytes()).to_vec();
                }
                b
            }
        };
        Arc::new(Console { hub, secret })
    }
}

/// Largest form the console accepts (an edit is at most a few KB).
const MAX_FORM: usize = 64 * 1024;

/// The console's routes, to merge beside the API's.
pub fn router(console: Arc<Console>) -> Router {
    Router::new()
        .route("/ui", get(|| async { Redirect::permanent("/ui/") }))
        .route("/ui/", get(pages::dashboard))
        .route("/ui/login", get(pages::login_page).post(pages::login))
        .route("/ui/logout", post(pages::logout))
        .route("/ui/pending", get(pages::pending))
        .route("/ui/pending/{id}/approve", post(pages::approve))
        .route("/ui/pending/{id}/reject", post(pages::reject))
        .route("/ui/pending/{id}/merge", post(pages::merge))
        .route("/ui/search", get(pages::search))
        .route("/ui/experiences/{id}", get(pages::experience))
        .route("/ui/resources/{name}", get(pages::resource))
        .route("/ui/resources/{name}/playbook", post(pages::playbook_action))
        .route("/ui/keys", get(pages::keys).post(pages::create_key))
        .route("/ui/keys/{id}/revoke", post(pages::revoke_key))
        .route("/ui/quarantine", post(pages::quarantine))
        .route("/ui/quarantine/lift", post(pages::lift_quarantine))
        .route(assets::CSS_PATH, get(assets::css))
        .route(assets::JS_PATH, get(assets::js))
        .route("/ui/{*rest}", get(pages::not_found))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_FORM))
        .layer(axum::middleware::from_fn(headers))
        .with_state(console)
}

/// The Content-Security-Policy of every console response: nothing but this origin's own script
/// and style, no inline code, no frames, forms only to this origin.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
     connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Security headers on every response, and the language cookie when `?lang=` chose one.
async fn headers(req: Request, next: Next) -> Response {
    let chosen = req.uri().query().and_then(lang_param);
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if let Some(l) = chosen {
        let c = format!("{}={}; Path=/ui; SameSite=Strict; Max-Age=31536000", session::LANG_COOKIE, l.code());
        if let Ok(v) = HeaderValue::from_str(&c) {
            h.append(header::SET_COOKIE, v);
        }
    }
    res
}

fn lang_param(query: &str) -> Option<Lang> {
    query.split('&').filter_map(|p| p.split_once('=')).find(|(k, _)| *k == "lang").and_then(|(_, v)| Lang::parse(v))
}

/// The page language for a request.
pub fn lang_of(parts: &Parts) -> Lang {
    if let Some(l) = parts.uri.query().and_then(lang_param) {
        return l;
    }
    if let Some(l) = session::cookie(&parts.headers, session::LANG_COOKIE).and_then(Lang::parse) {
        return l;
    }
    parts.headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).map_or(Lang::En, Lang::from_accept)
}

/// An error page in the console's language, with the status the API would give.
#[derive(Debug)]
pub struct PageError {
    pub status: StatusCode,
    pub message: String,
    pub lang: Lang,
}

impl PageError {
    pub fn new(lang: Lang, status: StatusCode, message: impl Into<String>) -> Self {
        PageError { status, message: message.into(), lang }
    }

    pub fn core(lang: Lang, e: CoreError) -> Self {
        knowhub_service::error::log_fault(&e);
        PageError { status: status_of(&e), message: e.public_message(), lang }
    }
}

/// The status the service gives each core error ([`knowhub_service::error::http_status`]).
pub fn status_of(e: &CoreError) -> StatusCode {
    StatusCode::from_u16(knowhub_service::error::http_status(e)).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let lang = self.lang;
        let body = html! {
            h1 { (t(lang, L::error)) " " (self.status.as_u16()) }
            p.error role="alert" { (self.message) }
            p { a href="/ui/pending" { (t(lang, L::back)) } }
        };
        (self.status, axum::response::Html(page(lang, t(lang, L::error), Nav::None, None, None, body).into_string()))
            .into_response()
    }
}

/// A handler's session: signed in (or a hub without keys). Without one, GETs go to the sign-in
/// page and other requests get 401.
pub struct Ctx(pub Session);

impl FromRequestParts<Arc<Console>> for Ctx {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, c: &Arc<Console>) -> Result<Self, Response> {
        let lang = lang_of(parts);
        match c.session(&parts.headers, lang).await {
            Ok(mut s) => {
                // The peer's address tells callers apart for rate limits when no key does.
                let peer = parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>();
                s.caller = s.caller.with_origin(peer.map(|c| c.0.ip().to_string()));
                Ok(Ctx(s))
            }
            Err(NoSession::Store(e)) => Err(PageError::core(lang, e).into_response()),
            Err(why) => {
                let ended = matches!(why, NoSession::Ended);
                let to = if ended { "/ui/login?ended=1" } else { "/ui/login" };
                let mut res = if parts.method == axum::http::Method::GET {
                    Redirect::to(to).into_response()
                } else {
                    PageError::new(lang, StatusCode::UNAUTHORIZED, "sign in first").into_response()
                };
                if ended {
                    if let Ok(v) = HeaderValue::from_str(&session::set_cookie(None)) {
                        res.headers_mut().append(header::SET_COOKIE, v);
                    }
                }
                Err(res)
            }
        }
    }
}

/// State extractor shorthand for handlers.
pub type St = State<Arc<Console>>;
