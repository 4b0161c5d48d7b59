//! Versioned schema migrations, each applied once, in order, in its own transaction.
//!
//! Several replicas may start at once against one database, so `migrate` holds a session-level
//! advisory lock for its whole run: the second replica waits, then finds nothing left to do.

use knowhub_core::Result;
use sqlx::{Connection, PgConnection};

use crate::db::db_err;

/// Advisory lock key for migrations (any constant; "knowhub" as ASCII digits).
const MIGRATE_LOCK: i64 = 0x006b_6e6f_7768_7562;

/// `(version, SQL)`. Never edit a shipped migration; add a new one.
///
/// v1 mirrors the SQLite schema v1 + v2 in one step: the PostgreSQL backend starts with it; v3
/// mirrors SQLite's v3.
/// Ids are `COLLATE "C"` so that `ORDER BY id` is byte order, as in SQLite, whatever the
/// database's locale (export pages and the review queue page by id).
/// Timestamps stay RFC 3339 text like in SQLite so that exports are identical across backends;
/// the job queue's own clocks (`not_before`, `lease_until`) are `timestamptz` and use the
/// database's `now()`, one clock for every replica.
const MIGRATIONS: &[(i64, &str)] = &[
    (
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
    ),
    (
        2,
        // Each vector's norm per 384-dim block (`knowhub_core::VECTOR_BLOCK`), stored with it so
        // searches get cosines over any blocks (the local pair's E5 and MiniLM halves) from the
        // store alone. Existing rows are filled from their vectors.
        r#"
ALTER TABLE vectors ADD COLUMN block_norms REAL[];
UPDATE vectors SET block_norms = ARRAY(
    SELECT vector_norm(subvector(embedding, b * 384 + 1, LEAST(384, dim - b * 384)))::real
    FROM generate_series(0, (dim - 1) / 384) AS b ORDER BY b);
ALTER TABLE vectors ALTER COLUMN block_norms SET NOT NULL;
"#,
    ),
    (
        3,
        // Evidence (as SQLite's v3): distinct confirmers, outcome votes, contests, versions,
        // freshness. `resource_key` is filled by `after` (the normalisation lives in
        // knowhub_core). Timestamps compared with GREATEST are `COLLATE "C"`: byte order, as in
        // SQLite, whatever the database's locale.
        r#"
ALTER TABLE experiences
    ADD COLUMN resource_version  TEXT,
    ADD COLUMN resource_key      TEXT NOT NULL DEFAULT '',
    ADD COLUMN last_confirmed_at TEXT COLLATE "C" NOT NULL DEFAULT '',
    ADD COLUMN helped            INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN failed            INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN irrelevant        INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN reviewed_failed   INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN contested_with    TEXT[] NOT NULL DEFAULT '{}';
CREATE INDEX experiences_resource_key ON experiences (resource_key, seq);
-- Only records with failure votes can be disputed: the dispute queue reads this small index.
CREATE INDEX experiences_failed ON experiences (id) WHERE failed > 0;

-- One row per distinct caller that submitted a record. Earlier counts were submit calls, not
-- callers: each record starts again from its submitter.
CREATE TABLE confirmations (
    seq       BIGINT NOT NULL REFERENCES experiences (seq) ON DELETE CASCADE,
    confirmer TEXT NOT NULL,
    at        TEXT NOT NULL,
    PRIMARY KEY (seq, confirmer)
);
INSERT INTO confirmations (seq, confirmer, at)
    SELECT seq, CASE WHEN agent_id = '' THEN 'anonymous' ELSE agent_id END, created_at FROM experiences;
UPDATE experiences SET last_confirmed_at = created_at, confirmations = 1;

-- One vote per caller per record; a second vote replaces the first.
CREATE TABLE votes (
    seq     BIGINT NOT NULL REFERENCES experiences (seq) ON DELETE CASCADE,
    voter   TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('helped', 'failed', 'irrelevant')),
    note    TEXT,
    at      TEXT NOT NULL,
    PRIMARY KEY (seq, voter)
);

ALTER TABLE extract_jobs ADD COLUMN caller TEXT NOT NULL DEFAULT '';
"#,
    ),
    (
        4,
        // The review console (as SQLite's v4): an extracted record's redacted source messages,
        // kept only until it is reviewed, and per-day search counts for the dashboard.
        r#"
CREATE TABLE sources (
    experience_id TEXT COLLATE "C" PRIMARY KEY REFERENCES experiences (id) ON DELETE CASCADE,
    messages      TEXT NOT NULL
);
CREATE TABLE usage_days (
    day      TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    searches BIGINT NOT NULL DEFAULT 0,
    found    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, agent_id)
);
"#,
    ),
    (
        5,
        // The full-text index takes each submit's lexemes straight into its tree. With GIN's
        // default `fastupdate`, new entries wait in an unsorted pending list (up to
        // `gin_pending_list_limit`, 4 MB) that every search reads in full until VACUUM or a
        // later insert merges it: at 100k records, the list 2,000 submits left behind took a
        // search's token counts from 1.0 to 3.5 ms (p50), its candidate scan from 1.4 to 4.2 ms.
        // Searches outnumber submits here, so the merge is paid once, at submit.
        r#"
ALTER INDEX experiences_tsv SET (fastupdate = off);
SELECT gin_clean_pending_list('experiences_tsv'::regclass);
"#,
    ),
    (
        6,
        // Writes per caller in fixed windows (the burst limit on new records), as SQLite's v5:
        // in the database, so every replica sees the same counts.
        r#"
CREATE TABLE write_counts (
    caller      TEXT COLLATE "C" NOT NULL,
    window_secs BIGINT NOT NULL,
    start       BIGINT NOT NULL,
    n           BIGINT NOT NULL,
    PRIMARY KEY (caller, window_secs, start)
);
"#,
    ),
    (
        7,
        // Scopes, as SQLite's v6: every record is in one, every key reads a list and writes to
        // one. Keys that existed before read what they read then.
        r#"
ALTER TABLE experiences ADD COLUMN scope TEXT COLLATE "C" NOT NULL DEFAULT 'org';
CREATE INDEX experiences_scope_status ON experiences (scope, status);
ALTER TABLE api_keys
    ADD COLUMN read_scopes TEXT[] NOT NULL DEFAULT '{org}',
    ADD COLUMN write_scope TEXT NOT NULL DEFAULT 'org';
UPDATE api_keys SET read_scopes = '{*}' WHERE role IN ('reviewer', 'admin');
ALTER TABLE extract_jobs ADD COLUMN scope TEXT NOT NULL DEFAULT 'org';
ALTER TABLE extract_jobs ADD COLUMN origin_key TEXT NOT NULL DEFAULT '';

-- Provenance, quarantine and expiry, as SQLite's v6: `held` is a bit set (knowhub_core::hold),
-- 1 quarantined, 2 expired; searches pass only 0.
ALTER TABLE experiences
    ADD COLUMN origin_key TEXT NOT NULL DEFAULT '',
    ADD COLUMN origin_job TEXT,
    ADD COLUMN held       INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN expires_at TEXT COLLATE "C",
    ADD COLUMN ttl_secs   BIGINT;
UPDATE experiences e SET origin_key = k.name FROM api_keys k
    WHERE e.agent_id = k.name OR e.agent_id LIKE k.name || '/%';
CREATE INDEX experiences_origin_key ON experiences (origin_key) WHERE origin_key <> '';
CREATE INDEX experiences_held ON experiences (held) WHERE held <> 0;
CREATE INDEX experiences_expires ON experiences (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE quarantines (
    kind  TEXT NOT NULL CHECK (kind IN ('key', 'agent')),
    value TEXT NOT NULL,
    by    TEXT NOT NULL,
    at    TEXT NOT NULL,
    PRIMARY KEY (kind, value)
);

-- History: every change to a record, numbered across the hub.
CREATE TABLE events (
    seq           BIGSERIAL PRIMARY KEY,
    experience_id TEXT COLLATE "C" NOT NULL,
    kind          TEXT NOT NULL,
    by            TEXT NOT NULL,
    at            TEXT NOT NULL,
    detail        TEXT
);
CREATE INDEX events_experience ON events (experience_id, seq);
-- Where each named follower of the events (a webhook) has got to.
CREATE TABLE cursors (
    name TEXT PRIMARY KEY,
    seq  BIGINT NOT NULL
);
-- This hub's id: feed cursors carry it, so one from another hub is refused.
CREATE TABLE hub (id TEXT NOT NULL);
INSERT INTO hub (id) SELECT substr(md5(random()::text || clock_timestamp()::text), 1, 16);
"#,
    ),
    (
        8,
        // Sync between hubs, as SQLite's v7: the hub a record was first written on (empty: this
        // one), and per peer and record the version both last agreed on (a merge base).
        r#"
ALTER TABLE experiences ADD COLUMN origin_hub TEXT NOT NULL DEFAULT '';
CREATE TABLE sync_bases (
    peer          TEXT NOT NULL,
    experience_id TEXT COLLATE "C" NOT NULL,
    version       TEXT NOT NULL,
    PRIMARY KEY (peer, experience_id)
);
"#,
    ),
    (
        9,
        // A vector's row kept whole: at 768 dimensions (3 KB) a row passes the 2 KB point at
        // which PostgreSQL compresses values and moves them out of the row, so each vector went
        // to the TOAST table and, with it, the small `model` and `block_norms` that every search
        // filters on or reads. An exact scan of a scope's records (vectors::exact) and HNSW's
        // candidates then paid one TOAST lookup per value. Rows now stay whole up to a full page
        // (larger ones are still moved out). A setting only: rows written before stay as they are
        // until their vector is next written (no rewrite of a large table inside a migration).
        "ALTER TABLE vectors SET (toast_tuple_target = 8160);",
    ),
    (
        10,
        // Playbooks a model wrote, as SQLite's v8: one per resource key, the document the
        // service's, the status a column so the pending ones can be listed.
        r#"
CREATE TABLE playbooks (
    key        TEXT COLLATE "C" PRIMARY KEY,
    status     TEXT NOT NULL,
    doc        TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX idx_playbooks_status ON playbooks(status, updated_at);
"#,
    ),
    (
        11,
        // A vector's row carries its record's scope (the store writes it with the vector and on
        // every scope move), so a scoped search reads a scope's vectors through their own index
        // and filters HNSW candidates without a join per row; only the nearest few are joined to
        // their records for the rest of the filter (vectors::exact). Rows of `org`, the default
        // scope, need no rewrite: the column's default fills them.
        r#"
ALTER TABLE vectors ADD COLUMN scope TEXT COLLATE "C" NOT NULL DEFAULT 'org';
UPDATE vectors v SET scope = e.scope FROM experiences e WHERE e.seq = v.seq AND e.scope <> 'org';
ALTER TABLE vectors ALTER COLUMN scope DROP DEFAULT;
CREATE INDEX vectors_scope ON vectors (scope);
"#,
    ),
];

/// Rows per batch of a data step.
const BATCH: i64 = 5000;

/// Data steps that need Rust (normalisation lives in knowhub_core), run right after their
/// migration in the same transaction, so a replica sees the schema and its data together.
async fn after(version: i64, tx: &mut PgConnection) -> Result<()> {
    if version == 3 {
        let mut last = 0i64;
        loop {
            let rows: Vec<(i64, String)> =
                sqlx::query_as("SELECT seq, resource FROM experiences WHERE seq > $1 ORDER BY seq LIMIT $2")
                    .bind(last)
                    .bind(BATCH)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db_err)?;
            let Some((end, _)) = rows.last() else { break };
            last = *end;
            let (seqs, keys): (Vec<i64>, Vec<String>) =
                rows.iter().map(|(seq, r)| (*seq, knowhub_core::text::resource_key(r, None))).unzip();
            sqlx::query(
                "UPDATE experiences e SET resource_key = u.k FROM UNNEST($1::bigint[], $2::text[]) AS u(seq, k) \
                 WHERE e.seq = u.seq",
            )
            .bind(&seqs)
            .bind(&keys)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
    }
    Ok(())
}

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
    apply_up_to(conn, latest_version()).await
}

