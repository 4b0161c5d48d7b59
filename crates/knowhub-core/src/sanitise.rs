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
