//! The console's pages. Each handler extracts, calls the Hub as the signed-in key, and renders;
//! the markup lives beside it.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use knowhub_core::{Experience, Role, SearchHit, Status};
use knowhub_service::requests::{
    DASHBOARD_WEEKS, MAX_KEY_NAME, MAX_QUERY, MAX_REASON, MAX_SCOPE, MIN_SCORE, PENDING_LIMIT,
};
use knowhub_service::{
    ApproveRequest, Dashboard, ExperienceView, MergeRequest, NewKeyRequest, PendingItem, PendingPage, QueueKind,
    ResourcePage, SearchMode, SearchRequest,
};
use maud::{html, Markup};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::i18n::{t, Lang, L};
use crate::layout::{csrf, enc, flags, meter, page, pre, resource_link, Nav};
use crate::session::{self, check_post, Session};
use crate::{lang_of, Console, Ctx, PageError, St};

type PageResult = Result<Response, PageError>;

fn query<T: DeserializeOwned>(lang: Lang, raw: Option<String>) -> Result<T, PageError> {
    let raw = raw.unwrap_or_default();
    if raw.contains("%00") {
        return Err(PageError::new(lang, StatusCode::BAD_REQUEST, "the query must not contain NUL (U+0000)"));
    }
    serde_urlencoded::from_str(&raw)
        .map_err(|e| PageError::new(lang, StatusCode::BAD_REQUEST, format!("malformed query string: {e}")))
}

/// A form body: parsed, free of NUL (no store keeps it), and sent from this site with the
/// session's token.
fn form<T: DeserializeOwned>(
    s: &Session,
    method: &Method,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, PageError> {
    let lang = s.lang;
    let body = body.map_err(|e| PageError::new(lang, e.status(), e.body_text()))?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(&body)
        .map_err(|e| PageError::new(lang, StatusCode::BAD_REQUEST, format!("malformed form: {e}")))?;
    if pairs.iter().any(|(k, v)| k.contains('\0') || v.contains('\0')) {
        return Err(PageError::new(lang, StatusCode::BAD_REQUEST, "form fields must not contain NUL (U+0000)"));
    }
    let token = pairs.iter().find(|(k, _)| k == "csrf").map(|(_, v)| v.as_str());
    if !check_post(method, headers, &s.csrf, token) {
        return Err(PageError::new(
            lang,
            StatusCode::FORBIDDEN,
            "this form is stale or was sent from another site: reload the page and try again",
        ));
    }
    serde_urlencoded::from_bytes(&body)
        .map_err(|e| PageError::new(lang, StatusCode::BAD_REQUEST, format!("malformed form: {e}")))
}

fn segment(lang: Lang, p: Result<Path<String>, PathRejection>) -> Result<String, PageError> {
    match p {
        Ok(Path(s)) if !s.contains('\0') => Ok(s),
        Ok(_) => Err(PageError::new(lang, StatusCode::BAD_REQUEST, "the path must not contain NUL (U+0000)")),
        Err(e) => Err(PageError::new(lang, StatusCode::BAD_REQUEST, e.body_text())),
    }
}

fn html_page(m: Markup) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], m.into_string()).into_response()
}

fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

fn outcome(lang: Lang, o: knowhub_core::Outcome) -> Markup {
    let label = match o {
        knowhub_core::Outcome::Success => t(lang, L::o_success),
        knowhub_core::Outcome::Failure => t(lang, L::o_failure),
        knowhub_core::Outcome::Partial => t(lang, L::o_partial),
    };
    html! { span class=(format!("outcome-{}", o.as_str())) { (label) } }
}

fn exp_link(id: &str, text: &str) -> Markup {
    html! { a href=(format!("/ui/experiences/{}", enc(id))) { (text) } }
}

// ---------- sign-in ----------

#[derive(Deserialize)]
pub struct LoginQuery {
    ended: Option<String>,
}

fn login_form(lang: Lang, error: Option<&str>) -> Markup {
    let body = html! {
        h1 { (t(lang, L::sign_in)) }
        @if let Some(e) = error { p.error role="alert" { (e) } }
        form #login.card method="post" action="/ui/login" {
            label { (t(lang, L::key)) br; input type="password" name="key" autocomplete="off" required autofocus size="48"; }
            p { button.primary type="submit" { (t(lang, L::sign_in)) } }
        }
    };
    page(lang, t(lang, L::sign_in), Nav::None, None, None, body)
}

pub async fn login_page(State(c): St, parts: axum::http::request::Parts) -> Response {
    let lang = lang_of(&parts);
    if !c.hub.options().auth {
        return see_other("/ui/");
    }
    let q: LoginQuery =
        serde_urlencoded::from_str(parts.uri.query().unwrap_or("")).unwrap_or(LoginQuery { ended: None });
    let msg = q.ended.map(|_| "your session ended: the key was revoked or changed role; sign in again");
    html_page(login_form(lang, msg))
}

#[derive(Deserialize)]
struct LoginForm {
    key: Option<String>,
}

pub async fn login(State(c): St, parts: axum::http::request::Parts, body: Result<Bytes, BytesRejection>) -> Response {
    let lang = lang_of(&parts);
    if !c.hub.options().auth {
        return see_other("/ui/");
    }
    // No session yet, so no token: the same-site check still applies.
    if !check_post(&Method::POST, &parts.headers, "-", Some("-")) {
        return PageError::new(lang, StatusCode::FORBIDDEN, "sign-in must come from this site").into_response();
    }
    let key = body
        .ok()
        .and_then(|b| serde_urlencoded::from_bytes::<LoginForm>(&b).ok())
        .and_then(|f| f.key)
        .unwrap_or_default();
    match c.sign_in(&key).await {
        Ok(k) => match c.issue(&k) {
            Ok(cookie) => {
                tracing::info!(key = %k.name, role = %k.role, "console sign-in");
                let mut res = see_other("/ui/");
                if let Ok(v) = HeaderValue::from_str(&session::set_cookie(Some(&cookie))) {
                    res.headers_mut().append(header::SET_COOKIE, v);
                }
                res
            }
            Err(e) => PageError::core(lang, e).into_response(),
        },
        Err(e) => {
            knowhub_service::error::log_fault(&e);
            (crate::status_of(&e), html_page(login_form(lang, Some(&e.public_message())))).into_response()
        }
    }
}

