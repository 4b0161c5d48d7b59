//! Opening the store: the data dir and its lock, the connections (a small pool of readers on the
//! blocking thread pool, and the single writer thread, see `writer`), and loading the in-memory
//! indexes side by side.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use knowhub_core::{CoreError, Result};
use parking_lot::{Condvar, Mutex, RwLock};
use rusqlite::Connection;

use crate::index::{FlatIndex, TermIndex};
use crate::{migrations, writer};

pub const DB_FILE: &str = "knowhub.db";
const LOCK_FILE: &str = "knowhub.lock";
const READERS: usize = 4;

/// The database file in a data dir.
pub fn db_path(dir: &Path) -> PathBuf {
    dir.join(DB_FILE)
}

/// Options fixed when the store opens.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// The embedding model whose vectors are loaded into the in-memory index.
    pub vector_model: Option<String>,
    /// Take the data dir's exclusive lock (a server does; `export` does not need to).
    pub exclusive: bool,
}

pub struct SqliteStore {
    pub(crate) inner: Arc<Inner>,
    pub(crate) writer: writer::Writer,
    _lock: Option<std::fs::File>,
}

pub(crate) struct Inner {
    pub(crate) path: PathBuf,
    readers: Mutex<Vec<Connection>>,
    readers_cv: Condvar,
    pub(crate) index: RwLock<FlatIndex>,
    /// In-memory BM25 index; loaded for exclusive opens (server, import, benchmarks).
    pub(crate) terms: RwLock<Option<TermIndex>>,
}

pub(crate) fn sql_err(e: rusqlite::Error) -> CoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _)
            if matches!(
                f.code,
                rusqlite::ErrorCode::DatabaseBusy
                    | rusqlite::ErrorCode::DatabaseLocked
                    | rusqlite::ErrorCode::DiskFull
                    | rusqlite::ErrorCode::CannotOpen
            ) =>
        {
            CoreError::Unavailable(e.to_string())
        }
        other => CoreError::Internal(format!("sqlite: {other}")),
    }
}

pub(crate) fn open_connection(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).map_err(|e| CoreError::Unavailable(format!("open {}: {e}", path.display())))?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(sql_err)?;
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY;",
    )
    .map_err(sql_err)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) the store in `dir` and runs pending migrations.
    pub fn open(dir: &Path, opts: OpenOptions) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CoreError::Unavailable(format!("create data dir {}: {e}", dir.display())))?;
        let lock = if opts.exclusive { Some(lock_dir(dir)?) } else { None };
        let path = db_path(dir);
        let mut conn = open_connection(&path)?;
        migrations::migrate(&mut conn)?;
        let model = opts.vector_model.clone().unwrap_or_default();
        // The two in-memory indexes load side by side, each on its own connection: at 1M
        // records each takes seconds, and startup is the longer of the two, not their sum.
        let t = std::time::Instant::now();
        let (index, terms) = std::thread::scope(|s| {
            let terms = opts.exclusive.then(|| {
                s.spawn(|| {
                    let conn = open_connection(&path)?;
                    let terms = TermIndex::load(&conn)?;
                    tracing::info!(records = terms.len(), secs = t.elapsed().as_secs_f64(), "term index loaded");
                    Ok::<_, CoreError>(terms)
                })
            });
            let index = FlatIndex::load(&conn, &model);
            tracing::info!(
                vectors = index.as_ref().map_or(0, FlatIndex::len),
                secs = t.elapsed().as_secs_f64(),
                "vector index loaded"
            );
            let terms =
                terms.map(|h| h.join().unwrap_or_else(|_| Err(CoreError::Internal("term index load panicked".into()))));
            (index, terms)
        });
        let (index, terms) = (index?, terms.transpose()?);
        let mut readers = Vec::with_capacity(READERS);
        for _ in 0..READERS {
            readers.push(open_connection(&path)?);
        }
        let inner = Arc::new(Inner {
            path,
            readers: Mutex::new(readers),
            readers_cv: Condvar::new(),
            index: RwLock::new(index),
            terms: RwLock::new(terms),
        });
        let writer = writer::Writer::start(conn)?;
        Ok(SqliteStore { inner, writer, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` on a pooled read connection on the blocking pool.
    pub(crate) async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || {
            let conn = {
                let mut pool = inner.readers.lock();
                loop {
                    if let Some(c) = pool.pop() {
                        break c;
                    }
                    inner.readers_cv.wait(&mut pool);
                }
            };
            let out = f(&conn);
            inner.readers.lock().push(conn);
            inner.readers_cv.notify_one();
            out
        })
        .await
        .map_err(|e| CoreError::Internal(format!("reader task: {e}")))?
    }
}

/// Takes the data dir's exclusive lock so two servers (or a server and `reindex`) never share it.
pub fn lock_dir(dir: &Path) -> Result<std::fs::File> {
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(LOCK_FILE))
        .map_err(|e| CoreError::Unavailable(format!("lock file in {}: {e}", dir.display())))?;
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(CoreError::Conflict(format!(
            "data dir {} is in use by another knowhub process (a running server?); stop it first",
            dir.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(CoreError::Unavailable(format!("lock {}: {e}", dir.display()))),
    }
}
