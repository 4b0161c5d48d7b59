//! Server-side redaction of secrets and personal data: defence in depth for text that agents
//! upload (conversations sent for extraction, submissions from clients that do not redact).
//!
//! The rules, their order, their replacement tokens and their judgement calls mirror the OpenClaw
//! plugin's strict privacy mode (`plugins/openclaw/src/security.ts`), so a text redacted by the
//! plugin comes through here unchanged and the two never disagree about what is a secret.
//!
//! Design rule: never corrupt ordinary technical text. URLs, package specs (`pkg@1.2.3`), semver,
//! UUIDs, hashes, dates, ports, paths outside home directories, Chinese text and code such as
//! `password: string` pass through untouched. Judgement calls (kept as in the plugin):
//! - a dotted quad is an IPv4 address unless it follows a version marker (`v1.2.3.4`,
//!   `version 10.0.19041.1`, `==1.2.3.4`, `node 1.2.3.4`) or is part of a longer dotted number;
//! - loopback (`127.x`), `0.0.0.0` and `255.255.x.x` masks are kept (not identifying);
//! - `git@github.com:org/repo` SSH remotes are kept (not a person's address);
//! - an 11-digit number `1[3-9]xxxxxxxxx` is a Chinese mobile number.
//!
//! Rust's `regex` has no look-around, so a look-behind is written as a consumed `(?:[^...]|^)`
//! prefix (the search resumes one character early so that character can serve as context) and a
//! trailing negative look-ahead as a consumed alternative after the group named `m`: only `m` is
//! replaced and scanning resumes at its end. Leftmost-first matching then picks the same matches
//! as the plugin's backtracking JavaScript, in linear time.
//! Character classes are ASCII on purpose (JavaScript's `\w`, `\d`, `\b` are), so a phone number or
//! email right next to Chinese characters is still found. Every pattern runs in linear time.

use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde::Serialize;

/// Redacted text and how many replacements each category got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    pub counts: RedactionCounts,
}

/// Replacements per category (a server can log or return these without revealing anything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RedactionCounts {
    /// `-----BEGIN ... PRIVATE KEY-----` blocks.
    pub private_key: usize,
    /// JSON Web Tokens.
    pub jwt: usize,
    /// `Bearer ...` and `Authorization: Basic ...` credentials.
    pub bearer_token: usize,
    /// Provider keys and tokens: OpenAI/Anthropic `sk-`, Stripe, AWS, GitHub, Slack, Google.
    pub api_key: usize,
    /// Passwords in URLs and `password=...` / `token: ...` style assignments.
    pub secret: usize,
    pub email: usize,
    /// User names in `/home/x`, `/Users/x`, `C:\Users\x`.
    pub home_path: usize,
    pub ip: usize,
    pub phone: usize,
}

impl RedactionCounts {
    /// Total replacements over all categories.
    pub fn total(&self) -> usize {
        self.iter().map(|(_, n)| n).sum()
    }

