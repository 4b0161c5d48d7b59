//! Server-side redaction of secrets and personal data: defence in depth for text that agents
//! upload (conversations sent for extraction, submissions from clients that do not redact).
//!
//! The rules, their order, their replacement tokens and their judgement calls mirror the OpenClaw
//! plugin's strict privacy mode (`plugins/openclaw/src/security.ts`), so a text redacted by the
//! plugin comes through here unchanged and the two never disagree about what is a secret.
//!
//! Besides the hand-written rules below, the rule file `rules/secrets.json` (see `secret_rules`)
//! runs in two stages: provider keys and context secrets before base64 decoding, national ids,
//! IBANs and phone numbers before the hand-written id, card, IP and phone rules.
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

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use crate::normalize::{join_split_tokens, strip_invisible};
use crate::secret_rules::{self, is_likely_secret_value, Stage};
use serde::{Deserialize, Serialize};

/// Redacted text and how many replacements each category got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    pub counts: RedactionCounts,
}

/// Replacements per category (a server can log or return these without revealing anything).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RedactionCounts {
    /// `-----BEGIN ... PRIVATE KEY-----` blocks.
    pub private_key: usize,
    /// JSON Web Tokens.
    pub jwt: usize,
    /// `Bearer ...` and `Authorization: Basic ...` credentials.
    pub bearer_token: usize,
    /// Provider keys and tokens: OpenAI/Anthropic `sk-`, Stripe, AWS, GitHub, GitLab, Slack,
    /// Google, npm, PyPI, Hugging Face, SendGrid, Twilio, Discord, and the providers of the rule
    /// file `rules/secrets.json` (converted from gitleaks), AWS secret keys and Telegram tokens.
    pub api_key: usize,
    /// Base64 text that decodes to a known secret (a key or token in disguise).
    pub encoded_secret: usize,
    /// Passwords in URLs, connection strings, DSNs and command flags, `password=...` /
    /// `token: ...` style assignments, `.netrc` and `.pgpass` entries, Docker `auth`, passwords
    /// named in prose, webhook secrets.
    pub secret: usize,
    /// E-mail addresses, ASCII, full-width or internationalised.
    pub email: usize,
    /// User names in `/home/x`, `/Users/x`, `C:\Users\x`.
    pub home_path: usize,
    /// IPv4 and IPv6 addresses.
    pub ip: usize,
    /// Phone numbers: international, and national forms of CN, HK, TW, JP, KR, US and European
    /// countries.
    pub phone: usize,
    /// Identity numbers with their check digits verified (Chinese resident id, Hong Kong identity
    /// card, Taiwanese id, Japanese My Number, Korean resident number), US social security
    /// numbers, passport numbers after the word passport.
    pub national_id: usize,
    /// Payment card numbers (known issuer prefix, Luhn verified), IBANs (mod 97 verified) and
    /// bank account numbers named as such.
    pub payment_card: usize,
    /// Postal addresses: a street or district with its house number, in the forms of Chinese,
    /// Japanese, Korean, English-speaking, European, Latin American and South-East Asian
    /// addresses, and postcodes that only addresses carry (〒, CEP).
    // Defaulted when read: older servers' answers have no such count.
    #[serde(default)]
    pub address: usize,
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
            ("encoded_secret", self.encoded_secret),
            ("secret", self.secret),
            ("email", self.email),
            ("home_path", self.home_path),
            ("ip", self.ip),
            ("phone", self.phone),
            ("national_id", self.national_id),
            ("payment_card", self.payment_card),
            ("address", self.address),
        ]
        .into_iter()
    }

    /// Adds another text's counts (totals over several texts, e.g. an uploaded conversation).
    pub fn add(&mut self, o: &RedactionCounts) {
        self.private_key += o.private_key;
        self.jwt += o.jwt;
        self.bearer_token += o.bearer_token;
        self.api_key += o.api_key;
        self.encoded_secret += o.encoded_secret;
        self.secret += o.secret;
        self.email += o.email;
        self.home_path += o.home_path;
        self.ip += o.ip;
        self.phone += o.phone;
        self.national_id += o.national_id;
        self.payment_card += o.payment_card;
        self.address += o.address;
    }

    fn slot(&mut self, c: Category) -> &mut usize {
        match c {
            Category::PrivateKey => &mut self.private_key,
            Category::Jwt => &mut self.jwt,
            Category::BearerToken => &mut self.bearer_token,
            Category::ApiKey => &mut self.api_key,
            Category::EncodedSecret => &mut self.encoded_secret,
            Category::Secret => &mut self.secret,
            Category::Email => &mut self.email,
            Category::HomePath => &mut self.home_path,
            Category::Ip => &mut self.ip,
            Category::Phone => &mut self.phone,
            Category::NationalId => &mut self.national_id,
            Category::PaymentCard => &mut self.payment_card,
            Category::Address => &mut self.address,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) enum Category {
    PrivateKey,
    Jwt,
    BearerToken,
    ApiKey,
    EncodedSecret,
    Secret,
    Email,
    HomePath,
    Ip,
    Phone,
    NationalId,
    PaymentCard,
    Address,
}

impl Category {
    /// The category a rule in `rules/secrets.json` names (the field names of [`RedactionCounts`]).
    pub(crate) fn by_name(name: &str) -> Option<Category> {
        use Category::*;
        Some(match name {
            "private_key" => PrivateKey,
            "jwt" => Jwt,
            "bearer_token" => BearerToken,
            "api_key" => ApiKey,
            "encoded_secret" => EncodedSecret,
            "secret" => Secret,
            "email" => Email,
            "home_path" => HomePath,
            "ip" => Ip,
            "phone" => Phone,
            "national_id" => NationalId,
            "payment_card" => PaymentCard,
            "address" => Address,
            _ => return None,
        })
    }
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

/// Every placeholder redaction writes. Full-text search skips them (`text::tokenize`): a record
/// that once held an API key is not about API keys.
pub const PLACEHOLDERS: &[&str] = &[
    "[ADDRESS]",
    "[API_KEY]",
    "[AWS_KEY]",
    "[BANK_ACCOUNT]",
    "[CARD]",
    "[EMAIL]",
    "[ENCODED_SECRET]",
    "[GITHUB_TOKEN]",
    "[IBAN]",
    "[ID_NUMBER]",
    "[IP]",
    "[JWT]",
    "[PHONE]",
    "[PRIVATE_KEY]",
    "[REDACTED]",
    "[SLACK_TOKEN]",
];

fn replace_with(token: &str) -> Action {
    Action::Replace(token.to_string())
}

/// The BIP-39 English word list (from the `mnemonic` package, MIT; see rules/NOTICE).
static BIP39_ENGLISH: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| include_str!("../../../rules/bip39-english.txt").split_whitespace().collect());

/// The shortest seed phrase a wallet writes.
const SEED_WORDS: usize = 12;

/// `run` (lower-case words between separators) with each stretch of at least [`SEED_WORDS`]
/// BIP-39 words replaced by `[REDACTED]`; `None` when no stretch is that long.
fn mask_seed_phrases(run: &str) -> Option<String> {
    static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new("[a-z]+").expect("word regex"));
    let words: Vec<_> = WORD.find_iter(run).map(|w| (w.start(), w.end(), BIP39_ENGLISH.contains(w.as_str()))).collect();
    let mut out = String::new();
    let (mut copied, mut start) = (0, 0);
    for k in 0..=words.len() {
        if words.get(k).is_some_and(|w| w.2) {
            continue;
        }
        if k - start >= SEED_WORDS {
            out.push_str(&run[copied..words[start].0]);
            out.push_str("[REDACTED]");
            copied = words[k - 1].1;
        }
        start = k + 1;
    }
    if out.is_empty() {
        return None;
    }
    out.push_str(&run[copied..]);
    Some(out)
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
        r"(?i)(?:{b}v|{b}versions?|{b}ver\.?|{b}release|{b}build|{b}rev(?:ision)?|{b}node|{b}python|{b}chrome|{b}firefox|版本号?|バージョン|버전|[=<>~^]=?)\s*[:=：]?\s*\z"
    ))
    .expect("version context regex")
});

