//! Held-out measurement of the redactor: secrets and personal data written without sight of the
//! rules (testdata/secrets/heldout.jsonl) go through `redact::redact`, the function `sanitise`
//! applies to every record field before it is stored. Per category it reports how many secrets
//! no longer appear in the output (detected) and how many benign look-alikes were changed
//! (false positives). Given the TypeScript plugin's outputs for the same cases
//! (plugins/openclaw/scripts/secrets-heldout.mjs --out FILE), it puts both side by side and lists
//! every case where the two implementations disagree. The experience dev set, which holds no
//! secrets, is redacted as submit would redact it, for the false-positive share on real records.
//! Nothing is tuned here: the cases are a measurement, not a target.
//!
//! `knowhub-bench secrets [--cases testdata/secrets/heldout.jsonl] [--ts ts-outputs.jsonl]
//!  [--records bench/data/experiences/records.jsonl] [--out rust-outputs.jsonl]`

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use knowhub_core::redact;
use serde::Deserialize;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The held-out cases (one JSON object a line: id, kind, category, family, text, secret).
    #[arg(long, default_value = "testdata/secrets/heldout.jsonl")]
    cases: PathBuf,
    /// The TypeScript redactor's output per case ({"id", "text"} a line), to compare with.
    #[arg(long)]
    ts: Option<PathBuf>,
    /// Experience records (task, resource, result) redacted as submit redacts them; empty to skip.
    #[arg(long, default_value = "bench/data/experiences/records.jsonl")]
    records: PathBuf,
    /// Write the Rust output per case here ({"id", "text"} a line).
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    kind: String,
    category: String,
    family: String,
    text: String,
    #[serde(default)]
    secret: Option<String>,
}

#[derive(Deserialize)]
struct Output {
    id: String,
    text: String,
}

/// What one implementation did with one case.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// A secret: gone from the output.
    Detected,
    /// A secret: gone, but 8 or more of its characters in a row are still there.
    Partial,
    /// A secret: still in the output.
    Missed,
    /// Benign: output equals input.
    Kept,
    /// Benign: the output differs (a false positive).
    Changed,
}

impl Verdict {
    fn of(case: &Case, out: &str) -> Verdict {
        match &case.secret {
            Some(secret) if out.contains(secret.as_str()) => Verdict::Missed,
            Some(secret) if survives(secret, out) => Verdict::Partial,
            Some(_) => Verdict::Detected,
            None if out == case.text => Verdict::Kept,
            None => Verdict::Changed,
        }
    }

    /// Counts toward the category's rate: a detected secret (partial included) or a changed
    /// benign text.
    fn hit(self) -> bool {
        matches!(self, Verdict::Detected | Verdict::Partial | Verdict::Changed)
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Detected => "detected",
            Verdict::Partial => "partial",
            Verdict::Missed => "missed",
            Verdict::Kept => "kept",
            Verdict::Changed => "changed",
        }
    }
}

/// Whether a run of 8 characters of `secret` is still in `out` (a redaction that leaves most of
/// a long secret behind). Secrets shorter than 10 characters are not judged this way.
fn survives(secret: &str, out: &str) -> bool {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 10 {
        return false;
    }
    chars.windows(8).any(|w| out.contains(&w.iter().collect::<String>()))
}

#[derive(Default)]
struct Row {
    family: String,
    n: usize,
    rust: usize,
    rust_partial: usize,
    ts: usize,
    ts_partial: usize,
    disagree: usize,
}

fn pct(k: usize, n: usize) -> String {
    if n == 0 {
        "-".into()
    } else {
        format!("{:.0}%", 100.0 * k as f64 / n as f64)
    }
}

fn read_outputs(path: &PathBuf) -> anyhow::Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let o: Output = serde_json::from_str(line).with_context(|| format!("{}: {line}", path.display()))?;
        out.insert(o.id, o.text);
    }
    Ok(out)
}

