//! The shared store conformance suite against the embedded SQLite store, one temp dir per check.

use std::sync::Arc;

use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use knowhub_store_tests::{conformance_tests, Harness, MODEL};

async fn make() -> Option<Harness> {
    let dir = tempfile::tempdir().unwrap();
    let store =
        SqliteStore::open(dir.path(), OpenOptions { vector_model: Some(MODEL.into()), exclusive: true }).unwrap();
    Some(Harness { store: Arc::new(store), guard: Box::new(dir) })
}

conformance_tests!(make);
