//! Throwaway PostgreSQL servers for tests (`scripts/pg-test-server.sh`), shared by this crate's
//! tests, the conformance suite and the binary's replica tests.
//!
//! Tests fail loudly when PostgreSQL cannot be started; `KNOWHUB_SKIP_PG=1` is the only way to
//! skip them, and says so. `KNOWHUB_TEST_DATABASE_URL` points them at an existing server instead
//! (each test still gets its own fresh database there).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use sqlx::AssertSqlSafe;
use sqlx::Connection;

/// True when PostgreSQL tests were explicitly switched off (`KNOWHUB_SKIP_PG=1`); prints why.
pub fn skipped(test: &str) -> bool {
    if std::env::var("KNOWHUB_SKIP_PG").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED {test}: KNOWHUB_SKIP_PG=1 (PostgreSQL tests switched off explicitly)");
        return true;
    }
    false
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-test-server.sh")
}

/// A PostgreSQL server in a temp dir, removed when the value drops (or, failing that, by the
/// script's watcher once the test process is gone).
pub struct PgTestServer {
    pub url: String,
    pub dir: PathBuf,
}

impl PgTestServer {
    /// Starts a new server. Panics with the script's output if that fails.
    pub fn start() -> PgTestServer {
        let (url, dir) = run_start(None);
        PgTestServer { url, dir }
    }

    /// Stops the server, keeping its data (to simulate an outage).
    pub fn stop(&self) {
        let st = Command::new(script()).arg("stop").arg(&self.dir).status().expect("run pg-test-server.sh stop");
        assert!(st.success(), "pg-test-server.sh stop failed");
    }

    /// Starts the stopped server again on the same port.
    pub fn restart(&self) {
        let (url, _) = run_start(Some(&self.dir));
        assert_eq!(url, self.url, "restarted on another port");
    }
}

impl Drop for PgTestServer {
    fn drop(&mut self) {
        let _ = Command::new(script()).arg("destroy").arg(&self.dir).status();
    }
}

fn run_start(dir: Option<&PathBuf>) -> (String, PathBuf) {
    let mut cmd = Command::new(script());
    cmd.arg("start");
    if let Some(d) = dir {
        cmd.arg(d);
    }
    let out = cmd
        .env("KNOWHUB_PG_OWNER_PID", std::process::id().to_string())
        .stderr(std::process::Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", script().display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut lines = stdout.lines();
    match (out.status.success(), lines.next(), lines.next()) {
        (true, Some(url), Some(dir)) if url.starts_with("postgres://") => (url.to_string(), PathBuf::from(dir)),
        _ => panic!(
            "PostgreSQL test server could not be started ({}; stdout {stdout:?}). These tests need it: fix the \
             setup (scripts/pg-test-server.sh install), point KNOWHUB_TEST_DATABASE_URL at a server, or set \
             KNOWHUB_SKIP_PG=1 to skip them explicitly.",
            out.status
        ),
    }
}

/// The server this test process uses: `KNOWHUB_TEST_DATABASE_URL`, or one started once.
pub fn server_url() -> String {
    if let Ok(u) = std::env::var("KNOWHUB_TEST_DATABASE_URL") {
        if !u.is_empty() {
            return u;
        }
    }
    static SERVER: OnceLock<PgTestServer> = OnceLock::new();
    // Never dropped (a static); the script's watcher removes it when this process exits.
    SERVER.get_or_init(PgTestServer::start).url.clone()
}

/// Replaces the database name in a URL.
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (url, String::new()),
    };
    let head = match base.rfind('/') {
        Some(i) if i > "postgres://".len() => &base[..i],
        _ => base,
    };
    format!("{head}/{db}{query}")
}

/// A new empty database on the test server, as a URL.
pub async fn fresh_database() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let url = server_url();
    let name = format!(
        "kh_test_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0)
    );
    let mut c = sqlx::PgConnection::connect(&url)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to the PostgreSQL test server {url}: {e}"));
    sqlx::raw_sql(AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut c).await.expect("CREATE DATABASE");
    let _ = c.close().await;
    with_database(&url, &name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_name_replaced() {
        assert_eq!(super::with_database("postgres://u@h:1/knowhub", "x"), "postgres://u@h:1/x");
        assert_eq!(
            super::with_database("postgres://u@h:1/k?sslmode=disable", "x"),
            "postgres://u@h:1/x?sslmode=disable"
        );
    }
}
