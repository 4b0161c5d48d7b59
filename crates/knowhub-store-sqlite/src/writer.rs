//! The single writer thread with group commit.
//!
//! SQLite allows one writer at a time. Rather than let request threads contend for the write lock
//! and each pay an fsync, requests are queued to one thread that takes everything waiting (up to
//! `MAX_BATCH`), runs each in its own savepoint (one bad request cannot fail its neighbours), and
//! commits once. Callers are answered only after that commit returned, so an acknowledged write is
//! on disk (`synchronous=FULL`).

use knowhub_core::{CoreError, Result};
use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

use crate::db::sql_err;

const MAX_BATCH: usize = 512;
const QUEUE: usize = 4096;

/// Called with the commit's outcome once the batch is committed (or failed).
type Deferred = Box<dyn FnOnce(Result<()>) + Send>;
type Job = Box<dyn FnOnce(&Connection) -> Deferred + Send>;

pub(crate) struct Writer {
    tx: mpsc::Sender<Job>,
}

impl Writer {
    pub(crate) fn start(conn: Connection) -> Result<Self> {
        let (tx, rx) = mpsc::channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("knowhub-sqlite-writer".into())
            .spawn(move || run(conn, rx))
            .map_err(|e| CoreError::Internal(format!("spawn writer: {e}")))?;
        Ok(Writer { tx })
    }

    pub(crate) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let (tx, rx) = oneshot::channel::<Result<T>>();
        let job: Job = Box::new(move |conn| {
            let r = savepoint(conn, f);
            Box::new(move |commit: Result<()>| {
                let _ = tx.send(commit.and(r));
            })
        });
        self.tx.send(job).await.map_err(|_| CoreError::Unavailable("sqlite writer stopped".into()))?;
        rx.await
            .map_err(|_| CoreError::Unavailable("write aborted: sqlite writer could not start a transaction".into()))?
    }
}

fn run(conn: Connection, mut rx: mpsc::Receiver<Job>) {
    while let Some(first) = rx.blocking_recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            tracing::error!(error = %e, "sqlite: cannot begin write transaction");
            drop(jobs); // callers see "write aborted"
            continue;
        }
        let deferred: Vec<Deferred> = jobs.into_iter().map(|j| j(&conn)).collect();
        let commit = conn.execute_batch("COMMIT").map_err(|e| {
            let _ = conn.execute_batch("ROLLBACK");
            tracing::error!(error = %e, "sqlite: commit failed");
            CoreError::Unavailable(format!("commit failed: {e}"))
        });
        for d in deferred {
            d(match &commit {
                Ok(()) => Ok(()),
                Err(e) => Err(CoreError::Unavailable(e.to_string())),
            });
        }
    }
}

fn savepoint<T>(conn: &Connection, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
    conn.execute_batch("SAVEPOINT job").map_err(sql_err)?;
    let r = f(conn);
    if r.is_err() {
        let _ = conn.execute_batch("ROLLBACK TO job");
    }
    conn.execute_batch("RELEASE job").map_err(sql_err)?;
    r
}
