//! The rule file `rules/secrets.json`, embedded at build time: provider keys converted from
//! gitleaks' rule set plus our own rules for secrets that only their context gives away
//! (`.netrc`, `.pgpass`, `redis-cli -a`, DSNs, Docker `auth`, passwords in prose) and for national
//! ids, IBANs and phone numbers with check digits. The OpenClaw plugin embeds the same file (a
//! generated `secret-rules.ts`), so both sides apply the same rules the same way; the file's
//! `dialect` entry says what its patterns may use and what each field means.

use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;

/// Where in the order of the hand-written rules a data rule runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// After the assignment and connection-string rules, before base64 and personal data.
    Secrets,
    /// After e-mail addresses and home paths, before the national-id, card, IP and phone rules.
    Personal,
}

#[derive(Deserialize)]
struct File {
    rules: Vec<Spec>,
}

/// One rule as written in the file.
#[derive(Debug, Clone, Deserialize)]
pub struct Spec {
    pub id: String,
    pub source: String,
    #[serde(default = "default_stage")]
    pub stage: Stage,
    pub category: String,
    pub replace: String,
    pub pattern: String,
    #[serde(default)]
    pub ignore_case: bool,
    #[serde(default)]
    pub multiline: bool,
    #[serde(default)]
    pub group: usize,
    #[serde(default)]
    pub keywords: Vec<String>,
    #[serde(default)]
    pub entropy: Option<f64>,
    #[serde(default)]
    pub require: Vec<String>,
    #[serde(default)]
    pub stopwords: Vec<String>,
    /// Words that, in the match or earlier on its line, say the value is not a secret (`public
    /// key`, `fingerprint`, `idempotency-key`): lower-case ASCII.
    #[serde(default)]
    pub veto: Vec<String>,
    #[serde(default)]
    pub validate: Option<String>,
}

fn default_stage() -> Stage {
    Stage::Secrets
}

/// A rule ready to run.
pub struct DataRule {
    pub spec: Spec,
    pub re: Regex,
    validate: Option<fn(&str) -> bool>,
}

pub const SOURCE: &str = include_str!("../../../rules/secrets.json");

/// The pattern as Rust reads it: JavaScript's ASCII `\b`, and CRLF mode so `.`, `^` and `$` treat
/// `\r` as JavaScript does.
pub fn rust_pattern(spec: &Spec) -> String {
    let flags = format!("(?R{}{})", if spec.ignore_case { "i" } else { "" }, if spec.multiline { "m" } else { "" });
    format!("{flags}{}", spec.pattern.replace(r"\b", r"(?-u:\b)"))
}

/// Every rule in the file, in file order.
pub fn specs() -> Vec<Spec> {
    serde_json::from_str::<File>(SOURCE).expect("rules/secrets.json is valid JSON").rules
}

/// Compiles one rule; the error names the rule.
pub fn compile(spec: Spec) -> Result<DataRule, String> {
    let re = Regex::new(&rust_pattern(&spec)).map_err(|e| format!("{}: {e}", spec.id))?;
    if spec.group > re.captures_len() - 1 {
        return Err(format!("{}: no capture group {}", spec.id, spec.group));
    }
    let validate = match spec.validate.as_deref() {
        None => None,
        Some(name) => Some(crate::checksum::by_name(name).ok_or_else(|| format!("{}: unknown check {name}", spec.id))?),
    };
    Ok(DataRule { spec, re, validate })
}

/// The compiled rules. A rule that does not compile is left out with a warning (the unit tests
/// fail on it, so a released build has none).
pub static RULES: LazyLock<Vec<DataRule>> = LazyLock::new(|| {
    specs().into_iter().filter_map(|s| compile(s).map_err(|e| eprintln!("knowhub: secret rule {e}")).ok()).collect()
});

