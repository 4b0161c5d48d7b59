//! Feeds `bench/injection_eval.py`: for each JSON line `{"id", "text", "field"}` on stdin, the
//! rules' categories on the text, and every piece the learned screen scores (the field, content
//! windows, decoded views) with the rules' categories on it and its E5 passage vector, and whether
//! a `resource_version` text fails the version shape check.
//! `cargo run --release -p knowhub-ai --example injection_vectors < cases.jsonl > vectors.jsonl`
use std::io::{BufRead, Write};

use knowhub_core::guard;
use knowhub_embed::{default_model_dir, E5Model, TextKind};
use serde_json::{json, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let model = E5Model::load(&default_model_dir())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let v: Value = serde_json::from_str(&line?)?;
        let text = v["text"].as_str().unwrap_or_default();
        let pieces = if v["field"] == "content" {
            knowhub_ai::screen::pieces(&[], Some(text))
        } else {
            knowhub_ai::screen::pieces(&[text], None)
        };
        let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
        let vecs = if refs.is_empty() { Vec::new() } else { model.embed(&refs, TextKind::Passage)? };
        let pieces: Vec<Value> = pieces
            .iter()
            .zip(vecs)
            .map(|(p, mut e)| {
                knowhub_ai::normalize(&mut e);
                let e: Vec<f64> = e.iter().map(|x| (f64::from(*x) * 1e6).round() / 1e6).collect();
                json!({"text": p, "rules": guard::screen(p), "vec": e})
            })
            .collect();
        // The submit's shape check of a version field (`guard::version_shaped`), beside the rules.
        let unusual_version = v["field"] == "resource_version" && !guard::version_shaped(text);
        let line =
            json!({"id": v["id"], "rules": guard::screen(text), "unusual_version": unusual_version, "pieces": pieces});
        writeln!(out, "{line}")?;
    }
    Ok(())
}
