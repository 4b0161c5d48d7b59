//! What the console reads: per-resource track records, who confirmed a record, the source
//! messages kept for its reviewer, and day-by-day activity. Grouped in SQL so the service gets
//! small aggregates; the PostgreSQL store (`knowhub-store-postgres/src/insight.rs`) returns the
//! same rows in the same order.

use knowhub_core::insight::{Activity, DayCount, DayJobs, DayUsage, ResourceFilter, ResourceSummary, StoredPlaybook};
use knowhub_core::{Confirmation, Result};
use rusqlite::{params, Connection, OptionalExtension, Row};

use crate::db::sql_err;
use crate::rows;

fn n(r: &Row<'_>, i: usize) -> rusqlite::Result<u64> {
    Ok(r.get::<_, Option<i64>>(i)?.unwrap_or(0).max(0) as u64)
}

pub(crate) fn resources(
    c: &Connection,
    filter: &ResourceFilter,
    scopes: Option<&[String]>,
    limit: usize,
) -> Result<Vec<ResourceSummary>> {
    // Every record read is live (neither quarantined nor expired: what agents are shown) and in
    // one of `scopes` (?2; NULL for all).
    let within = |a: &str| format!("({a}.held = 0 AND (?2 IS NULL OR {a}.scope IN (SELECT value FROM json_each(?2))))");
    let (cond, arg) = match filter {
        ResourceFilter::All => ("1".to_string(), None),
        ResourceFilter::Key(k) => ("e.resource_key = ?3".to_string(), Some(k.clone())),
        // Any approved spelling of the resource may match; the group is then shown whole.
        ResourceFilter::Matching(t) => (
            format!(
                "e.resource_key IN (SELECT m.resource_key FROM experiences m WHERE m.status = 'approved' \
                 AND lower(m.resource) LIKE ?3 ESCAPE '\\' AND {})",
                within("m")
            ),
            Some(knowhub_core::insight::contains_pattern(t)),
        ),
    };
    let (in_r, in_e) = (within("r"), within("e"));
    let sql = format!(
        "SELECT g.key, (SELECT r.resource FROM experiences r WHERE r.resource_key = g.key AND r.status = 'approved' \
         AND {in_r} ORDER BY r.created_at DESC, r.seq DESC LIMIT 1), g.records, g.successes, g.failures, g.partials, g.helped, \
         g.failed_votes, g.last_success_at, g.last_seen_at FROM (\
         SELECT e.resource_key AS key, COUNT(*) AS records, SUM(e.outcome = 'success') AS successes, \
         SUM(e.outcome = 'failure') AS failures, SUM(e.outcome = 'partial') AS partials, SUM(e.helped) AS helped, \
         SUM(e.failed) AS failed_votes, MAX(CASE WHEN e.outcome = 'success' THEN e.created_at END) AS last_success_at, \
         MAX(e.created_at) AS last_seen_at FROM experiences e WHERE e.status = 'approved' AND {cond} \
         AND {in_e} GROUP BY e.resource_key ORDER BY records DESC, key LIMIT ?1) g ORDER BY g.records DESC, g.key"
    );
    let mut st = c.prepare_cached(&sql).map_err(sql_err)?;
    let limit = limit.min(i64::MAX as usize) as i64;
    let map = |r: &Row<'_>| {
        Ok(ResourceSummary {
            key: r.get(0)?,
            resource: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
            records: n(r, 2)?,
            successes: n(r, 3)?,
            failures: n(r, 4)?,
            partials: n(r, 5)?,
            helped: n(r, 6)?,
            failed_votes: n(r, 7)?,
            last_success_at: r.get(8)?,
            last_seen_at: r.get(9)?,
        })
    };
    let scopes = crate::filter::scopes_json(scopes);
    let rows = match arg {
        None => st.query_map(params![limit, scopes], map),
        Some(a) => st.query_map(params![limit, scopes, a], map),
    }
    .map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