#[derive(Deserialize)]
struct CsrfOnly {}

pub async fn logout(
    Ctx(s): Ctx,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    form::<CsrfOnly>(&s, &method, &headers, body)?;
    let mut res = see_other("/ui/login");
    if let Ok(v) = HeaderValue::from_str(&session::set_cookie(None)) {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    Ok(res)
}

pub async fn not_found(parts: axum::http::request::Parts) -> PageError {
    PageError::new(lang_of(&parts), StatusCode::NOT_FOUND, "no such page")
}

// ---------- review queue ----------

#[derive(Deserialize)]
struct PendingQuery {
    kind: Option<String>,
    after: Option<String>,
    limit: Option<String>,
    done: Option<String>,
    id: Option<String>,
}

pub async fn pending(State(c): St, Ctx(s): Ctx, RawQuery(raw): RawQuery) -> PageResult {
    let lang = s.lang;
    let q: PendingQuery = query(lang, raw)?;
    let kind = q.kind.as_deref().and_then(QueueKind::parse).unwrap_or_default();
    // The page is forgiving where the API is strict: a bad limit is the default, a big one the most.
    let range = PENDING_LIMIT;
    let limit =
        q.limit.as_deref().and_then(|l| l.parse::<i64>().ok()).unwrap_or(range.default).clamp(range.min, range.max)
            as usize;
    let after = q.after.filter(|a| !a.trim().is_empty());
    let p = c.hub.pending(&s.caller, kind, after.as_deref(), limit).await.map_err(|e| PageError::core(lang, e))?;
    let flash = q.done.as_deref().and_then(|d| {
        let label = match d {
            "approved" => t(lang, L::done_approved),
            "rejected" => t(lang, L::done_rejected),
            "merged" => t(lang, L::done_merged),
            _ => return None,
        };
        Some(format!("{label} {}", q.id.as_deref().unwrap_or("")))
    });
    Ok(html_page(render_pending(&s, kind, &p, flash.as_deref())))
}

/// The review queue page (public for the render benchmark).
pub fn render_pending(s: &Session, kind: QueueKind, p: &PendingPage, flash: Option<&str>) -> Markup {
    let lang = s.lang;
    let kind_q = kind.as_str();
    let body = html! {
        h1 { (t(lang, L::pending)) }
        p.meta {
            a href="/ui/pending" aria-current=[(kind == QueueKind::Pending).then_some("page")] {
                (t(lang, L::pending)) " (" (p.total_pending) ")"
            }
            a href="/ui/pending?kind=disputed" aria-current=[(kind == QueueKind::Disputed).then_some("page")] {
                (t(lang, L::disputed)) " (" (p.total_disputed) ")"
            }
            a href="/ui/pending?kind=expired" aria-current=[(kind == QueueKind::Expired).then_some("page")] {
                (t(lang, L::expired)) }
            a href="/ui/pending?kind=quarantined" aria-current=[(kind == QueueKind::Quarantined).then_some("page")] {
                (t(lang, L::quarantined)) }
            span.kbd { (t(lang, L::keyboard_help)) }
        }
        section #queue {
            @if p.items.is_empty() { p.empty { (t(lang, L::queue_empty)) } }
            @for (i, item) in p.items.iter().enumerate() {
                (render_item(s, kind_q, i == 0, item))
            }
        }
        @if let Some(next) = &p.next_after {
            p { a href=(format!("/ui/pending?kind={kind_q}&after={}", enc(next))) { "→" } }
        }
    };
    page(lang, t(lang, L::pending), Nav::Pending, Some(s), flash, body)
}

