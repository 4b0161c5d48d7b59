//! Versioned schema migrations owned by this store. Each runs once, in order, in a transaction.

use knowhub_core::Result;
use rusqlite::Connection;

use crate::sql_err;

/// `(version, SQL)`. Never edit a shipped migration; add a new one.
const MIGRATIONS: &[(i64, &str)] = &[(
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
)];

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
