//! Embed lines from stdin, for comparing with another engine.
//! Input lines: `q<TAB>text` (query) or `p<TAB>text` (passage).
//! Output per line: `ids <token ids without <s>/</s>>` then `vec <384 floats>`.
//! `cargo run --release -p knowhub-embed --example embed_stdin [--ids-only] < lines.tsv`
use std::io::{BufRead, Write};

use knowhub_embed::{default_model_dir, E5Model, TextKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ids_only = std::env::args().any(|a| a == "--ids-only");
    let model = E5Model::load(&default_model_dir())?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let Some((k, text)) = line.split_once('\t') else {
            continue;
        };
        let kind = if k == "q" { TextKind::Query } else { TextKind::Passage };
        let ids = model.tokenize(text, kind);
        let content: Vec<String> = ids[1..ids.len() - 1].iter().map(|i| i.to_string()).collect();
        writeln!(out, "ids {}", content.join(" "))?;
        if ids_only {
            continue;
        }
        let v = &model.embed(&[text], kind)?[0];
        let vs: Vec<String> = v.iter().map(|x| format!("{x:.7}")).collect();
        writeln!(out, "vec {}", vs.join(" "))?;
    }
    Ok(())
}
