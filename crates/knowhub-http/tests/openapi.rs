//! `/openapi.json` is the contract the plugins share: it must list exactly the routes the app
//! answers and docs/api.md describes, its references must resolve, and its schemas must name
//! every field the handlers really return.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use knowhub_ai::Embedder;
use knowhub_service::{AutoApprove, Hub, HubOptions, SearchConfig};
use serde_json::{json, Value};

mod common;
use common::Api;

async fn api() -> (tempfile::TempDir, Api) {
    let dir = tempfile::tempdir().unwrap();
    let store = common::store(dir.path()).await;
    let opts =
        HubOptions { auth: false, auto_approve: AutoApprove::None, require_approval: true, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    (dir, Api::new(hub))
}

/// `METHOD /path` pairs, with every `{param}` written `{}`, so `{job_id}` and `{id}` compare equal.
fn normalise(method: &str, path: &str) -> (String, String) {
    let path = path.split('?').next().unwrap_or(path);
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => {
                in_param = true;
                out.push_str("{}");
            }
            '}' => in_param = false,
            c if !in_param => out.push(c),
            _ => {}
        }
    }
    (method.to_ascii_uppercase(), out)
}

fn spec_routes(doc: &Value) -> BTreeSet<(String, String)> {
    let mut set = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().unwrap().keys() {
            if ["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                set.insert(normalise(method, path));
            }
        }
    }
    set
}

/// Every `` `METHOD /path` `` named in a docs/api.md heading.
fn documented_routes() -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let mut set = BTreeSet::new();
    for line in text.lines().filter(|l| l.starts_with("## ")) {
        for chunk in line.split('`').skip(1).step_by(2) {
            let mut parts = chunk.split_whitespace();
            if let (Some(m), Some(p)) = (parts.next(), parts.next()) {
                if ["GET", "POST", "PUT", "PATCH", "DELETE"].contains(&m) {
                    set.insert(normalise(m, p));
                }
            }
        }
    }
    set
}

#[tokio::test]
async fn openapi_lists_the_routes_docs_describe() {
    let (_dir, api) = api().await;
    let (s, doc) = api.get("/openapi.json").await;
    assert_eq!(s, 200, "{doc}");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."), "{}", doc["openapi"]);
    let spec = spec_routes(&doc);
    let mut docs = documented_routes();
    // The document does not list itself.
    assert!(docs.remove(&("GET".to_string(), "/openapi.json".to_string())), "docs/api.md describes /openapi.json");
    assert!(spec.len() >= 20, "too few operations: {spec:?}");
    let missing_from_spec: Vec<_> = docs.difference(&spec).collect();
    let missing_from_docs: Vec<_> = spec.difference(&docs).collect();
    assert!(missing_from_spec.is_empty(), "in docs/api.md, not in /openapi.json: {missing_from_spec:?}");
    assert!(missing_from_docs.is_empty(), "in /openapi.json, not in docs/api.md: {missing_from_docs:?}");
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
}

/// Each documented operation reaches a handler: no answer is the router's own 404 or 405.
#[tokio::test]
async fn every_documented_operation_is_served() {
    let (_dir, api) = api().await;
    let (_, doc) = api.get("/openapi.json").await;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let concrete = path.replace("{id}", "no-such-id").replace("{name}", "no-such-name");
            let body = (method != "get").then(|| json!({}));
            let (status, v) = if path == "/metrics" {
                (200, json!({}))
            } else {
                api.call(&method.to_ascii_uppercase(), &concrete, body).await
            };
            assert_ne!(status, 405, "{method} {path}: {v}");
            assert!(
                !(status == 404 && v["error"]["message"] == "no such route"),
                "{method} {path} is in the spec but not routed: {v}"
            );
        }
    }
}

#[tokio::test]
async fn every_reference_resolves() {
    let (_dir, api) = api().await;
    let (_, doc) = api.get("/openapi.json").await;
    let schemas = doc["components"]["schemas"].as_object().expect("component schemas");
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(refs.len() > 20, "{refs:?}");
    for r in refs {
        let name = r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("unexpected $ref {r}"));
        assert!(schemas.contains_key(name), "$ref {r} has no schema");
    }
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|x| collect_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

/// The schema's properties, following `allOf`/`oneOf` (flattened and optional fields) through
/// references: name -> schema.
fn properties(doc: &Value, schema: &Value, out: &mut BTreeMap<String, Value>) {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/");
        return properties(doc, &doc["components"]["schemas"][name], out);
    }
    if let Some(p) = schema["properties"].as_object() {
        out.extend(p.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(parts) = schema[key].as_array() {
            parts.iter().for_each(|s| properties(doc, s, out));
        }
    }
}

/// The array items a schema allows, through references and `oneOf` (an optional list).
fn items(doc: &Value, schema: &Value) -> Vec<Value> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.trim_start_matches("#/components/schemas/");
        return items(doc, &doc["components"]["schemas"][name]);
    }
    let mut out: Vec<Value> = schema.get("items").cloned().into_iter().collect();
    for key in ["allOf", "oneOf", "anyOf"] {
        if let Some(parts) = schema[key].as_array() {
            parts.iter().for_each(|s| out.extend(items(doc, s)));
        }
    }
    out
}

/// Every key of `value`, at any depth, is named by `schema` (free-form maps excepted).
fn conforms(doc: &Value, schema: &Value, value: &Value, at: &str) {
    match value {
        Value::Object(m) => {
            let mut props = BTreeMap::new();
            properties(doc, schema, &mut props);
            if props.is_empty() {
                return; // a map or free-form JSON
            }
            for (k, v) in m {
                let sub = props.get(k).unwrap_or_else(|| panic!("{at} returns {k:?}, which its schema does not name"));
                conforms(doc, sub, v, &format!("{at}.{k}"));
            }
        }
        Value::Array(a) => {
            let its = items(doc, schema);
            assert!(!its.is_empty() || a.is_empty(), "{at} is a list the schema does not declare");
            for (i, v) in a.iter().enumerate() {
                if let Some(item) = its.first() {
                    conforms(doc, item, v, &format!("{at}[{i}]"));
                }
            }
        }
        _ => {}
    }
}

