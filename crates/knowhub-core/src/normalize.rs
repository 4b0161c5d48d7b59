//! Text normalising shared by the injection screen (`guard`) and redaction (`redact`): removing
//! characters that render as nothing, joining tokens split across lines, decoding base64 that
//! hides text. Both read text an agent wrote, and both must see through the same disguises, so the
//! helpers live here, below both, rather than in either.

use std::sync::LazyLock;

use regex::Regex;

/// Characters that render as nothing (or only change direction) and so can split or hide a word
/// from a reader and a pattern: zero-width, bidi controls, tag characters, variation selectors.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}'
        | '\u{FEFF}' | '\u{AD}' | '\u{34F}' | '\u{180E}' | '\u{FE00}'..='\u{FE0F}'
        | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

/// Invisible characters that can split a secret from a pattern (zero-width, bidi controls, tag
/// characters), removed before matching. Kept where they do real work: a joiner or variation
/// selector after a non-ASCII character (emoji sequences) and tag characters after a black flag
/// (subdivision flags).
pub fn strip_invisible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_invisible) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut prev = '\0';
    let mut in_flag = false;
    for c in text.chars() {
        let keep = if ('\u{E0020}'..='\u{E007F}').contains(&c) {
            in_flag = in_flag || prev == '\u{1F3F4}';
            in_flag
        } else if matches!(c, '\u{200D}' | '\u{FE00}'..='\u{FE0F}') {
            !prev.is_ascii()
        } else {
            in_flag = false;
            !is_invisible(c)
        };
        if keep {
            out.push(c);
            prev = c;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The prefixes of provider tokens that a writer may split (`ghp_`, `sk-`, `AKIA`, ...).
const TOKEN_PREFIX: &str =
    r"(?:gh[pousr]_|github_pat_|glpat-|xox[abposre]-|xapp-|sk-|sk_live_|rk_live_|npm_|pypi-|hf_|AIza|AKIA|ASIA|SG\.)";

/// A token with a known prefix at the end of a line, continued alone on the next line(s): the
/// line break is removed so the token rules see the whole token.
static SPLIT_TOKEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:[^A-Za-z0-9_\-]|^)(?P<m>{TOKEN_PREFIX}[A-Za-z0-9_\-.]{{6,}}[ \t]*\r?\n[ \t]*(?P<cont>[A-Za-z0-9_\-.]{{4,}}))[ \t]*(?:\r?\n|\z)"
    ))
    .expect("split token regex")
});

/// A string literal opening with a known token prefix, concatenated with the next literal
/// (`"sk-proj-" + "Xa9..."`, Python's `"ghp_" "abc"`, PHP `.`, Lua `..`, SQL `||`, across a line
/// break too): the two literals are joined so the token rules see the whole token.
static SPLIT_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r#"(?P<m>(?P<q>["'`])(?P<head>{TOKEN_PREFIX}[A-Za-z0-9_\-.]*)["'`][ \t]*(?:\+|\.\.?|\|\|)?[ \t]*(?:\r?\n[ \t]*(?:\+|\.\.?|\|\|)?[ \t]*)?["'`](?P<cont>[A-Za-z0-9_\-.]{{4,}})["'`])"#
    ))
    .expect("split literal regex")
});

/// A run of short groups, each followed by one space: where a token spelled out character by
/// character (`g h p _ 1 A …`) or spaced every few characters (`xoxp-152 36581199 …`) can hide.
static SPACED_RUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:[^A-Za-z0-9_\-.+/=]|^)(?P<m>(?:[A-Za-z0-9_\-.+/=]{1,8} ){2,}[A-Za-z0-9_\-.+/=]{1,8})")
        .expect("spaced run regex")
});

static STARTS_WITH_PREFIX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^{TOKEN_PREFIX}")).expect("token prefix regex"));

