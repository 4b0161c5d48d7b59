//! The shared security corpus (`testdata/security-cases.jsonl`), also read by the OpenClaw
//! plugin's `test/security-corpus.test.ts`: every case must hold on both sides.
//!
//! - `injection`: `guard::screen` reports exactly the categories in `expect_flags`;
//! - `secret`: `redact` gives `expect_text` exactly, leaves every `expect_redacted` token, no `must_remove` text, every
//!   `must_keep` text, a count in every `expect_counts` category, and is idempotent;
//! - `benign`: `screen` finds nothing and `redact` changes nothing.
//!
//! Prints per-category detection and false-positive rates (`cargo test -- --nocapture`).

use std::collections::BTreeMap;

use knowhub_core::guard::{looks_like_injection, screen};
use knowhub_core::redact::redact;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    kind: String,
    category: String,
    text: String,
    /// The exact redacted text (both implementations must agree to the character).
    #[serde(default)]
    expect_text: Option<String>,
    #[serde(default)]
    expect_flags: Vec<String>,
    #[serde(default)]
    expect_redacted: Vec<String>,
    #[serde(default)]
    expect_counts: Vec<String>,
    #[serde(default)]
    must_keep: Vec<String>,
    #[serde(default)]
    must_remove: Vec<String>,
}

fn cases() -> Vec<Case> {
    include_str!("../../../testdata/security-cases.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad corpus line {l}: {e}")))
        .collect()
}

/// Why a case fails, or `None` when it holds.
fn check(c: &Case) -> Option<String> {
    match c.kind.as_str() {
        "injection" => {
            let flags = screen(&c.text);
            (flags != c.expect_flags || flags.is_empty())
                .then(|| format!("flags {flags:?}, expected {:?}", c.expect_flags))
        }
        "secret" => {
            let out = redact(&c.text);
            let counts: BTreeMap<&str, usize> = out.counts.iter().collect();
            let mut why = Vec::new();
            if let Some(t) = c.expect_text.as_ref().filter(|t| **t != out.text) {
                why.push(format!("expected {t:?}"));
            }
            why.extend(
                c.expect_redacted.iter().filter(|t| !out.text.contains(t.as_str())).map(|t| format!("no {t:?}")),
            );
            why.extend(c.must_remove.iter().filter(|t| out.text.contains(t.as_str())).map(|t| format!("kept {t:?}")));
            why.extend(c.must_keep.iter().filter(|t| !out.text.contains(t.as_str())).map(|t| format!("lost {t:?}")));
            why.extend(
                c.expect_counts
                    .iter()
                    .filter(|k| counts.get(k.as_str()).copied().unwrap_or(0) == 0)
                    .map(|k| format!("count {k} is 0")),
            );
            let again = redact(&out.text);
            if again.text != out.text || !again.counts.is_empty() {
                why.push(format!("not idempotent: {:?}", again.text));
            }
            (!why.is_empty()).then(|| format!("{} -> {:?}", why.join(", "), out.text))
        }
        "benign" => {
            let flags = screen(&c.text);
            let out = redact(&c.text);
            (!flags.is_empty() || out.text != c.text)
                .then(|| format!("flags {flags:?}, redacted {:?} ({:?})", out.text, out.counts))
        }
        k => Some(format!("unknown kind {k}")),
    }
}

#[test]
fn every_corpus_case_holds() {
    let cases = cases();
    assert!(cases.len() >= 300, "{} cases", cases.len());
    assert!(cases.iter().filter(|c| c.kind == "benign").count() >= 80);
    let mut ids = std::collections::HashSet::new();
    for c in &cases {
        assert!(ids.insert(c.id.as_str()), "duplicate id {}", c.id);
    }
    // (kind, category) -> (cases, passed)
    let mut per: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &cases {
        let e = per.entry((c.kind.as_str(), c.category.as_str())).or_default();
        e.0 += 1;
        match check(c) {
            None => e.1 += 1,
            Some(why) => failures.push(format!("{} ({}): {why}\n    text: {:?}", c.id, c.category, c.text)),
        }
    }
    println!("security corpus: {} cases", cases.len());
    println!("{:<10} {:<22} {:>5} {:>9}", "kind", "category", "cases", "rate");
    for ((kind, cat), (n, ok)) in &per {
        let (label, rate) =
            if *kind == "benign" { ("fp", (n - ok) as f64 / *n as f64) } else { ("detect", *ok as f64 / *n as f64) };
        println!("{kind:<10} {cat:<22} {n:>5} {label:>6} {:>5.1}%", rate * 100.0);
    }
    for kind in ["injection", "secret", "benign"] {
        let (n, ok) = per.iter().filter(|((k, _), _)| *k == kind).fold((0, 0), |a, (_, v)| (a.0 + v.0, a.1 + v.1));
        let rate = if kind == "benign" { (n - ok) as f64 / n as f64 } else { ok as f64 / n as f64 };
        let label = if kind == "benign" { "false-positive" } else { "detection" };
        println!("{kind}: {n} cases, {label} rate {:.1}%", rate * 100.0);
    }
    let secrets_flagged = cases.iter().filter(|c| c.kind == "secret" && looks_like_injection(&c.text)).count();
    println!("secret cases also flagged by the injection screen: {secrets_flagged}");
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}