/// A key naming an address right before a dotted quad (`client_ip=`, `host: `): an address even
/// after `=`, which elsewhere pins a version (`pkg=1.2.3.4`).
static ADDRESS_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?:(?-u:\b)|_)(?:ip|ipv4|addr|address|host|server|gateway|proxy|peer|remote|nameserver)["']?\s*[:=]\s*["']?\z"#)
        .expect("address key regex")
});

/// A version or document-section context the marker list above does not cover: a package name
/// joined by a dash (`pyerfa-2.0.1.5`) or a section word (`section 7.1.1.1`, `§ 4.2.1.3`).
static NUMBERING_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:[A-Za-z]-|(?-u:\b)(?:sections?|sect?\.|chapter|clause|appendix|paragraph|para\.)\s*|§\s*)\z")
        .expect("numbering context regex")
});

/// A user name that is a shared, CI or system account rather than a person: the GitHub Actions
/// `runner`, cloud images' default users, container users, and Windows' and macOS's shared
/// folders (`C:\Users\Public`, `/Users/Shared`).
fn is_generic_account(user: &str) -> bool {
    const GENERIC: &[&str] = &[
        "runner",
        "runneradmin",
        "ubuntu",
        "debian",
        "ec2-user",
        "centos",
        "fedora",
        "vagrant",
        "node",
        "circleci",
        "jenkins",
        "travis",
        "gitlab-runner",
        "buildkite-agent",
        "codespace",
        "vscode",
        "shared",
        "public",
        "default",
        "guest",
    ];
    GENERIC.iter().any(|g| user.eq_ignore_ascii_case(g))
}

/// A password slot that holds a variable, not a password: `${DB_PASSWORD}`, `$PGPASS`,
/// `%PASSWORD%`, `<password>`, `{{ .Password }}`.
fn is_variable_reference(v: &str) -> bool {
    static VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]+>|\{\{[^{}]+\}\})$")
            .expect("variable reference regex")
    });
    VARIABLE.is_match(v)
}

/// A bare 11-digit number that counts something (`13812345678 bytes`, `inode 13802214457`): a unit
/// right after it or a counter word right before it. Numbers written with separators keep their
/// phone reading.
fn is_quantity(m: &str, before: &str, after: &str) -> bool {
    static UNIT_AFTER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s?(?i:bytes?|[kmgt]i?b|rows?|records?|items?|entries|lines?|files?|blocks?|pages?|tokens?|chars?|characters?|words?|messages?|events?|requests?|docs?|documents?|objects?|keys?|ms|ns|us|µs|sec|seconds?|ticks?|cycles?|iterations?|steps?|samples?)(?-u:\b)")
            .expect("unit regex")
    });
    static COUNTER_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)(?-u:\b)(?:inode|offset|size|count|total|length|len|bytes|rows|records|lsn|seq|sequence|block|height|nonce|epoch|timestamp|ts|checksum|crc)\s*[:=#]?\s*\z")
            .expect("counter regex")
    });
    m.bytes().all(|b| b.is_ascii_digit())
        && (UNIT_AFTER.is_match(after) || COUNTER_BEFORE.is_match(window_before(before, before.len())))
}

/// The 16 characters before `at` (the plugin looks at the same window).
fn window_before(text: &str, at: usize) -> &str {
    let head = &text[..at];
    let from = head.char_indices().rev().nth(15).map_or(0, |(i, _)| i);
    &head[from..]
}

