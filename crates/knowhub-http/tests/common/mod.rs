//! The store behind the API tests: SQLite in a temp dir, or a fresh PostgreSQL database when
//! `KNOWHUB_TEST_BACKEND=postgres` (scripts/test.sh runs these tests once per backend), so every
//! API behaviour is checked on both.

use std::sync::Arc;

pub mod llm;

use knowhub_core::Store;
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

#[allow(dead_code)]
pub fn backend() -> String {
    std::env::var("KNOWHUB_TEST_BACKEND").unwrap_or_else(|_| "sqlite".into())
}

#[allow(dead_code)]
pub async fn store(dir: &std::path::Path) -> Arc<dyn Store> {
    store_for(dir, None).await
}

/// A store whose vectors of `model` are searchable (SQLite loads one model's vectors).
#[allow(dead_code)]
pub async fn store_for(dir: &std::path::Path, model: Option<&str>) -> Arc<dyn Store> {
    let vector_model = model.map(str::to_string);
    match backend().as_str() {
        "sqlite" => Arc::new(SqliteStore::open(dir, OpenOptions { vector_model, exclusive: true }).unwrap()),
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

#[allow(unused_imports)] // not every test binary uses every helper
pub use knowhub_store_tests::submit_req as req;

/// The HTTP app under test, called in-process with `oneshot`; every answer must be JSON.
#[allow(dead_code)]
pub struct Api {
    pub app: axum::Router,
    /// Sent as `Authorization: Bearer <key>` when set.
    pub key: Option<String>,
}

#[allow(dead_code)]
impl Api {
    pub fn new(hub: Arc<knowhub_service::Hub>) -> Self {
        Api { app: knowhub_http::app(hub), key: None }
    }

    pub fn as_key(&self, key: &str) -> Self {
        Api { app: self.app.clone(), key: Some(key.to_string()) }
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<serde_json::Value>) -> (u16, serde_json::Value) {
        use http_body_util::BodyExt;
        use tower::ServiceExt;
        let mut b = axum::http::Request::builder().method(method).uri(path);
        if let Some(k) = &self.key {
            b = b.header("authorization", format!("Bearer {k}"));
        }
        let req = match body {
            Some(v) => b.header("content-type", "application/json").body(axum::body::Body::from(v.to_string())),
            // State-changing routes need the JSON content type even without a body (CSRF).
            None if method != "GET" => b.header("content-type", "application/json").body(axum::body::Body::empty()),
            None => b.body(axum::body::Body::empty()),
        };
        let resp = self.app.clone().oneshot(req.unwrap()).await.unwrap();
        let status = resp.status().as_u16();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("non-JSON body for {status}: {:?}", String::from_utf8_lossy(&bytes)));
        (status, v)
    }

    pub async fn get(&self, path: &str) -> (u16, serde_json::Value) {
        self.call("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        self.call("POST", path, Some(body)).await
    }

    /// `GET /api/search?q=...` plus extra query parameters (`&k=v`); asserts a 200.
    pub async fn search(&self, q: &str, extra: &str) -> serde_json::Value {
        let enc: String = q
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect();
        let (s, v) = self.get(&format!("/api/search?q={enc}{extra}")).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["count"].as_u64().unwrap() as usize, v["results"].as_array().unwrap().len());
        v
    }
}

/// Creates a key per `(name, role, read, write)` (read and write as `POST /api/keys` takes them)
/// and returns each key's secret by name: the organisations the scope tests set up.
#[allow(dead_code)]
pub async fn scoped_keys(
    hub: &knowhub_service::Hub,
    specs: &[(&'static str, &str, Option<&str>, Option<&str>)],
) -> std::collections::HashMap<&'static str, String> {
    let mut keys = std::collections::HashMap::new();
    for (name, role, read, write) in specs {
        let spec = knowhub_service::requests::NewKeyRequest {
            name: name.to_string(),
            role: role.to_string(),
            read: read.map(str::to_string),
            write: write.map(str::to_string),
        }
        .validate()
        .unwrap();
        keys.insert(*name, hub.create_scoped_key(&knowhub_core::Caller::local(), spec).await.unwrap().key);
    }
    keys
}
