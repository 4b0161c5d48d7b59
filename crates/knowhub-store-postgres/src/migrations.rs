//! Versioned schema migrations, each applied once, in order, in its own transaction.
//!
//! Several replicas may start at once against one database, so `migrate` holds a session-level
//! advisory lock for its whole run: the second replica waits, then finds nothing left to do.

use knowhub_core::Result;
use sqlx::{Connection, PgConnection};

use crate::db_err;

/// Advisory lock key for migrations (any constant; "knowhub" as ASCII digits).
const MIGRATE_LOCK: i64 = 0x006b_6e6f_7768_7562;

/// `(version, SQL)`. Never edit a shipped migration; add a new one.
///
/// Mirrors the SQLite schema (v1 + v2) in one step: the PostgreSQL backend starts with it.
/// Ids are `COLLATE "C"` so that `ORDER BY id` is byte order, as in SQLite, whatever the
/// database's locale (export pages and the review queue page by id).
/// Timestamps stay RFC 3339 text like in SQLite so that exports are identical across backends;
/// the job queue's own clocks (`not_before`, `lease_until`) are `timestamptz` and use the
/// database's `now()`, one clock for every replica.
const MIGRATIONS: &[(i64, &str)] = &[(
    1,
    r#"
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE experiences (
    seq                 BIGSERIAL PRIMARY KEY,
    id                  TEXT COLLATE "C" NOT NULL UNIQUE,
    task                TEXT NOT NULL,
    resource            TEXT NOT NULL,
    result              TEXT NOT NULL,
    score               SMALLINT NOT NULL CHECK (score BETWEEN 1 AND 5),
    outcome             TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'partial')),
    agent_id            TEXT NOT NULL DEFAULT '',
    submitted_by        TEXT NOT NULL DEFAULT '',
    session_key         TEXT,
    source              TEXT NOT NULL CHECK (source IN ('manual', 'extracted', 'imported')),
    status              TEXT NOT NULL CHECK (status IN ('approved', 'pending', 'rejected')),
    confidence          DOUBLE PRECISION,
    language            TEXT NOT NULL,
    content_hash        TEXT NOT NULL,
    task_resource_hash  TEXT NOT NULL,
    confirmations       INTEGER NOT NULL DEFAULT 1,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    source_from         INTEGER,
    source_to           INTEGER,
    flags               TEXT[] NOT NULL DEFAULT '{}',
    review_by           TEXT,
    review_at           TEXT,
    review_note         TEXT,
    -- knowhub_core::text tokens of task + resource + result, built in the app (no Chinese
    -- parser in PostgreSQL), with positions so ts_rank_cd can use them.
    tsv                 TSVECTOR NOT NULL
);
-- The dedup identity: concurrent identical submits from any replica meet here.
CREATE UNIQUE INDEX experiences_content_hash ON experiences (content_hash);
CREATE INDEX experiences_task_resource_hash ON experiences (task_resource_hash);
CREATE INDEX experiences_status ON experiences (status, id);
CREATE INDEX experiences_agent_id ON experiences (agent_id);
CREATE INDEX experiences_tsv ON experiences USING gin (tsv);

CREATE TABLE contents (
    experience_id TEXT COLLATE "C" PRIMARY KEY REFERENCES experiences (id) ON DELETE CASCADE,
    content       TEXT NOT NULL,
    content_type  TEXT NOT NULL
);

-- One vector per record (as in SQLite), of any dimension; HNSW indexes are partial, one per
-- dimension in use (see `PgStore::ensure_vector_index`).
CREATE TABLE vectors (
    seq       BIGINT PRIMARY KEY REFERENCES experiences (seq) ON DELETE CASCADE,
    model     TEXT NOT NULL,
    dim       INTEGER NOT NULL,
    embedding VECTOR NOT NULL
);
CREATE INDEX vectors_model ON vectors (model);

CREATE TABLE api_keys (
    id          TEXT COLLATE "C" PRIMARY KEY,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('agent', 'reviewer', 'admin')),
    prefix      TEXT NOT NULL,
    hash        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT,
    seq         BIGSERIAL NOT NULL
);
-- At most one active key per name, enforced by the database for every replica.
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;

-- One row per session: `enqueue_extraction` locks it (FOR UPDATE) so two uploads of one
-- session, on any replicas, are matched against the stored messages one after the other.
CREATE TABLE extract_sessions (
    session_key TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE TABLE extract_messages (
    session_key TEXT NOT NULL REFERENCES extract_sessions (session_key) ON DELETE CASCADE,
    idx         BIGINT NOT NULL,
    hash        TEXT NOT NULL,
    PRIMARY KEY (session_key, idx)
);
CREATE TABLE extract_jobs (
    seq              BIGSERIAL PRIMARY KEY,
    id               TEXT COLLATE "C" NOT NULL UNIQUE,
    session_key      TEXT NOT NULL,
    agent_id         TEXT NOT NULL,
    submitted_by     TEXT NOT NULL,
    require_approval BOOLEAN NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    first_index      BIGINT NOT NULL,
    message_count    INTEGER NOT NULL,
    messages         TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    error            TEXT,
    result           TEXT,
    not_before       TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_until      TIMESTAMPTZ,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX extract_jobs_runnable ON extract_jobs (seq) WHERE status IN ('queued', 'running');
"#,
)];

/// Applies pending migrations on one dedicated connection.
pub(crate) async fn migrate(conn: &mut PgConnection) -> Result<()> {
    // A migration may rebuild an index on a big table, and a replica may wait here for another's:
    // neither is bounded by the pool's statement timeout.
    sqlx::query("SET statement_timeout = 0").execute(&mut *conn).await.map_err(db_err)?;
    sqlx::query("SELECT pg_advisory_lock($1)").bind(MIGRATE_LOCK).execute(&mut *conn).await.map_err(db_err)?;
    let r = apply(conn).await;
    // The lock also goes away with the connection if this fails.
    let _ = sqlx::query("SELECT pg_advisory_unlock($1)").bind(MIGRATE_LOCK).execute(&mut *conn).await;
    r
}

async fn apply(conn: &mut PgConnection) -> Result<()> {
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .execute(&mut *conn)
    .await
    .map_err(db_err)?;
    let current: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        .fetch_one(&mut *conn)
        .await
        .map_err(db_err)?;
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current) {
        let mut tx = conn.begin().await.map_err(db_err)?;
        sqlx::raw_sql(*sql).execute(&mut *tx).await.map_err(db_err)?;
        sqlx::query("INSERT INTO schema_migrations (version) VALUES ($1)")
            .bind(version)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        tracing::info!(version, "applied postgres migration");
    }
    Ok(())
}

/// The newest schema version this build knows.
pub fn latest_version() -> i64 {
    MIGRATIONS.last().map(|m| m.0).unwrap_or(0)
}