/// A payment card: 13-19 digits with a known issuer prefix and length (Visa, Mastercard, Amex,
/// JCB, Diners, Discover, UnionPay, Mir, RuPay), a valid Luhn digit, and
/// either no separators or one kind of separator between groups of 3+ digits (so tables of small
/// numbers and timestamps are not cards).
fn is_payment_card(m: &str) -> bool {
    let digits: Vec<u8> = m.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    let seps: Vec<u8> = m.bytes().filter(|b| !b.is_ascii_digit()).collect();
    if seps.windows(2).any(|w| w[0] != w[1]) || m.split([' ', '-']).any(|g| g.len() < 3) {
        return false;
    }
    let n = digits.len();
    let p2 = u32::from(digits[0]) * 10 + u32::from(digits[1]);
    let p3 = p2 * 10 + u32::from(digits[2]);
    let p4 = p3 * 10 + u32::from(digits[3]);
    let issuer = match digits[0] {
        4 => [13, 16, 19].contains(&n),
        5 => ((51..=55).contains(&p2) && n == 16) || (p3 == 508 && (16..=19).contains(&n)),
        2 => ((2221..=2720).contains(&p4) && n == 16) || ((2200..=2204).contains(&p4) && (16..=19).contains(&n)),
        3 => {
            ((p2 == 34 || p2 == 37) && n == 15)
                || (p2 == 35 && (16..=19).contains(&n))
                || (((300..=305).contains(&p3) || p2 == 36 || p2 == 38) && (14..=19).contains(&n))
        }
        6 => (p2 == 60 || p2 == 65 || (644..=649).contains(&p3) || p2 == 62) && (16..=19).contains(&n),
        _ => false,
    };
    issuer && crate::checksum::luhn(&digits)
}

/// A Chinese resident identity number: the ISO 7064 MOD 11-2 check character must match.
fn is_cn_resident_id(m: &str) -> bool {
    const W: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
    let b = m.as_bytes();
    if b.len() != 18 {
        return false;
    }
    let sum: u32 = b[..17].iter().zip(W).map(|(d, w)| u32::from(d - b'0') * w).sum();
    b"10X98765432"[(sum % 11) as usize] == b[17].to_ascii_uppercase()
}

/// An IPv6 address with a real shape: eight groups, or one `::` with at least two groups, a
/// group of 3+ digits and a decimal digit somewhere (so `a::b`, `dead::beef` in code are kept),
/// and not loopback.
fn is_real_ipv6(m: &str) -> bool {
    let groups: Vec<&str> = m.split(':').filter(|g| !g.is_empty()).collect();
    let compressed = m.matches("::").count();
    let shape = match compressed {
        0 => groups.len() == 8,
        1 => (2..=7).contains(&groups.len()) && groups.iter().any(|g| g.len() >= 3),
        _ => false,
    };
    let loopback = groups.iter().rev().skip(1).all(|g| g.trim_start_matches('0').is_empty())
        && groups.last().is_some_and(|g| g.trim_start_matches('0') == "1");
    shape && m.bytes().any(|b| b.is_ascii_digit()) && !loopback
}

/// Patterns of known secrets, for text found by decoding base64.
static KNOWN_SECRET: LazyLock<regex::RegexSet> = LazyLock::new(|| {
    regex::RegexSet::new([
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY",
        r"(?-u:\b)sk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}",
        r"(?-u:\b)(?:sk|rk)_live_[A-Za-z0-9]{16,}",
        r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}",
        r"(?-u:\b)gh[pousr]_[A-Za-z0-9]{30,}",
        r"(?-u:\b)github_pat_[A-Za-z0-9_]{22,}",
        r"(?-u:\b)glpat-[A-Za-z0-9_\-]{20,}",
        r"(?-u:\b)xox[abposre]-[A-Za-z0-9\-]{10,}",
        r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}",
        r"(?-u:\b)npm_[A-Za-z0-9]{36}",
        r"(?-u:\b)pypi-[A-Za-z0-9_\-]{32,}",
        r"(?-u:\b)hf_[A-Za-z0-9]{30,}",
        r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
        r"(?-u:\b)eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        r"[a-z][a-z0-9+.\-]*://[^\s:@/]*:[^\s@/]+@",
        r"(?i)(?:password|passwd|secret|token|api[_\-]?key)\s*[:=]\s*\S{6,}",
    ])
    .expect("known secret patterns")
});

/// Base64 (standard or URL-safe) that decodes to readable text holding a known secret. Runs
/// longer than 4 KiB are not decoded; every run is decoded once, so the cost stays linear.
fn is_encoded_secret(run: &str) -> bool {
    run.len() <= 4096
        && crate::normalize::decode_base64(run)
            .as_deref()
            .and_then(crate::normalize::printable_text)
            .is_some_and(|t| KNOWN_SECRET.is_match(&t))
}

/// Values of flags, query parameters and `-u user:pass` that are placeholders, not secrets.
fn is_placeholder(v: &str) -> bool {
    v.starts_with(['$', '<', '{', '%', '[', '-']) || v.is_empty()
}

/// A `key=value,...` mount spec naming where a secret comes from, not the secret itself
/// (`docker build --secret id=npmrc,src=$HOME/.npmrc`).
fn is_mount_spec(v: &str) -> bool {
    static SPEC: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^(?:id|src|source|env|type|target|dst|required)=").expect("mount spec regex"));
    SPEC.is_match(v)
}

const OCTET: &str = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