/// Where in a run of spaced groups a prefixed token starts and ends (group indices, inclusive):
/// from the first group at which the joined rest opens with a token prefix, the groups as long as
/// that first one (the writer's spacing), then one shorter last group if it ends the run. `None`
/// unless the joined token holds 20 or more characters, an upper-case letter or a digit after
/// its prefix, and three groups or more.
fn spaced_token(groups: &[&str]) -> Option<(usize, usize)> {
    // A prefix is at most 11 characters, so the first 16 of the rest tell (a long run of prose
    // words stays linear).
    let head = |i: usize| {
        let mut h = String::new();
        for g in &groups[i..] {
            if h.len() >= 16 {
                break;
            }
            h.push_str(g);
        }
        h
    };
    let start = (0..groups.len()).find(|&i| STARTS_WITH_PREFIX.is_match(&head(i)))?;
    let width = groups[start].len();
    let mut end = start;
    while end + 1 < groups.len() && groups[end + 1].len() == width {
        end += 1;
    }
    if end + 2 == groups.len() && groups[end + 1].len() < width {
        end += 1;
    }
    let joined = groups[start..=end].concat();
    let prefix = STARTS_WITH_PREFIX.find(&joined).map_or(0, |m| m.end());
    (end - start >= 2 && joined.len() >= 20 && has_upper_or_digit(&joined[prefix..])).then_some((start, end))
}

/// Joins a prefixed token written with spaces inside it (see `SPACED_RUN`), so the token rules
/// see the whole token.
fn join_spaced_tokens(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out = String::new();
    let mut copied = 0;
    for c in SPACED_RUN.captures_iter(text) {
        let m = c.name("m").expect("m");
        let groups: Vec<&str> = m.as_str().split(' ').collect();
        let Some((start, end)) = spaced_token(&groups) else { continue };
        let from = m.start() + groups[..start].iter().map(|g| g.len() + 1).sum::<usize>();
        let to = from + groups[start..=end].iter().map(|g| g.len() + 1).sum::<usize>() - 1;
        out.push_str(&text[copied..from]);
        out.push_str(&groups[start..=end].concat());
        copied = to;
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Joins tokens split across lines or string literals (up to three breaks per token) or written
/// with spaces inside them.
pub fn join_split_tokens(text: &str) -> std::borrow::Cow<'_, str> {
    let spaced = join_spaced_tokens(text);
    let mut cur = std::borrow::Cow::Borrowed(spaced.as_ref());
    for _ in 0..3 {
        let mut out = String::new();
        let mut copied = 0;
        let mut pos = 0;
        while pos < cur.len() {
            let from = cur[..pos].chars().next_back().map_or(pos, |c| pos - c.len_utf8());
            let Some(c) = SPLIT_TOKEN.captures_at(&cur, from) else { break };
            let m = c.name("m").expect("m");
            let cont = c.name("cont").map_or("", |m| m.as_str());
            if m.start() >= pos && has_upper_or_digit(cont) {
                let joined: String = m.as_str().chars().filter(|ch| !ch.is_whitespace()).collect();
                out.push_str(&cur[copied..m.start()]);
                out.push_str(&joined);
                copied = m.end();
            }
            pos = m.end().max(m.start() + 1);
        }
        // Literals after the last line join; any before it are joined on the next round.
        for c in SPLIT_LITERAL.captures_iter(&cur) {
            let m = c.name("m").expect("m");
            if m.start() < copied || !has_upper_or_digit(&c["cont"]) {
                continue;
            }
            out.push_str(&cur[copied..m.start()]);
            out.push_str(&format!("{q}{}{}{q}", &c["head"], &c["cont"], q = &c["q"]));
            copied = m.end();
        }
        if copied == 0 {
            break;
        }
        out.push_str(&cur[copied..]);
        cur = std::borrow::Cow::Owned(out);
    }
    match cur {
        std::borrow::Cow::Owned(joined) => std::borrow::Cow::Owned(joined),
        std::borrow::Cow::Borrowed(_) => spaced,
    }
}

fn has_upper_or_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
}

/// Decodes standard or URL-safe base64 (padding optional); `None` for anything else.
pub fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Decoded text when `bytes` is mostly printable UTF-8 (a hash or path decodes to noise).
pub fn printable_text(bytes: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(bytes).ok()?;
    let total = s.chars().count();
    let printable = s.chars().filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r')).count();
    (total >= 4 && printable * 10 >= total * 9).then(|| s.to_string())
}
