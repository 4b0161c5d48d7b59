//! Which store backs this process, decided once from the config: PostgreSQL when a
//! `database_url` is set (several replicas may share it), else the embedded SQLite data dir.

use std::sync::Arc;

use anyhow::Context;
use knowhub_core::Store;
use knowhub_store_postgres::{PgOptions, PgStore};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

use crate::config::Config;

/// Opens the configured store. `exclusive` (SQLite only) takes the data dir's lock, as a server
/// or an import must; PostgreSQL needs no lock (the database serialises what must be).
/// `vector_model` is the embedder's model: SQLite loads its vectors, both warn about others.
pub async fn open(cfg: &Config, vector_model: Option<String>, exclusive: bool) -> anyhow::Result<Arc<dyn Store>> {
    if let Some(url) = cfg.database_url.as_ref().map(|s| s.0.clone()).filter(|u| !u.is_empty()) {
        let store = PgStore::connect(&url, PgOptions::default())
            .await
            .context("connecting to PostgreSQL (database_url / KNOWHUB_DATABASE_URL)")?;
        warn_other_models(store.vector_models().await?, vector_model.as_deref());
        return Ok(Arc::new(store));
    }
    let dir = cfg.data_dir.clone();
    let m = vector_model.clone();
    let store =
        tokio::task::spawn_blocking(move || SqliteStore::open(&dir, OpenOptions { vector_model: m, exclusive }))
            .await?
            .with_context(|| format!("opening the data dir {}", cfg.data_dir.display()))?;
    if vector_model.is_some() {
        warn_other_models(store.vector_models().await?, vector_model.as_deref());
    }
    Ok(Arc::new(store))
}

/// Where the data lives, for logs (never the URL: it may hold a password).
pub fn describe(cfg: &Config) -> String {
    match &cfg.database_url {
        Some(u) if !u.0.is_empty() => "postgres".into(),
        _ => cfg.data_dir.display().to_string(),
    }
}

fn warn_other_models(models: Vec<(String, u64)>, current: Option<&str>) {
    let Some(m) = current else { return };
    for (other, n) in models {
        if other != m {
            tracing::warn!(stored_model = %other, vectors = n, current_model = %m,
                "embedding model changed: these records are being re-embedded in the background");
        }
    }
}

/// `knowhub migrate`: brings the schema up to date and says so.
pub async fn migrate(cfg: &Config) -> anyhow::Result<()> {
    match cfg.database_url.as_ref().map(|s| s.0.as_str()).filter(|u| !u.is_empty()) {
        Some(url) => {
            let v = PgStore::migrate(url).await.context("migrating the PostgreSQL database")?;
            eprintln!("knowhub: PostgreSQL schema is at version {v}");
        }
        None => {
            open(cfg, None, false).await?;
            eprintln!("knowhub: SQLite schema in {} is up to date", cfg.data_dir.display());
        }
    }
    Ok(())
}
