//! The second injection screen, at submit, on extracted items and on what a peer hub sends,
//! after the rules of `guard::sanitise`: the rules run
//! again on every decoded view of every field (base64, hex, URL, ROT13, reversed, split letters)
//! and on `resource_version`, and the learned classifier (`knowhub_ai::screen`) scores each field,
//! content window and view on its multilingual E5 vector. Any finding holds the write for review.
//!
//! The classifier needs the local embedding model; with another embedder, none, or an embedding
//! error the submit goes on with the rules alone (a slow or broken embedder never fails a write).

use knowhub_ai::screen::{flagged, score_record, CLASSIFIER_FLAG};
use knowhub_core::{guard, NewExperience};

use crate::hub::Hub;

impl Hub {
    /// Review flags the rules on decoded text and the classifier add for `new` (already
    /// redacted and screened by `guard::sanitise`, whose flags are `known`), empty when clean; and
    /// the classifier's score for the record, when it scored it (it needs the local model).
    pub(crate) async fn screen_more(&self, new: &NewExperience, known: &[String]) -> (Vec<String>, Option<f32>) {
        let mut flags = knowhub_core::sanitise::screen_views(new, known);
        let pending = known.iter().chain(flags.iter()).any(|f| f == guard::SUSPECTED_INJECTION);
        let mut score = None;
        if !pending {
            score = score_record(&self.embedder, new).await;
            if flagged(score) && !known.iter().any(|k| k == CLASSIFIER_FLAG) {
                flags.push(CLASSIFIER_FLAG.to_string());
            }
        }
        (flags, score)
    }

    /// Redaction and the whole screen for a record that comes from outside this hub's callers (a
    /// peer hub's record or edit): the text is redacted in place, and every finding of this hub's
    /// screen is returned, whatever flags the record brings (the other hub's reviewers are not
    /// this hub's, and its flags are its word); any one holds it for review. A record rejected
    /// there is only redacted and screened by the rules: it reaches no agent.
    pub(crate) async fn screen_foreign(&self, n: &mut NewExperience) -> Vec<String> {
        let (_, mut found) = knowhub_core::sanitise::sanitise(n);
        if n.status == knowhub_core::Status::Rejected {
            return found;
        }
        let (more, _) = self.screen_more(n, &found).await;
        found.extend(more);
        found
    }
}
