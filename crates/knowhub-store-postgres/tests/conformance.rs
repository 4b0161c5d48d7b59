//! The shared store conformance suite against a real PostgreSQL + pgvector (a throwaway server
//! from scripts/pg-test-server.sh, or KNOWHUB_TEST_DATABASE_URL), one fresh database per check.

use std::sync::Arc;

use knowhub_store_postgres::{test_support, PgOptions, PgStore};
use knowhub_store_tests::{conformance_tests, Harness};

async fn make() -> Option<Harness> {
    if test_support::skipped("postgres conformance") {
        return None;
    }
    let url = test_support::fresh_database().await;
    // Small pools: many checks run at once against one server (max_connections 400).
    let opts = PgOptions { max_connections: 8, ..Default::default() };
    let store = PgStore::connect(&url, opts).await.expect("connect to the test database");
    Some(Harness { store: Arc::new(store), guard: Box::new(()) })
}

conformance_tests!(make);
