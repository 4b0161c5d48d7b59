//! Per-caller rate limits on writes (submit, feedback) and uploads (extraction, which costs an
//! LLM call each): token buckets keyed by [`Caller::budget_id`], so one client cannot flood a
//! hub or its LLM bill, and a caller over budget is told when to come back.

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
    fn zero_means_no_limit() {
        let l = Limiter::new(RateLimits::default());
        for _ in 0..1000 {
            l.take(&Caller::local(), Budget::Write).unwrap();
        }
    }
}
