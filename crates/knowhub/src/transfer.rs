//! `knowhub import` / `knowhub export`: JSONL, one experience a line, content included.
//! Ids are kept, so exporting and importing into the same hub changes nothing.

use std::collections::HashMap;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use knowhub_core::store::ImportOutcome;
use knowhub_core::validate::SubmitRequest;
use knowhub_core::{CoreError, Source, Status};
use parking_lot::Mutex;
use serde::Deserialize;

use crate::config::Config;

/// One progress bar per phase, on stderr (hidden when stderr is not a terminal).
pub struct Bars(Mutex<HashMap<&'static str, ProgressBar>>);

impl Bars {
    pub fn new() -> Self {
        Bars(Mutex::new(HashMap::new()))
    }

    pub fn update(&self, phase: &'static str, done: u64, total: u64) {
        let mut bars = self.0.lock();
        let bar = bars.entry(phase).or_insert_with(|| {
            let b = ProgressBar::new(total);
            b.set_style(
                ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({per_sec}, eta {eta})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            b.set_message(phase);
            b
        });
        bar.set_length(total);
        bar.set_position(done);
        if done >= total {
            bar.finish();
        }
    }
}

/// An import line: an export record (with provenance) or a plain submit body.
#[derive(Debug, Deserialize)]
struct ImportLine {
    id: Option<String>,
    #[serde(flatten)]
    submit: SubmitRequest,
    source: Option<Source>,
    status: Option<Status>,
    confidence: Option<f64>,
    confirmations: Option<u32>,
    created_at: Option<String>,
    updated_at: Option<String>,
    source_range: Option<knowhub_core::MessageRange>,
    #[serde(default)]
    flags: Vec<String>,
    review: Option<knowhub_core::ReviewMark>,
    last_confirmed_at: Option<String>,
    feedback: Option<knowhub_core::FeedbackCounts>,
    #[serde(default)]
    contested_with: Vec<String>,
    #[serde(default)]
    confirmed_by: Vec<knowhub_core::Confirmation>,
    #[serde(default)]
    votes: Vec<knowhub_core::Vote>,
    /// Who wrote it and where (an export's; a plain submit line has none).
    #[serde(default)]
    provenance: knowhub_core::Provenance,
    /// How far a re-confirmation pushes its expiry (an export's; a submit line gives `ttl_days`).
    ttl_secs: Option<i64>,
}

/// What one import line became.
struct Imported {
    record: knowhub_core::NewExperience,
    redactions: knowhub_core::redact::RedactionCounts,
    /// The screen found something the line did not already carry: held for review.
    held: bool,
}

/// An exported time must parse and must not lie in the future (decay would favour the record).
fn past_time(field: &'static str, t: Option<String>) -> Result<Option<String>, CoreError> {
    let Some(t) = t else { return Ok(None) };
    let parsed = knowhub_core::validate::rfc3339(field, t.trim())?;
    // A few minutes of clock skew between the exporting and the importing hub are fine.
    if parsed > time::OffsetDateTime::now_utc() + time::Duration::minutes(5) {
        return Err(CoreError::invalid(field, format!("{t} is in the future")));
    }
    Ok(Some(t))
}

fn to_record(line: ImportLine) -> Result<Imported, CoreError> {
    let mut submit = line.submit;
    let created_at = past_time("created_at", line.created_at)?;
    let updated_at = past_time("updated_at", line.updated_at)?;
    let last_confirmed_at = past_time("last_confirmed_at", line.last_confirmed_at)?;
    if submit.timestamp.is_none() {
        submit.timestamp = created_at.clone();
    }
    let exported = line.id.is_some();
    let mut n = submit.validate(line.source.unwrap_or(Source::Imported), line.status.unwrap_or(Status::Approved))?;
    if let Some(id) = line.id {
        knowhub_core::validate::id(&id)
            .map_err(|_| CoreError::invalid("id", "must be letters, digits, - or _ (at most 64)"))?;
        n.id = Some(id);
    }
    if exported {
        // Keep the exact timestamps of an export so export -> import -> export is identical.
        n.created_at = created_at.or(n.created_at);
        n.updated_at = updated_at;
    }
    n.confidence = line.confidence;
    n.confirmations = line.confirmations.unwrap_or(1).max(1);
    n.source_range = line.source_range;
    n.flags = line.flags;
    n.review = line.review;
    if exported {
        // Provenance and expiry come back as exported, so a quarantine of the writing key or a
        // re-confirmation works on an imported record as on the original.
        if line.ttl_secs.is_some_and(|t| t <= 0) {
            return Err(CoreError::invalid("ttl_secs", "must be a positive number of seconds"));
        }
        n.ttl_secs = line.ttl_secs;
        n.provenance = line.provenance;
        // Confirmers and votes come back as exported (counts follow from them).
        n.history = Some(knowhub_core::History {
            last_confirmed_at,
            confirmed_by: line.confirmed_by,
            votes: line.votes,
            reviewed_failed: line.feedback.map(|f| f.reviewed_failed).unwrap_or(0),
            contested_with: line.contested_with,
        });
    }
    // The same gate as a submit. A file is not trusted because it calls itself an export: text
    // the screen flags, that the line did not already carry flagged (a reviewer saw those), waits
    // for review. Our own exports are already redacted and screened, so they import unchanged.
    // The rules on decoded text and the version's shape run here; the learned screen, which
    // needs the model, in `classify`.
    let (redactions, found) = knowhub_core::sanitise::sanitise(&mut n);
    let mut fresh: Vec<String> = found.into_iter().filter(|f| !n.flags.contains(f)).collect();
    let known: Vec<String> = n.flags.iter().chain(fresh.iter()).cloned().collect();
    fresh.extend(knowhub_core::sanitise::screen_views(&n, &known));
    let held = !fresh.is_empty() && n.status == Status::Approved;
    if held {
        n.status = Status::Pending;
    }
    n.flags.extend(fresh);
    Ok(Imported { record: n, redactions, held })
}

/// The learned injection screen on an imported record the rules left clean: a record it flags
/// gets `classifier_injection`, and an approved one waits for review (`held`). A rejected record
/// reaches no agent, and a flag the line already carries is its file's word, as for the rules.
async fn classify(embedder: &knowhub_ai::Embedder, imp: &mut Imported) {
    use knowhub_ai::screen::{flagged, score_record, CLASSIFIER_FLAG};
    let n = &mut imp.record;
    if n.status == Status::Rejected
        || n.flags.iter().any(|f| f == knowhub_core::guard::SUSPECTED_INJECTION || f == CLASSIFIER_FLAG)
    {
        return;
    }
    if flagged(score_record(embedder, n).await) {
        n.flags.push(CLASSIFIER_FLAG.to_string());
        if n.status == Status::Approved {
            n.status = Status::Pending;
            imp.held = true;
        }
    }
}

pub async fn import(cfg: &Config, file: &Path, classifier: bool) -> anyhow::Result<std::process::ExitCode> {
    let text = if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).context("reading standard input")?;
        s
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?
    };
    let store = crate::backend::open(cfg, None, true)
        .await
        .context("opening the store for import (with SQLite, stop a server using the data dir, then retry)")?;
    // Editors on Windows save UTF-8 with a byte-order mark; it is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let lines: Vec<(usize, &str)> = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).collect();
    // The learned screen runs where the local model is configured (`e5_passages` answers
    // nothing for another embedder, and the rules alone decide).
    let embedder = classifier.then(|| crate::serve::build_embedder(cfg));
    let bars = Bars::new();
    let (mut inserted, mut skipped, mut failed, mut held) = (0u64, 0u64, 0u64, 0u64);
    let mut redactions = knowhub_core::redact::RedactionCounts::default();
    let total = lines.len() as u64;
    for (done, (no, line)) in lines.into_iter().enumerate() {
        let parsed = serde_json::from_str::<ImportLine>(line)
            .map_err(|e| CoreError::invalid("json", e.to_string()))
            .and_then(to_record);
        let res = match parsed {
            Ok(mut imp) => {
                if let Some(e) = &embedder {
                    classify(e, &mut imp).await;
                }
                let res = store.import(imp.record).await;
                if matches!(res, Ok(ImportOutcome::Inserted)) {
                    redactions.add(&imp.redactions);
                    held += u64::from(imp.held);
                }
                res
            }
            Err(e) => Err(e),
        };
        match res {
            Ok(ImportOutcome::Inserted) => inserted += 1,
            Ok(ImportOutcome::Skipped) => skipped += 1,
            Err(e) => {
                failed += 1;
                if failed <= 20 {
                    eprintln!("knowhub: line {}: {e}", no + 1);
                }
            }
        }
        if done % 200 == 0 || done as u64 + 1 == total {
            bars.update("import", done as u64 + 1, total);
        }
    }
    eprintln!("knowhub: imported {inserted}, skipped {skipped} already present, failed {failed} (of {total} lines)");
    if !redactions.is_empty() {
        let what: Vec<String> = redactions.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!("knowhub: redacted {} secrets or personal data ({})", redactions.total(), what.join(", "));
    }
    if held > 0 {
        eprintln!("knowhub: {held} flagged by the injection screen, held for review (knowhub review)");
    }
    Ok(if failed > 0 { std::process::ExitCode::from(2) } else { std::process::ExitCode::SUCCESS })
}

pub async fn export(cfg: &Config, output: Option<&Path>) -> anyhow::Result<()> {
    if cfg.database_url.is_none() && !knowhub_store_sqlite::db_path(&cfg.data_dir).exists() {
        anyhow::bail!("no knowhub database in {}", cfg.data_dir.display());
    }
    let store = crate::backend::open(cfg, None, false).await?;
    let sink: Box<dyn Write> = match output {
        Some(p) => Box::new(std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut w = BufWriter::new(sink);
    let mut after: Option<String> = None;
    let mut n = 0u64;
    loop {
        let page = store.export_page(after.as_deref(), 1000).await?;
        let Some(last) = page.last() else { break };
        after = Some(last.experience.id.clone());
        for r in &page {
            serde_json::to_writer(&mut w, r)?;
            w.write_all(b"\n")?;
            n += 1;
        }
    }
    w.flush()?;
    eprintln!("knowhub: exported {n} experiences");
    Ok(())
}
