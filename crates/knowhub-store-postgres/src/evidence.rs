//! Evidence on records: distinct confirmers, outcome votes, contests and dispute decisions, with
//! the same semantics as the SQLite store (`knowhub-store-sqlite/src/evidence.rs`).
//!
//! Several replicas write at once, so every read-modify-write of a record (a count recomputed
//! from its confirmers or votes, its contest list, a status check) first locks the record's row
//! (`lock`, or the `ON CONFLICT DO UPDATE` of an insert). Writers on one record then run one
//! after another, and since each statement of a READ COMMITTED transaction sees everything
//! committed before it started, a count recomputed after the lock includes every earlier
//! writer's rows.

use knowhub_core::store::{not_found, NeighbourRow};
use knowhub_core::{
    now_rfc3339, CoreError, DisputeDecision, Experience, FeedbackOutcome, History, Neighbour, NeighbourQuery, Result,
    Status, Vote,
};
use sqlx::{AssertSqlSafe, PgConnection, PgPool, Row};

use crate::db::db_err;
use crate::rows::{self, Exp, EXP_COLS};

/// Locks a record's row until the transaction ends and returns it; `NotFound` if there is none.
pub(crate) async fn lock(conn: &mut PgConnection, id: &str) -> Result<Exp> {
    let r = sqlx::query(AssertSqlSafe(format!("SELECT {EXP_COLS} FROM experiences e WHERE e.id = $1 FOR UPDATE")))
        .bind(id)
        .fetch_optional(conn)
        .await
        .map_err(db_err)?;
    r.as_ref().map(rows::exp_with_seq).transpose()?.ok_or_else(|| not_found(id))
}

/// Adds a distinct confirmer (an empty one counts as `anonymous`); returns whether it was new
/// (then the count and `last_confirmed_at` move too). The caller holds the row's lock, or has
/// just inserted the row.
pub(crate) async fn add_confirmer(conn: &mut PgConnection, seq: i64, confirmer: &str, at: &str) -> Result<bool> {
    let who = if confirmer.trim().is_empty() { "anonymous" } else { confirmer.trim() };
    let n = sqlx::query("INSERT INTO confirmations (seq, confirmer, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
        .bind(seq)
        .bind(who)
        .bind(at)
        .execute(&mut *conn)
        .await
        .map_err(db_err)?
        .rows_affected();
    if n > 0 {
        sqlx::query(
            "UPDATE experiences SET confirmations = (SELECT COUNT(*) FROM confirmations WHERE seq = $1), \
             last_confirmed_at = GREATEST(last_confirmed_at, $2 COLLATE \"C\"), updated_at = $3 WHERE seq = $1",
        )
        .bind(seq)
        .bind(at)
        .bind(now_rfc3339())
        .execute(&mut *conn)
        .await
        .map_err(db_err)?;
    }
    Ok(n > 0)
}

/// An imported record's confirmers and votes, with the counts they imply (the row was just
/// inserted by this transaction).
pub(crate) async fn restore(conn: &mut PgConnection, seq: i64, h: &History) -> Result<()> {
    if !h.confirmed_by.is_empty() {
        let (by, at): (Vec<&str>, Vec<&str>) = h.confirmed_by.iter().map(|c| (c.by.as_str(), c.at.as_str())).unzip();
        sqlx::query(
            "INSERT INTO confirmations (seq, confirmer, at) SELECT $1, b, a FROM UNNEST($2::text[], $3::text[]) AS u(b, a) \
             ON CONFLICT DO NOTHING",
        )
        .bind(seq)
        .bind(&by)
        .bind(&at)
        .execute(&mut *conn)
        .await
        .map_err(db_err)?;
        // Records exported before confirmers were kept bring none: their count stays as exported.
        sqlx::query(
            "UPDATE experiences SET confirmations = (SELECT COUNT(*) FROM confirmations WHERE seq = $1) WHERE seq = $1",
        )
        .bind(seq)
        .execute(&mut *conn)
        .await
        .map_err(db_err)?;
    }
    // One by one, so that a voter listed twice ends with its last vote (as INSERT OR REPLACE).
    for v in &h.votes {
        upsert_vote(conn, seq, v).await?;
    }
    recount_votes(conn, seq).await
}

async fn upsert_vote(conn: &mut PgConnection, seq: i64, v: &Vote) -> Result<()> {
    sqlx::query(
        "INSERT INTO votes (seq, voter, outcome, note, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (seq, voter) \
         DO UPDATE SET outcome = EXCLUDED.outcome, note = EXCLUDED.note, at = EXCLUDED.at",
    )
    .bind(seq)
    .bind(&v.voter)
    .bind(v.outcome.as_str())
    .bind(&v.note)
    .bind(&v.at)
    .execute(conn)
    .await
    .map_err(db_err)?;
    Ok(())
}

async fn recount_votes(conn: &mut PgConnection, seq: i64) -> Result<()> {
    sqlx::query(
        "UPDATE experiences e SET helped = c.h, failed = c.f, irrelevant = c.i FROM (SELECT \
         COUNT(*) FILTER (WHERE outcome = 'helped') AS h, COUNT(*) FILTER (WHERE outcome = 'failed') AS f, \
         COUNT(*) FILTER (WHERE outcome = 'irrelevant') AS i FROM votes WHERE seq = $1) AS c WHERE e.seq = $1",
    )
    .bind(seq)
    .execute(conn)
    .await
    .map_err(db_err)?;
    Ok(())
}

pub(crate) async fn confirm(pool: &PgPool, id: &str, confirmer: &str) -> Result<Experience> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    let cur = lock(&mut tx, id).await?;
    add_confirmer(&mut tx, cur.seq, confirmer, &now_rfc3339()).await?;
    let e = rows::by_seq(&mut tx, cur.seq).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(e)
}

