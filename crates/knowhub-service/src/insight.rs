//! What the console and `/api/resources` read: resource track records, one record's whole story,
//! the dashboard, and the per-day search counts behind it. Search counts are kept in memory and
//! flushed to the store in batches, so a search costs no write.

use std::collections::{BTreeMap, HashMap};

use knowhub_core::{
    validate, Activity, Caller, Confirmation, Content, CoreError, Experience, Outcome, ResourceFilter, ResourceSummary,
    Result, Role, Status, Vote,
};
use serde::{Deserialize, Serialize};
use time::format_description::BorrowedFormatItem;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime};

use crate::hub::Hub;

/// Most resources one `GET /api/resources` lists.
pub const RESOURCES_MAX: usize = crate::requests::RESOURCES_LIMIT.max as usize;
/// Records of one resource read for its page (newest kept when there are more).
const RESOURCE_RECORDS: usize = 500;
/// Longest source excerpt kept with an extracted record for its reviewer.
pub const MAX_SOURCE_CHARS: usize = 12_000;

/// One resource's page: its track record, known failures first, the last success and the
/// experiences that worked best.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResourcePage {
    #[serde(flatten)]
    pub summary: ResourceSummary,
    /// Approved failures and partial results, newest first.
    pub failures: Vec<Experience>,
    pub last_success: Option<Experience>,
    /// Approved successes, best first (rating, then net helped votes, then confirmations).
    pub top: Vec<Experience>,
}

/// One step in a record's life, oldest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryEvent {
    pub at: String,
    /// `submitted` | `confirmed` | `approved` | `rejected` | `kept` | `helped` | `failed` | `irrelevant`
    pub what: String,
    pub by: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Everything about one record, for its reviewer.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExperienceView {
    pub experience: Experience,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Content>,
    pub confirmed_by: Vec<Confirmation>,
    pub votes: Vec<Vote>,
    /// Records that say the opposite about the same resource.
    pub contested: Vec<Experience>,
    /// The redacted messages it was extracted from, while it waits for review.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_messages: Option<String>,
    /// `[REDACTED]` markers in the record's text and source: what redaction took out.
    pub redactions: usize,
    pub history: Vec<HistoryEvent>,
}

/// `GET /api/experiences/{id}/history`.
#[derive(Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryPage {
    pub id: String,
    pub events: Vec<knowhub_core::Event>,
}