fn render_item(s: &Session, kind_q: &str, first: bool, item: &PendingItem) -> Markup {
    let lang = s.lang;
    let e = &item.experience;
    let base = format!("/ui/pending/{}", enc(&e.id));
    let is_proposal = e.content_for().is_some();
    html! {
        article.item.current[first] data-id=(e.id) tabindex="-1" {
            div.field.task { b { (t(lang, L::task)) } (e.task) }
            div.field.resource { b { (t(lang, L::resource)) } (resource_link(&e.resource))
                @if let Some(v) = &e.resource_version { " " span.muted { (v) } } }
            div.field.result { b { (t(lang, L::result)) } (e.result) }
            div.meta {
                span { (t(lang, L::outcome)) ": " (outcome(lang, e.outcome)) }
                span { (t(lang, L::score)) ": " (e.score) "/5" }
                @if let Some(c) = e.confidence { span { (t(lang, L::confidence)) ": " (format!("{c:.2}")) } }
                span { (t(lang, L::agent)) ": " (e.agent_id) }
                span.scope { (t(lang, L::scope)) ": " (e.scope) }
                @if !e.submitted_by.is_empty() { span { (t(lang, L::submitted_by)) ": " (e.submitted_by) } }
                @if let Some(k) = &e.session_key { span { (t(lang, L::session)) ": " (k) } }
                @if let Some(r) = &e.source_range { span { "#" (r.from) "–" (r.to) } }
                span.redactions { (t(lang, L::redactions)) ": " (item.redactions) }
                span { (exp_link(&e.id, &e.id)) }
            }
            @if !e.flags.is_empty() { div.field { b { (t(lang, L::flags)) } (flags(lang, &e.flags)) } }
            @match &item.source_messages {
                Some(src) => details.source open { summary { (t(lang, L::source)) } (pre(src)) },
                None => p.source.muted { (t(lang, L::no_source)) },
            }
            @if !item.votes.is_empty() {
                div.field { b { (t(lang, L::votes)) }
                    ul { @for v in &item.votes { li { (v.outcome.as_str()) " · " (v.voter) @if let Some(n) = &v.note { " · " (n) } } } }
                }
            }
            div.nearest {
                b { (t(lang, L::nearest)) }
                @if item.nearest.is_empty() { p.muted { (t(lang, L::no_nearest)) } }
                ul { @for h in &item.nearest {
                    li data-id=(h.id) {
                        (exp_link(&h.id, &h.task)) " — " span.muted { (h.resource) " · " (format!("{:.2}", h.relevance)) }
                        @if kind_q == "pending" && !is_proposal {
                            " "
                            form.merge method="post" action=(format!("{base}/merge")) {
                                (csrf(s)) input type="hidden" name="into" value=(h.id);
                                input type="hidden" name="kind" value=(kind_q);
                                button type="submit" { (t(lang, L::merge)) }
                            }
                        }
                    }
                } }
            }
            @if kind_q == "quarantined" {
                p.muted.quarantine-note { (t(lang, L::quarantine_note)) }
            }
            div.actions hidden[kind_q == "quarantined"] {
                form.approve method="post" action=(format!("{base}/approve")) {
                    (csrf(s)) input type="hidden" name="kind" value=(kind_q);
                    button type="submit" { @match kind_q {
                        "disputed" => (t(lang, L::keep)),
                        "expired" => (t(lang, L::reconfirm)),
                        _ => (t(lang, L::approve)),
                    } }
                }
                @if kind_q == "pending" && !is_proposal { button.edit type="button" { (t(lang, L::edit)) } }
                form.reject method="post" action=(format!("{base}/reject")) {
                    (csrf(s)) input type="hidden" name="kind" value=(kind_q);
                    input type="text" name="reason" placeholder=(t(lang, L::reason)) maxlength=(MAX_REASON);
                    button type="submit" { (t(lang, L::reject)) }
                }
            }
            @if kind_q == "pending" && !is_proposal {
                form.edit-form method="post" action=(format!("{base}/approve")) hidden {
                    (csrf(s)) input type="hidden" name="kind" value=(kind_q);
                    input type="hidden" name="edited" value="1";
                    label { (t(lang, L::task)) textarea name="task" required { (e.task) } }
                    label { (t(lang, L::resource)) input type="text" name="resource" value=(e.resource) required; }
                    label { (t(lang, L::result)) textarea name="result" required { (e.result) } }
                    label { (t(lang, L::score)) " "
                        select name="score" { @for n in 1..=5u8 { option value=(n) selected[n == e.score] { (n) } } } }
                    label { (t(lang, L::outcome)) " "
                        select name="outcome" { @for o in knowhub_core::Outcome::ALL {
                            option value=(o.as_str()) selected[*o == e.outcome] { (o.as_str()) } } } }
                    p { button.primary type="submit" { (t(lang, L::save_approve)) } }
                }
            }
        }
    }
}

#[derive(Deserialize)]
struct ApproveForm {
    kind: Option<String>,
    edited: Option<String>,
    task: Option<String>,
    resource: Option<String>,
    result: Option<String>,
    score: Option<String>,
    outcome: Option<String>,
}

fn back_to_queue(kind: Option<&str>, done: &str, id: &str) -> Response {
    let kind = kind.and_then(QueueKind::parse).unwrap_or_default().as_str();
    see_other(&format!("/ui/pending?kind={kind}&done={done}&id={}", enc(id)))
}

pub async fn approve(
    State(c): St,
    Ctx(s): Ctx,
    id: Result<Path<String>, PathRejection>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    let id = segment(s.lang, id)?;
    let f: ApproveForm = form(&s, &method, &headers, body)?;
    let edits = if f.edited.is_some() {
        let score = match f.score.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(v) => Some(v.parse::<i64>().map_err(|_| {
                PageError::new(s.lang, StatusCode::BAD_REQUEST, format!("score: must be 1 to 5, got {v:?}"))
            })?),
        };
        Some(ApproveRequest { task: f.task, resource: f.resource, result: f.result, score, outcome: f.outcome })
    } else {
        None
    };
    c.hub.approve(&s.caller, &id, edits).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(back_to_queue(f.kind.as_deref(), "approved", &id))
}

#[derive(Deserialize)]
struct RejectForm {
    kind: Option<String>,
    reason: Option<String>,
}

pub async fn reject(
    State(c): St,
    Ctx(s): Ctx,
    id: Result<Path<String>, PathRejection>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    let id = segment(s.lang, id)?;
    let f: RejectForm = form(&s, &method, &headers, body)?;
    c.hub.reject(&s.caller, &id, f.reason).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(back_to_queue(f.kind.as_deref(), "rejected", &id))
}

#[derive(Deserialize)]
struct MergeForm {
    kind: Option<String>,
    into: Option<String>,
}

pub async fn merge(
    State(c): St,
    Ctx(s): Ctx,
    id: Result<Path<String>, PathRejection>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    let id = segment(s.lang, id)?;
    let f: MergeForm = form(&s, &method, &headers, body)?;
    let into = MergeRequest { into: f.into.unwrap_or_default() }.validate().map_err(|e| PageError::core(s.lang, e))?;
    let t = c.hub.merge(&s.caller, &id, &into).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(back_to_queue(f.kind.as_deref(), "merged", &t.id))
}