/// Shannon entropy in bits per character.
pub fn entropy(s: &str) -> f64 {
    let mut counts: std::collections::HashMap<char, usize> = std::collections::HashMap::new();
    let mut n = 0usize;
    for c in s.chars() {
        *counts.entry(c).or_default() += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    // Summed in order of first appearance, as the TypeScript twin does, so both round alike.
    let mut seen = Vec::new();
    let mut h = 0.0;
    for c in s.chars() {
        if !seen.contains(&c) {
            seen.push(c);
            let p = counts[&c] as f64 / n;
            h -= p * p.log2();
        }
    }
    h
}

/// Code rather than a value: a call or subscript (`self.session.get(...)`, `sys.argv[2]`) or a
/// lower-case dotted or snake_case name without digits (`self._token`, `aws_secret_access_key`).
fn is_code_reference(v: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.');
    let head_ok = v.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$');
    let call = head_ok && v.find(['(', '[']).is_some_and(|i| v[..i].chars().all(ident));
    let bare = v.trim_end_matches([')', ']', '}']); // `f(key=aws_secret_access_key)`
    let name = bare.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && bare.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
        && bare.contains(['_', '.']);
    call || name
}

/// Values that look like code or placeholders rather than secrets (mirrors `isLikelySecretValue`).
pub fn is_likely_secret_value(v: &str) -> bool {
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
    if is_code_reference(v) {
        return false;
    }
    v.bytes().any(|b| b.is_ascii_digit())
        || v.contains(['!', '@', '#', '%', '^', '&', '*', '+', '/', '=', '~', '-'])
        || v.chars().count() >= 20
}

fn has_required(v: &str, what: &str) -> bool {
    let digit = v.bytes().any(|b| b.is_ascii_digit());
    let upper = v.bytes().any(|b| b.is_ascii_uppercase());
    let lower = v.bytes().any(|b| b.is_ascii_lowercase());
    match what {
        "digit" => digit,
        "letter" => upper || lower,
        "upper" => upper,
        "lower" => lower,
        "secret_value" => is_likely_secret_value(v),
        // Not words run together (`searchResultsPageLayoutV2`): a run of five lower-case letters
        // and at most one digit reads as an identifier, not as a random key.
        "random" => {
            let words = v.as_bytes().windows(5).any(|w| w.iter().all(u8::is_ascii_lowercase));
            !(words && v.bytes().filter(u8::is_ascii_digit).count() <= 1)
        }
        "mixed" => {
            let other = v.chars().any(|c| !c.is_ascii_alphanumeric());
            ((upper || lower) && digit) || [digit, upper, lower, other].iter().filter(|x| **x).count() >= 3
        }
        _ => false,
    }
}

impl DataRule {
    /// Whether the captured text is a secret by this rule's checks.
    pub fn accepts(&self, v: &str) -> bool {
        let s = &self.spec;
        !v.is_empty()
            && !v.starts_with(['$', '<', '{', '%', '['])
            && s.entropy.is_none_or(|min| entropy(v) >= min)
            && s.require.iter().all(|r| has_required(v, r))
            && (s.stopwords.is_empty() || {
                let lower = v.to_ascii_lowercase();
                !s.stopwords.iter().any(|w| lower.contains(w.as_str()))
            })
            && self.validate.is_none_or(|f| f(v))
    }

    /// Whether a veto word stands between the start of the match's line and the end of its value.
    fn vetoed(&self, text: &str, start: usize, end: usize) -> bool {
        if self.spec.veto.is_empty() {
            return false;
        }
        let line = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let window = text[line..end].to_ascii_lowercase();
        self.spec.veto.iter().any(|w| window.contains(w.as_str()))
    }

    /// Whether the rule can match `lower` (the text with ASCII letters in lower case).
    pub fn may_match(&self, lower: &str) -> bool {
        self.spec.keywords.is_empty() || self.spec.keywords.iter().any(|k| lower.contains(k.as_str()))
    }

    /// Replaces every accepted match's group; `None` when nothing changed. `hit` is called once
    /// per replacement.
    pub fn apply(&self, text: &str, mut hit: impl FnMut()) -> Option<String> {
        let mut out: Option<String> = None;
        let mut copied = 0;
        for caps in self.re.captures_iter(text) {
            let Some(g) = caps.get(self.spec.group) else { continue };
            if !self.accepts(g.as_str()) || self.vetoed(text, caps.get(0).map_or(g.start(), |m| m.start()), g.end()) {
                continue;
            }
            let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
            buf.push_str(&text[copied..g.start()]);
            buf.push_str(&self.spec.replace);
            copied = g.end();
            hit();
        }
        out.map(|mut buf| {
            buf.push_str(&text[copied..]);
            buf
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles_and_is_well_formed() {
        let specs = specs();
        assert!(specs.len() >= 150, "{} rules", specs.len());
        let mut ids = std::collections::HashSet::new();
        let inline_flag = regex::Regex::new(r"(?:^|[^\\])\(\?[^:]").unwrap();
        for s in &specs {
            assert!(ids.insert(s.id.clone()), "duplicate rule id {}", s.id);
            assert!(["gitleaks", "knowhub"].contains(&s.source.as_str()), "{}: source {}", s.id, s.source);
            assert!(!inline_flag.is_match(&s.pattern), "{}", s.id);
            assert!(!s.pattern.contains(r"\d") && !s.pattern.contains(r"\w"), "{}: \\d or \\w", s.id);
            assert!(s.keywords.iter().all(|k| *k == k.to_ascii_lowercase()), "{}: keywords", s.id);
            let category = s.category.as_str();
            assert!(
                ["api_key", "secret", "email", "national_id", "payment_card", "phone", "address"].contains(&category),
                "{}: category {category}",
                s.id
            );
            let rule = compile(s.clone()).unwrap_or_else(|e| panic!("{e}"));
            assert!(rule.re.find("").is_none(), "{} matches empty text", s.id);
        }
        assert_eq!(RULES.len(), specs.len());
    }

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(entropy(""), 0.0);
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abcd") - 2.0).abs() < 1e-12);
        assert!(entropy("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY") > 4.0);
    }

    #[test]
    fn checks_refuse_placeholders_and_low_entropy() {
        let rule = RULES.iter().find(|r| r.spec.id == "password-in-prose").expect("rule");
        assert!(rule.accepts("Xk9mP2vLq7"));
        assert!(!rule.accepts("${PASSWORD}"));
        assert!(!rule.accepts("aaaaaaa1"));
        assert!(!rule.accepts("characters")); // letters only
    }
}