    /// True when nothing was redacted.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// `(category, count)` pairs in a fixed order, for logs and metrics.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, usize)> {
        [
            ("private_key", self.private_key),
            ("jwt", self.jwt),
            ("bearer_token", self.bearer_token),
            ("api_key", self.api_key),
            ("secret", self.secret),
            ("email", self.email),
            ("home_path", self.home_path),
            ("ip", self.ip),
            ("phone", self.phone),
        ]
        .into_iter()
    }

    /// Adds another text's counts (totals over several texts, e.g. an uploaded conversation).
    pub fn add(&mut self, o: &RedactionCounts) {
        self.private_key += o.private_key;
        self.jwt += o.jwt;
        self.bearer_token += o.bearer_token;
        self.api_key += o.api_key;
        self.secret += o.secret;
        self.email += o.email;
        self.home_path += o.home_path;
        self.ip += o.ip;
        self.phone += o.phone;
    }

    fn slot(&mut self, c: Category) -> &mut usize {
        match c {
            Category::PrivateKey => &mut self.private_key,
            Category::Jwt => &mut self.jwt,
            Category::BearerToken => &mut self.bearer_token,
            Category::ApiKey => &mut self.api_key,
            Category::Secret => &mut self.secret,
            Category::Email => &mut self.email,
            Category::HomePath => &mut self.home_path,
            Category::Ip => &mut self.ip,
            Category::Phone => &mut self.phone,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Category {
    PrivateKey,
    Jwt,
    BearerToken,
    ApiKey,
    Secret,
    Email,
    HomePath,
    Ip,
    Phone,
}

/// What a rule decides about one regex match.
enum Action {
    /// A look-ahead fixed by the start position failed (`(?!\[REDACTED\])`): no match starts
    /// here; try again one character later.
    NoMatch,
    /// A match, but not a secret (the plugin's callback returned the match): keep it, go on after.
    Keep,
    /// Replace the span (group `m` when the pattern has one, else the whole match).
    Replace(String),
}

struct Rule {
    name: &'static str,
    category: Category,
    re: Regex,
    /// The pattern opens with `(?:[^...]|^)` standing for a look-behind: search from one character
    /// before the resume point so that character can be consumed as context. (`^` comes last so a
    /// search from offset 0 first tries to use the first character as context.)
    lookbehind: bool,
    decide: fn(&Captures<'_>, &str) -> Action,
}

/// The character just before byte offset `at`, if any.
fn prev_char(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

fn group<'t>(caps: &Captures<'t>, name: &str) -> &'t str {
    caps.name(name).map_or("", |m| m.as_str())
}

fn span_start(caps: &Captures<'_>) -> usize {
    caps.name("m").or_else(|| caps.get(0)).map_or(0, |m| m.start())
}

/// The user name slot already holds `[REDACTED]` (the plugin's `(?!\[REDACTED\])`).
fn already_redacted(caps: &Captures<'_>, text: &str) -> bool {
    caps.name("user").is_some_and(|u| text[u.start()..].starts_with("[REDACTED]"))
}

fn replace_with(token: &str) -> Action {
    Action::Replace(token.to_string())
}

/// Values that look like code or placeholders rather than secrets (mirrors `isLikelySecretValue`).
fn is_likely_secret_value(v: &str) -> bool {
    if v.starts_with(['$', '<', '{', '%', '[']) {
        return false; // ${VAR}, <placeholder>, {{tpl}}, %VAR%, [REDACTED]
    }
    let lower = v.to_ascii_lowercase();
    if lower.contains("process.env") || lower.contains("os.environ") || lower.contains("getenv") {
        return false;
    }
    const PLACEHOLDERS: &[&str] = &[
        "string",
        "number",
        "boolean",
        "null",
        "undefined",
        "none",
        "true",
        "false",
        "required",
        "optional",
        "secret",
        "password",
        "token",
        "str",
        "int",
    ];
    if PLACEHOLDERS.contains(&lower.as_str()) {
        return false; // type annotations and placeholders
    }
    v.bytes().any(|b| b.is_ascii_digit())
        || v.contains(['!', '@', '#', '%', '^', '&', '*', '+', '/', '=', '~', '-'])
        || v.chars().count() >= 20
}

/// Loopback, the wildcard address and netmasks are not identifying and are common in tech text.
fn is_publicish_ipv4(ip: &str) -> bool {
    let mut parts = ip.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (a, b) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    !(a == 127 || ip == "0.0.0.0" || (a == 255 && b == 255))
}

/// A version marker right before a dotted quad: it is a version, not an address.
static VERSION_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    let b = r"(?-u:\b)";
    Regex::new(&format!(
        r"(?i)(?:{b}v|{b}versions?|{b}ver\.?|{b}release|{b}build|{b}rev(?:ision)?|{b}node|{b}python|{b}chrome|{b}firefox|[=<>~^]=?)\s*[:=]?\s*\z"
    ))
    .expect("version context regex")
});

/// The 16 characters before `at` (the plugin looks at the same window).
fn window_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let from = head.char_indices().rev().nth(15).map_or(0, |(i, _)| i);
    &head[from..]
}

const OCTET: &str = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