// ---------- search, experience, resource ----------

#[derive(Deserialize)]
struct SearchForm {
    q: Option<String>,
    mode: Option<String>,
    min_score: Option<String>,
    agent_id: Option<String>,
}

/// Hits on the search page.
const PAGE_HITS: usize = 20;

pub async fn search(State(c): St, Ctx(s): Ctx, RawQuery(raw): RawQuery) -> PageResult {
    let lang = s.lang;
    let f: SearchForm = query(lang, raw)?;
    let q = f.q.clone().unwrap_or_default();
    // The page is forgiving where the API is strict: a value it cannot use falls back to the
    // page's default (every rating, hybrid), so only the query itself can be refused.
    let mode = f.mode.as_deref().and_then(SearchMode::parse).unwrap_or(SearchMode::Hybrid);
    let min_score = f.min_score.as_deref().and_then(|v| MIN_SCORE.parse("min_score", Some(v)).ok()).unwrap_or(1);
    let agent = f.agent_id.clone().map(|a| a.trim().to_string()).filter(|a| !a.is_empty());
    let hits = if q.trim().is_empty() {
        None
    } else {
        let req = SearchRequest {
            q: Some(q.clone()),
            top_k: Some(PAGE_HITS.to_string()),
            min_score: Some(min_score.to_string()),
            agent_id: agent.clone(),
            mode: f.mode.clone().filter(|m| SearchMode::parse(m).is_some()),
            min_relevance: None,
            outcome: None,
            scope: None,
        };
        let sq = req.validate().map_err(|e| PageError::core(lang, e))?;
        Some(c.hub.search(&s.caller, &sq).await.map_err(|e| PageError::core(lang, e))?.results)
    };
    let body = html! {
        h1 { (t(lang, L::search)) }
        form #search.card method="get" action="/ui/search" {
            input type="search" name="q" value=(q) autofocus size="40" maxlength=(MAX_QUERY);
            " " label { (t(lang, L::mode)) " " select name="mode" {
                @for m in ["hybrid", "fts", "vector"] { option value=(m) selected[SearchMode::parse(m) == Some(mode)] { (m) } } } }
            " " label { (t(lang, L::min_score)) " " select name="min_score" {
                @for n in MIN_SCORE.min..=MIN_SCORE.max { option value=(n) selected[n == min_score] { (n) } } } }
            " " label { (t(lang, L::agent)) " " input type="text" name="agent_id" value=(agent.unwrap_or_default()) size="12"; }
            " " button.primary type="submit" { (t(lang, L::search)) }
        }
        @if let Some(hits) = &hits {
            @if hits.is_empty() { p.empty { (t(lang, L::no_results)) } }
            ol.hits { @for h in hits { (render_hit(lang, h)) } }
        }
    };
    Ok(html_page(page(lang, t(lang, L::search), Nav::Search, Some(&s), None, body)))
}

fn render_hit(lang: Lang, h: &SearchHit) -> Markup {
    html! {
        li.hit.card data-id=(h.id) {
            div { (exp_link(&h.id, &h.task)) " " (flags(lang, &h.flags)) }
            div.field { b { (t(lang, L::resource)) } (resource_link(&h.resource)) }
            div.field { b { (t(lang, L::result)) } (h.result) }
            div.meta {
                span.relevance { (t(lang, L::relevance)) ": " (meter(h.relevance)) " " (format!("{:.2}", h.relevance)) }
                span { (t(lang, L::outcome)) ": " (outcome(lang, h.outcome)) }
                span { (t(lang, L::score)) ": " (h.score) "/5" }
                span { (t(lang, L::confirmations)) ": " (h.confirmations) }
                span.feedback { (t(lang, L::feedback)) ": " (h.feedback.helped) " " (t(lang, L::helped)) " · "
                    (h.feedback.failed) " " (t(lang, L::failed)) }
                span { (h.agent_id) }
                span.scope { (h.scope) }
            }
        }
    }
}

pub async fn experience(State(c): St, Ctx(s): Ctx, id: Result<Path<String>, PathRejection>) -> PageResult {
    let lang = s.lang;
    let id = segment(lang, id)?;
    let v = c.hub.experience_view(&s.caller, &id).await.map_err(|e| PageError::core(lang, e))?;
    Ok(html_page(page(lang, &v.experience.task, Nav::None, Some(&s), None, render_experience(&s, &v))))
}

