//! False positives of the injection screen and the redactor on real text: every document of the
//! BEIR corpora (code functions and Chinese questions, none of them attacks) and every message
//! of the agent trajectories goes through `guard::screen` and `redact::redact`; the share flagged
//! or changed is reported per source with the categories, and a few examples so a person can
//! judge them. Goal: at most 1% flagged on the retrieval corpora. Nothing is stored.
//!
//! `knowhub-bench guard [--retrieval ../shared/data/retrieval] [--trajectories ../shared/data/trajectories]`

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use knowhub_core::{guard, redact};
use serde_json::Value;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder of BEIR sets (each with corpus.jsonl, or beir/corpus.jsonl).
    #[arg(long, default_value = "../shared/data/retrieval")]
    retrieval: PathBuf,
    /// Folder of agent trajectories (claude_code/*.jsonl.gz, mini_swe_agent/*.traj.json.gz).
    #[arg(long, default_value = "../shared/data/trajectories")]
    trajectories: PathBuf,
    /// Flagged or redacted examples to print per source.
    #[arg(long, default_value_t = 3)]
    examples: usize,
    /// Flagged share allowed on the retrieval corpora (exit code 1 above it).
    #[arg(long, default_value_t = 0.01)]
    goal: f64,
}

#[derive(Default)]
struct Tally {
    units: usize,
    flagged: usize,
    redacted: usize,
    categories: BTreeMap<&'static str, usize>,
    redactions: BTreeMap<&'static str, usize>,
    flagged_examples: Vec<String>,
    redacted_examples: Vec<String>,
    seconds: f64,
}

impl Tally {
    fn add(&mut self, text: &str, keep: usize) {
        self.units += 1;
        let t0 = Instant::now();
        let flags = guard::screen(text);
        let red = redact::redact(text);
        self.seconds += t0.elapsed().as_secs_f64();
        if !flags.is_empty() {
            self.flagged += 1;
            for f in &flags {
                *self.categories.entry(f).or_default() += 1;
            }
            if self.flagged_examples.len() < keep {
                self.flagged_examples.push(format!("{flags:?} {}", excerpt(text)));
            }
        }
        if !red.counts.is_empty() {
            self.redacted += 1;
            for (c, n) in red.counts.iter().filter(|(_, n)| *n > 0) {
                *self.redactions.entry(c).or_default() += n;
            }
            if self.redacted_examples.len() < keep {
                let cats: Vec<&str> = red.counts.iter().filter(|(_, n)| *n > 0).map(|(c, _)| c).collect();
                self.redacted_examples.push(format!("{cats:?} {}", excerpt(&red.text)));
            }
        }
    }

    fn share(&self) -> f64 {
        if self.units == 0 {
            0.0
        } else {
            self.flagged as f64 / self.units as f64
        }
    }

    fn print(&self, name: &str) {
        let pct = |n: usize| if self.units == 0 { 0.0 } else { 100.0 * n as f64 / self.units as f64 };
        println!(
            "{name}: {} texts, flagged {} ({:.2}%), redacted {} ({:.2}%), {:.0} texts/s",
            self.units,
            self.flagged,
            pct(self.flagged),
            self.redacted,
            pct(self.redacted),
            self.units as f64 / self.seconds.max(1e-9)
        );
        if !self.categories.is_empty() {
            println!("  flag categories: {:?}", self.categories);
        }
        if !self.redactions.is_empty() {
            println!("  redaction counts: {:?}", self.redactions);
        }
        for e in &self.flagged_examples {
            println!("  flagged: {e}");
        }
        for e in &self.redacted_examples {
            println!("  redacted: {e}");
        }
    }
}

/// One line, at most 160 characters, for a report.
fn excerpt(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = one.chars().take(160).collect();
    if cut.len() < one.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

fn gunzip(path: &Path) -> anyhow::Result<String> {
    let out = std::process::Command::new("gzip").arg("-dc").arg(path).output().context("running gzip")?;
    anyhow::ensure!(out.status.success(), "gzip -dc {}", path.display());
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Every string under a message's content (text blocks, tool inputs and results), joined.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => {
            for (k, x) in o {
                if !matches!(k.as_str(), "id" | "type" | "signature" | "tool_use_id" | "uuid" | "name") {
                    strings(x, out);
                }
            }
        }
        _ => {}
    }
}

fn message_text(content: &Value) -> String {
    let mut parts = Vec::new();
    strings(content, &mut parts);
    parts.join("\n")
}

fn sorted_files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.to_string_lossy().ends_with(suffix)).collect())
        .unwrap_or_default();
    files.sort();
    files
}

fn claude_code(dir: &Path, t: &mut Tally, keep: usize) -> anyhow::Result<()> {
    for f in sorted_files(dir, ".jsonl.gz") {
        for line in gunzip(&f)?.lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            if let Some(c) = v.pointer("/message/content") {
                let text = message_text(c);
                if !text.trim().is_empty() {
                    t.add(&text, keep);
                }
            }
        }
    }
    Ok(())
}

fn mini_swe_agent(dir: &Path, t: &mut Tally, keep: usize) -> anyhow::Result<()> {
    for f in sorted_files(dir, ".traj.json.gz") {
        let v: Value = serde_json::from_str(&gunzip(&f)?).with_context(|| f.display().to_string())?;
        for m in v.get("messages").and_then(Value::as_array).into_iter().flatten() {
            let text = m.get("content").map(message_text).unwrap_or_default();
            if !text.trim().is_empty() {
                t.add(&text, keep);
            }
        }
    }
    Ok(())
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    println!("injection screen and redaction on real text (no attacks in these sources)");
    let mut worst: f64 = 0.0;
    let mut sets: Vec<PathBuf> = std::fs::read_dir(&a.retrieval)
        .with_context(|| format!("reading {}", a.retrieval.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    sets.sort();
    let mut all = Tally::default();
    for set in sets {
        let corpus = [set.join("corpus.jsonl"), set.join("beir/corpus.jsonl")].into_iter().find(|p| p.exists());
        let Some(corpus) = corpus else { continue };
        let mut t = Tally::default();
        for line in std::fs::read_to_string(&corpus)?.lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
            let title = v.get("title").and_then(Value::as_str).unwrap_or("");
            let text = v.get("text").and_then(Value::as_str).unwrap_or("");
            let doc = if title.is_empty() { text.to_string() } else { format!("{title}\n{text}") };
            t.add(&doc, a.examples);
            all.add(&doc, 0);
        }
        let name = set.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        t.print(&format!("retrieval/{name}"));
        worst = worst.max(t.share());
    }
    all.print("retrieval (all corpora)");
    let mut cc = Tally::default();
    claude_code(&a.trajectories.join("claude_code"), &mut cc, a.examples)?;
    cc.print("trajectories/claude_code (messages)");
    let mut swe = Tally::default();
    mini_swe_agent(&a.trajectories.join("mini_swe_agent"), &mut swe, a.examples)?;
    swe.print("trajectories/mini_swe_agent (messages)");
    let ok = worst <= a.goal;
    println!(
        "goal: at most {:.1}% flagged on each retrieval corpus; worst {:.2}%: {}",
        a.goal * 100.0,
        worst * 100.0,
        if ok { "met" } else { "NOT met" }
    );
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}
