//! Redaction and the injection screen, in that order, for a record about to be written. This sits
//! above both `redact` and `guard`, which know nothing of each other.

use crate::guard::write_flags;
use crate::redact::{redact, RedactionCounts};

/// The gate every direct write (submit, import) passes before the store: secrets and personal
/// data in the record's texts are redacted in place, then the redacted texts are screened.
/// Returns what was redacted and the review flags found (empty when the record is clean); the
/// caller decides what a flag means for the record's status.
pub fn sanitise(new: &mut crate::NewExperience) -> (RedactionCounts, Vec<String>) {
    let mut counts = RedactionCounts::default();
    for field in [&mut new.task, &mut new.resource, &mut new.result] {
        let r = redact(field);
        counts.add(&r.counts);
        *field = r.text;
    }
    if let Some((content, _)) = new.content.as_mut() {
        let r = redact(content);
        counts.add(&r.counts);
        *content = r.text;
    }
    let content = new.content.as_ref().map(|(c, _)| c.as_str()).unwrap_or("");
    let flags = write_flags(&[&new.task, &new.resource, &new.result, content]);
    (counts, flags)
}

/// The screen's second look, which needs no model: the rules on `resource_version` and on every
/// decoded view of every field (base64, hex, URL, ROT13, reversed, split letters), and the
/// version's shape (`guard::version_shaped`). Review flags found, each once, none of `known`.
/// Every path that writes text from outside runs it after the rules on raw text: submit, sync and
/// import after [`sanitise`], extraction after `guard::write_flags` (its messages were redacted
/// before the model read them).
pub fn screen_views(new: &crate::NewExperience, known: &[String]) -> Vec<String> {
    use crate::guard;
    let version = new.resource_version.as_deref().unwrap_or("");
    let content = new.content.as_ref().map(|(c, _)| c.as_str());
    let mut flags: Vec<String> = Vec::new();
    let mut add = |f: &str| {
        if !known.iter().any(|k| k == f) && !flags.iter().any(|k| k == f) {
            flags.push(f.to_string());
        }
    };
    for f in guard::write_flags(&[version]) {
        add(&f);
    }
    if !guard::version_shaped(version) {
        add(guard::UNUSUAL_VERSION);
    }
    let fields = [new.task.as_str(), new.resource.as_str(), version, new.result.as_str()];
    let decoded = fields.iter().copied().chain(content).flat_map(crate::decode::views);
    if decoded.into_iter().any(|v| guard::is_injection(&v.text)) {
        add(guard::SUSPECTED_INJECTION);
        add(guard::ENCODED_PAYLOAD);
    }
    flags
}