fn render_experience(s: &Session, v: &ExperienceView) -> Markup {
    let lang = s.lang;
    let e = &v.experience;
    html! {
        article #experience.card data-id=(e.id) {
            h1.task { (e.task) }
            div.field { b { (t(lang, L::resource)) } (resource_link(&e.resource))
                @if let Some(ver) = &e.resource_version { " " span.muted { (ver) } } }
            div.field.result { b { (t(lang, L::result)) } (e.result) }
            div.meta {
                span { (t(lang, L::status)) ": " strong { (e.status.as_str()) } }
                span { (t(lang, L::outcome)) ": " (outcome(lang, e.outcome)) }
                span { (t(lang, L::score)) ": " (e.score) "/5" }
                span { (t(lang, L::confirmations)) ": " (e.confirmations) }
                span { (t(lang, L::agent)) ": " (e.agent_id) }
                span.scope { (t(lang, L::scope)) ": " (e.scope) }
                span { (t(lang, L::redactions)) ": " (v.redactions) }
            }
            (flags(lang, &e.flags))
            p.feedback { (t(lang, L::feedback)) ": " (e.feedback.helped) " " (t(lang, L::helped)) " · "
                (e.feedback.failed) " " (t(lang, L::failed)) " · " (e.feedback.irrelevant) " " (t(lang, L::irrelevant)) }
            @if let Some(c) = &v.content { h2 { (t(lang, L::content)) " (" (c.content_type) ")" } (pre(&c.content)) }
            @if let Some(src) = &v.source_messages { h2 { (t(lang, L::source)) } (pre(src)) }
            @if e.status == Status::Pending { p { a href="/ui/pending" { (t(lang, L::pending)) } } }
        }
        h2 { (t(lang, L::history)) }
        ol.history { @for h in &v.history {
            li { time { (h.at) } " · " strong { (h.what) } " · " (h.by) @if let Some(n) = &h.note { " — " (n) } }
        } }
        @if !v.votes.is_empty() {
            h2 { (t(lang, L::votes)) }
            ul.votes { @for vo in &v.votes { li { (vo.outcome.as_str()) " · " (vo.voter) " · " (vo.at)
                @if let Some(n) = &vo.note { " — " (n) } } } }
        }
        @if !v.contested.is_empty() {
            h2 { (t(lang, L::contested_by)) }
            ul.contested { @for o in &v.contested { li { (exp_link(&o.id, &o.task)) " — " (o.result) " " (outcome(lang, o.outcome)) } } }
        }
    }
}

pub async fn resource(State(c): St, Ctx(s): Ctx, name: Result<Path<String>, PathRejection>) -> PageResult {
    let lang = s.lang;
    let name = segment(lang, name)?;
    let r = c.hub.resource(&s.caller, &name).await.map_err(|e| PageError::core(lang, e))?;
    // Every record of the resource may be held or skipped: the page stands without a playbook.
    let playbook = match c.hub.playbook(&s.caller, &name, &knowhub_service::PlaybookQuery::default()).await {
        Ok(p) => Some(p),
        Err(knowhub_core::CoreError::NotFound(_)) => None,
        Err(e) => return Err(PageError::core(lang, e)),
    };
    // For reviewers: the written playbook under review, and what they may do with it.
    let written = if s.caller.require(Role::Reviewer).is_ok() {
        match c.hub.written_playbook(&s.caller, &name).await {
            Ok(w) => Some(w),
            Err(knowhub_core::CoreError::NotFound(_)) => None,
            Err(e) => return Err(PageError::core(lang, e)),
        }
    } else {
        None
    };
    let review = written.is_some() || (s.caller.require(Role::Reviewer).is_ok() && c.hub.writes_playbooks());
    let body = html! {
        (render_resource(lang, &r)) (render_playbook(lang, playbook.as_ref()))
        @if review && playbook.is_some() { (render_written(lang, &s, &name, written.as_ref(), c.hub.writes_playbooks())) }
    };
    Ok(html_page(page(lang, &r.summary.resource, Nav::None, Some(&s), None, body)))
}

/// The model-written playbook for its reviewer: its status, its lines, and the buttons to draft
/// it (with an LLM), approve (when it is fresh and not yet approved) or reject it.
fn render_written(
    lang: Lang,
    s: &Session,
    name: &str,
    w: Option<&knowhub_service::WrittenPlaybook>,
    can_draft: bool,
) -> Markup {
    use knowhub_service::DraftStatus;
    let action = format!("/ui/resources/{}/playbook", enc(name));
    let button = |what: &'static str, label: L| {
        html! { form.inline method="post" action=(action) { (csrf(s)) input type="hidden" name="action" value=(what);
        button type="submit" data-action=(what) { (t(lang, label)) } } }
    };
    html! {
        section #written-playbook {
            h2 { (t(lang, L::written_playbook)) }
            @if let Some(w) = w {
                p.muted data-status=(format!("{:?}", w.status).to_lowercase()) data-stale=(w.stale) {
                    (format!("{:?}", w.status).to_lowercase()) " · " (w.model) " · " (w.drafted_by) " · " (w.drafted_at)
                    @if w.stale { " · " strong { (t(lang, L::stale)) } }
                    @if w.status == DraftStatus::Approved && !w.stale { " · " (t(lang, L::agents_get_written)) }
                }
                ul.playbook { @for l in &w.playbook.lines {
                    li data-section=(format!("{:?}", l.section).to_lowercase()) {
                        (maud::PreEscaped(l.text.trim_start_matches("- ").to_string())) " "
                        @for id in &l.ids { (exp_link(id, "↗")) " " }
                    }
                } }
                div.actions {
                    @if !w.stale && w.status != DraftStatus::Approved { (button("approve", L::approve)) }
                    @if w.status != DraftStatus::Rejected { (button("reject", L::reject)) }
                    @if can_draft { (button("draft", L::draft_playbook)) }
                }
            } @else if can_draft {
                div.actions { (button("draft", L::draft_playbook)) }
            }
        }
    }
}

#[derive(Deserialize)]
struct PlaybookForm {
    action: String,
}

/// Draft, approve or reject a resource's written playbook, then back to its page.
pub async fn playbook_action(
    State(c): St,
    Ctx(s): Ctx,
    name: Result<Path<String>, PathRejection>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    let name = segment(s.lang, name)?;
    let f: PlaybookForm = form(&s, &method, &headers, body)?;
    let done = match f.action.as_str() {
        "draft" => c.hub.draft_playbook(&s.caller, &name, Default::default()).await,
        a => {
            c.hub
                .review_playbook(&s.caller, &name, knowhub_service::ReviewPlaybookRequest { action: Some(a.into()) })
                .await
        }
    };
    done.map_err(|e| PageError::core(s.lang, e))?;
    Ok(see_other(&format!("/ui/resources/{}#written-playbook", enc(&name))))
}