/// The response schema says what the handler really returns: every key of a real answer is a
/// property of the documented 200/201 body.
#[tokio::test]
async fn schemas_name_every_field_returned() {
    let (_dir, api) = api().await;
    let (_, doc) = api.get("/openapi.json").await;
    let (s, submitted) = api
        .post(
            "/api/submit",
            json!({"task": "dump a big database", "resource": "pg_dump", "result": "use -Fc -j 8",
                   "outcome": "success", "score": 4, "agent_id": "bot"}),
        )
        .await;
    assert_eq!(s, 201, "{submitted}");
    let id = submitted["id"].as_str().unwrap().to_string();
    let (s, approved) = api.post(&format!("/api/approve/{id}"), json!({})).await;
    assert_eq!(s, 200, "{approved}");
    let cases = [
        ("/api/submit", "post", "201", submitted),
        ("/api/approve/{id}", "post", "200", approved),
        ("/api/search", "get", "200", api.get("/api/search?q=pg_dump%20database&min_relevance=0").await.1),
        ("/api/experiences/{id}", "get", "200", api.get(&format!("/api/experiences/{id}")).await.1),
        ("/api/experiences/{id}/view", "get", "200", api.get(&format!("/api/experiences/{id}/view")).await.1),
        ("/api/resources/{name}", "get", "200", api.get("/api/resources/pg_dump").await.1),
        ("/api/resources", "get", "200", api.get("/api/resources").await.1),
        ("/api/playbooks/{resource}", "get", "200", api.get("/api/playbooks/pg_dump").await.1),
        ("/api/dashboard", "get", "200", api.get("/api/dashboard").await.1),
        ("/api/pending", "get", "200", api.get("/api/pending").await.1),
        ("/healthz", "get", "200", api.get("/healthz").await.1),
    ];
    for (path, method, status, answer) in cases {
        let schema = &doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"];
        assert!(!schema.is_null(), "{method} {path} documents no {status} body");
        assert!(answer.as_object().is_some_and(|o| !o.is_empty()), "{path}: {answer}");
        conforms(&doc, schema, &answer, &format!("{method} {path}"));
    }
    let hits = api.get("/api/search?q=pg_dump%20database&min_relevance=0").await.1;
    assert!(hits["results"].as_array().is_some_and(|r| !r.is_empty()), "a hit to check nested fields: {hits}");
}

/// Errors are documented in the one shape the handlers send.
#[tokio::test]
async fn errors_have_the_documented_shape() {
    let (_dir, api) = api().await;
    let (_, doc) = api.get("/openapi.json").await;
    let schema = &doc["paths"]["/api/search"]["get"]["responses"]["400"]["content"]["application/json"]["schema"];
    let mut props = BTreeMap::new();
    properties(&doc, schema, &mut props);
    assert_eq!(props.keys().collect::<Vec<_>>(), ["error"]);
    let (s, v) = api.get("/api/search?q=x&top_k=0").await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("top_k")), "{v}");
    conforms(&doc, schema, &v, "400 from GET /api/search");
}

/// The plugins check their argument limits against a copy of this document
/// (plugins/openclaw/test/fixtures/openapi.json). When the server's document changes, this test
/// writes the new copy and fails, so the change is seen and committed together with the plugins'.
#[tokio::test]
async fn the_plugins_copy_of_the_document_is_current() {
    let (_dir, api) = api().await;
    let (s, doc) = api.get("/openapi.json").await;
    assert_eq!(s, 200);
    let fresh = serde_json::to_string_pretty(&doc).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../plugins/openclaw/test/fixtures/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != fresh {
        std::fs::write(path, &fresh).unwrap();
        panic!("{path} was stale and has been rewritten: check the plugins' limits (npm test) and commit it");
    }
}

/// The limits of the service's request types are in the document, from the same constants.
#[tokio::test]
async fn the_document_states_the_request_limits() {
    use knowhub_service::requests as req;
    let (_dir, api) = api().await;
    let (_, doc) = api.get("/openapi.json").await;
    let param = |path: &str, name: &str| -> Value {
        let ps = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
        ps.iter().find(|p| p["name"] == name).unwrap()["schema"].clone()
    };
    assert_eq!(param("/api/search", "q")["maxLength"], json!(req::MAX_QUERY));
    let top_k = param("/api/search", "top_k");
    assert_eq!((&top_k["minimum"], &top_k["maximum"], &top_k["default"]), (&json!(1), &json!(50), &json!(5)));
    assert_eq!(param("/api/pending", "limit")["maximum"], json!(req::PENDING_LIMIT.max));
    let submit = &doc["components"]["schemas"]["SubmitRequest"]["properties"];
    assert_eq!(submit["result"]["maxLength"], json!(req::MAX_RESULT));
    assert_eq!(doc["components"]["schemas"]["FeedbackRequest"]["properties"]["id"]["maxLength"], json!(req::MAX_ID));
    // What the document states is what the server does: one over the query limit is refused.
    let (s, v) = api.get(&format!("/api/search?q={}", "x".repeat(req::MAX_QUERY + 1))).await;
    assert_eq!((s, v["error"]["field"].as_str()), (400, Some("q")), "{v}");
    let (s, v) = api.get(&format!("/api/search?q={}&min_relevance=0", "x".repeat(req::MAX_QUERY))).await;
    assert_eq!(s, 200, "{v}");
}