pub(crate) fn resource_keys_with(
    c: &Connection,
    keys: &[String],
    scopes: Option<&[String]>,
    at_least: u64,
) -> Result<Vec<String>> {
    let mut st = c
        .prepare_cached(
            "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM experiences e WHERE e.resource_key = ?1 \
             AND e.status = 'approved' AND e.held = 0 AND (?2 IS NULL OR e.scope IN (SELECT value FROM json_each(?2))) \
             LIMIT ?3))",
        )
        .map_err(sql_err)?;
    let scopes = crate::filter::scopes_json(scopes);
    let at_least = at_least.min(i64::MAX as u64) as i64;
    let mut out = Vec::new();
    for k in keys {
        let n: i64 = st.query_row(params![k, scopes, at_least], |r| r.get(0)).map_err(sql_err)?;
        if n >= at_least && !out.contains(k) {
            out.push(k.clone());
        }
    }
    Ok(out)
}

pub(crate) fn confirmed_by(c: &Connection, id: &str) -> Result<Vec<Confirmation>> {
    match c
        .prepare_cached("SELECT seq FROM experiences WHERE id = ?1")
        .and_then(|mut st| st.query_row([id], |r| r.get::<_, i64>(0)).optional())
        .map_err(sql_err)?
    {
        Some(seq) => rows::confirmations(c, seq),
        None => Ok(Vec::new()),
    }
}

pub(crate) fn set_source_tx(c: &Connection, id: &str, text: &str) -> Result<()> {
    rows::seq_of(c, id)?;
    c.prepare_cached(
        "INSERT INTO sources (experience_id, messages) VALUES (?1, ?2) \
         ON CONFLICT (experience_id) DO UPDATE SET messages = excluded.messages",
    )
    .and_then(|mut st| st.execute(params![id, text]))
    .map_err(sql_err)?;
    Ok(())
}

pub(crate) fn source(c: &Connection, id: &str) -> Result<Option<String>> {
    c.prepare_cached("SELECT messages FROM sources WHERE experience_id = ?1")
        .and_then(|mut st| st.query_row([id], |r| r.get(0)).optional())
        .map_err(sql_err)
}

pub(crate) fn record_usage_tx(c: &Connection, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
    let big = |v: u64| v.min(i64::MAX as u64) as i64;
    c.prepare_cached(
        "INSERT INTO usage_days (day, agent_id, searches, found) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (day, agent_id) \
         DO UPDATE SET searches = searches + excluded.searches, found = found + excluded.found",
    )
    .and_then(|mut st| st.execute(params![day, agent_id, big(searches), big(found)]))
    .map_err(sql_err)?;
    Ok(())
}

/// `(day, agent, kind, count)` rows of a grouping query with `?1` = the first day.
fn day_counts(c: &Connection, sql: &str, since: &str, scopes: Option<&str>) -> Result<Vec<DayCount>> {
    let mut st = c.prepare_cached(sql).map_err(sql_err)?;
    let rows = st
        .query_map(rusqlite::params![since, scopes], |r| {
            Ok(DayCount { day: r.get(0)?, agent_id: r.get(1)?, kind: r.get(2)?, n: n(r, 3)? })
        })
        .map_err(sql_err)?;
    rows.collect::<std::result::Result<_, _>>().map_err(sql_err)
}

/// A non-negative integer at a top-level key of a job's result, else 0: text that is not JSON
/// (or a value that is not an integer) must not fail the whole dashboard. The nested CASE
/// keeps `json_type` from ever seeing invalid JSON (it would raise an error).
fn json_count(key: &str) -> String {
    format!(
        "COALESCE(SUM(CASE WHEN json_valid(result) THEN CASE WHEN json_type(result, '$.{key}') = 'integer' \
         THEN MAX(json_extract(result, '$.{key}'), 0) END END), 0)"
    )
}