/// The resource's playbook as agents get it: each line as the model reads it (already escaped
/// for markup by `prompt::escape`, so shown as is), with links to the experiences it cites.
fn render_playbook(lang: Lang, p: Option<&knowhub_service::Playbook>) -> Markup {
    html! {
        section #playbook {
            h2 { (t(lang, L::playbook)) }
            @match p {
                None => p.muted { (t(lang, L::none)) },
                Some(p) => {
                    p.muted { (format!("~{} / {} tokens · {} · {} {}", p.tokens, p.budget_tokens, p.experiences,
                        t(lang, L::records), if p.omitted > 0 { format!("· +{} omitted", p.omitted) } else { String::new() })) }
                    ul.playbook { @for l in &p.lines {
                        li data-section=(format!("{:?}", l.section).to_lowercase()) {
                            // The list marks each line already; the model's copy starts with "- ".
                            (maud::PreEscaped(l.text.trim_start_matches("- ").to_string())) " "
                            @for id in &l.ids { (exp_link(id, "↗")) " " }
                        }
                    } }
                }
            }
        }
    }
}

fn mini(lang: Lang, e: &Experience) -> Markup {
    html! { li data-id=(e.id) { (exp_link(&e.id, &e.task)) " — " (e.result) " " span.muted { (outcome(lang, e.outcome)) " · " (e.created_at) } } }
}

fn render_resource(lang: Lang, r: &ResourcePage) -> Markup {
    let s = &r.summary;
    html! {
        section #resource {
            h1 { (s.resource) }
            div.totals.stats {
                div data-stat="records" { (t(lang, L::records)) b { (s.records) } }
                div data-stat="successes" { (t(lang, L::successes)) b { (s.successes) } }
                div data-stat="failures" { (t(lang, L::failures)) b { (s.failures) } }
                div data-stat="partials" { (t(lang, L::partials)) b { (s.partials) } }
                div data-stat="helped" { (t(lang, L::helped)) b { (s.helped) } }
                div data-stat="failed_votes" { (t(lang, L::failed)) b { (s.failed_votes) } }
            }
            h2 { (t(lang, L::known_failures)) }
            @if r.failures.is_empty() { p.muted { (t(lang, L::none)) } }
            ul.failures { @for e in &r.failures { (mini(lang, e)) } }
            h2 { (t(lang, L::last_success)) }
            @match &r.last_success { Some(e) => ul { (mini(lang, e)) }, None => p.muted { (t(lang, L::none)) } }
            h2 { (t(lang, L::top_experiences)) }
            ul.top { @for e in &r.top { (mini(lang, e)) } }
        }
    }
}

// ---------- dashboard ----------

pub async fn dashboard(State(c): St, Ctx(s): Ctx) -> PageResult {
    let lang = s.lang;
    let d = c.hub.dashboard(&s.caller, DASHBOARD_WEEKS.default as u32).await.map_err(|e| PageError::core(lang, e))?;
    let links = render_links(lang, &c.hub.metrics().snapshot());
    let body = html! { (render_dashboard(lang, &d)) (links) };
    Ok(html_page(page(lang, t(lang, L::dashboard), Nav::Dashboard, Some(&s), None, body)))
}

/// What this replica's webhooks and pulls from other hubs are doing (absent when none is set).
fn render_links(lang: Lang, m: &knowhub_service::MetricsSnapshot) -> Markup {
    html! {
        @if !m.webhooks.is_empty() {
            section #webhooks {
                h2 { (t(lang, L::webhooks)) }
                div.scroll { table {
                    thead { tr { th { (t(lang, L::name)) } th.n { (t(lang, L::last_status)) }
                        th.n { (t(lang, L::delivered)) } th.n { (t(lang, L::failures)) } } }
                    tbody { @for w in &m.webhooks {
                        tr data-hook=(w.name) data-ok=((200..300).contains(&w.last_status)) {
                            td { (w.name) }
                            td.n { @if w.last_status == 0 { (t(lang, L::no_answer)) } @else { (w.last_status) } }
                            td.n { (w.delivered) } td.n { (w.failed) }
                        }
                    } }
                } }
            }
        }
        @if !m.sync.is_empty() {
            section #sync {
                h2 { (t(lang, L::sync_from)) }
                div.scroll { table {
                    thead { tr { th { (t(lang, L::hub_url)) } th { (t(lang, L::last_status)) } th.n { (t(lang, L::read_changes)) }
                        th.n { (t(lang, L::created)) } th.n { (t(lang, L::conflicts)) } th.n { (t(lang, L::failures)) } } }
                    tbody { @for p in &m.sync {
                        tr data-from=(p.from) data-ok=(p.ok) {
                            td { (p.from) }
                            td { @if p.ok { "ok" } @else { (p.error) } }
                            td.n { (p.read) } td.n { (p.created) } td.n { (p.conflicts) } td.n { (p.failures) }
                        }
                    } }
                } }
            }
        }
    }
}

fn share(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 / of as f64
    }
}