/// One line, at most 140 characters, for a report.
fn excerpt(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = one.chars().take(140).collect();
    if cut.len() < one.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// Redacts every record of the experience set as submit does (task, resource, result) and
/// reports the share changed, with the redaction categories and every changed field.
fn records(path: &PathBuf) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let (mut n, mut changed) = (0usize, 0usize);
    let mut cats: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut examples = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line)?;
        n += 1;
        let mut any = false;
        for field in ["task", "resource", "result"] {
            let Some(s) = v.get(field).and_then(|x| x.as_str()) else { continue };
            let r = redact::redact(s);
            if r.text != s {
                any = true;
                for (c, k) in r.counts.iter().filter(|(_, k)| *k > 0) {
                    *cats.entry(c).or_default() += k;
                }
                let id = v.get("id").and_then(|x| x.as_str()).unwrap_or("?");
                examples.push(format!("{id}.{field}: {}", excerpt(&r.text)));
            }
        }
        changed += usize::from(any);
    }
    println!(
        "\nexperience set {}: {n} records, changed by redaction {changed} ({:.2}%) {cats:?}",
        path.display(),
        if n == 0 { 0.0 } else { 100.0 * changed as f64 / n as f64 }
    );
    for e in examples {
        println!("  {e}");
    }
    Ok(())
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.cases).with_context(|| format!("reading {}", a.cases.display()))?;
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .context("parsing the cases")?;
    let ts = a.ts.as_ref().map(read_outputs).transpose()?;
    let mut out_file = a.out.as_ref().map(std::fs::File::create).transpose()?;

    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    let mut misses: Vec<String> = Vec::new();
    let mut partials: Vec<String> = Vec::new();
    let mut changed: Vec<String> = Vec::new();
    let mut disagreements: Vec<String> = Vec::new();
    let mut text_differs = 0usize;
    for case in &cases {
        anyhow::ensure!(
            case.kind == "benign" || case.secret.as_deref().is_some_and(|s| case.text.contains(s)),
            "case {}: its secret is not in its text",
            case.id
        );
        let rust_out = redact::redact(&case.text).text;
        if let Some(f) = out_file.as_mut() {
            writeln!(f, "{}", serde_json::json!({"id": case.id, "text": rust_out}))?;
        }
        let rv = Verdict::of(case, &rust_out);
        let row = rows.entry((case.kind.clone(), case.category.clone())).or_default();
        row.family.clone_from(&case.family);
        row.n += 1;
        row.rust += usize::from(rv.hit());
        row.rust_partial += usize::from(rv == Verdict::Partial);
        let tv = match &ts {
            Some(ts) => {
                let t = ts.get(&case.id).with_context(|| format!("no TypeScript output for {}", case.id))?;
                if *t != rust_out {
                    text_differs += 1;
                }
                let tv = Verdict::of(case, t);
                row.ts += usize::from(tv.hit());
                row.ts_partial += usize::from(tv == Verdict::Partial);
                if tv.hit() != rv.hit() {
                    row.disagree += 1;
                    disagreements.push(format!(
                        "{} [{}] rust {} / ts {}\n      rust: {}\n      ts:   {}",
                        case.id,
                        case.category,
                        rv.word(),
                        tv.word(),
                        excerpt(&rust_out),
                        excerpt(t)
                    ));
                }
                Some(tv)
            }
            None => None,
        };
        let ts_word = tv.map(|v| format!(" (ts {})", v.word())).unwrap_or_default();
        match rv {
            Verdict::Missed => misses.push(format!("{} [{}]{ts_word}: {}", case.id, case.category, excerpt(&rust_out))),
            Verdict::Partial => {
                partials.push(format!("{} [{}]{ts_word}: {}", case.id, case.category, excerpt(&rust_out)))
            }
            Verdict::Changed => {
                changed.push(format!("{} [{}]{ts_word}: {}", case.id, case.category, excerpt(&rust_out)))
            }
            _ => {}
        }
    }

    let with_ts = ts.is_some();
    let head = if with_ts { "| rust | ts | disagree |" } else { "| rust |" };
    println!("held-out cases: {} ({})", cases.len(), a.cases.display());
    for (kind, title) in [("secret", "detected (secret gone from the output)"), ("benign", "changed (false positive)")]
    {
        println!("\n{kind}: {title}\n\n| family | category | n {head}");
        println!("|---|---|---:|---:|{}", if with_ts { "---:|---:|" } else { "" });
        let (mut n, mut r, mut t, mut d) = (0, 0, 0, 0);
        let mut fam: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
        let mut sorted: Vec<(&(String, String), &Row)> = rows.iter().filter(|((k, _), _)| k == kind).collect();
        sorted.sort_by(|a, b| (&a.1.family, &a.0 .1).cmp(&(&b.1.family, &b.0 .1)));
        for ((_, cat), row) in sorted {
            let part = |p: usize| if p > 0 { format!(" ({p} partial)") } else { String::new() };
            let mut line = format!(
                "| {} | {cat} | {} | {}/{} {}{} |",
                row.family,
                row.n,
                row.rust,
                row.n,
                pct(row.rust, row.n),
                part(row.rust_partial)
            );
            if with_ts {
                line.push_str(&format!(
                    " {}/{} {}{} | {} |",
                    row.ts,
                    row.n,
                    pct(row.ts, row.n),
                    part(row.ts_partial),
                    row.disagree
                ));
            }
            println!("{line}");
            n += row.n;
            r += row.rust;
            t += row.ts;
            d += row.disagree;
            let f = fam.entry(row.family.as_str()).or_default();
            f.0 += row.n;
            f.1 += row.rust;
            f.2 += row.ts;
        }
        let mut total = format!("| **all** | | {n} | {r}/{n} {} |", pct(r, n));
        if with_ts {
            total.push_str(&format!(" {t}/{n} {} | {d} |", pct(t, n)));
        }
        println!("{total}");
        if kind == "secret" {
            println!("\nper family:");
            for (f, (n, r, t)) in fam {
                let ts_part = if with_ts { format!(", ts {t}/{n} {}", pct(t, n)) } else { String::new() };
                println!("  {f}: rust {r}/{n} {}{ts_part}", pct(r, n));
            }
        }
    }
    println!("\nmissed secrets (rust): {}", misses.len());
    for m in &misses {
        println!("  {m}");
    }
    println!("\npartly redacted secrets (rust; 8+ characters survive): {}", partials.len());
    for m in &partials {
        println!("  {m}");
    }
    println!("\nchanged benign texts (rust): {}", changed.len());
    for m in &changed {
        println!("  {m}");
    }
    if with_ts {
        println!(
            "\nrust and ts: {} of {} cases with a different verdict, {text_differs} with a different output text",
            disagreements.len(),
            cases.len()
        );
        for d in &disagreements {
            println!("  {d}");
        }
    }
    if !a.records.as_os_str().is_empty() {
        records(&a.records)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(text: &str, secret: Option<&str>) -> Case {
        Case {
            id: "x".into(),
            kind: if secret.is_some() { "secret" } else { "benign" }.into(),
            category: "c".into(),
            family: "f".into(),
            text: text.into(),
            secret: secret.map(str::to_string),
        }
    }

    #[test]
    fn a_secret_is_detected_only_when_gone_and_partial_when_a_run_survives() {
        let c = case("token=abcdefghijklmnop", Some("abcdefghijklmnop"));
        assert!(Verdict::of(&c, "token=abcdefghijklmnop") == Verdict::Missed);
        assert!(Verdict::of(&c, "token=[REDACTED]") == Verdict::Detected);
        assert!(Verdict::of(&c, "token=abcdefgh[REDACTED]") == Verdict::Partial);
        assert!(Verdict::Partial.hit() && !Verdict::Missed.hit());
    }

    #[test]
    fn a_benign_text_counts_as_changed_on_any_difference() {
        let c = case("commit 0123abc", None);
        assert!(Verdict::of(&c, "commit 0123abc") == Verdict::Kept);
        assert!(Verdict::of(&c, "commit [REDACTED]") == Verdict::Changed);
        assert!(!Verdict::Kept.hit() && Verdict::Changed.hit());
    }

    #[test]
    fn short_secrets_are_not_judged_partial() {
        assert!(!survives("hunter2", "hunter2"));
        assert!(survives("0123456789abc", "xx23456789yy"));
        assert!(!survives("0123456789abc", "x0123456y"));
    }
}
