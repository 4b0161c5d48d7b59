//! Embed lines from stdin, for comparing with another engine.
//! Input lines: `q<TAB>text` (query) or `p<TAB>text` (passage).
//! Output per line: `ids <token ids without <s>/</s>>` then `vec <384 floats>`.
//! With `--minilm`, all-MiniLM-L6-v2 instead (the q/p tag is ignored: it has no prefixes).
//! With `--time`, a third line `us <microseconds>`: the embed call alone, timed in the process,
//! so an A/B of two builds (bench/query_ab.py) can leave out the pipe and the printing.
//! `cargo run --release -p knowhub-embed --example embed_stdin [--ids-only] [--minilm] [--time] < lines.tsv`
use std::io::{BufRead, Write};

use knowhub_embed::{default_model_dir, E5Model, MiniLmModel, TextKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ids_only = std::env::args().any(|a| a == "--ids-only");
    let minilm = std::env::args().any(|a| a == "--minilm");
    let time = std::env::args().any(|a| a == "--time");
    let (model, mini) = if minilm {
        (None, Some(MiniLmModel::load(&default_model_dir())?))
    } else {
        (Some(E5Model::load(&default_model_dir())?), None)
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let Some((k, text)) = line.split_once('\t') else {
            continue;
        };
        let kind = if k == "q" { TextKind::Query } else { TextKind::Passage };
        let ids = match (&model, &mini) {
            (Some(m), _) => m.tokenize(text, kind),
            (_, Some(m)) => m.tokenize(text),
            _ => unreachable!(),
        };
        let content: Vec<String> = ids[1..ids.len() - 1].iter().map(|i| i.to_string()).collect();
        writeln!(out, "ids {}", content.join(" "))?;
        if ids_only {
            continue;
        }
        let t = std::time::Instant::now();
        let v = &match (&model, &mini) {
            (Some(m), _) => m.embed(&[text], kind)?,
            (_, Some(m)) => m.embed(&[text])?,
            _ => unreachable!(),
        }[0];
        let us = t.elapsed().as_secs_f64() * 1e6;
        let vs: Vec<String> = v.iter().map(|x| format!("{x:.7}")).collect();
        writeln!(out, "vec {}", vs.join(" "))?;
        if time {
            writeln!(out, "us {us:.1}")?;
        }
    }
    Ok(())
}