fn rule(name: &'static str, category: Category, pattern: &str, decide: fn(&Captures<'_>, &str) -> Action) -> Rule {
    let re = Regex::new(pattern).unwrap_or_else(|e| panic!("redaction rule {name}: {e}"));
    let lookbehind = pattern.contains("|^)(?P<m>");
    Rule { name, category, re, lookbehind, decide }
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    use Category::*;
    vec![
        // PEM private key blocks (also truncated ones without an END line).
        rule(
            "private_key",
            PrivateKey,
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)",
            |_, _| replace_with("[PRIVATE_KEY]"),
        ),
        // Passwords embedded in URLs: scheme://user:password@host -> scheme://user:[REDACTED]@host
        rule(
            "url_password",
            Secret,
            r"(?i)(?-u:\b)(?P<head>[a-z][a-z0-9+.\-]*://[^\s:@/]+):(?P<pw>[^\s@/]+)@",
            |c, _| {
                if group(c, "pw") == "[REDACTED]" {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}:[REDACTED]@", group(c, "head")))
                }
            },
        ),
        // JSON Web Tokens (three base64url segments, the first one a JSON header).
        rule("jwt", Jwt, r"(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", |_, _| {
            replace_with("[JWT]")
        }),
        // Bearer tokens: 16+ token characters including a digit, so prose such as "use a Bearer
        // token" or "Bearer authentication" is left alone.
        rule("bearer", BearerToken, r"(?i)(?-u:\b)(?P<head>Bearer)\s+(?P<tok>[A-Za-z0-9._~+/\-]{16,})=*", |c, _| {
            if group(c, "tok").bytes().any(|b| b.is_ascii_digit()) {
                Action::Replace(format!("{} [TOKEN]", group(c, "head")))
            } else {
                Action::Keep
            }
        }),
        rule(
            "basic_auth",
            BearerToken,
            r"(?i)(?-u:\b)(?P<head>Authorization\s*:\s*Basic)\s+[A-Za-z0-9+/]{8,}={0,2}",
            |c, _| Action::Replace(format!("{} [TOKEN]", group(c, "head"))),
        ),
        // OpenAI / Anthropic keys: sk-..., sk-proj-..., sk-ant-... (a digit and 20+ chars; the
        // left guard keeps words like "task-runner-..." intact).
        rule("sk_key", ApiKey, r"(?:[^A-Za-z0-9_\-]|^)(?P<m>sk-[A-Za-z0-9_\-]{20,})", |c, _| {
            if group(c, "m").bytes().any(|b| b.is_ascii_digit()) {
                replace_with("[API_KEY]")
            } else {
                Action::Keep
            }
        }),
        // Stripe-style live/test keys.
        rule("stripe_key", ApiKey, r"(?:[^A-Za-z0-9_]|^)(?P<m>(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,})", |_, _| {
            replace_with("[API_KEY]")
        }),
        // AWS access key ids.
        rule("aws_key", ApiKey, r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)", |_, _| replace_with("[AWS_KEY]")),
        // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
        rule("github_token", ApiKey, r"(?-u:\b)gh[pousr]_[A-Za-z0-9]{30,}(?-u:\b)", |_, _| {
            replace_with("[GITHUB_TOKEN]")
        }),
        rule("github_pat", ApiKey, r"(?-u:\b)github_pat_[A-Za-z0-9_]{22,}", |_, _| replace_with("[GITHUB_TOKEN]")),
        // Slack tokens.
        rule("slack_token", ApiKey, r"(?-u:\b)xox[abposre]-[A-Za-z0-9\-]{10,}", |_, _| replace_with("[SLACK_TOKEN]")),
        rule("slack_app_token", ApiKey, r"(?-u:\b)xapp-[0-9]-[A-Za-z0-9\-]{10,}", |_, _| replace_with("[SLACK_TOKEN]")),
        // Google API keys.
        rule("google_key", ApiKey, r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}(?-u:\b)", |_, _| replace_with("[API_KEY]")),
        // key=value / key: value secrets (api_key=..., "password": "...", TOKEN=...). The value
        // must look like a secret, so `password: string` in code survives.
        rule(
            "secret_assignment",
            Secret,
            r#"(?i)(?-u:\b)(?P<head>(?:[A-Za-z0-9]+[_\-])*(?:api[_\-]?key|apikey|access[_\-]?key|secret[_\-]?key|access[_\-]?token|auth[_\-]?token|refresh[_\-]?token|client[_\-]?secret|aws_secret_access_key|secret|password|passwd|pwd|token)["']?\s*[:=]\s*["']?)(?P<value>[^\s"',;`]{8,})"#,
            |c, _| {
                if is_likely_secret_value(group(c, "value")) {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                } else {
                    Action::Keep
                }
            },
        ),
        // Email addresses. `git@host:org/repo` SSH remotes are kept (not a person's address).
        rule(
            "email",
            Email,
            r"(?:[^A-Za-z0-9._%+\-]|^)(?P<m>(?P<local>[A-Za-z0-9._%+\-]+)@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,})(?:[^A-Za-z0-9\-]|\z)",
            |c, _| {
                if group(c, "local").eq_ignore_ascii_case("git") {
                    Action::Keep
                } else {
                    replace_with("[EMAIL]")
                }
            },
        ),
        // Home directories: /home/<user>, /Users/<user> (also file:// URLs). The left guard keeps
        // URL paths like https://example.com/home/docs intact.
        rule(
            "posix_home",
            HomePath,
            r#"(?:[\s"'`(=:,;\[{<>|]|file://|^)(?P<m>(?P<root>/(?:home|Users))/(?P<user>[^/\s"'`<>)\]}|,;:]+))"#,
            |c, t| {
                if already_redacted(c, t) {
                    Action::NoMatch
                } else {
                    Action::Replace(format!("{}/[REDACTED]", group(c, "root")))
                }
            },
        ),
        // C:\Users\<user> (also C:/Users/<user> and JSON-escaped C:\\Users\\<user>).
        rule(
            "windows_home",
            HomePath,
            r#"(?i)(?-u:\b)(?P<head>[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))(?P<user>[^\\/\s"'`<>|:*?]+)"#,
            |c, t| {
                if already_redacted(c, t) {
                    Action::NoMatch
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // IPv4 addresses. Kept: loopback, 0.0.0.0, 255.255.x.x masks, dotted quads inside longer
        // dotted numbers (1.2.3.4.5) and quads right after a version marker.
        rule(
            "ipv4",
            Ip,
            &format!(r"(?:[^A-Za-z0-9_.]|^)(?P<m>{OCTET}(?:\.{OCTET}){{3}})(?:\z|[^A-Za-z0-9_.]|\.(?:\z|[^0-9]))"),
            |c, t| {
                let ip = group(c, "m");
                if !is_publicish_ipv4(ip) || VERSION_CONTEXT.is_match(window_before(t, span_start(c))) {
                    Action::Keep
                } else {
                    replace_with("[IP]")
                }
            },
        ),
        // Phone numbers: international "+<digits>" (8-15 digits), US 555-123-4567 / (555) 123-4567,
        // Chinese mobiles 13812345678 / 138-1234-5678. Dotted forms are not touched (version-like).
        rule(
            "phone_international",
            Phone,
            r"(?:[^A-Za-z0-9_+]|^)(?P<m>\+[0-9][0-9 ()\-]{6,20}[0-9])(?:\z|[^0-9])",
            |c, _| {
                let digits = group(c, "m").bytes().filter(u8::is_ascii_digit).count();
                if (8..=15).contains(&digits) {
                    replace_with("[PHONE]")
                } else {
                    Action::Keep
                }
            },
        ),
        rule(
            "phone_us",
            Phone,
            r"(?:[^A-Za-z0-9_.\-]|^)(?P<m>(?:\([0-9]{3}\)\s?|[0-9]{3}-)[0-9]{3}-[0-9]{4})(?:\z|[^A-Za-z0-9_\-])",
            |_, _| replace_with("[PHONE]"),
        ),
        rule(
            "phone_cn",
            Phone,
            r"(?:[^A-Za-z0-9_.+\-]|^)(?P<m>1[3-9][0-9](?:[ \-]?[0-9]{4}){2})(?:\z|[^A-Za-z0-9_.\-]|[A-Za-z_.\-](?:\z|[^0-9]))",
            |_, _| replace_with("[PHONE]"),
        ),
    ]
});

