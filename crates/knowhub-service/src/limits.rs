//! Per-caller rate limits on writes (submit, feedback) and uploads (extraction, which costs an
//! LLM call each): token buckets keyed by [`Caller::budget_id`], so one client cannot flood a
//! hub or its LLM bill, and a caller over budget is told when to come back.
//!
//! Beside them, the record limits of agent keys ([`RecordLimits`]): new records beyond a
//! key's burst or hourly rate are accepted but held for review (flag `burst`), so a flood never
//! reaches search. They are counted in the store, not here, so they hold across replicas.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use knowhub_core::{Caller, CoreError, Result};

/// Requests per minute per caller; 0 turns a limit off. A caller may spend a whole minute's budget
/// at once (the bucket holds one minute), then one request every `60 / per_minute` seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RateLimits {
    pub writes_per_minute: u32,
    pub uploads_per_minute: u32,
}

/// How many records one agent key may write before the rest wait for review: at most `burst`
/// in any minute and `per_hour` in any hour (sliding windows). 0 turns a limit off; both are off
/// by default (`knowhub serve` sets them). Reviewer and admin keys, and hubs without keys, are
/// not limited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecordLimits {
    pub burst: u32,
    pub per_hour: u32,
}

/// The flag of a record held for review because its key wrote faster than [`RecordLimits`].
pub const BURST: &str = "burst";

/// The record limits' windows in seconds: a minute (burst) and an hour (sustained rate).
const RECORD_WINDOWS: [u64; 2] = [60, 3600];

/// The sliding-window estimate of a count over the last `window` seconds from two fixed windows:
/// the current one and the share of the previous one that still falls in the last `window`.
fn sliding(current: u64, previous: u64, window: u64, now: i64) -> f64 {
    let elapsed = now.rem_euclid(window.max(1) as i64) as f64 / window.max(1) as f64;
    current as f64 + previous as f64 * (1.0 - elapsed)
}

/// Whether counts `(current, previous)` per `RECORD_WINDOWS` are past `limits`.
fn over(limits: RecordLimits, counts: &[(u64, u64)], now: i64) -> bool {
    [limits.burst, limits.per_hour]
        .iter()
        .zip(RECORD_WINDOWS)
        .zip(counts)
        .any(|((limit, window), (cur, prev))| *limit > 0 && sliding(*cur, *prev, window, now) > f64::from(*limit))
}

impl crate::hub::Hub {
    /// Counts a submit against its key's record limits; true when it goes past them, and then it
    /// is taken back again: a held record does not use up the allowance, so a key that slows
    /// down is published again at once. The count is in the store (one atomic upsert per window),
    /// so concurrent submits on any number of replicas cannot all slip under the limit: each sees
    /// its own count. Always false for callers the limits do not apply to.
    pub(crate) async fn over_record_limits(&self, caller: &Caller) -> Result<bool> {
        let limits = self.opts.records;
        if !caller.authenticated
            || caller.role.allows(knowhub_core::Role::Reviewer)
            || limits == RecordLimits::default()
        {
            return Ok(false);
        }
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let who = caller.budget_id();
        let counts = self.store.count_writes(&who, &RECORD_WINDOWS, now, 1).await?;
        if !over(limits, &counts, now) {
            return Ok(false);
        }
        self.store.count_writes(&who, &RECORD_WINDOWS, now, -1).await?;
        Ok(true)
    }
}

/// Which budget a request spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    Write,
    Upload,
}

/// Buckets are dropped once full again, when the table grows past this: memory stays bounded
/// however many addresses or keys call.
const MAX_TRACKED: usize = 10_000;

struct Bucket {
    tokens: f64,
    at: Instant,
}

pub(crate) struct Limiter {
    limits: RateLimits,
    buckets: Mutex<HashMap<(String, bool), Bucket>>,
}

impl Limiter {
    pub(crate) fn new(limits: RateLimits) -> Self {
        Limiter { limits, buckets: Mutex::new(HashMap::new()) }
    }

    /// Spends one request of `budget` for `caller`, or says how long to wait.
    pub(crate) fn take(&self, caller: &Caller, budget: Budget) -> Result<()> {
        let per_minute = match budget {
            Budget::Write => self.limits.writes_per_minute,
            Budget::Upload => self.limits.uploads_per_minute,
        };
        if per_minute == 0 {
            return Ok(());
        }
        let (cap, per_sec) = (f64::from(per_minute), f64::from(per_minute) / 60.0);
        let now = Instant::now();
        let mut map = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() >= MAX_TRACKED {
            map.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * per_sec < cap);
        }
        let b = map.entry((caller.budget_id(), budget == Budget::Upload)).or_insert(Bucket { tokens: cap, at: now });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * per_sec).min(cap);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            return Ok(());
        }
        let wait = ((1.0 - b.tokens) / per_sec).ceil().max(1.0) as u64;
        let what = match budget {
            Budget::Write => "writes (submit, feedback)",
            Budget::Upload => "conversation uploads",
        };
        Err(CoreError::RateLimited {
            message: format!("too many {what}: at most {per_minute} a minute per caller; retry in {wait} s"),
            retry_after_secs: wait,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use knowhub_core::Role;

    #[test]
    fn a_minutes_budget_then_refusal_with_a_wait() {
        let l = Limiter::new(RateLimits { writes_per_minute: 3, uploads_per_minute: 0 });
        let a = Caller::local().with_origin(Some("10.0.0.1".into()));
        for _ in 0..3 {
            l.take(&a, Budget::Write).unwrap();
        }
        match l.take(&a, Budget::Write) {
            Err(CoreError::RateLimited { retry_after_secs, .. }) => assert!((1..=20).contains(&retry_after_secs)),
            other => panic!("{other:?}"),
        }
        // Uploads are off, other peers and keys have their own budgets.
        l.take(&a, Budget::Upload).unwrap();
        l.take(&Caller::local().with_origin(Some("10.0.0.2".into())), Budget::Write).unwrap();
        l.take(&Caller::key("bot", Role::Agent).with_origin(Some("10.0.0.1".into())), Budget::Write).unwrap();
    }

    #[test]
    fn records_past_the_burst_or_the_hour_are_over() {
        let l = RecordLimits { burst: 3, per_hour: 10 };
        let at_start = 1_800_000_000; // a multiple of 3600: the start of a minute and of an hour
        assert!(!over(l, &[(3, 0), (3, 0)], at_start), "the burst itself passes");
        assert!(over(l, &[(4, 0), (4, 0)], at_start), "one more does not");
        assert!(over(l, &[(11, 0), (11, 0)], at_start + 3599), "nor the hour's eleventh");
        // Half a minute on, half of the previous minute still counts.
        assert!(over(l, &[(2, 4), (9, 0)], at_start + 30));
        assert!(!over(l, &[(1, 4), (9, 0)], at_start + 30));
        assert!(!over(RecordLimits::default(), &[(1000, 1000), (1000, 1000)], at_start), "0 = off");
    }

    #[test]
    fn zero_means_no_limit() {
        let l = Limiter::new(RateLimits::default());
        for _ in 0..1000 {
            l.take(&Caller::local(), Budget::Write).unwrap();
        }
    }
}