/// Applies pending migrations up to `last` (tests stop early to check a data step on old rows).
async fn apply_up_to(conn: &mut PgConnection, last: i64) -> Result<()> {
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
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current && *v <= last) {
        let mut tx = conn.begin().await.map_err(db_err)?;
        sqlx::raw_sql(*sql).execute(&mut *tx).await.map_err(db_err)?;
        after(*version, &mut tx).await?;
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

#[cfg(test)]
mod tests {
    use sqlx::{Connection, Row};

    use crate::test_support;

    /// Records stored before v3 get their resource key, one confirmation from their agent and
    /// `last_confirmed_at = created_at`.
    #[tokio::test]
    async fn v3_fills_existing_rows() {
        if test_support::skipped("v3_fills_existing_rows") {
            return;
        }
        let url = test_support::fresh_database().await;
        let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
        super::apply_up_to(&mut c, 2).await.unwrap();
        for (id, resource, agent, confirmations) in
            [("a", "PgBouncer  pool_mode = transaction", "alice", 3), ("b", "tar -C /tmp", "", 1)]
        {
            sqlx::query(
                "INSERT INTO experiences (id, task, resource, result, score, outcome, source, status, language, \
                 content_hash, task_resource_hash, confirmations, created_at, updated_at, agent_id, tsv) VALUES \
                 ($1, 't', $2, 'r', 3, 'success', 'manual', 'approved', 'en', $1, $1, $4, '2024-01-02T03:04:05Z', \
                 '2024-01-03T00:00:00Z', $3, ''::tsvector)",
            )
            .bind(id)
            .bind(resource)
            .bind(agent)
            .bind(confirmations)
            .execute(&mut c)
            .await
            .unwrap();
        }
        sqlx::query("INSERT INTO extract_sessions VALUES ('s', 'x', 'x')").execute(&mut c).await.unwrap();
        sqlx::query(
            "INSERT INTO extract_jobs (id, session_key, agent_id, submitted_by, require_approval, status, first_index, \
             message_count, messages, created_at, updated_at) VALUES ('j', 's', '', '', true, 'queued', 0, 1, '[]', 'x', 'x')",
        )
        .execute(&mut c)
        .await
        .unwrap();
        super::apply(&mut c).await.unwrap();
        let rows = sqlx::query(
            "SELECT e.id, e.resource_key, e.confirmations, e.last_confirmed_at, e.helped + e.failed + e.irrelevant, \
             c.confirmer, c.at FROM experiences e JOIN confirmations c ON c.seq = e.seq ORDER BY e.id",
        )
        .fetch_all(&mut c)
        .await
        .unwrap();
        let got: Vec<(String, String, i32, String, i32, String, String)> =
            rows.iter().map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6))).collect();
        let key = |r: &str| knowhub_core::text::resource_key(r, None);
        let at = "2024-01-02T03:04:05Z".to_string();
        assert_eq!(
            got,
            vec![
                ("a".into(), key("pgbouncer pool_mode=transaction"), 1, at.clone(), 0, "alice".into(), at.clone()),
                ("b".into(), key("tar -C /tmp"), 1, at.clone(), 0, "anonymous".into(), at.clone()),
            ]
        );
        assert_ne!(got[1].1, key("tar -c /tmp"));
        let caller: String = sqlx::query_scalar("SELECT caller FROM extract_jobs").fetch_one(&mut c).await.unwrap();
        assert_eq!(caller, "");
        let v: i64 = sqlx::query_scalar("SELECT MAX(version) FROM schema_migrations").fetch_one(&mut c).await.unwrap();
        assert_eq!(v, super::latest_version());
        // v5: the full-text index takes entries directly, with no pending list for searches to read.
        let opts: Option<Vec<String>> =
            sqlx::query_scalar("SELECT reloptions FROM pg_class WHERE relname = 'experiences_tsv'")
                .fetch_one(&mut c)
                .await
                .unwrap();
        assert_eq!(opts, Some(vec!["fastupdate=off".to_string()]));
    }
}
