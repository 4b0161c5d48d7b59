//! What the console reads (as SQLite's `insight.rs`, same rows in the same order): resource
//! track records, confirmers, source messages kept for review, and day-by-day activity. Text
//! sorts and case folding are `COLLATE "C"` so both stores order and match alike.

use knowhub_core::insight::{Activity, DayCount, DayJobs, DayUsage, ResourceFilter, ResourceSummary, StoredPlaybook};
use knowhub_core::store::not_found;
use knowhub_core::{Confirmation, Result};
use sqlx::postgres::PgRow;
use sqlx::{AssertSqlSafe, PgPool, Row};

use crate::db::db_err;

fn n(r: &PgRow, i: usize) -> Result<u64> {
    Ok(r.try_get::<Option<i64>, _>(i).map_err(db_err)?.unwrap_or(0).max(0) as u64)
}

pub(crate) async fn resources(
    pool: &PgPool,
    filter: &ResourceFilter,
    scopes: Option<&[String]>,
    limit: usize,
) -> Result<Vec<ResourceSummary>> {
    // Every record read is live (neither quarantined nor expired: what agents are shown) and in
    // one of `scopes` ($2; NULL for all).
    let within = |a: &str| format!("({a}.held = 0 AND ($2::text[] IS NULL OR {a}.scope = ANY($2::text[])))");
    let (cond, arg) = match filter {
        ResourceFilter::All => ("TRUE".to_string(), None),
        ResourceFilter::Key(k) => ("e.resource_key = $3".to_string(), Some(k.clone())),
        ResourceFilter::Matching(t) => (
            format!(
                "e.resource_key IN (SELECT m.resource_key FROM experiences m WHERE m.status = 'approved' \
                 AND lower(m.resource COLLATE \"C\") LIKE $3 ESCAPE '\\' AND {})",
                within("m")
            ),
            Some(knowhub_core::insight::contains_pattern(t)),
        ),
    };
    let (in_r, in_e) = (within("r"), within("e"));
    let sql = format!(
        "SELECT g.key, (SELECT r.resource FROM experiences r WHERE r.resource_key = g.key AND r.status = 'approved' \
         AND {in_r} ORDER BY r.created_at COLLATE \"C\" DESC, r.seq DESC LIMIT 1), g.records, g.successes, g.failures, \
         g.partials, g.helped, g.failed_votes, g.last_success_at, g.last_seen_at FROM (\
         SELECT e.resource_key AS key, COUNT(*)::bigint AS records, \
         COUNT(*) FILTER (WHERE e.outcome = 'success')::bigint AS successes, \
         COUNT(*) FILTER (WHERE e.outcome = 'failure')::bigint AS failures, \
         COUNT(*) FILTER (WHERE e.outcome = 'partial')::bigint AS partials, \
         SUM(e.helped)::bigint AS helped, SUM(e.failed)::bigint AS failed_votes, \
         MAX(e.created_at COLLATE \"C\") FILTER (WHERE e.outcome = 'success') AS last_success_at, \
         MAX(e.created_at COLLATE \"C\") AS last_seen_at FROM experiences e WHERE e.status = 'approved' AND {cond} \
         AND {in_e} GROUP BY e.resource_key ORDER BY records DESC, e.resource_key COLLATE \"C\" LIMIT $1) g \
         ORDER BY g.records DESC, g.key COLLATE \"C\""
    );
    let mut q = sqlx::query(AssertSqlSafe(sql)).bind(limit.min(i64::MAX as usize) as i64).bind(scopes);
    if let Some(a) = arg {
        q = q.bind(a);
    }
    let rs = q.fetch_all(pool).await.map_err(db_err)?;
    rs.iter()
        .map(|r| {
            Ok(ResourceSummary {
                key: r.try_get(0).map_err(db_err)?,
                resource: r.try_get::<Option<String>, _>(1).map_err(db_err)?.unwrap_or_default(),
                records: n(r, 2)?,
                successes: n(r, 3)?,
                failures: n(r, 4)?,
                partials: n(r, 5)?,
                helped: n(r, 6)?,
                failed_votes: n(r, 7)?,
                last_success_at: r.try_get(8).map_err(db_err)?,
                last_seen_at: r.try_get(9).map_err(db_err)?,
            })
        })
        .collect()
}