fn render_dashboard(lang: Lang, d: &Dashboard) -> Markup {
    let tt = &d.totals;
    html! {
        section #dashboard {
            h1 { (t(lang, L::dashboard)) }
            div.totals {
                div data-total="records" { (t(lang, L::records)) b { (tt.records) } }
                div data-total="pending" { a href="/ui/pending" { (t(lang, L::pending)) } b { (tt.pending) } }
                div data-total="approved" { (t(lang, L::approved)) b { (tt.approved) } }
                div data-total="rejected" { (t(lang, L::rejected)) b { (tt.rejected) } }
                div data-total="disputed" { a href="/ui/pending?kind=disputed" { (t(lang, L::disputed)) } b { (tt.disputed) } }
                div data-total="searches" { (t(lang, L::searches)) b { (tt.searches) } }
                div data-total="found" { (t(lang, L::found)) b { (format!("{:.0}%", 100.0 * share(tt.found, tt.searches))) } }
                div data-total="helped" { (t(lang, L::helped)) " / " (t(lang, L::failed)) b { (tt.helped) " / " (tt.failed) } }
                div data-total="jobs" { (t(lang, L::jobs)) b { (tt.jobs) } }
                div data-total="tokens" { (t(lang, L::tokens)) b { (tt.input_tokens) " / " (tt.output_tokens) } }
            }
            p.muted { (d.since) " →" }
            div.scroll { table.weeks {
                thead { tr { th { (t(lang, L::week)) } th.n { (t(lang, L::created)) } th.n { (t(lang, L::pending)) }
                    th.n { (t(lang, L::approved)) } th.n { (t(lang, L::rejected)) } } }
                tbody { @for w in &d.weeks { tr { td { (w.week) } td.n { (w.created) } td.n { (w.pending) }
                    td.n { (w.approved) } td.n { (w.rejected) } } } }
            } }
            h2 { (t(lang, L::searches_per_day)) }
            div.scroll { table.days {
                thead { tr { th { (t(lang, L::day)) } th.n { (t(lang, L::searches)) } th.n { (t(lang, L::found)) } th {} } }
                tbody { @for day in d.days.iter().rev().filter(|x| x.searches > 0).take(14) {
                    tr { td { (day.day) } td.n { (day.searches) } td.n { (day.found) } td { (meter(share(day.found, day.searches))) } } } }
            } }
            h2 { (t(lang, L::top_resources)) }
            div.scroll { table.resources {
                thead { tr { th { (t(lang, L::resource)) } th.n { (t(lang, L::records)) } th.n { (t(lang, L::successes)) }
                    th.n { (t(lang, L::failures)) } th { (t(lang, L::last_success)) } } }
                tbody { @for r in &d.top_resources { tr { td { (resource_link(&r.resource)) } td.n { (r.records) }
                    td.n { (r.successes) } td.n { (r.failures) } td { (r.last_success_at.as_deref().unwrap_or("—")) } } } }
            } }
            h2 { (t(lang, L::per_agent)) }
            div.scroll { table.agents {
                thead { tr { th { (t(lang, L::agent)) } th.n { (t(lang, L::records)) } th.n { (t(lang, L::approved)) }
                    th.n { (t(lang, L::searches)) } th.n { (t(lang, L::found)) } th.n { (t(lang, L::helped)) }
                    th.n { (t(lang, L::failed)) } th.n { (t(lang, L::jobs)) } th.n { (t(lang, L::tokens)) } } }
                tbody { @for a in &d.agents { tr { td { (a.agent_id) } td.n { (a.records) } td.n { (a.approved) }
                    td.n { (a.searches) } td.n { (a.found) } td.n { (a.helped) } td.n { (a.failed) } td.n { (a.jobs) }
                    td.n { (a.input_tokens) " / " (a.output_tokens) } } } }
            } }
        }
    }
}

// ---------- keys ----------

async fn render_keys(c: &Arc<Console>, s: &Session, new_key: Option<(&str, &str)>, flash: Option<&str>) -> PageResult {
    let lang = s.lang;
    let keys = c.hub.list_keys(&s.caller).await.map_err(|e| PageError::core(lang, e))?;
    let quarantines = c.hub.quarantines(&s.caller).await.map_err(|e| PageError::core(lang, e))?.quarantines;
    let body = html! {
        h1 { (t(lang, L::keys)) }
        @if let Some((name, key)) = new_key {
            div.card.new-key { p { (t(lang, L::new_key_once)) " " strong { (name) } } code { (key) } }
        }
        form #create-key.card method="post" action="/ui/keys" {
            (csrf(s))
            label { (t(lang, L::name)) " " input type="text" name="name" required maxlength=(MAX_KEY_NAME); }
            " " label { (t(lang, L::role)) " " select name="role" {
                option value="agent" { "agent" } option value="reviewer" { "reviewer" } option value="admin" { "admin" } } }
            " " label { (t(lang, L::reads)) " " input type="text" name="read" placeholder=(t(lang, L::reads_hint)) maxlength="1000"; }
            " " label { (t(lang, L::writes)) " " input type="text" name="write" placeholder="org" maxlength=(MAX_SCOPE); }
            " " button.primary type="submit" { (t(lang, L::create_key)) }
        }
        div.scroll { table.keys {
            thead { tr { th { (t(lang, L::name)) } th { (t(lang, L::role)) } th { (t(lang, L::reads)) } th { (t(lang, L::writes)) }
                th { (t(lang, L::prefix)) } th { (t(lang, L::created)) }
                th { (t(lang, L::status)) } th {} } }
            tbody { @for k in &keys { tr.key data-name=(k.name) {
                td { (k.name) } td { (k.role.as_str()) } td.reads { (k.read_scopes.join(", ")) } td.writes { (k.write_scope) }
                td { code { (k.prefix) "…" } } td { (k.created_at) }
                td { @match &k.revoked_at { Some(at) => { (t(lang, L::revoked)) " " (at) }, None => (t(lang, L::active)) } }
                td { @if k.revoked_at.is_none() {
                    form.revoke method="post" action=(format!("/ui/keys/{}/revoke", enc(&k.id))) {
                        (csrf(s))
                        label { input type="checkbox" name="quarantine" value="true"; " " (t(lang, L::and_quarantine)) }
                        " " button type="submit" { (t(lang, L::revoke)) } } } }
            } } }
        } }
        h2 { (t(lang, L::quarantine)) }
        p.muted { (t(lang, L::quarantine_help)) }
        form #quarantine.card method="post" action="/ui/quarantine" {
            (csrf(s))
            select name="kind" { option value="key" { (t(lang, L::key_kind)) } option value="agent" { (t(lang, L::agent)) } }
            " " input type="text" name="value" required maxlength="200";
            " " button.primary type="submit" { (t(lang, L::quarantine)) }
        }
        @if !quarantines.is_empty() {
            div.scroll { table.quarantines {
                thead { tr { th { (t(lang, L::name)) } th { (t(lang, L::records)) } th { (t(lang, L::created)) } th {} } }
                tbody { @for q in &quarantines { tr.quarantine data-value=(q.value) {
                    td { (q.kind) " " code { (q.value) } } td { (q.records) } td { (q.by) " · " (q.at) }
                    td {
                        form.lift method="post" action="/ui/quarantine/lift" {
                            (csrf(s)) input type="hidden" name="kind" value=(q.kind); input type="hidden" name="value" value=(q.value);
                            input type="hidden" name="action" value="restore";
                            button type="submit" { (t(lang, L::restore_all)) }
                        }
                        form.lift method="post" action="/ui/quarantine/lift" {
                            (csrf(s)) input type="hidden" name="kind" value=(q.kind); input type="hidden" name="value" value=(q.value);
                            input type="hidden" name="action" value="reject";
                            input type="text" name="reason" placeholder=(t(lang, L::reason)) maxlength=(MAX_REASON);
                            button type="submit" { (t(lang, L::reject_all)) }
                        }
                    }
                } } }
            } }
        }
    };
    Ok(html_page(page(lang, t(lang, L::keys), Nav::Keys, Some(s), flash, body)))
}

