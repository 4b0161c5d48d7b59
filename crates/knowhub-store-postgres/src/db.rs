//! Connecting: the pool (short acquire timeout, statement timeout, the session settings vector
//! search relies on), migrations on connect, and how database errors map to the core's.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use knowhub_core::{CoreError, Result};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, PgPool};

use crate::migrations::{self, latest_version};
use crate::text::{self, StatsCache};
use crate::vectors::{self, Indexes, KnownDims, ScopeCounts, SESSION_EF_SEARCH};

/// A query with its arguments bound so far.
pub(crate) type PgQuery<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

/// Connection settings. The defaults suit a server: fail fast while the database is away.
#[derive(Debug, Clone)]
pub struct PgOptions {
    pub max_connections: u32,
    /// How long a request waits for a connection before answering `Unavailable`.
    pub acquire_timeout: Duration,
    /// Server-side limit for any one statement (`statement_timeout`).
    pub statement_timeout: Duration,
    /// Records from which full-text search ranks at most a budget of records and counts rare
    /// tokens exactly (`text::BOUNDED_FROM`); tests set 0 to run that path on small tables.
    pub fts_bounded_from: u64,
    /// Records (of a search's scopes) up to which vector candidates come from an exact scan
    /// rather than HNSW (`vectors::EXACT_MAX`); tests set 0 to search small tables by HNSW.
    pub exact_scan_up_to: u64,
    /// Records from which a scope gets its own HNSW index (`vectors::SCOPE_INDEX_FROM`).
    pub scope_index_from: u64,
    /// How long a dimension's shared HNSW index of one shape (the whole vector, or its head)
    /// must go unscanned, while the searches read the other shape's, before it is dropped
    /// (`vectors::RETIRE_UNUSED_AFTER`).
    pub retire_unused_after: Duration,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            max_connections: 16,
            acquire_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(30),
            fts_bounded_from: text::BOUNDED_FROM,
            exact_scan_up_to: vectors::EXACT_MAX,
            scope_index_from: vectors::SCOPE_INDEX_FROM,
            retire_unused_after: vectors::RETIRE_UNUSED_AFTER,
        }
    }
}

pub struct PgStore {
    pub(crate) pool: PgPool,
    /// Dimensions whose HNSW index this process has already ensured (a memo, not data).
    pub(crate) dims: KnownDims,
    /// Full-text word statistics, reused for a few seconds (see `text`).
    pub(crate) stats: StatsCache,
    /// Records per scope, reused for a minute: they choose between HNSW and an exact scan (see `vectors`).
    pub(crate) scope_counts: ScopeCounts,
    /// HNSW indexes known valid, and the background build (see `vectors`).
    pub(crate) indexes: Arc<Indexes>,
    pub(crate) exact_scan_up_to: u64,
    pub(crate) scope_index_from: u64,
    pub(crate) retire_unused_after: Duration,
}

/// Maps database errors to the core's: connection trouble and timeouts become `Unavailable`
/// (the server answers 503 and the client may retry), the rest `Internal`.
pub(crate) fn db_err(e: sqlx::Error) -> CoreError {
    use sqlx::Error as E;
    match &e {
        E::PoolTimedOut | E::PoolClosed | E::Io(_) | E::Tls(_) | E::WorkerCrashed | E::Protocol(_) => {
            CoreError::Unavailable(format!("postgres: {e}"))
        }
        E::Database(d) => {
            let code = d.code().unwrap_or_default();
            // 08: connection exceptions; 57P0x: shutdown / cannot connect now; 57014: statement
            // timeout; 53: insufficient resources; 40001/40P01: serialisation failure / deadlock.
            if code.starts_with("08")
                || code.starts_with("57P")
                || code == "57014"
                || code.starts_with("53")
                || code == "40001"
                || code == "40P01"
            {
                CoreError::Unavailable(format!("postgres: {e}"))
            } else if code == "23505" {
                CoreError::Conflict(format!("postgres: {}", d.message()))
            } else {
                CoreError::Internal(format!("postgres: {e}"))
            }
        }
        _ => CoreError::Internal(format!("postgres: {e}")),
    }
}

fn connect_options(url: &str, opts: &PgOptions) -> Result<PgConnectOptions> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(CoreError::invalid("database_url", "must start with postgres:// or postgresql://"));
    }
    let o = PgConnectOptions::from_str(url).map_err(|e| CoreError::invalid("database_url", e.to_string()))?;
    // HNSW's iterative scan: when the filter discards neighbours, the index keeps searching
    // instead of returning fewer than asked for (pgvector 0.8; relaxed order is re-sorted by the
    // query). Set for the session, so the usual search needs no transaction to set it.
    Ok(o.application_name("knowhub").options([
        ("statement_timeout", format!("{}", opts.statement_timeout.as_millis())),
        ("hnsw.iterative_scan", "relaxed_order".to_string()),
        ("hnsw.ef_search", SESSION_EF_SEARCH.to_string()),
        // Backslashes in string literals are plain characters (the default since PostgreSQL
        // 9.1): the per-scope vector statements quote scope names by doubling quotes alone.
        ("standard_conforming_strings", "on".to_string()),
    ]))
}

impl PgStore {
    /// Connects, creates the `vector` extension if needed and runs pending migrations.
    pub async fn connect(url: &str, opts: PgOptions) -> Result<PgStore> {
        Self::migrate_with(url, &opts).await?;
        let pool = PgPoolOptions::new()
            .max_connections(opts.max_connections)
            .min_connections(0)
            .acquire_timeout(opts.acquire_timeout)
            .test_before_acquire(true)
            .idle_timeout(Duration::from_secs(300))
            .connect_lazy_with(connect_options(url, &opts)?);
        Ok(PgStore {
            pool,
            dims: KnownDims::default(),
            stats: StatsCache::new(opts.fts_bounded_from),
            scope_counts: ScopeCounts::default(),
            indexes: Arc::default(),
            exact_scan_up_to: opts.exact_scan_up_to,
            scope_index_from: opts.scope_index_from,
            retire_unused_after: opts.retire_unused_after,
        })
    }

    /// Runs pending migrations and returns (without keeping a pool).
    pub async fn migrate(url: &str) -> Result<i64> {
        Self::migrate_with(url, &PgOptions::default()).await?;
        Ok(latest_version())
    }

    async fn migrate_with(url: &str, opts: &PgOptions) -> Result<()> {
        let co = connect_options(url, opts)?;
        let mut conn = tokio::time::timeout(
            opts.acquire_timeout.max(Duration::from_secs(10)),
            sqlx::PgConnection::connect_with(&co),
        )
        .await
        .map_err(|_| CoreError::Unavailable("postgres: connect timed out".into()))?
        .map_err(db_err)?;
        let r = migrations::migrate(&mut conn).await;
        let _ = conn.close().await;
        r
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}