#[derive(Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeekRow {
    /// The Monday (UTC) that starts the week.
    pub week: String,
    pub created: u64,
    pub pending: u64,
    pub approved: u64,
    pub rejected: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DayRow {
    pub day: String,
    pub searches: u64,
    pub found: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AgentRow {
    pub agent_id: String,
    pub records: u64,
    pub approved: u64,
    pub searches: u64,
    pub found: u64,
    pub helped: u64,
    pub failed: u64,
    pub jobs: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[derive(Debug, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Totals {
    pub records: u64,
    pub pending: u64,
    pub approved: u64,
    pub rejected: u64,
    pub disputed: u64,
    pub searches: u64,
    pub found: u64,
    pub helped: u64,
    pub failed: u64,
    pub irrelevant: u64,
    pub jobs: u64,
    pub jobs_failed: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Whether the hub is used and whether it helps, over the last `weeks` weeks.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Dashboard {
    pub since: String,
    /// Records, pending and so on are for the scopes the reviewer reads; the rest for the period.
    pub totals: Totals,
    pub weeks: Vec<WeekRow>,
    pub days: Vec<DayRow>,
    pub top_resources: Vec<ResourceSummary>,
    pub agents: Vec<AgentRow>,
}

/// How the dashboard and the store write a day.
const DAY: &[BorrowedFormatItem<'static>] = format_description!("[year]-[month]-[day]");

/// A stored day (`YYYY-MM-DD`, anything after it ignored), or `None` if it is not one.
fn parse_day(day: &str) -> Option<Date> {
    Date::parse(day.get(..10)?, DAY).ok()
}

fn fmt_day(d: Date) -> String {
    d.format(DAY).unwrap_or_default()
}

fn today() -> Date {
    OffsetDateTime::now_utc().date()
}

/// The Monday on or before a day.
fn week_of(day: Date) -> Date {
    day.saturating_sub(Duration::days(day.weekday().number_days_from_monday().into()))
}

/// Every day from `since` to `until`, both included.
fn days_between(since: Date, until: Date) -> impl Iterator<Item = Date> {
    std::iter::successors(Some(since), |d| d.next_day()).take_while(move |d| *d <= until)
}

/// How many `[REDACTED]`-style markers the text holds.
pub fn count_redactions(text: &str) -> usize {
    text.matches("[REDACTED").count()
}

fn agent_row<'a>(agents: &'a mut BTreeMap<String, AgentRow>, id: &str) -> &'a mut AgentRow {
    agents.entry(id.to_string()).or_insert_with(|| AgentRow { agent_id: id.to_string(), ..Default::default() })
}

/// Folds the store's day rows into weekly, daily and per-agent rows (every week and day of the
/// period present, empty ones as zeros, so charts have no gaps).
pub fn fold_activity(a: &Activity, since: Date, until: Date) -> (Vec<WeekRow>, Vec<DayRow>, Vec<AgentRow>, Totals) {
    let weeks_from = week_of(since);
    let mut weeks: BTreeMap<Date, WeekRow> = days_between(weeks_from, until)
        .step_by(7)
        .map(|w| (w, WeekRow { week: fmt_day(w), ..Default::default() }))
        .collect();
    let mut days: BTreeMap<Date, DayRow> =
        days_between(since, until).map(|d| (d, DayRow { day: fmt_day(d), ..Default::default() })).collect();
    let mut agents: BTreeMap<String, AgentRow> = BTreeMap::new();
    let mut t = Totals::default();
    for r in &a.records {
        let Some(d) = parse_day(&r.day) else { continue };
        if let Some(row) = weeks.get_mut(&week_of(d)) {
            row.created += r.n;
            match r.kind.as_str() {
                "pending" => row.pending += r.n,
                "approved" => row.approved += r.n,
                "rejected" => row.rejected += r.n,
                _ => {}
            }
        }
        let g = agent_row(&mut agents, &r.agent_id);
        g.records += r.n;
        if r.kind == "approved" {
            g.approved += r.n;
        }
    }
    for u in &a.usage {
        if let Some(row) = parse_day(&u.day).and_then(|d| days.get_mut(&d)) {
            row.searches += u.searches;
            row.found += u.found;
        }
        t.searches += u.searches;
        t.found += u.found;
        let g = agent_row(&mut agents, &u.agent_id);
        g.searches += u.searches;
        g.found += u.found;
    }
    for v in &a.votes {
        let g = agent_row(&mut agents, &v.agent_id);
        match v.kind.as_str() {
            "helped" => {
                t.helped += v.n;
                g.helped += v.n;
            }
            "failed" => {
                t.failed += v.n;
                g.failed += v.n;
            }
            _ => t.irrelevant += v.n,
        }
    }
    for j in &a.jobs {
        t.jobs += j.jobs;
        if j.status == "failed" {
            t.jobs_failed += j.jobs;
        }
        t.input_tokens += j.input_tokens;
        t.output_tokens += j.output_tokens;
        let g = agent_row(&mut agents, &j.agent_id);
        g.jobs += j.jobs;
        g.input_tokens += j.input_tokens;
        g.output_tokens += j.output_tokens;
    }
    let mut agents: Vec<AgentRow> = agents.into_values().collect();
    agents.sort_by(|a, b| (b.records + b.searches).cmp(&(a.records + a.searches)).then(a.agent_id.cmp(&b.agent_id)));
    (weeks.into_values().collect(), days.into_values().collect(), agents, t)
}

impl Hub {
    /// Resources named in approved records with their track record, most-used first.
    pub async fn resources(&self, caller: &Caller, q: Option<&str>, limit: usize) -> Result<Vec<ResourceSummary>> {
        caller.require(Role::Agent)?;
        let q = validate::optional("q", q.map(str::to_string), crate::requests::MAX_RESOURCE_QUERY)?;
        let filter = if q.trim().is_empty() { ResourceFilter::All } else { ResourceFilter::Matching(q.trim().into()) };
        self.store.resources(&filter, caller.readable().as_deref(), limit.clamp(1, RESOURCES_MAX)).await
    }

    /// One resource's page, by its name (any spelling that folds to the same key) or its key.
    pub async fn resource(&self, caller: &Caller, name: &str) -> Result<ResourcePage> {
        caller.require(Role::Agent)?;
        let name = validate::required("name", Some(name.to_string()), 500)?;
        let mut found = None;
        for key in [name.clone(), knowhub_core::text::resource_key(&name, None)] {
            let scopes = caller.readable();
            if let Some(s) =
                self.store.resources(&ResourceFilter::Key(key), scopes.as_deref(), 1).await?.into_iter().next()
            {
                found = Some(s);
                break;
            }
        }
        let summary = found.ok_or_else(|| CoreError::NotFound(format!("resource {name:?} in approved records")))?;
        let mut records: Vec<Experience> = self
            .store
            .by_resource_key(&summary.key, RESOURCE_RECORDS)
            .await?
            .into_iter()
            // Held records (quarantined, expired) are out of what agents see, as in search.
            .filter(|e| e.status == Status::Approved && !e.quarantined && !e.expired && caller.can_read(&e.scope))
            .collect();
        self.hide_contests(caller, records.iter_mut().map(|e| (&mut e.contested_with, None)).collect()).await?;
        for e in records.iter_mut() {
            crate::hub::hide_submitter(caller, &mut e.submitted_by);
        }
        records.sort_by(|a, b| b.created_at.cmp(&a.created_at));
        let failures: Vec<Experience> =
            records.iter().filter(|e| e.outcome != Outcome::Success).take(10).cloned().collect();
        let last_success = records.iter().find(|e| e.outcome == Outcome::Success).cloned();
        let mut top: Vec<Experience> = records.into_iter().filter(|e| e.outcome == Outcome::Success).collect();
        let net = |e: &Experience| i64::from(e.feedback.helped) - i64::from(e.feedback.failed);
        top.sort_by(|a, b| {
            (b.score, net(b), b.confirmations).cmp(&(a.score, net(a), a.confirmations)).then(a.id.cmp(&b.id))
        });
        top.truncate(10);
        Ok(ResourcePage { summary, failures, last_success, top })
    }

    /// A record's history, oldest first (reviewers: it names who did what). A deleted record
    /// answers with its tombstone alone.
    pub async fn history(&self, caller: &Caller, id: &str) -> Result<HistoryPage> {
        caller.require(Role::Reviewer)?;
        let id = validate::id(id)?;
        let events = self.store.events(id).await?;
        match self.store.get(id).await? {
            Some(e) if !caller.can_read(&e.scope) => Err(knowhub_core::store::not_found(id)),
            None if !events.iter().any(|e| e.kind == "deleted") => Err(knowhub_core::store::not_found(id)),
            _ => Ok(HistoryPage { id: id.to_string(), events }),
        }
    }

    /// Everything about one record, history included. Reviewers only: it shows pending text,
    /// source messages and agents' notes.
    pub async fn experience_view(&self, caller: &Caller, id: &str) -> Result<ExperienceView> {
        caller.require(Role::Reviewer)?;
        let id = validate::id(id)?;
        let mut e = self.in_scope(caller, id).await?;
        self.hide_contests(caller, vec![(&mut e.contested_with, None)]).await?;
        let content = if e.has_content { self.store.content(id).await? } else { None };
        let confirmed_by = self.store.confirmed_by(id).await?;
        let votes = self.store.votes(id).await?;
        let mut contested = self.store.get_many(&e.contested_with).await?;
        contested.retain(|c| caller.can_read(&c.scope));
        let source_messages = self.store.source(id).await?;
        let redactions = count_redactions(&e.task)
            + count_redactions(&e.resource)
            + count_redactions(&e.result)
            + source_messages.as_deref().map_or(0, count_redactions);
        let events = self.store.events(id).await?;
        // Records from before events were kept: their story as their fields tell it, then what
        // was recorded since.
        let mut history =
            if events.iter().any(|v| v.kind == "submitted") { Vec::new() } else { history(&e, &confirmed_by, &votes) };
        history.extend(events.iter().map(|v| HistoryEvent {
            at: v.at.clone(),
            what: v.kind.clone(),
            by: v.by.clone(),
            note: v.detail.as_ref().map(|d| d.to_string()),
        }));
        history.sort_by(|a, b| a.at.cmp(&b.at));
        Ok(ExperienceView {
            experience: e,
            content,
            confirmed_by,
            votes,
            contested,
            source_messages,
            redactions,
            history,
        })
    }

    /// The dashboard over the last `weeks` weeks (1-52).
    pub async fn dashboard(&self, caller: &Caller, weeks: u32) -> Result<Dashboard> {
        caller.require(Role::Reviewer)?;
        self.flush_usage().await?;
        let until = today();
        let since = week_of(until.saturating_sub(Duration::weeks(i64::from(weeks.clamp(1, 52) - 1))));
        // Only what the scopes the reviewer reads hold: a hub-wide count would tell a team's
        // reviewer how much the other teams hold, and their agents' names. Usage and jobs carry
        // no scope; a scoped reviewer sees those of the agents that wrote or were voted on in
        // its scopes.
        let scopes = caller.readable();
        let scopes = scopes.as_deref();
        let mut activity = self.store.activity(&fmt_day(since), scopes).await?;
        if scopes.is_some() {
            let seen: std::collections::HashSet<String> =
                activity.records.iter().chain(&activity.votes).map(|d| d.agent_id.clone()).collect();
            activity.usage.retain(|u| seen.contains(&u.agent_id));
            activity.jobs.retain(|j| seen.contains(&j.agent_id));
        }
        let (weeks, days, agents, mut totals) = fold_activity(&activity, since, until);
        totals.pending = self.store.count_status(Status::Pending, scopes).await?;
        totals.approved = self.store.count_status(Status::Approved, scopes).await?;
        totals.rejected = self.store.count_status(Status::Rejected, scopes).await?;
        totals.records = totals.pending + totals.approved + totals.rejected;
        totals.disputed = self.store.count_disputed(self.cfg.dispute_threshold, scopes).await?;
        let top_resources = self.store.resources(&ResourceFilter::All, scopes, 10).await?;
        Ok(Dashboard { since: fmt_day(since), totals, weeks, days, top_resources, agents })
    }

    /// Counts one search for the dashboard and `/metrics`.
    pub(crate) fn observe_search(&self, caller: &Caller, seconds: f64, found: bool) {
        self.metrics.search(seconds, found);
        let mut u = self.usage.lock().unwrap_or_else(|p| p.into_inner());
        let c = u.entry((fmt_day(today()), caller.name.clone())).or_default();
        c.0 += 1;
        c.1 += u64::from(found);
    }

    /// Writes the search counts gathered since the last flush (they are put back on failure).
    pub async fn flush_usage(&self) -> Result<()> {
        let batch: HashMap<(String, String), (u64, u64)> =
            std::mem::take(&mut *self.usage.lock().unwrap_or_else(|p| p.into_inner()));
        let mut left = batch.into_iter();
        while let Some(((day, agent), (s, f))) = left.next() {
            if let Err(e) = self.store.record_usage(&day, &agent, s, f).await {
                let mut u = self.usage.lock().unwrap_or_else(|p| p.into_inner());
                for ((d, a), (s, f)) in std::iter::once(((day, agent), (s, f))).chain(left) {
                    let c = u.entry((d, a)).or_default();
                    c.0 += s;
                    c.1 += f;
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Flushes search counts every 15 s (and the dashboard flushes before it reads).
    pub fn spawn_usage_flusher(self: &std::sync::Arc<Self>) -> tokio::task::JoinHandle<()> {
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(std::time::Duration::from_secs(15)).await;
                if let Err(e) = hub.flush_usage().await {
                    tracing::warn!(error = %e, "could not record search counts; will retry");
                }
            }
        })
    }
}

/// A record's life from what the store keeps: submit, confirmations, review, votes.
pub fn history(e: &Experience, confirmed_by: &[Confirmation], votes: &[Vote]) -> Vec<HistoryEvent> {
    let mut out = vec![HistoryEvent {
        at: e.created_at.clone(),
        what: "submitted".into(),
        by: format!("{} ({})", e.submitted_by, e.agent_id),
        note: Some(format!("source: {}", e.source)),
    }];
    for c in confirmed_by.iter().skip(1) {
        out.push(HistoryEvent { at: c.at.clone(), what: "confirmed".into(), by: c.by.clone(), note: None });
    }
    if let Some(r) = &e.review {
        let what = match e.status {
            Status::Approved if e.feedback.reviewed_failed > 0 => "kept",
            Status::Approved => "approved",
            Status::Rejected => "rejected",
            Status::Pending => "reviewed",
        };
        out.push(HistoryEvent { at: r.at.clone(), what: what.into(), by: r.by.clone(), note: r.note.clone() });
    }
    for v in votes {
        out.push(HistoryEvent {
            at: v.at.clone(),
            what: v.outcome.to_string(),
            by: v.voter.clone(),
            note: v.note.clone(),
        });
    }
    out.sort_by(|a, b| a.at.cmp(&b.at));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use knowhub_core::{DayCount, DayUsage};

    /// Days `n` days after 1970-01-01 (the Julian day number of the Unix epoch is 2440588).
    fn unix_day(n: i32) -> Date {
        Date::from_julian_day(2_440_588 + n).unwrap()
    }

    #[test]
    fn days_round_trip_and_weeks_start_on_monday() {
        for n in [-1000, 0, 1, 59, 60, 365, 10_957, 20_000, 20_780] {
            assert_eq!(parse_day(&fmt_day(unix_day(n))), Some(unix_day(n)), "{n}");
        }
        assert_eq!(fmt_day(unix_day(0)), "1970-01-01");
        assert_eq!(parse_day("2026-11-23"), Some(unix_day(20_780)));
        // 2026-11-23 is a Monday; the Sunday before belongs to the previous week.
        assert_eq!(fmt_day(week_of(parse_day("2026-11-23").unwrap())), "2026-11-23");
        assert_eq!(fmt_day(week_of(parse_day("2026-11-29").unwrap())), "2026-11-23");
        assert_eq!(fmt_day(week_of(parse_day("2026-11-22").unwrap())), "2026-11-16");
        assert_eq!(parse_day("nonsense"), None);
    }

    /// Checked by hand: 2024 is a leap year and 2024-03-01 was a Friday, so its week starts on
    /// Monday 2024-02-26 and a period from 2024-02-27 to 2024-03-01 has four days, 02-29 among
    /// them; a stored time after the day is ignored, a day that does not exist is no day.
    #[test]
    fn leap_days_and_week_starts_across_a_month_end() {
        let fri = parse_day("2024-03-01").unwrap();
        assert_eq!(fmt_day(week_of(fri)), "2024-02-26");
        let days: Vec<String> = days_between(parse_day("2024-02-27").unwrap(), fri).map(fmt_day).collect();
        assert_eq!(days, ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"]);
        assert_eq!(parse_day("2024-02-29T23:59:59Z"), parse_day("2024-02-29"));
        assert_eq!(parse_day("2023-02-29"), None);
    }

    #[test]
    fn activity_folds_into_weeks_days_and_agents() {
        let since = parse_day("2026-11-16").unwrap();
        let until = parse_day("2026-11-24").unwrap();
        let dc = |day: &str, agent: &str, kind: &str, n| DayCount {
            day: day.into(),
            agent_id: agent.into(),
            kind: kind.into(),
            n,
        };
        let a = Activity {
            records: vec![dc("2026-11-17", "a", "approved", 2), dc("2026-11-23", "b", "pending", 3)],
            votes: vec![dc("2026-11-24", "a", "helped", 4), dc("2026-11-24", "a", "failed", 1)],
            usage: vec![DayUsage { day: "2026-11-24".into(), agent_id: "b".into(), searches: 10, found: 7 }],
            jobs: vec![],
        };
        let (weeks, days, agents, t) = fold_activity(&a, since, until);
        assert_eq!(weeks.len(), 2);
        assert_eq!((weeks[0].created, weeks[0].approved, weeks[1].created, weeks[1].pending), (2, 2, 3, 3));
        assert_eq!(days.len(), 9);
        assert_eq!((days[8].searches, days[8].found, days[0].searches), (10, 7, 0));
        assert_eq!((t.helped, t.failed, t.searches, t.found), (4, 1, 10, 7));
        let b = agents.iter().find(|g| g.agent_id == "b").unwrap();
        assert_eq!((b.records, b.searches), (3, 10));
        assert_eq!(agents[0].agent_id, "b", "most active first");
    }

    #[test]
    fn redaction_markers_are_counted() {
        assert_eq!(count_redactions("token [REDACTED] and [REDACTED:email] x"), 2);
        assert_eq!(count_redactions("clean"), 0);
    }
}