/// The names of the redaction rules, in the order they are applied (as the plugin's
/// `REDACTION_RULES`).
pub fn rule_names() -> Vec<&'static str> {
    RULES.iter().map(|r| r.name).collect()
}

/// Applies one rule over the whole text, as JavaScript's global `replace` with a callback would.
/// Returns `None` when nothing was replaced (the common case: no allocation).
fn apply(rule: &Rule, text: &str, counts: &mut RedactionCounts) -> Option<String> {
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `text` already written to `out`
    let mut pos = 0; // the next match must start here or later
    while pos <= text.len() {
        let from = if rule.lookbehind { prev_char(text, pos).map_or(pos, |c| pos - c.len_utf8()) } else { pos };
        let Some(mut caps) = rule.re.captures_at(text, from) else { break };
        if span_start(&caps) < pos {
            // Only through `^` when resuming at the second character, after the first character
            // failed as context (it is tried first): look from the resume point itself.
            let Some(again) = rule.re.captures_at(text, pos) else { break };
            caps = again;
        }
        let span = caps.name("m").or_else(|| caps.get(0)).expect("group 0 always participates");
        let after_start = text[span.start()..].chars().next().map_or(text.len() + 1, |c| span.start() + c.len_utf8());
        match (rule.decide)(&caps, text) {
            Action::NoMatch => pos = after_start,
            Action::Keep => pos = span.end().max(after_start),
            Action::Replace(with) => {
                let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
                buf.push_str(&text[copied..span.start()]);
                buf.push_str(&with);
                copied = span.end();
                *counts.slot(rule.category) += 1;
                pos = span.end().max(after_start);
            }
        }
    }
    out.map(|mut buf| {
        buf.push_str(&text[copied..]);
        buf
    })
}