pub(crate) async fn resource_keys_with(
    pool: &PgPool,
    keys: &[String],
    scopes: Option<&[String]>,
    at_least: u64,
) -> Result<Vec<String>> {
    // One query: each key counts its records only up to `at_least` (the LIMIT inside).
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT k.key FROM UNNEST($1::text[]) WITH ORDINALITY AS k(key, n) WHERE (SELECT COUNT(*) FROM (SELECT 1 \
         FROM experiences e WHERE e.resource_key = k.key AND e.status = 'approved' AND e.held = 0 \
         AND ($2::text[] IS NULL OR e.scope = ANY($2::text[])) LIMIT $3) x) >= $3 ORDER BY k.n",
    )
    .bind(keys)
    .bind(scopes)
    .bind(at_least.min(i64::MAX as u64) as i64)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    let mut out: Vec<String> = Vec::new();
    for k in rows {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    Ok(out)
}

pub(crate) async fn confirmed_by(pool: &PgPool, id: &str) -> Result<Vec<Confirmation>> {
    let rs = sqlx::query(
        "SELECT c.confirmer, c.at FROM confirmations c JOIN experiences e ON e.seq = c.seq WHERE e.id = $1 \
         ORDER BY c.at COLLATE \"C\", c.confirmer COLLATE \"C\"",
    )
    .bind(id)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rs.iter()
        .map(|r| Ok(Confirmation { by: r.try_get(0).map_err(db_err)?, at: r.try_get(1).map_err(db_err)? }))
        .collect()
}

pub(crate) async fn set_source(pool: &PgPool, id: &str, text: &str) -> Result<()> {
    let n = sqlx::query(
        "INSERT INTO sources (experience_id, messages) SELECT id, $2 FROM experiences WHERE id = $1 \
         ON CONFLICT (experience_id) DO UPDATE SET messages = EXCLUDED.messages",
    )
    .bind(id)
    .bind(text)
    .execute(pool)
    .await
    .map_err(db_err)?;
    if n.rows_affected() == 0 {
        return Err(not_found(id));
    }
    Ok(())
}

