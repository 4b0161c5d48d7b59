//! The store behind the API tests: SQLite in a temp dir, or a fresh PostgreSQL database when
//! `KNOWHUB_TEST_BACKEND=postgres` (scripts/test.sh runs these tests once per backend), so every
//! API behaviour is checked on both.

use std::sync::Arc;

use knowhub_core::Store;
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

#[allow(dead_code)]
pub fn backend() -> String {
    std::env::var("KNOWHUB_TEST_BACKEND").unwrap_or_else(|_| "sqlite".into())
}

#[allow(dead_code)]
pub async fn store(dir: &std::path::Path) -> Arc<dyn Store> {
    match backend().as_str() {
        "sqlite" => Arc::new(SqliteStore::open(dir, OpenOptions { vector_model: None, exclusive: true }).unwrap()),
        "postgres" => {
            let url = knowhub_store_postgres::test_support::fresh_database().await;
            Arc::new(
                knowhub_store_postgres::PgStore::connect(&url, knowhub_store_postgres::PgOptions::default())
                    .await
                    .expect("connect to the test database"),
            )
        }
        other => panic!("KNOWHUB_TEST_BACKEND must be sqlite or postgres, got {other:?}"),
    }
}

/// A submit with the three required fields and a rating of 4.
#[allow(dead_code)] // not every test binary uses every helper
pub fn req(task: &str, resource: &str, result: &str) -> knowhub_core::validate::SubmitRequest {
    knowhub_core::validate::SubmitRequest {
        task: Some(task.into()),
        resource: Some(resource.into()),
        result: Some(result.into()),
        score: Some(4),
        ..Default::default()
    }
}