/// `scopes`: a JSON array (`filter::scopes_json`), or `None` for every scope.
pub(crate) fn activity(c: &Connection, since: &str, scopes: Option<&str>) -> Result<Activity> {
    // Days are the first 10 characters of RFC 3339 UTC timestamps (`YYYY-MM-DD`).
    let records = day_counts(
        c,
        "SELECT substr(created_at, 1, 10) AS day, agent_id, status, COUNT(*) FROM experiences \
         WHERE substr(created_at, 1, 10) >= ?1 AND (?2 IS NULL OR scope IN (SELECT value FROM json_each(?2))) \
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        since,
        scopes,
    )?;
    let votes = day_counts(
        c,
        "SELECT substr(v.at, 1, 10) AS day, e.agent_id, v.outcome, COUNT(*) FROM votes v \
         JOIN experiences e ON e.seq = v.seq WHERE substr(v.at, 1, 10) >= ?1 \
         AND (?2 IS NULL OR e.scope IN (SELECT value FROM json_each(?2))) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        since,
        scopes,
    )?;
    let usage = {
        let mut st = c
            .prepare_cached(
                "SELECT day, agent_id, searches, found FROM usage_days WHERE day >= ?1 ORDER BY day, agent_id",
            )
            .map_err(sql_err)?;
        let rows = st
            .query_map([since], |r| {
                Ok(DayUsage { day: r.get(0)?, agent_id: r.get(1)?, searches: n(r, 2)?, found: n(r, 3)? })
            })
            .map_err(sql_err)?;
        rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)?
    };
    let jobs = {
        let sql = format!(
            "SELECT substr(created_at, 1, 10) AS day, agent_id, status, COUNT(*), {}, {} FROM extract_jobs \
             WHERE substr(created_at, 1, 10) >= ?1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
            json_count("input_tokens"),
            json_count("output_tokens")
        );
        let mut st = c.prepare_cached(&sql).map_err(sql_err)?;
        let rows = st
            .query_map([since], |r| {
                Ok(DayJobs {
                    day: r.get(0)?,
                    agent_id: r.get(1)?,
                    status: r.get(2)?,
                    jobs: n(r, 3)?,
                    input_tokens: n(r, 4)?,
                    output_tokens: n(r, 5)?,
                })
            })
            .map_err(sql_err)?;
        rows.collect::<std::result::Result<Vec<_>, _>>().map_err(sql_err)?
    };
    Ok(Activity { records, votes, usage, jobs })
}

fn playbook_row(r: &Row<'_>) -> rusqlite::Result<StoredPlaybook> {
    Ok(StoredPlaybook { key: r.get(0)?, status: r.get(1)?, doc: r.get(2)?, updated_at: r.get(3)? })
}

pub(crate) fn written_playbook(c: &Connection, key: &str) -> Result<Option<StoredPlaybook>> {
    c.prepare_cached("SELECT key, status, doc, updated_at FROM playbooks WHERE key = ?1")
        .and_then(|mut st| st.query_row([key], playbook_row).optional())
        .map_err(sql_err)
}

pub(crate) fn put_written_playbook_tx(c: &Connection, p: &StoredPlaybook) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO playbooks (key, status, doc, updated_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (key) \
         DO UPDATE SET status = excluded.status, doc = excluded.doc, updated_at = excluded.updated_at",
    )
    .and_then(|mut st| st.execute(params![p.key, p.status, p.doc, p.updated_at]))
    .map_err(sql_err)?;
    Ok(())
}

pub(crate) fn written_playbooks(c: &Connection, status: Option<&str>, limit: usize) -> Result<Vec<StoredPlaybook>> {
    c.prepare_cached(
        "SELECT key, status, doc, updated_at FROM playbooks WHERE (?1 IS NULL OR status = ?1) \
         ORDER BY updated_at DESC, key LIMIT ?2",
    )
    .and_then(|mut st| st.query_map(params![status, limit.min(i64::MAX as usize) as i64], playbook_row)?.collect())
    .map_err(sql_err)
}