pub(crate) async fn by_resource_key(pool: &PgPool, key: &str, limit: usize) -> Result<Vec<Experience>> {
    let rs = sqlx::query(AssertSqlSafe(format!(
        "SELECT {EXP_COLS} FROM experiences e WHERE e.resource_key = $1 AND e.status <> 'rejected' \
         ORDER BY e.seq LIMIT $2"
    )))
    .bind(key)
    .bind(limit.min(i64::MAX as usize) as i64)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rs.iter().map(rows::experience).collect()
}

/// `Store::resource_neighbours`: one query over every record with the resource key (its index)
/// and their vectors of the model, the cosine computed in the database (the dot product with the
/// query, over the stored block norms of the blocks the query uses), so only the near ones, the
/// ones without a vector and the same task come back; then the chosen rows are loaded.
pub(crate) async fn neighbours(pool: &PgPool, q: &NeighbourQuery) -> Result<Vec<Neighbour>> {
    let embedded = !q.model.is_empty() && !q.vector.is_empty() && q.vector.len() <= 16_000;
    let rows = if embedded {
        let qn = knowhub_core::store::block_norms(&q.vector);
        let norm = qn.iter().map(|n| n * n).sum::<f64>().sqrt();
        sqlx::query(
            "WITH k AS (SELECT e.id, e.seq, e.task_resource_hash = $2 AS same_task, \
             CASE WHEN v.seq IS NULL THEN NULL ELSE COALESCE((-(v.embedding <#> $3))::float8 / NULLIF($5 * \
               (SELECT sqrt(sum(u.n * u.n)) FROM unnest(v.block_norms::float8[], $4::float8[]) AS u(n, q) WHERE u.q > 0), 0), 0) END AS cos \
             FROM experiences e LEFT JOIN vectors v ON v.seq = e.seq AND v.model = $6 AND v.dim = $7 \
             WHERE e.resource_key = $1 AND e.status <> 'rejected' AND e.scope = $9) \
             SELECT id, seq, same_task, cos FROM k WHERE cos IS NULL OR cos >= $8 OR same_task",
        )
        .bind(&q.resource_key)
        .bind(&q.task_resource_hash)
        .bind(pgvector::Vector::from(q.vector.clone()))
        .bind(&qn)
        .bind(norm)
        .bind(&q.model)
        .bind(q.vector.len() as i32)
        .bind(q.min_cosine)
        .bind(&q.scope)
        .fetch_all(pool)
        .await
    } else {
        sqlx::query(
            "SELECT e.id, e.seq, e.task_resource_hash = $2 AS same_task, NULL::float8 AS cos FROM experiences e \
             WHERE e.resource_key = $1 AND e.status <> 'rejected' AND e.scope = $3",
        )
        .bind(&q.resource_key)
        .bind(&q.task_resource_hash)
        .bind(&q.scope)
        .fetch_all(pool)
        .await
    }
    .map_err(db_err)?;
    let rows = rows
        .iter()
        .map(|r| {
            Ok(NeighbourRow {
                id: r.try_get(0).map_err(db_err)?,
                seq: r.try_get(1).map_err(db_err)?,
                same_task: r.try_get(2).map_err(db_err)?,
                cosine: r.try_get(3).map_err(db_err)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let picked = knowhub_core::store::pick_neighbours(rows, q);
    let ids: Vec<String> = picked.iter().map(|p| p.0.clone()).collect();
    let records = crate::records::get_many(pool, &ids).await?;
    Ok(knowhub_core::store::order_neighbours(&picked, records))
}

pub(crate) async fn contest(pool: &PgPool, a: &str, b: &str) -> Result<()> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    // Both rows, locked in one order (by seq) whatever the argument order, so that contest(a, b)
    // and contest(b, a) at once cannot deadlock.
    let found: Vec<String> =
        sqlx::query_scalar("SELECT id FROM experiences WHERE id = ANY($1) ORDER BY seq FOR UPDATE")
            .bind([a, b])
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
    if let Some(missing) = [a, b].into_iter().find(|x| !found.iter().any(|f| f == x)) {
        return Err(not_found(missing));
    }
    for (x, y) in [(a, b), (b, a)] {
        sqlx::query(
            "UPDATE experiences SET contested_with = array_append(contested_with, $2) \
             WHERE id = $1 AND NOT ($2 = ANY(contested_with))",
        )
        .bind(x)
        .bind(y)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)
}

pub(crate) async fn vote(pool: &PgPool, id: &str, vote: Vote) -> Result<Experience> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    let cur = lock(&mut tx, id).await?;
    if cur.e.status != Status::Approved {
        return Err(CoreError::Conflict(format!(
            "experience {id} is {}: only approved experiences take feedback",
            cur.e.status
        )));
    }
    upsert_vote(&mut tx, cur.seq, &vote).await?;
    recount_votes(&mut tx, cur.seq).await?;
    if vote.outcome == FeedbackOutcome::Helped {
        sqlx::query(
            "UPDATE experiences SET last_confirmed_at = GREATEST(last_confirmed_at, $2 COLLATE \"C\") WHERE seq = $1",
        )
        .bind(cur.seq)
        .bind(&vote.at)
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    let e = rows::by_seq(&mut tx, cur.seq).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(e)
}

pub(crate) async fn votes_of(pool: &PgPool, id: &str) -> Result<Vec<Vote>> {
    let mut conn = pool.acquire().await.map_err(db_err)?;
    let seq: Option<i64> = sqlx::query_scalar("SELECT seq FROM experiences WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await
        .map_err(db_err)?;
    let seq = seq.ok_or_else(|| not_found(id))?;
    Ok(rows::votes(&mut conn, &[seq]).await?.into_iter().map(|(_, v)| v).collect())
}

/// SQL for `FeedbackCounts::disputed` (`$1` = threshold). `e.failed > 0` lets the planner use
/// the partial index of records with failure votes.
const DISPUTED: &str = "e.failed > 0 AND e.status = 'approved' AND $1::bigint > 0 \
    AND e.failed - e.reviewed_failed >= $1::bigint AND e.failed > e.helped";

pub(crate) async fn disputed(
    pool: &PgPool,
    threshold: u32,
    scopes: Option<&[String]>,
    after: &str,
    limit: usize,
) -> Result<Vec<Experience>> {
    let rs = sqlx::query(AssertSqlSafe(format!(
        "SELECT {EXP_COLS} FROM experiences e WHERE {DISPUTED} AND e.id > $2 \
         AND ($4::text[] IS NULL OR e.scope = ANY($4::text[])) ORDER BY e.id LIMIT $3"
    )))
    .bind(i64::from(threshold))
    .bind(after)
    .bind(limit.min(i64::MAX as usize) as i64)
    .bind(scopes)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rs.iter().map(rows::experience).collect()
}

pub(crate) async fn count_disputed(pool: &PgPool, threshold: u32, scopes: Option<&[String]>) -> Result<u64> {
    let n: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM experiences e WHERE {DISPUTED} AND ($2::text[] IS NULL OR e.scope = ANY($2::text[]))"
    )))
    .bind(i64::from(threshold))
    .bind(scopes)
    .fetch_one(pool)
    .await
    .map_err(db_err)?;
    Ok(n as u64)
}

pub(crate) async fn resolve(pool: &PgPool, id: &str, decision: DisputeDecision, reviewer: &str) -> Result<Experience> {
    let mut tx = pool.begin().await.map_err(db_err)?;
    // The lock makes a concurrent vote or second decision wait for this one.
    let cur = lock(&mut tx, id).await?;
    if cur.e.status != Status::Approved {
        return Err(CoreError::Conflict(format!("experience {id} is {}, not approved", cur.e.status)));
    }
    let now = now_rfc3339();
    let q = match decision {
        DisputeDecision::Keep => sqlx::query(
            "UPDATE experiences SET reviewed_failed = failed, review_by = $2, review_at = $3, review_note = NULL, \
             updated_at = $3 WHERE seq = $1",
        )
        .bind(cur.seq)
        .bind(reviewer)
        .bind(&now),
        DisputeDecision::Reject { reason } => sqlx::query(
            "UPDATE experiences SET status = 'rejected', review_by = $2, review_at = $3, review_note = $4, \
             updated_at = $3 WHERE seq = $1",
        )
        .bind(cur.seq)
        .bind(reviewer)
        .bind(&now)
        .bind(reason),
    };
    q.execute(&mut *tx).await.map_err(db_err)?;
    let e = rows::by_seq(&mut tx, cur.seq).await?;
    tx.commit().await.map_err(db_err)?;
    Ok(e)
}
