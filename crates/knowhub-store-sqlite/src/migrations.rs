//! Versioned schema migrations owned by this store. Each runs once, in order, in a transaction.

use knowhub_core::Result;
use rusqlite::Connection;

use crate::db::sql_err;

/// `(version, SQL)`. Never edit a shipped migration; add a new one.
const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        r#"
CREATE TABLE experiences (
    seq           INTEGER PRIMARY KEY,
    id            TEXT NOT NULL UNIQUE,
    task          TEXT NOT NULL,
    resource      TEXT NOT NULL,
    result        TEXT NOT NULL,
    score         INTEGER NOT NULL CHECK (score BETWEEN 1 AND 5),
    outcome       TEXT NOT NULL DEFAULT 'success' CHECK (outcome IN ('success', 'failure', 'partial')),
    agent_id      TEXT NOT NULL DEFAULT '',
    submitted_by  TEXT NOT NULL DEFAULT '',
    session_key   TEXT,
    source        TEXT NOT NULL CHECK (source IN ('manual', 'extracted', 'imported')),
    status        TEXT NOT NULL CHECK (status IN ('approved', 'pending', 'rejected')),
    confidence    REAL,
    language      TEXT NOT NULL,
    content_hash  TEXT NOT NULL,
    confirmations INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_experiences_content_hash ON experiences(content_hash);
CREATE INDEX idx_experiences_agent_id ON experiences(agent_id);
CREATE INDEX idx_experiences_status ON experiences(status);

CREATE TABLE contents (
    experience_id TEXT PRIMARY KEY REFERENCES experiences(id) ON DELETE CASCADE,
    content       TEXT NOT NULL,
    content_type  TEXT NOT NULL
);

-- The segmented tokens (knowhub_core::text) of task + resource + result, rowid = experiences.seq.
-- Stored (not contentless) so the in-memory BM25 index can be rebuilt from it at startup.
CREATE VIRTUAL TABLE experiences_fts USING fts5(
    body, tokenize="unicode61 remove_diacritics 2 tokenchars '_'"
);

CREATE TABLE vectors (
    seq   INTEGER PRIMARY KEY REFERENCES experiences(seq) ON DELETE CASCADE,
    model TEXT NOT NULL,
    dim   INTEGER NOT NULL,
    data  BLOB NOT NULL
);
CREATE INDEX idx_vectors_model ON vectors(model);
"#,
    ),
    (
        2,
        r#"
-- Review queue, extraction provenance and near-duplicate detection.
ALTER TABLE experiences ADD COLUMN task_resource_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE experiences ADD COLUMN source_from INTEGER;
ALTER TABLE experiences ADD COLUMN source_to INTEGER;
ALTER TABLE experiences ADD COLUMN flags TEXT NOT NULL DEFAULT '';
ALTER TABLE experiences ADD COLUMN review_by TEXT;
ALTER TABLE experiences ADD COLUMN review_at TEXT;
ALTER TABLE experiences ADD COLUMN review_note TEXT;
CREATE INDEX idx_experiences_task_resource ON experiences(task_resource_hash);

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    role       TEXT NOT NULL CHECK (role IN ('agent', 'reviewer', 'admin')),
    prefix     TEXT NOT NULL,
    hash       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE UNIQUE INDEX idx_api_keys_active_name ON api_keys(name) WHERE revoked_at IS NULL;

-- Fingerprints (not contents) of every message a session uploaded, in session order.
CREATE TABLE extract_messages (
    session_key TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    hash        TEXT NOT NULL,
    PRIMARY KEY (session_key, idx)
) WITHOUT ROWID;

CREATE TABLE extract_jobs (
    id               TEXT PRIMARY KEY,
    session_key      TEXT NOT NULL,
    agent_id         TEXT NOT NULL,
    submitted_by     TEXT NOT NULL,
    require_approval INTEGER NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    first_index      INTEGER NOT NULL,
    message_count    INTEGER NOT NULL,
    messages         TEXT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    error            TEXT,
    result           TEXT,
    not_before       TEXT NOT NULL,
    lease_until      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX idx_extract_jobs_status ON extract_jobs(status, not_before);
"#,
    ),
    (
        3,
        r#"
-- Evidence: distinct confirmers, outcome votes, contests, versions, freshness.
ALTER TABLE experiences ADD COLUMN resource_version TEXT;
ALTER TABLE experiences ADD COLUMN resource_key TEXT NOT NULL DEFAULT '';
ALTER TABLE experiences ADD COLUMN last_confirmed_at TEXT NOT NULL DEFAULT '';
ALTER TABLE experiences ADD COLUMN helped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiences ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiences ADD COLUMN irrelevant INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiences ADD COLUMN reviewed_failed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiences ADD COLUMN contested_with TEXT NOT NULL DEFAULT '';
CREATE INDEX idx_experiences_resource_key ON experiences(resource_key);
CREATE INDEX idx_experiences_failed ON experiences(failed) WHERE failed > 0;
UPDATE experiences SET last_confirmed_at = created_at;

-- One row per distinct caller that submitted a record. Earlier counts were submit calls, not
-- callers: each record starts again from its submitter.
CREATE TABLE confirmations (
    seq       INTEGER NOT NULL REFERENCES experiences(seq) ON DELETE CASCADE,
    confirmer TEXT NOT NULL,
    at        TEXT NOT NULL,
    PRIMARY KEY (seq, confirmer)
) WITHOUT ROWID;
INSERT INTO confirmations (seq, confirmer, at)
    SELECT seq, CASE WHEN agent_id = '' THEN 'anonymous' ELSE agent_id END, created_at FROM experiences;
UPDATE experiences SET confirmations = 1;

-- One vote per caller per record; a second vote replaces the first.
CREATE TABLE votes (
    seq     INTEGER NOT NULL REFERENCES experiences(seq) ON DELETE CASCADE,
    voter   TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('helped', 'failed', 'irrelevant')),
    note    TEXT,
    at      TEXT NOT NULL,
    PRIMARY KEY (seq, voter)
) WITHOUT ROWID;

ALTER TABLE extract_jobs ADD COLUMN caller TEXT NOT NULL DEFAULT '';
"#,
    ),
    (
        4,
        r#"
-- The review console: an extracted record's redacted source messages, kept only until it
-- is reviewed, and per-day search counts (the dashboard's usage; other activity is grouped
-- from the rows themselves).
CREATE TABLE sources (
    experience_id TEXT PRIMARY KEY REFERENCES experiences(id) ON DELETE CASCADE,
    messages      TEXT NOT NULL
);

CREATE TABLE usage_days (
    day      TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    searches INTEGER NOT NULL DEFAULT 0,
    found    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, agent_id)
) WITHOUT ROWID;
"#,
    ),
    (
        5,
        r#"
-- Writes per caller in fixed windows (the burst limit on new records): counted in the database
-- so that every process writing to it sees the same counts.
CREATE TABLE write_counts (
    caller      TEXT NOT NULL,
    window_secs INTEGER NOT NULL,
    start       INTEGER NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (caller, window_secs, start)
) WITHOUT ROWID;
"#,
    ),
    (
        6,
        r#"
-- Scopes: every record is in one (`org` unless written elsewhere), and every key reads a list
-- of them and writes to one. Keys that existed before read what they read then: agents the org
-- scope (every record was in it), reviewers and admins every scope.
ALTER TABLE experiences ADD COLUMN scope TEXT NOT NULL DEFAULT 'org';
CREATE INDEX idx_experiences_scope_status ON experiences(scope, status);
ALTER TABLE api_keys ADD COLUMN read_scopes TEXT NOT NULL DEFAULT 'org';
ALTER TABLE api_keys ADD COLUMN write_scope TEXT NOT NULL DEFAULT 'org';
UPDATE api_keys SET read_scopes = '*' WHERE role IN ('reviewer', 'admin');
ALTER TABLE extract_jobs ADD COLUMN scope TEXT NOT NULL DEFAULT 'org';
ALTER TABLE extract_jobs ADD COLUMN origin_key TEXT NOT NULL DEFAULT '';

-- Provenance (the key that wrote a record, the job that found it), quarantine and expiry. `held`
-- is a bit set (knowhub_core::hold): 1 quarantined, 2 expired; searches pass only 0. A record
-- from before keeps its key when its agent id names one (`key/agent`, or the key itself).
ALTER TABLE experiences ADD COLUMN origin_key TEXT NOT NULL DEFAULT '';
ALTER TABLE experiences ADD COLUMN origin_job TEXT;
ALTER TABLE experiences ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
ALTER TABLE experiences ADD COLUMN expires_at TEXT;
ALTER TABLE experiences ADD COLUMN ttl_secs INTEGER;
UPDATE experiences SET origin_key = k.name FROM api_keys k
    WHERE experiences.agent_id = k.name OR experiences.agent_id LIKE k.name || '/%';
CREATE INDEX idx_experiences_origin_key ON experiences(origin_key) WHERE origin_key != '';
CREATE INDEX idx_experiences_held ON experiences(held) WHERE held != 0;
CREATE INDEX idx_experiences_expires ON experiences(expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE quarantines (
    kind  TEXT NOT NULL CHECK (kind IN ('key', 'agent')),
    value TEXT NOT NULL,
    by    TEXT NOT NULL,
    at    TEXT NOT NULL,
    PRIMARY KEY (kind, value)
) WITHOUT ROWID;

-- History: every change to a record, numbered across the hub (AUTOINCREMENT: a number is never
-- reused, so a reader's position stays meaningful).
CREATE TABLE events (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    experience_id TEXT NOT NULL,
    kind          TEXT NOT NULL,
    by            TEXT NOT NULL,
    at            TEXT NOT NULL,
    detail        TEXT
);
CREATE INDEX idx_events_experience ON events(experience_id, seq);
-- Where each named follower of the events (a webhook) has got to.
CREATE TABLE cursors (
    name TEXT PRIMARY KEY,
    seq  INTEGER NOT NULL
) WITHOUT ROWID;
-- This hub's id: feed cursors carry it, so one from another hub is refused.
CREATE TABLE hub (id TEXT NOT NULL);
INSERT INTO hub (id) VALUES (lower(hex(randomblob(8))));
"#,
    ),
    (
        7,
        r#"
-- Sync between hubs: the hub a record was first written on (empty: this one), and for each
-- peer and record the version both hubs last agreed on, the base of a three-way merge.
ALTER TABLE experiences ADD COLUMN origin_hub TEXT NOT NULL DEFAULT '';
CREATE TABLE sync_bases (
    peer          TEXT NOT NULL,
    experience_id TEXT NOT NULL,
    version       TEXT NOT NULL,
    PRIMARY KEY (peer, experience_id)
) WITHOUT ROWID;
"#,
    ),
    (
        8,
        r#"
-- Playbooks a model wrote, one per resource key, waiting for or past review. The service owns
-- the document; the status is a column so the pending ones can be listed.
CREATE TABLE playbooks (
    key        TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    doc        TEXT NOT NULL,
    updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX idx_playbooks_status ON playbooks(status, updated_at);
"#,
    ),
];

/// Data steps that need Rust (the hash normalisation lives in knowhub_core), run right after
/// their migration in the same transaction.
fn after(version: i64, tx: &rusqlite::Transaction<'_>) -> Result<()> {
    if version == 3 {
        let rows: Vec<(i64, String)> = {
            let mut st = tx.prepare("SELECT seq, resource FROM experiences").map_err(sql_err)?;
            let it = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql_err)?;
            it.collect::<std::result::Result<_, _>>().map_err(sql_err)?
        };
        let mut up = tx.prepare("UPDATE experiences SET resource_key = ?2 WHERE seq = ?1").map_err(sql_err)?;
        for (seq, resource) in rows {
            up.execute(rusqlite::params![seq, knowhub_core::text::resource_key(&resource, None)]).map_err(sql_err)?;
        }
    }
    if version == 2 {
        let rows: Vec<(i64, String, String)> = {
            let mut st = tx.prepare("SELECT seq, task, resource FROM experiences").map_err(sql_err)?;
            let it = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).map_err(sql_err)?;
            it.collect::<std::result::Result<_, _>>().map_err(sql_err)?
        };
        let mut up = tx.prepare("UPDATE experiences SET task_resource_hash = ?2 WHERE seq = ?1").map_err(sql_err)?;
        for (seq, task, resource) in rows {
            up.execute(rusqlite::params![seq, knowhub_core::text::task_resource_hash(&task, &resource)])
                .map_err(sql_err)?;
        }
    }
    Ok(())
}

pub fn migrate(conn: &mut Connection) -> Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    )
    .map_err(sql_err)?;
    let current: i64 =
        conn.query_row("SELECT COALESCE(MAX(version), 0) FROM schema_migrations", [], |r| r.get(0)).map_err(sql_err)?;
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > current) {
        let tx = conn.transaction().map_err(sql_err)?;
        tx.execute_batch(sql).map_err(sql_err)?;
        after(*version, &tx)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
            rusqlite::params![version, knowhub_core::now_rfc3339()],
        )
        .map_err(sql_err)?;
        tx.commit().map_err(sql_err)?;
        tracing::info!(version, "applied sqlite migration");
    }
    Ok(())
}