/// Removes secrets and personal data from free text (the plugin's strict mode, on the server).
/// Idempotent: redacting the output again changes nothing.
pub fn redact(text: &str) -> Redacted {
    let mut counts = RedactionCounts::default();
    let mut current = std::borrow::Cow::Borrowed(text);
    for rule in RULES.iter() {
        if let Some(next) = apply(rule, &current, &mut counts) {
            current = std::borrow::Cow::Owned(next);
        }
    }
    Redacted { text: current.into_owned(), counts }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        redact(s).text
    }

    /// `(input, expected)`: the plugin's table (plugins/openclaw/test/security.test.ts) plus more.
    const REDACTIONS: &[(&str, &str)] = &[
        // home paths
        ("/Users/alice/project/main.ts", "/Users/[REDACTED]/project/main.ts"),
        ("/home/bob/.ssh/config", "/home/[REDACTED]/.ssh/config"),
        ("cd /home/bob && ls", "cd /home/[REDACTED] && ls"),
        ("path=\"/home/carol/app\"", "path=\"/home/[REDACTED]/app\""),
        ("PATH=/home/dave/bin:/usr/bin", "PATH=/home/[REDACTED]/bin:/usr/bin"),
        ("file:///Users/erin/Desktop/a.pdf", "file:///Users/[REDACTED]/Desktop/a.pdf"),
        ("C:\\Users\\frank\\AppData\\Local", "C:\\Users\\[REDACTED]\\AppData\\Local"),
        ("c:/Users/grace/code", "c:/Users/[REDACTED]/code"),
        ("\"C:\\\\Users\\\\heidi\\\\x\"", "\"C:\\\\Users\\\\[REDACTED]\\\\x\""),
        ("打开 /home/张三/文档 看看", "打开 /home/[REDACTED]/文档 看看"),
        ("(see /Users/ann)", "(see /Users/[REDACTED])"),
        ("/home/a /home/b", "/home/[REDACTED] /home/[REDACTED]"),
        // emails
        ("mail alice@example.com now", "mail [EMAIL] now"),
        ("<first.last+tag@sub.example.co.uk>", "<[EMAIL]>"),
        ("联系 zhang.san@corp.cn 获取", "联系 [EMAIL] 获取"),
        ("联系zhang.san@corp.cn获取", "联系[EMAIL]获取"),
        ("a@b.io, c@d.io", "[EMAIL], [EMAIL]"),
        ("Git@Example.com? no: bob@example.org.", "Git@Example.com? no: [EMAIL]."),
        // phones
        ("call 415-555-0100 today", "call [PHONE] today"),
        ("call (415) 555-0100", "call [PHONE]"),
        ("tel +14155550100", "tel [PHONE]"),
        ("tel +1 415 555 0100.", "tel [PHONE]."),
        ("电话 +86 138 0013 8000", "电话 [PHONE]"),
        ("手机 13800138000 找我", "手机 [PHONE] 找我"),
        ("手机13800138000找我", "手机[PHONE]找我"),
        ("手机 138-0013-8000", "手机 [PHONE]"),
        ("手机：19912345678。", "手机：[PHONE]。"),
        ("+44 20 7946 0958", "[PHONE]"),
        // API keys and tokens
        ("key sk-abcdefghijklmnopqrstuvwxyz0123456789", "key [API_KEY]"),
        ("OPENAI_API_KEY=sk-proj-AbCdEf1234567890GhIjKl", "OPENAI_API_KEY=[API_KEY]"),
        ("sk-ant-api03-AbCdEfGhIj1234567890-xyz", "[API_KEY]"),
        ("密钥是sk-ant-api03-AbCdEfGhIj1234567890-xyz。", "密钥是[API_KEY]。"),
        ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe [API_KEY]"),
        ("aws AKIAIOSFODNN7EXAMPLE key", "aws [AWS_KEY] key"),
        ("ASIAY34FZKBOKMUTVV7A", "[AWS_KEY]"),
        ("token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB", "token [GITHUB_TOKEN]"),
        ("gho_1234567890abcdefghijklmnopqrstuvwxyzAB", "[GITHUB_TOKEN]"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[GITHUB_TOKEN]"),
        ("slack xoxb-1234567890-abcdefghijkl", "slack [SLACK_TOKEN]"),
        ("xoxp-123456789012-123456789012-abcdef", "[SLACK_TOKEN]"),
        ("xapp-1-A0123456789-abcdef", "[SLACK_TOKEN]"),
        ("google AIzaSyA1234567890abcdefghijklmnopqrstuv", "google [API_KEY]"),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter",
            "[PRIVATE_KEY]\nafter",
        ),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (truncated", "[PRIVATE_KEY]"),
        ("-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----", "[PRIVATE_KEY]"),
        ("-----BEGIN EC PRIVATE KEY-----\nAA\n-----END EC PRIVATE KEY----- x", "[PRIVATE_KEY] x"),
        (
            "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "jwt [JWT]",
        ),
        ("Authorization: Bearer abc123def456ghi789jkl", "Authorization: Bearer [TOKEN]"),
        ("authorization: bearer 0123456789abcdefABCDEF==", "authorization: bearer [TOKEN]"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [TOKEN]"),
        ("postgres://app:s3cretPw@db.internal:5432/app", "postgres://app:[REDACTED]@db.internal:5432/app"),
        ("连接postgres://app:s3cretPw@db:5432/app失败", "连接postgres://app:[REDACTED]@db:5432/app失败"),
        ("\"password\": \"hunter2hunter2\"", "\"password\": \"[REDACTED]\""),
        ("api_key=AbC123xyz789", "api_key=[REDACTED]"),
        ("DB_PASSWORD=correct-horse-battery", "DB_PASSWORD=[REDACTED]"),
        ("client_secret: 9f8e7d6c5b4a", "client_secret: [REDACTED]"),
        ("https://x.io/cb?token=abc123def456&x=1", "https://x.io/cb?token=[REDACTED]"),
        ("export GITHUB_TOKEN='averyveryverylongtokenvalue'", "export GITHUB_TOKEN='[REDACTED]'"),
        // IPv4
        ("server at 10.0.0.5 is down", "server at [IP] is down"),
        ("ssh root@192.168.1.20", "ssh root@[IP]"),
        ("connect 203.0.113.7:5432.", "connect [IP]:5432."),
        ("subnet 172.16.0.0/12", "subnet [IP]/12"),
        ("服务器10.0.0.5连接超时", "服务器[IP]连接超时"),
        ("ip=8.8.8.8, 1.1.1.1.", "ip=8.8.8.8, [IP]."), // '=' is a version marker in the plugin
    ];

    /// Technical text that must come out unchanged (the plugin's list plus more).
    const UNCHANGED: &[&str] = &[
        "https://example.com/home/docs/index.html",
        "see https://github.com/openclaw/openclaw/tree/main/home/x",
        "git clone git@github.com:org/repo.git",
        "npm install openclaw@2026.9.6 typescript@5.9.3",
        "pip install torch==2.1.0 numpy>=1.26.4",
        "node v24.16.0, python 3.12.1",
        "version 10.0.19041.1 of Windows",
        "v1.2.3.4 release",
        "Version: 1.2.3.4",
        "build 1.2.3.4.5 passed",
        "release==1.2.3.4",
        "bind 127.0.0.1:8080 and 0.0.0.0:9000",
        "netmask 255.255.255.0",
        "uuid 0192f0c4-5b7a-7cc3-9d1e-3f2a1b0c9d8e",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "commit 3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a",
        "date 2026-11-21T07:30:00Z, 2026-11-21",
        "port 5432, timeout 30000 ms, p99 3s -> 40ms",
        "interface Config { password: string; token?: string }",
        "function login(user: User, password: Password) {}",
        "export TOKEN=${GITHUB_TOKEN}",
        "api_key = process.env.KNOWHUB_API_KEY",
        "max_tokens=4096 temperature=0.2",
        "use a Bearer token in the Authorization header",
        "Bearer authentication is required",
        "task-runner-very-long-identifier-name-here",
        "scikit-learn and disk-cleanup-scheduler-v2",
        "the /home directory and /Users folder",
        "docker run -v /var/lib/data:/data node:24",
        "ratio 1.5e10, pi 3.14159, 1,234,567",
        "Unix time 1732170000 and 1732170000123 ms",
        "@types/node and @scope/pkg@1.2.3",
        "KnowHub 修复 PostgreSQL 连接超时，p99 从 3s 降到 40ms",
        "redaction placeholders: [EMAIL] [PHONE] [API_KEY] [IP] /home/[REDACTED]",
        // more, for the server
        "curl -s 'localhost:8000/api/search?q=超时&top_k=5'",
        "https://docs.rs/regex/1.13.1/regex/struct.Regex.html#method.captures_at",
        "/usr/local/bin/knowhub serve --bind 127.0.0.1:0",
        "/var/home-backup/x and /opt/Users.txt",
        "C:\\Program Files\\KnowHub\\knowhub.exe",
        "let x = vec![1, 2, 3]; fn main() { println!(\"{x:?}\"); }",
        "SELECT * FROM t WHERE id = 42 AND score >= 4;",
        "数据库连接池 pool_mode=transaction 解决了超时问题",
        "ERR_CONNECTION_REFUSED on React.useEffect",
        "semver 1.2.3 and 10.20.30-beta.1+build.5",
        "order 12345678901 shipped",
        "isbn 978-3-16-148410-0",
        "token_count=12 tokens_used: 99",
        "password: \"${DB_PASSWORD}\"",
        "ghp_short and sk-short-123",
        "AKIA in lowercase akiaiosfodnn7example",
        "price +12 and +3 items",
        "",
    ];

    #[test]
    fn redacts_every_category() {
        for (input, expected) in REDACTIONS {
            assert_eq!(&r(input), expected, "input: {input:?}");
        }
    }

    #[test]
    fn keeps_technical_text_unchanged() {
        for input in UNCHANGED {
            let out = redact(input);
            assert_eq!(&out.text, input);
            assert!(out.counts.is_empty(), "{input:?}: {:?}", out.counts);
        }
    }

    #[test]
    fn redaction_is_idempotent() {
        for input in REDACTIONS.iter().map(|(i, _)| *i).chain(UNCHANGED.iter().copied()) {
            let once = r(input);
            let twice = redact(&once);
            assert_eq!(twice.text, once, "input: {input:?}");
            assert!(twice.counts.is_empty(), "second pass still found {:?} in {once:?}", twice.counts);
        }
    }

    #[test]
    fn several_secrets_in_one_text_with_counts() {
        let text = "user alice@example.com on 10.0.0.5 used sk-abcdefghijklmnopqrstuvwxyz0123456789 from /home/alice/x";
        let out = redact(text);
        assert_eq!(out.text, "user [EMAIL] on [IP] used [API_KEY] from /home/[REDACTED]/x");
        assert_eq!(out.counts.email, 1);
        assert_eq!(out.counts.ip, 1);
        assert_eq!(out.counts.api_key, 1);
        assert_eq!(out.counts.home_path, 1);
        assert_eq!(out.counts.total(), 4);
    }

    #[test]
    fn counts_each_category() {
        let text = "-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----\n\
            eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijkl \
            Bearer abc123def456ghi789jkl AKIAIOSFODNN7EXAMPLE ghp_1234567890abcdefghijklmnopqrstuvwxyzAB \
            password=hunter2hunter2 https://u:pw12345@h.io/ a@b.io c@d.io /Users/x C:\\Users\\y \
            1.2.3.4 13800138000 (415) 555-0100";
        let c = redact(text).counts;
        let expected = RedactionCounts {
            private_key: 1,
            jwt: 1,
            bearer_token: 1,
            api_key: 2,
            secret: 2,
            email: 2,
            home_path: 2,
            ip: 1,
            phone: 2,
        };
        assert_eq!(c, expected);
        assert_eq!(c.total(), 14);
        assert_eq!(c.iter().count(), 9);
        assert_eq!(serde_json::to_value(c).unwrap()["home_path"], 2);
    }

    #[test]
    fn mixed_chinese_and_english() {
        let text = "我在 /home/wang/项目 里把 DB_PASSWORD=Hunter2!x 改了，\
            然后联系 wang.wei@example.cn 或 13912345678，服务器 47.96.1.23 上的 Redis 6.2.14 正常。";
        let out = redact(text);
        assert_eq!(
            out.text,
            "我在 /home/[REDACTED]/项目 里把 DB_PASSWORD=[REDACTED] 改了，\
            然后联系 [EMAIL] 或 [PHONE]，服务器 [IP] 上的 Redis 6.2.14 正常。"
        );
        assert_eq!(out.counts.total(), 5);
        let plain = "修复 PostgreSQL 连接超时：pgbouncer pool_mode=transaction，p99 从 3s 降到 40ms（v1.21.0）";
        assert_eq!(r(plain), plain);
    }

    #[test]
    fn home_paths_need_a_path_boundary_on_the_left() {
        assert_eq!(r("https://example.com/home/alice"), "https://example.com/home/alice");
        assert_eq!(r("repo/home/alice"), "repo/home/alice");
        assert_eq!(r("`/home/alice`"), "`/home/[REDACTED]`");
        assert_eq!(r("[/Users/bob/x]"), "[/Users/[REDACTED]/x]");
        assert_eq!(r("D:\\users\\eve"), "D:\\users\\[REDACTED]");
    }

    #[test]
    fn ip_rules_mirror_the_plugin() {
        assert_eq!(r("127.0.0.1 and 127.1.2.3"), "127.0.0.1 and 127.1.2.3");
        assert_eq!(r("0.0.0.0"), "0.0.0.0");
        assert_eq!(r("1.2.3.256"), "1.2.3.256"); // not a valid octet
        assert_eq!(r("10.0.0.1.5"), "10.0.0.1.5"); // part of a longer dotted number
        assert_eq!(r("chrome 120.0.61.109"), "chrome 120.0.61.109");
        assert_eq!(r("go to 8.8.4.4."), "go to [IP].");
        assert_eq!(r("a.1.2.3.4"), "a.1.2.3.4");
        assert_eq!(r("x=1.2.3.4"), "x=1.2.3.4"); // the plugin reads `=1.2.3.4` as a version pin
        assert_eq!(r("host: 1.2.3.4"), "host: [IP]");
        assert_eq!(r(">=1.2.3.4"), ">=1.2.3.4");
        assert_eq!(r("http://203.0.113.9:8080/x"), "http://[IP]:8080/x");
    }

    #[test]
    fn phones_and_numbers() {
        assert_eq!(r("12345678901"), "12345678901"); // 12x is not a mobile prefix
        assert_eq!(r("138001380001"), "138001380001"); // 12 digits
        assert_eq!(r("1.13800138000"), "1.13800138000");
        assert_eq!(r("+1234567"), "+1234567"); // 7 digits: too short
        assert_eq!(r("+86-138-0013-8000"), "[PHONE]");
        assert_eq!(r("id=415-555-01000"), "id=415-555-01000");
    }

    #[test]
    fn secret_assignments_need_a_secret_looking_value() {
        assert_eq!(r("token: placeholder"), "token: placeholder"); // no digit or symbol, under 20 chars
        assert_eq!(r("password=abcdefgh"), "password=abcdefgh"); // letters only, short
        assert_eq!(r("password=abcdefgh1"), "password=[REDACTED]");
        assert_eq!(r("PASSWORD=abcdefghijklmnopqrstu"), "PASSWORD=[REDACTED]"); // 20+ chars
        assert_eq!(r("token=[REDACTED]"), "token=[REDACTED]");
        assert_eq!(r("secret = os.environ['X1']"), "secret = os.environ['X1']");
    }

    #[test]
    fn rule_names_match_the_plugin_order() {
        let names = rule_names();
        assert_eq!(names.first(), Some(&"private_key"));
        assert!(names.len() >= 15);
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn large_and_adversarial_inputs_stay_fast() {
        let inputs = [
            "Deploy to 10.0.0.1 with sk-abcdefghijklmnopqrstuvwxyz0123 as alice@example.com from /home/alice; v1.2.3 ok. "
                .repeat(2500),
            "a_".repeat(50_000) + "password",
            "a".repeat(100_000) + "@",
            "+1 ".repeat(30_000),
            "1.".repeat(50_000),
            "-----BEGIN PRIVATE KEY-----".to_string() + &"x".repeat(100_000),
            "Bearer ".to_string() + &"a".repeat(100_000),
            "/home/".to_string() + &"x".repeat(100_000),
            "task-".repeat(20_000),
            "中文".repeat(50_000),
        ];
        for input in &inputs {
            let t0 = std::time::Instant::now();
            let out = redact(input);
            let dt = t0.elapsed();
            // Generous: debug builds on a busy 2-core machine.
            assert!(dt.as_millis() < 5000, "{:?}... took {dt:?}", &input[..20]);
            assert_eq!(redact(&out.text).text, out.text);
        }
        assert_eq!(redact(&inputs[0]).counts.total(), 4 * 2500);
    }
}
