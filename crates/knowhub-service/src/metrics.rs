//! In-process counters for `/metrics`: what this replica did since it started. Prometheus sums
//! replicas itself, so nothing here is shared through the store (the dashboard's day-by-day
//! numbers are: see `insight`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Upper bounds (seconds) of the search latency histogram's buckets.
pub const SEARCH_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0];

#[derive(Debug, Default)]
pub struct Metrics {
    searches: AtomicU64,
    abstentions: AtomicU64,
    /// Cumulative counts per bucket of `SEARCH_BUCKETS`, plus the sum in microseconds.
    search_buckets: [AtomicU64; SEARCH_BUCKETS.len()],
    search_micros: AtomicU64,
    feedback: [AtomicU64; 3],
    jobs_done: AtomicU64,
    jobs_failed: AtomicU64,
    jobs_retried: AtomicU64,
    input_tokens: AtomicU64,
    output_tokens: AtomicU64,
    /// Per webhook: (last HTTP status, 0 when unreachable; delivered; failed attempts).
    webhooks: std::sync::Mutex<std::collections::BTreeMap<String, (u16, u64, u64)>>,
    /// Per hub pulled from (its URL): what the pulls did.
    sync: std::sync::Mutex<std::collections::BTreeMap<String, SyncStats>>,
}

/// A point-in-time copy of the counters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricsSnapshot {
    pub searches: u64,
    pub abstentions: u64,
    /// `(upper bound in seconds, cumulative count)` per bucket.
    pub search_buckets: Vec<(f64, u64)>,
    pub search_seconds_sum: f64,
    /// `(outcome, count)`: helped, failed, irrelevant.
    pub feedback: Vec<(&'static str, u64)>,
    /// `(how the job ended, count)`: done, failed, retried.
    pub jobs: Vec<(&'static str, u64)>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub webhooks: Vec<WebhookStats>,
    pub sync: Vec<SyncStats>,
}

/// Pulls from one other hub on this replica.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncStats {
    /// The other hub's URL.
    pub from: String,
    /// Whether the last pull succeeded.
    pub ok: bool,
    /// Why the last pull failed (empty after a success).
    pub error: String,
    /// Changes read, and what they did here.
    pub read: u64,
    pub created: u64,
    pub updated: u64,
    pub deleted: u64,
    pub conflicts: u64,
    /// Pulls that failed (each is retried).
    pub failures: u64,
}

/// One webhook's deliveries on this replica.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookStats {
    pub name: String,
    /// The HTTP status of the last attempt (0: no answer).
    pub last_status: u16,
    pub delivered: u64,
    /// Attempts refused or unanswered (each is retried).
    pub failed: u64,
}

impl Metrics {
    /// One delivery attempt to a webhook and the status it got (0: no answer).
    pub fn webhook(&self, name: &str, status: u16) {
        let mut w = self.webhooks.lock().unwrap_or_else(|p| p.into_inner());
        let e = w.entry(name.to_string()).or_default();
        e.0 = status;
        if (200..300).contains(&status) {
            e.1 += 1;
        } else {
            e.2 += 1;
        }
    }

    /// One pull from another hub, and what it did or why it failed.
    pub fn sync_pull(&self, from: &str, result: std::result::Result<&crate::sync::SyncReport, String>) {
        let mut m = self.sync.lock().unwrap_or_else(|p| p.into_inner());
        let e = m.entry(from.to_string()).or_insert_with(|| SyncStats { from: from.to_string(), ..Default::default() });
        match result {
            Ok(r) => {
                e.ok = true;
                e.error.clear();
                e.read += r.read;
                e.created += r.created;
                e.updated += r.updated;
                e.deleted += r.deleted;
                e.conflicts += r.conflicts;
            }
            Err(why) => {
                e.ok = false;
                e.error = why;
                e.failures += 1;
            }
        }
    }

    /// One answered search: how long it took and whether it returned anything.
    pub fn search(&self, seconds: f64, found: bool) {
        self.searches.fetch_add(1, Relaxed);
        if !found {
            self.abstentions.fetch_add(1, Relaxed);
        }
        for (b, c) in SEARCH_BUCKETS.iter().zip(&self.search_buckets) {
            if seconds <= *b {
                c.fetch_add(1, Relaxed);
            }
        }
        self.search_micros.fetch_add((seconds * 1e6).round() as u64, Relaxed);
    }

    pub fn feedback(&self, outcome: knowhub_core::FeedbackOutcome) {
        let i = knowhub_core::FeedbackOutcome::ALL.iter().position(|o| *o == outcome).unwrap_or(0);
        self.feedback[i].fetch_add(1, Relaxed);
    }

    /// An extraction job came to an end (or went back to the queue), with the tokens it used.
    pub fn job(&self, finish: &knowhub_core::JobFinish, input_tokens: u64, output_tokens: u64) {
        let c = match finish {
            knowhub_core::JobFinish::Done { .. } => &self.jobs_done,
            knowhub_core::JobFinish::Failed { .. } => &self.jobs_failed,
            knowhub_core::JobFinish::Retry { .. } => &self.jobs_retried,
        };
        c.fetch_add(1, Relaxed);
        self.input_tokens.fetch_add(input_tokens, Relaxed);
        self.output_tokens.fetch_add(output_tokens, Relaxed);
    }

    pub fn snapshot(&self) -> MetricsSnapshot {
        MetricsSnapshot {
            searches: self.searches.load(Relaxed),
            abstentions: self.abstentions.load(Relaxed),
            search_buckets: SEARCH_BUCKETS
                .iter()
                .zip(&self.search_buckets)
                .map(|(b, c)| (*b, c.load(Relaxed)))
                .collect(),
            search_seconds_sum: self.search_micros.load(Relaxed) as f64 / 1e6,
            feedback: knowhub_core::FeedbackOutcome::ALL
                .iter()
                .zip(&self.feedback)
                .map(|(o, c)| (o.as_str(), c.load(Relaxed)))
                .collect(),
            jobs: vec![
                ("done", self.jobs_done.load(Relaxed)),
                ("failed", self.jobs_failed.load(Relaxed)),
                ("retried", self.jobs_retried.load(Relaxed)),
            ],
            input_tokens: self.input_tokens.load(Relaxed),
            output_tokens: self.output_tokens.load(Relaxed),
            webhooks: self
                .webhooks
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .iter()
                .map(|(n, (s, d, f))| WebhookStats { name: n.clone(), last_status: *s, delivered: *d, failed: *f })
                .collect(),
            sync: self.sync.lock().unwrap_or_else(|p| p.into_inner()).values().cloned().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative() {
        let m = Metrics::default();
        m.search(0.004, true);
        m.search(0.2, false);
        m.search(9.0, true);
        let s = m.snapshot();
        assert_eq!((s.searches, s.abstentions), (3, 1));
        assert_eq!(s.search_buckets[0], (0.005, 1));
        assert_eq!(s.search_buckets.iter().find(|b| b.0 == 0.25).unwrap().1, 2);
        assert_eq!(s.search_buckets.last().unwrap().1, 2, "9 s is past every bucket (only +Inf holds it)");
        assert!((s.search_seconds_sum - 9.204).abs() < 1e-6);
        m.feedback(knowhub_core::FeedbackOutcome::Failed);
        assert_eq!(m.snapshot().feedback, vec![("helped", 0), ("failed", 1), ("irrelevant", 0)]);
    }
}