fn rule(name: &'static str, category: Category, pattern: &str, decide: fn(&Captures<'_>, &str) -> Action) -> Rule {
    let re = Regex::new(pattern).unwrap_or_else(|e| panic!("redaction rule {name}: {e}"));
    // `(?:^|[...])` puts `^` first where the context class overlaps the match's first characters
    // (Han before a Han local part): at offset 0 the match then starts at 0, as a look-behind would.
    let lookbehind = pattern.contains("|^)(?P<m>") || pattern.starts_with("(?:^|");
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
        // (also redis://:password@host and mongodb+srv://).
        rule(
            "url_password",
            Secret,
            r"(?i)(?-u:\b)(?P<head>[a-z][a-z0-9+.\-]*://[^\s:@/]*):(?P<pw>[^\s@/]+)@",
            |c, _| {
                let pw = group(c, "pw");
                if pw == "[REDACTED]" || is_variable_reference(pw) {
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
        // A colon may join parts of one token (Asana's `2/1204...:9f8e...`).
        rule(
            "bearer",
            BearerToken,
            r"(?i)(?-u:\b)(?P<head>Bearer)\s+(?P<tok>[A-Za-z0-9._~+/\-]{16,}(?::[A-Za-z0-9._~+/\-]+)*)=*",
            |c, _| {
                if group(c, "tok").split(':').next().is_some_and(|t| t.bytes().any(|b| b.is_ascii_digit())) {
                    Action::Replace(format!("{} [TOKEN]", group(c, "head")))
                } else {
                    Action::Keep
                }
            },
        ),
        rule(
            "basic_auth",
            BearerToken,
            r#"(?i)(?-u:\b)(?P<head>Authorization["']?\s*:\s*["']?Basic)\s+[A-Za-z0-9+/]{8,}={0,2}"#,
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
        rule(
            "aws_key",
            ApiKey,
            r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA)[0-9A-Z]{16}(?-u:\b)",
            |_, _| replace_with("[AWS_KEY]"),
        ),
        // GitHub tokens: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_).
        rule("github_token", ApiKey, r"(?-u:\b)gh[pousr]_[A-Za-z0-9]{30,}(?-u:\b)", |_, _| {
            replace_with("[GITHUB_TOKEN]")
        }),
        rule("github_pat", ApiKey, r"(?-u:\b)github_pat_[A-Za-z0-9_]{22,}", |_, _| replace_with("[GITHUB_TOKEN]")),
        // GitLab personal, project and group access tokens.
        rule("gitlab_token", ApiKey, r"(?-u:\b)glpat-[A-Za-z0-9_\-]{20,}", |_, _| replace_with("[API_KEY]")),
        // Slack tokens.
        rule("slack_token", ApiKey, r"(?-u:\b)xox[abposre]-[A-Za-z0-9\-]{10,}", |_, _| replace_with("[SLACK_TOKEN]")),
        rule("slack_app_token", ApiKey, r"(?-u:\b)xapp-[0-9]-[A-Za-z0-9\-]{10,}", |_, _| replace_with("[SLACK_TOKEN]")),
        // Google API keys.
        rule("google_key", ApiKey, r"(?-u:\b)AIza[0-9A-Za-z_\-]{35}(?-u:\b)", |_, _| replace_with("[API_KEY]")),
        // npm automation and publish tokens.
        rule("npm_token", ApiKey, r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)", |_, _| replace_with("[API_KEY]")),
        // PyPI upload tokens (base64 macaroons: mixed case and digits; `pypi-simple-mirror` stays).
        rule("pypi_token", ApiKey, r"(?-u:\b)pypi-[A-Za-z0-9_\-]{32,}", |c, _| {
            let t = c.get(0).map_or("", |m| m.as_str());
            if t.bytes().any(|b| b.is_ascii_digit()) && t.bytes().any(|b| b.is_ascii_uppercase()) {
                replace_with("[API_KEY]")
            } else {
                Action::Keep
            }
        }),
        // Hugging Face access tokens (`hf_hub_download` has an underscore and stays).
        rule("huggingface_token", ApiKey, r"(?-u:\b)hf_[A-Za-z0-9]{30,}(?-u:\b)", |_, _| replace_with("[API_KEY]")),
        // SendGrid keys (`SG.<id>.<secret>`), used by Azure's SendGrid too.
        rule("sendgrid_key", ApiKey, r"(?-u:\b)SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", |_, _| {
            replace_with("[API_KEY]")
        }),
        // Twilio API key and account SIDs (`SK`/`AC` + 32 hex).
        rule("twilio_key", ApiKey, r"(?-u:\b)(?:SK|AC)[0-9a-f]{32}(?-u:\b)", |_, _| replace_with("[API_KEY]")),
        // Discord bot tokens (`<base64 id>.<6>.<27+>`).
        rule(
            "discord_token",
            ApiKey,
            r"(?-u:\b)[MNO][A-Za-z0-9]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?-u:\b)",
            |_, _| replace_with("[API_KEY]"),
        ),
        // Webhook URLs whose path is the secret (Discord, Slack).
        rule(
            "webhook_secret",
            Secret,
            r"(?i)(?P<head>discord(?:app)?\.com/api/webhooks/[0-9]{5,25}/|hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/)(?P<tok>[A-Za-z0-9_\-]{16,})",
            |c, _| Action::Replace(format!("{}[REDACTED]", group(c, "head"))),
        ),
        // Command-line flags that take a credential: `--password xyz`, `--token=...`,
        // `--api-key '...'`. Quoted values always count; bare ones must look like a secret.
        rule(
            "cli_flag_secret",
            Secret,
            r#"(?i)(?:[\s(;|&]|^)(?P<m>(?P<head>--?(?:password|passwd|pass|pwd|token|api[_\-]?key|apikey|secret|client[_\-]?secret|auth[_\-]?token|access[_\-]?token|access[_\-]?key|secret[_\-]?key|private[_\-]?key|storepass|keypass|passin|passout)(?:=|[ \t]+)(?P<q>["']?))(?P<value>[^\s"']+))"#,
            |c, _| {
                let v = group(c, "value");
                let quoted = !group(c, "q").is_empty();
                if is_placeholder(v) || is_mount_spec(v) || !(quoted || is_likely_secret_value(v)) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // MySQL/MariaDB's attached password flag (`mysql -uroot -pS3cret`), and any quoted
        // attached `-p'...'`.
        rule(
            "password_flag",
            Secret,
            r#"(?:[\s(;|&]|^)(?P<m>(?P<head>(?:(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)[^\n|;]{0,200}?[ \t]-p|-p["'])["']?)(?P<value>[^\s"']+))"#,
            |c, _| {
                let v = group(c, "value");
                if is_placeholder(v) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // `curl -u user:password` (a uid:gid pair such as `-u 1000:1000` stays).
        rule(
            "user_password_flag",
            Secret,
            r#"(?:[\s(;|&]|^)(?P<m>(?P<head>(?:-u|--user)[ \t]*["']?(?P<user>[^\s:"'@]{1,64}):)(?P<value>[^\s"'@]+))"#,
            |c, _| {
                let v = group(c, "value");
                let numeric = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
                if is_placeholder(v) || (numeric(v) && numeric(group(c, "user"))) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // Credentials in URL queries and `key=value;` connection strings (JDBC, ADO.NET, Azure):
        // `?password=x`, `;Password=x;`, `&sig=...`. A password counts whatever it looks like;
        // other keys need a secret-looking value.
        rule(
            "query_secret",
            Secret,
            r"(?i)(?P<head>[?&;][ \t]*(?P<key>password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|api_key|apikey|api-key|sig|signature|accountkey|sharedaccesskey)[ \t]*=[ \t]*)(?P<value>[^&\s#;\x22\x27<>]+)",
            |c, _| {
                let v = group(c, "value");
                let key = group(c, "key").to_ascii_lowercase();
                let password = matches!(key.as_str(), "password" | "passwd" | "pwd" | "pass");
                if is_placeholder(v) || !(password || is_likely_secret_value(v) || v.len() >= 16) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // key=value / key: value secrets (api_key=..., "password": "...", TOKEN=...). The value
        // must look like a secret, so `password: string` in code survives.
        rule(
            "secret_assignment",
            Secret,
            r#"(?i)(?-u:\b)(?P<head>_*(?:[A-Za-z0-9]+[_\-])*(?:api[_\-]?key|apikey|access[_\-]?key|secret[_\-]?key|access[_\-]?token|auth[_\-]?token|refresh[_\-]?token|client[_\-]?secret|aws_secret_access_key|account[_\-]?key|private[_\-]?key|signing[_\-]?key|encryption[_\-]?key|master[_\-]?key|sas[_\-]?token|credentials?|secret|password|passwd|passphrase|pass|pwd|token)["']?[ \t]*[:=][ \t]*["']?)(?P<value>[^\s"',;`]{8,})"#,
            |c, _| {
                if is_likely_secret_value(group(c, "value")) {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                } else {
                    Action::Keep
                }
            },
        ),
        // Oracle JDBC `jdbc:oracle:thin:user/password@host`.
        rule(
            "jdbc_oracle",
            Secret,
            r"(?i)(?P<head>jdbc:oracle:[a-z0-9]+:[^\s/@:;]{1,64}/)(?P<value>[^\s@/]+)@",
            |c, _| {
                if group(c, "value") == "[REDACTED]" {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]@", group(c, "head")))
                }
            },
        ),
        // Wallet seed phrases: twelve or more words in a row from the BIP-39 English list, in any
        // surrounding language (numbered or comma-separated too). Ordinary prose does not run
        // that long without `the`, `a`, `is` or `to`, none of which the list holds.
        rule(
            "bip39_mnemonic",
            Secret,
            r"(?:[^A-Za-z]|^)(?P<m>[a-z]{3,8}(?:[ \t\r\n,;]+(?:[0-9]{1,2}[.)][ \t]*)?[a-z]{3,8}){11,})(?:\z|[^A-Za-z])",
            |c, _| match mask_seed_phrases(group(c, "m")) {
                Some(masked) => Action::Replace(masked),
                None => Action::Keep,
            },
        ),
        // Base64 that decodes to a known secret (a key pasted encoded, a Kubernetes secret).
        rule(
            "encoded_secret",
            EncodedSecret,
            r"(?:[^A-Za-z0-9+/=_\-]|^)(?P<m>[A-Za-z0-9+/_\-]{20,}={0,2})(?:\z|[^A-Za-z0-9+/=_\-])",
            |c, _| if is_encoded_secret(group(c, "m")) { replace_with("[ENCODED_SECRET]") } else { Action::Keep },
        ),
        // Internationalised and full-width addresses (`josé@exämple.com`, `ｂｏｂ＠ｅｘａｍｐｌｅ．ｃｏｍ`,
        // `用户@例子.中国`): a local part in Latin, Greek or Cyrillic letters (full-width too) or
        // all Han, an @ or ＠, a domain with an ASCII, full-width or common IDN top-level domain.
        // All-ASCII matches are left to the next rule.
        rule(
            "email_unicode",
            Email,
            r"(?:^|[^0-9._%+\-\p{Latin}\p{Greek}\p{Cyrillic}\p{M}０-９＿．])(?P<m>(?P<local>\p{Han}{1,20}|[0-9._%+\-\p{Latin}\p{Greek}\p{Cyrillic}\p{M}０-９＿．]+)[@＠][\p{L}\p{N}\p{M}\-－]+(?:[.．][\p{L}\p{N}\p{M}\-－]+)*[.．](?:[A-Za-z]{2,}|[ａ-ｚＡ-Ｚ]{2,}|\p{Greek}{2,}|\p{Cyrillic}{2,}|中国|中國|公司|网络|網絡|在线|广告|移动|みんな|한국))(?:\z|[^A-Za-z0-9\-ａ-ｚＡ-Ｚ０-９])",
            |c, _| {
                let m = group(c, "m");
                if m.is_ascii() || group(c, "local").eq_ignore_ascii_case("git") {
                    Action::Keep
                } else {
                    replace_with("[EMAIL]")
                }
            },
        ),
        // Email addresses. `git@host:org/repo` SSH remotes are kept (not a person's address), and
        // so is a local part ending in `-` or `.` and a domain running on into `_`: that is a
        // decorator after a `grep -n` line prefix (`57-@app.route`, `@functools.lru_cache`).
        rule(
            "email",
            Email,
            r"(?:[^A-Za-z0-9._%+\-]|^)(?P<m>(?P<local>[A-Za-z0-9._%+\-]+)@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,})(?:[^A-Za-z0-9_\-]|\z)",
            |c, _| {
                let local = group(c, "local");
                if local.eq_ignore_ascii_case("git") || local.ends_with(['-', '.']) {
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
                } else if is_generic_account(group(c, "user")) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}/[REDACTED]", group(c, "root")))
                }
            },
        ),
        // C:\Users\<user> (also C:/Users/<user> and JSON-escaped C:\\Users\\<user>).
        rule(
            "windows_home",
            HomePath,
            r#"(?i)(?-u:\b)(?P<head>[A-Za-z]:(?:\\\\|\\|/)(?:Users|Documents and Settings)(?:\\\\|\\|/))(?P<user>[^\\/\s"'`<>|:*?]+)"#,
            |c, t| {
                if already_redacted(c, t) {
                    Action::NoMatch
                } else if is_generic_account(group(c, "user")) {
                    Action::Keep
                } else {
                    Action::Replace(format!("{}[REDACTED]", group(c, "head")))
                }
            },
        ),
        // Chinese resident identity numbers: region, birth date, sequence, check character (the
        // checksum is verified, so an 18-digit order number is kept).
        rule(
            "cn_resident_id",
            NationalId,
            r"(?:[^A-Za-z0-9_\-]|^)(?P<m>[1-8][0-9]{5}(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12][0-9]|3[01])[0-9]{3}[0-9Xx])(?:\z|[^A-Za-z0-9_\-])",
            |c, _| if is_cn_resident_id(group(c, "m")) { replace_with("[ID_NUMBER]") } else { Action::Keep },
        ),
        // Payment cards: 13-19 digits, compact or in groups of 3-6 between spaces or dashes (so an
        // expiry date after the number is not read as its last group), issuer prefix and Luhn.
        rule(
            "payment_card",
            PaymentCard,
            r"(?:[^A-Za-z0-9_.\-+/]|^)(?P<m>[0-9]{3,6}(?:[ \-][0-9]{3,6}){1,5}|[0-9]{13,19})(?:\z|[^A-Za-z0-9_\-.]|[\-.](?:\z|[^0-9]))",
            |c, _| if is_payment_card(group(c, "m")) { replace_with("[CARD]") } else { Action::Keep },
        ),
        // IPv4 addresses. Kept: loopback, 0.0.0.0, 255.255.x.x masks, dotted quads inside longer
        // dotted numbers (1.2.3.4.5) and quads right after a version marker.
        rule(
            "ipv4",
            Ip,
            &format!(r"(?:[^A-Za-z0-9_.]|^)(?P<m>{OCTET}(?:\.{OCTET}){{3}})(?:\z|[^A-Za-z0-9_.]|\.(?:\z|[^0-9]))"),
            |c, t| {
                let ip = group(c, "m");
                let before = window_before(t, span_start(c));
                let version = VERSION_CONTEXT.is_match(before) || NUMBERING_CONTEXT.is_match(before);
                if !is_publicish_ipv4(ip) || (version && !ADDRESS_KEY.is_match(before)) {
                    Action::Keep
                } else {
                    replace_with("[IP]")
                }
            },
        ),
        // IPv6 addresses with a real shape (see `is_real_ipv6`): C++ `a::b`, MAC addresses and
        // times are kept, and so is loopback `::1`.
        rule(
            "ipv6",
            Ip,
            r"(?:[^A-Za-z0-9_:.]|^)(?P<m>(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}:){0,5}[0-9A-Fa-f]{1,4}|(?:[0-9A-Fa-f]{1,4}:){1,7}:)(?:\z|[^A-Za-z0-9_:])",
            |c, _| if is_real_ipv6(group(c, "m")) { replace_with("[IP]") } else { Action::Keep },
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
        // Chinese landlines: area code 010/02x + 8 digits or 0xxx + 7-8 digits, written
        // `010-12345678`, `(0755)1234567` or `（0755）1234567`.
        rule(
            "phone_cn_landline",
            Phone,
            r"(?:[^A-Za-z0-9_.+\-/]|^)(?P<m>(?:\((?P<a1>0(?:10|2[0-9]|[3-9][0-9]{2}))\)|（(?P<a2>0(?:10|2[0-9]|[3-9][0-9]{2}))）|(?P<a3>0(?:10|2[0-9]|[3-9][0-9]{2}))-)[ ]?(?P<local>[1-9][0-9]{6,7}))(?:\z|[^A-Za-z0-9_\-]|-(?:\z|[^0-9]))",
            |c, _| {
                let area = [group(c, "a1"), group(c, "a2"), group(c, "a3")].concat();
                if area.len() == 3 && group(c, "local").len() != 8 {
                    Action::Keep
                } else {
                    replace_with("[PHONE]")
                }
            },
        ),
        rule(
            "phone_cn",
            Phone,
            r"(?:[^A-Za-z0-9_.+\-]|^)(?P<m>1[3-9][0-9](?:[ \-]?[0-9]{4}){2})(?:\z|[^A-Za-z0-9_.\-]|[A-Za-z_.\-](?:\z|[^0-9]))",
            |c, t| {
                let m = c.name("m").expect("group m");
                if is_quantity(m.as_str(), &t[..m.start()], &t[m.end()..]) {
                    Action::Keep
                } else {
                    replace_with("[PHONE]")
                }
            },
        ),
    ]
});

/// The hand-written rule each stage of the rule file runs before.
fn stage_before(rule: &str) -> Option<Stage> {
    match rule {
        "encoded_secret" => Some(Stage::Secrets),
        "cn_resident_id" => Some(Stage::Personal),
        _ => None,
    }
}

/// The names of the redaction rules, in the order they are applied (as the plugin's
/// `REDACTION_RULES`): the hand-written ones, with each stage of the rule file as
/// `rules:secrets` and `rules:personal`.
pub fn rule_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for r in RULES.iter() {
        match stage_before(r.name) {
            Some(Stage::Secrets) => names.push("rules:secrets"),
            Some(Stage::Personal) => names.push("rules:personal"),
            None => {}
        }
        names.push(r.name);
    }
    names
}

/// Runs one stage of the rule file over the text.
fn apply_stage(stage: Stage, text: &str, counts: &mut RedactionCounts) -> Option<String> {
    let mut cur: Option<String> = None;
    let mut lower = text.to_ascii_lowercase();
    for rule in secret_rules::RULES.iter().filter(|r| r.spec.stage == stage) {
        if !rule.may_match(&lower) {
            continue;
        }
        let Some(category) = Category::by_name(&rule.spec.category) else { continue };
        let slot = counts.slot(category);
        if let Some(next) = rule.apply(cur.as_deref().unwrap_or(text), || *slot += 1) {
            lower = next.to_ascii_lowercase();
            cur = Some(next);
        }
    }
    cur
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

/// Header cells that name a column of secrets in a table (Markdown, CSV, TSV): the values under
/// them are secrets whatever they look like, which no pattern over one cell can know.
fn is_secret_column(cell: &str) -> bool {
    let c = cell.trim().trim_matches(['"', '\'', '`', '*', ' ']).to_lowercase();
    const EXACT: &[&str] = &[
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "passcode",
        "pin",
        "secret",
        "token",
        "api key",
        "apikey",
        "api_key",
        "api-key",
        "access token",
        "access_token",
        "secret key",
        "secret_key",
        "client secret",
        "client_secret",
        "private key",
        "private_key",
        "密码",
        "密碼",
        "口令",
        "密钥",
        "密鑰",
        "秘钥",
        "パスワード",
        "暗証番号",
        "비밀번호",
        "암호",
        "contraseña",
        "contrasena",
        "clave",
        "passwort",
        "kennwort",
        "senha",
        "mot de passe",
        "mdp",
        "пароль",
        "wachtwoord",
        "hasło",
        "haslo",
        "şifre",
        "sifre",
        "parola",
    ];
    EXACT.contains(&c.as_str())
        || (c.chars().count() <= 24
            && c.split_whitespace().count() <= 2
            && (c.ends_with("_password")
                || c.ends_with(" password")
                || c.ends_with("-password")
                || c.ends_with("密码")))
}

/// A cell's value that stands for no secret: empty, a mask (`****`, `-`), a placeholder.
fn is_masked_cell(v: &str) -> bool {
    let lower = v.to_lowercase();
    v.is_empty()
        || v.starts_with(['$', '<', '{', '%', '['])
        || v.chars().all(|c| matches!(c, '*' | '•' | '·' | 'x' | 'X' | '-' | '—' | '_' | '.' | ' '))
        || ["n/a", "na", "none", "null", "(hidden)", "hidden", "redacted", "same", "同上", "无", "無"]
            .contains(&lower.as_str())
}

/// The raw cells of a table row split at `delim` (double-quoted cells keep their delimiters).
fn split_cells(line: &str, delim: char) -> Vec<&str> {
    let mut cells = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in line.char_indices() {
        if c == '"' && delim != '|' {
            quoted = !quoted;
        } else if c == delim && !quoted {
            cells.push(&line[start..i]);
            start = i + c.len_utf8();
        }
    }
    cells.push(&line[start..]);
    cells
}

/// The delimiter of a table line: `|` for Markdown rows, else a tab, else a comma, else `;`.
fn table_delimiter(line: &str) -> Option<char> {
    let t = line.trim();
    if t.starts_with('|') && t.matches('|').count() >= 3 {
        return Some('|');
    }
    ['\t', ',', ';'].into_iter().find(|d| line.contains(*d))
}

/// Replaces the values in the columns of a table whose header names a secret (`| user | password |`,
/// `username,password`). Counted as `secret`, one a cell.
fn mask_secret_columns(text: &str, counts: &mut RedactionCounts) -> Option<String> {
    if !text.contains(['|', ',', '\t', ';']) {
        return None;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    // (line index, its new text), in line order; most texts have none, and copy nothing.
    let mut edits: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        let Some(delim) = table_delimiter(line) else { continue };
        // Only a table's first row is its header (a schema table lists `password` as a field).
        if i >= 2 && table_delimiter(lines[i - 2]) == Some(delim) {
            continue;
        }
        let header = split_cells(line.trim_end_matches('\r'), delim);
        let secret: Vec<(usize, String)> = (0..header.len())
            .filter(|k| is_secret_column(header[*k]))
            .map(|k| (k, header[k].trim().to_lowercase()))
            .collect();
        if secret.is_empty() || header.len() < 2 {
            continue;
        }
        // A header is a row of short names; prose with a comma and code (`f(user, password)`) are not.
        let names = header.iter().all(|c| {
            c.trim().chars().count() <= 32
                && c.split_whitespace().count() <= 3
                && !c.contains(['(', ')', '{', '}', '[', ']', '=', ':', '<', '>'])
        });
        if delim != '|' && !names {
            continue;
        }
        while i < lines.len() {
            let row = lines[i];
            let body = row.trim_end_matches('\r');
            let cells = split_cells(body, delim);
            if table_delimiter(row) != Some(delim) || cells.len() != header.len() {
                break;
            }
            i += 1;
            if cells.iter().all(|c| c.trim().chars().all(|ch| matches!(ch, '-' | ':' | ' '))) {
                continue; // the `|---|---|` rule under a Markdown header
            }
            let mut cells: Vec<String> = cells.into_iter().map(str::to_string).collect();
            let mut masked = false;
            for (k, name) in &secret {
                let v = cells[*k].trim().trim_matches('"').trim();
                if is_masked_cell(v) || v.to_lowercase() == *name {
                    continue;
                }
                cells[*k] = cells[*k].replacen(v, "[REDACTED]", 1);
                counts.secret += 1;
                masked = true;
            }
            if masked {
                edits.push((i - 1, cells.join(&delim.to_string()) + &row[body.len()..]));
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    let mut edits = edits.into_iter().peekable();
    let mut out = String::with_capacity(text.len());
    for (n, line) in lines.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        match edits.next_if(|(k, _)| *k == n) {
            Some((_, edited)) => out.push_str(&edited),
            None => out.push_str(line),
        }
    }
    Some(out)
}

/// Removes secrets and personal data from free text (the plugin's strict mode, on the server).
/// Invisible characters that could split a secret are removed first and tokens split across
/// lines are joined (see `strip_invisible`, `join_split_tokens`), and the secret columns of
/// tables are masked (`mask_secret_columns`). Idempotent: redacting the output again changes
/// nothing.
pub fn redact(text: &str) -> Redacted {
    let mut counts = RedactionCounts::default();
    let visible = strip_invisible(text);
    let joined = join_split_tokens(&visible);
    let mut current = std::borrow::Cow::Borrowed(joined.as_ref());
    if let Some(next) = mask_secret_columns(&current, &mut counts) {
        current = std::borrow::Cow::Owned(next);
    }
    for rule in RULES.iter() {
        if let Some(stage) = stage_before(rule.name) {
            if let Some(next) = apply_stage(stage, &current, &mut counts) {
                current = std::borrow::Cow::Owned(next);
            }
        }
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
        ("https://x.io/cb?token=abc123def456&x=1", "https://x.io/cb?token=[REDACTED]&x=1"),
        ("export GITHUB_TOKEN='averyveryverylongtokenvalue'", "export GITHUB_TOKEN='[REDACTED]'"),
        // IPv4
        ("server at 10.0.0.5 is down", "server at [IP] is down"),
        ("ssh root@192.168.1.20", "ssh root@[IP]"),
        ("connect 203.0.113.7:5432.", "connect [IP]:5432."),
        ("subnet 172.16.0.0/12", "subnet [IP]/12"),
        ("服务器10.0.0.5连接超时", "服务器[IP]连接超时"),
        ("ip=8.8.8.8, 1.1.1.1.", "ip=[IP], [IP]."), // `ip=` names an address: `=` is no version pin here
        ("pkg=8.8.8.8 and client_ip=8.8.4.4", "pkg=8.8.8.8 and client_ip=[IP]"),
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
    fn seed_phrases_are_masked_where_the_listed_words_run_twelve_long() {
        // Words off the list on either side stay; a stretch of eleven is not a phrase.
        let phrase = "fiction pair album dumb junior jump affair omit version bar primary essence";
        assert_eq!(
            mask_seed_phrases(&format!("mnemonic {phrase} xylophone")).as_deref(),
            Some("mnemonic [REDACTED] xylophone")
        );
        assert_eq!(mask_seed_phrases("pair album dumb junior jump affair omit version bar primary essence"), None);
        let two = format!("{phrase} qqq {phrase}");
        assert_eq!(mask_seed_phrases(&two).as_deref(), Some("[REDACTED] qqq [REDACTED]"));
        let out = redact(&format!("Mnemonic: {phrase}"));
        assert_eq!(out.text, "Mnemonic: [REDACTED]");
        assert_eq!(out.counts.secret, 1);
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
            1.2.3.4 13800138000 (415) 555-0100 ship to 742 Evergreen Terrace, Springfield, OR 97477";
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
            address: 1,
            ..Default::default()
        };
        assert_eq!(c, expected);
        assert_eq!(c.total(), 15);
        assert_eq!(c.iter().count(), 13);
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
    fn context_keeps_what_is_not_personal() {
        // Shared, CI and system accounts are not people; a person's name still goes.
        assert_eq!(r("/home/runner/work/x and /home/nadia/x"), "/home/runner/work/x and /home/[REDACTED]/x");
        assert_eq!(r("C:\\Users\\Public\\Music"), "C:\\Users\\Public\\Music");
        assert_eq!(r("/Users/Shared/x /Users/shared2/x"), "/Users/Shared/x /Users/[REDACTED]/x");
        // A variable in a URL's password slot is not a password; a literal one is.
        assert_eq!(r("amqp://svc:${AMQP_PASS}@mq:5672"), "amqp://svc:${AMQP_PASS}@mq:5672");
        assert_eq!(r("amqp://svc:$AMQP_PASS@mq"), "amqp://svc:$AMQP_PASS@mq");
        assert_eq!(r("amqp://svc:$x9!@mq"), "amqp://svc:[REDACTED]@mq");
        // Versions glued to a package name and section numbers are not addresses.
        assert_eq!(r("wheel-3.1.4.1-py3"), "wheel-3.1.4.1-py3");
        assert_eq!(r("see section 5.2.1.4"), "see section 5.2.1.4");
        assert_eq!(r("peer 5.2.1.4"), "peer [IP]");
        // A `grep -n` prefix before a decorator is not an e-mail address; an address still is.
        assert_eq!(r("31-@app.get(\"/\")"), "31-@app.get(\"/\")");
        assert_eq!(r("@functools.lru_cache"), "@functools.lru_cache");
        assert_eq!(r("ops-team@corp.io"), "[EMAIL]");
        // An 11-digit count is not a mobile number; the same digits alone are.
        assert_eq!(r("read 13912345678 bytes"), "read 13912345678 bytes");
        assert_eq!(r("offset=13912345678"), "offset=13912345678");
        assert_eq!(r("ring 13912345678"), "ring [PHONE]");
        assert_eq!(r("139-1234-5678 bytes"), "[PHONE] bytes"); // written as a phone number
                                                               // A Docker secret mount names a source, not a secret.
        assert_eq!(r("--secret id=gh,env=GH_TOKEN"), "--secret id=gh,env=GH_TOKEN");
        assert_eq!(r("--secret S3cr3t-value"), "--secret [REDACTED]");
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

    #[test]
    fn every_placeholder_written_is_listed() {
        // Each quoted, bracketed upper-case name in this file and the secret rules is a placeholder.
        let src = [include_str!("redact.rs"), include_str!("secret_rules.rs")].concat();
        let re = regex::Regex::new(r#""(\[[A-Z][A-Z_]+\])""#).unwrap();
        let mut seen = 0;
        for c in re.captures_iter(&src) {
            seen += 1;
            assert!(PLACEHOLDERS.contains(&&c[1]), "{} is written but not in PLACEHOLDERS", &c[1]);
        }
        assert!(seen >= PLACEHOLDERS.len(), "{seen}");
    }
}