fn admin_only(s: &Session) -> Result<(), PageError> {
    s.caller.require(Role::Admin).map_err(|e| PageError::core(s.lang, e))
}

pub async fn keys(State(c): St, Ctx(s): Ctx, RawQuery(raw): RawQuery) -> PageResult {
    admin_only(&s)?;
    let done = match raw.as_deref() {
        Some(q) if q.contains("done=revoked") => Some(t(s.lang, L::done_revoked)),
        Some(q) if q.contains("done=quarantined") => Some(t(s.lang, L::done_quarantined)),
        Some(q) if q.contains("done=lifted") => Some(t(s.lang, L::done_lifted)),
        _ => None,
    };
    render_keys(&c, &s, None, done).await
}

#[derive(Deserialize)]
struct QuarantineForm {
    kind: Option<String>,
    value: Option<String>,
    action: Option<String>,
    reason: Option<String>,
}

impl QuarantineForm {
    fn request(self) -> knowhub_service::QuarantineRequest {
        let (key, agent_id) = match self.kind.as_deref() {
            Some("agent") => (None, self.value),
            _ => (self.value, None),
        };
        knowhub_service::QuarantineRequest { key, agent_id, action: self.action, reason: self.reason }
    }
}

/// Quarantines what one key or agent wrote (admin).
pub async fn quarantine(
    State(c): St,
    Ctx(s): Ctx,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    admin_only(&s)?;
    let f: QuarantineForm = form(&s, &method, &headers, body)?;
    let (target, _) = f.request().validate().map_err(|e| PageError::core(s.lang, e))?;
    c.hub.quarantine(&s.caller, &target).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(see_other("/ui/keys?done=quarantined"))
}

/// Lifts a quarantine, restoring or rejecting everything it held (admin).
pub async fn lift_quarantine(
    State(c): St,
    Ctx(s): Ctx,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    admin_only(&s)?;
    let f: QuarantineForm = form(&s, &method, &headers, body)?;
    let (target, release) = f.request().validate().map_err(|e| PageError::core(s.lang, e))?;
    c.hub.release(&s.caller, &target, release).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(see_other("/ui/keys?done=lifted"))
}

#[derive(Deserialize)]
struct KeyForm {
    name: Option<String>,
    role: Option<String>,
    read: Option<String>,
    write: Option<String>,
}

pub async fn create_key(
    State(c): St,
    Ctx(s): Ctx,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    admin_only(&s)?;
    let f: KeyForm = form(&s, &method, &headers, body)?;
    let req = NewKeyRequest {
        name: f.name.unwrap_or_default(),
        role: f.role.unwrap_or_default().trim().to_string(),
        read: f.read,
        write: f.write,
    };
    let spec = req.validate().map_err(|e| PageError::core(s.lang, e))?;
    let created = c.hub.create_scoped_key(&s.caller, spec).await.map_err(|e| PageError::core(s.lang, e))?;
    render_keys(&c, &s, Some((&created.info.name, &created.key)), None).await
}

#[derive(Deserialize)]
struct RevokeForm {
    quarantine: Option<String>,
}

pub async fn revoke_key(
    State(c): St,
    Ctx(s): Ctx,
    id: Result<Path<String>, PathRejection>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> PageResult {
    admin_only(&s)?;
    let id = segment(s.lang, id)?;
    let f: RevokeForm = form(&s, &method, &headers, body)?;
    if f.quarantine.as_deref() == Some("true") {
        c.hub.revoke_and_quarantine(&s.caller, &id).await.map_err(|e| PageError::core(s.lang, e))?;
        return Ok(see_other("/ui/keys?done=revoked,quarantined"));
    }
    c.hub.revoke_key(&s.caller, &id).await.map_err(|e| PageError::core(s.lang, e))?;
    Ok(see_other("/ui/keys?done=revoked"))
}