pub(crate) async fn source(pool: &PgPool, id: &str) -> Result<Option<String>> {
    sqlx::query_scalar("SELECT messages FROM sources WHERE experience_id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(db_err)
}

pub(crate) async fn record_usage(pool: &PgPool, day: &str, agent_id: &str, searches: u64, found: u64) -> Result<()> {
    let big = |v: u64| v.min(i64::MAX as u64) as i64;
    sqlx::query(
        "INSERT INTO usage_days (day, agent_id, searches, found) VALUES ($1, $2, $3, $4) ON CONFLICT (day, agent_id) \
         DO UPDATE SET searches = usage_days.searches + EXCLUDED.searches, found = usage_days.found + EXCLUDED.found",
    )
    .bind(day)
    .bind(agent_id)
    .bind(big(searches))
    .bind(big(found))
    .execute(pool)
    .await
    .map_err(db_err)?;
    Ok(())
}

async fn day_counts(pool: &PgPool, sql: &'static str, since: &str, scopes: Option<&[String]>) -> Result<Vec<DayCount>> {
    let rs = sqlx::query(sql).bind(since).bind(scopes).fetch_all(pool).await.map_err(db_err)?;
    rs.iter()
        .map(|r| {
            Ok(DayCount {
                day: r.try_get(0).map_err(db_err)?,
                agent_id: r.try_get(1).map_err(db_err)?,
                kind: r.try_get(2).map_err(db_err)?,
                n: n(r, 3)?,
            })
        })
        .collect()
}

/// A non-negative integer at a top-level key of a job's result, else 0: a result that is not
/// JSON (or a value that is not an integer) must not fail the dashboard.
fn json_count(key: &str) -> String {
    format!(
        "COALESCE(SUM(CASE WHEN result IS JSON OBJECT AND jsonb_typeof(result::jsonb -> '{key}') = 'number' \
         AND (result::jsonb ->> '{key}') ~ '^[0-9]+$' THEN (result::jsonb ->> '{key}')::bigint END), 0)::bigint"
    )
}

pub(crate) async fn activity(pool: &PgPool, since: &str, scopes: Option<&[String]>) -> Result<Activity> {
    let records = day_counts(
        pool,
        "SELECT substr(created_at, 1, 10) COLLATE \"C\" AS day, agent_id COLLATE \"C\", status COLLATE \"C\", \
         COUNT(*)::bigint FROM experiences WHERE substr(created_at, 1, 10) >= $1 \
         AND ($2::text[] IS NULL OR scope = ANY($2::text[])) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        since,
        scopes,
    )
    .await?;
    let votes = day_counts(
        pool,
        "SELECT substr(v.at, 1, 10) COLLATE \"C\" AS day, e.agent_id COLLATE \"C\", v.outcome COLLATE \"C\", \
         COUNT(*)::bigint FROM votes v JOIN experiences e ON e.seq = v.seq WHERE substr(v.at, 1, 10) >= $1 \
         AND ($2::text[] IS NULL OR e.scope = ANY($2::text[])) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        since,
        scopes,
    )
    .await?;
    let rs = sqlx::query(
        "SELECT day, agent_id, searches, found FROM usage_days WHERE day >= $1 \
         ORDER BY day COLLATE \"C\", agent_id COLLATE \"C\"",
    )
    .bind(since)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    let usage = rs
        .iter()
        .map(|r| {
            Ok(DayUsage {
                day: r.try_get(0).map_err(db_err)?,
                agent_id: r.try_get(1).map_err(db_err)?,
                searches: n(r, 2)?,
                found: n(r, 3)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let sql = format!(
        "SELECT substr(created_at, 1, 10) COLLATE \"C\" AS day, agent_id COLLATE \"C\", status COLLATE \"C\", \
         COUNT(*)::bigint, {}, {} FROM extract_jobs WHERE substr(created_at, 1, 10) >= $1 \
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        json_count("input_tokens"),
        json_count("output_tokens")
    );
    let rs = sqlx::query(AssertSqlSafe(sql)).bind(since).fetch_all(pool).await.map_err(db_err)?;
    let jobs = rs
        .iter()
        .map(|r| {
            Ok(DayJobs {
                day: r.try_get(0).map_err(db_err)?,
                agent_id: r.try_get(1).map_err(db_err)?,
                status: r.try_get(2).map_err(db_err)?,
                jobs: n(r, 3)?,
                input_tokens: n(r, 4)?,
                output_tokens: n(r, 5)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Activity { records, votes, usage, jobs })
}

fn playbook_row(r: &PgRow) -> StoredPlaybook {
    StoredPlaybook { key: r.get(0), status: r.get(1), doc: r.get(2), updated_at: r.get(3) }
}

pub(crate) async fn written_playbook(pool: &PgPool, key: &str) -> Result<Option<StoredPlaybook>> {
    let row = sqlx::query("SELECT key, status, doc, updated_at FROM playbooks WHERE key = $1")
        .bind(key)
        .fetch_optional(pool)
        .await
        .map_err(db_err)?;
    Ok(row.as_ref().map(playbook_row))
}

pub(crate) async fn put_written_playbook(pool: &PgPool, p: &StoredPlaybook) -> Result<()> {
    sqlx::query(
        "INSERT INTO playbooks (key, status, doc, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (key) \
         DO UPDATE SET status = EXCLUDED.status, doc = EXCLUDED.doc, updated_at = EXCLUDED.updated_at",
    )
    .bind(&p.key)
    .bind(&p.status)
    .bind(&p.doc)
    .bind(&p.updated_at)
    .execute(pool)
    .await
    .map_err(db_err)?;
    Ok(())
}

pub(crate) async fn written_playbooks(
    pool: &PgPool,
    status: Option<&str>,
    limit: usize,
) -> Result<Vec<StoredPlaybook>> {
    let rows = sqlx::query(
        "SELECT key, status, doc, updated_at FROM playbooks WHERE ($1::text IS NULL OR status = $1) \
         ORDER BY updated_at DESC, key LIMIT $2",
    )
    .bind(status)
    .bind(limit.min(i64::MAX as usize) as i64)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    Ok(rows.iter().map(playbook_row).collect())
}
