//! The page shell and small shared pieces. maud escapes every interpolated value, so stored text
//! (which is untrusted: agents and LLMs wrote it) is only ever text on the page.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::i18n::{t, Lang, L};
use crate::session::Session;

/// Which nav entry is current.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nav {
    Dashboard,
    Pending,
    Search,
    Keys,
    None,
}

/// Percent-encodes a path segment or query value (everything but RFC 3986 unreserved bytes).
pub fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A whole page. `session` is absent on the sign-in and error pages of a signed-out visitor.
pub fn page(lang: Lang, title: &str, nav: Nav, session: Option<&Session>, flash: Option<&str>, body: Markup) -> Markup {
    let other = if lang == Lang::En { "zh" } else { "en" };
    html! {
        (DOCTYPE)
        html lang=(lang.code()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) " · " (t(lang, L::app)) }
                link rel="stylesheet" href=(crate::assets::CSS_PATH);
                script src=(crate::assets::JS_PATH) defer {}
            }
            body {
                header {
                    a.brand href="/ui/" { "KnowHub" }
                    @if let Some(s) = session {
                        nav {
                            a href="/ui/" aria-current=[(nav == Nav::Dashboard).then_some("page")] { (t(lang, L::dashboard)) }
                            a href="/ui/pending" aria-current=[(nav == Nav::Pending).then_some("page")] { (t(lang, L::pending)) }
                            a href="/ui/search" aria-current=[(nav == Nav::Search).then_some("page")] { (t(lang, L::search)) }
                            @if s.is_admin() {
                                a href="/ui/keys" aria-current=[(nav == Nav::Keys).then_some("page")] { (t(lang, L::keys)) }
                            }
                        }
                    }
                    div.tools {
                        a.lang href=(format!("?lang={other}")) hreflang=(other) { (t(lang, L::language)) }
                        @if let Some(s) = session {
                            span.who title=(t(lang, L::signed_in_as)) {
                                @if s.signed_in { (s.caller.name) " · " (s.caller.role.as_str()) } @else { (t(lang, L::local_operator)) }
                            }
                            @if s.signed_in {
                                form #logout method="post" action="/ui/logout" {
                                    input type="hidden" name="csrf" value=(s.csrf);
                                    button type="submit" { (t(lang, L::sign_out)) }
                                }
                            }
                        }
                    }
                }
                main {
                    @if let Some(f) = flash { p.flash role="status" { (f) } }
                    (body)
                }
            }
        }
    }
}

/// The hidden CSRF field every form carries.
pub fn csrf(s: &Session) -> Markup {
    html! { input type="hidden" name="csrf" value=(s.csrf); }
}

/// Flags as badges (a record's stored flags plus `disputed`/`contested`).
pub fn flags(lang: Lang, flags: &[String]) -> Markup {
    html! {
        @if !flags.is_empty() {
            span.flags title=(t(lang, L::flags)) {
                @for f in flags { span.flag.warn[is_warning(f)] { (f) } " " }
            }
        }
    }
}

fn is_warning(flag: &str) -> bool {
    flag.contains("injection") || flag == "disputed" || flag == "contested"
}

/// A resource name linking to its page.
pub fn resource_link(name: &str) -> Markup {
    html! { a.resource-link href=(format!("/ui/resources/{}", enc(name))) { (name) } }
}

/// Text that keeps its line breaks (source messages, content).
pub fn pre(text: &str) -> Markup {
    html! { pre { (text) } }
}

/// A 0-1 number as a meter (no inline styles: the CSP forbids them).
pub fn meter(value: f64) -> Markup {
    html! { meter min="0" max="1" value=(format!("{value:.3}")) { (format!("{value:.2}")) } }
}

/// Escape hatch kept in one place: only constant markup goes through it.
pub fn raw(s: &'static str) -> PreEscaped<&'static str> {
    PreEscaped(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_keeps_only_unreserved_bytes() {
        assert_eq!(enc("pg_dump 16"), "pg_dump%2016");
        assert_eq!(enc("a/b?c#d"), "a%2Fb%3Fc%23d");
        assert_eq!(enc("超时"), "%E8%B6%85%E6%97%B6");
    }

    #[test]
    fn stored_markup_is_escaped() {
        let m = flags(Lang::En, &["<script>alert(1)</script>".to_string()]).into_string();
        assert!(m.contains("&lt;script&gt;"), "{m}");
        assert!(!m.contains("<script>"), "{m}");
        let r = resource_link("\"><img src=x onerror=alert(1)>").into_string();
        assert!(!r.contains("<img"), "{r}");
    }
}
