//! MCP through the real binary: `knowhub mcp` on stdio (raw newline-delimited JSON-RPC, so we see
//! every byte it writes) and `/mcp` on `knowhub serve` with keys. The official SDK client runs
//! the full conformance walk in scripts/mcp-conformance.sh.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

mod common;

use common::{Server, BIN};

const ACCEPT: &str = "application/json, text/event-stream";

fn rpc(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn initialize(id: u64) -> String {
    rpc(
        id,
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
    )
}

fn call(id: u64, tool: &str, args: Value) -> String {
    rpc(id, "tools/call", json!({"name": tool, "arguments": args}))
}

fn create_key(dir: &Path, role: &str, name: &str) -> String {
    let out = Command::new(BIN)
        .args(["keys", "create", "--role", role, "--name", name, "--data-dir"])
        .arg(dir)
        .env_remove("KNOWHUB_CONFIG")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().last().unwrap().trim().to_string()
}

#[tokio::test]
async fn stdio_writes_only_protocol_and_stamps_the_agent() {
    let d = tempfile::tempdir().unwrap();
    let s = Server::start(d.path());
    let mut child = Command::new(BIN)
        .args(["mcp", "--url", &s.url, "--agent-id", "cc-test"])
        .env("KNOWHUB_LOG", "debug") // chatty logs must all go to stderr
        .env_remove("KNOWHUB_API_KEY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut ask = |msg: String| -> Value {
        writeln!(stdin, "{msg}").unwrap();
        let line = lines.next().unwrap().unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"))
    };
    let init = ask(initialize(1));
    assert_eq!(init["result"]["serverInfo"]["name"], "knowhub");
    assert!(init["result"]["instructions"].as_str().unwrap().contains("kb_search"));
    let submit = ask(call(
        2,
        "kb_submit",
        json!({"task": "Cache npm in CI", "resource": "actions/cache@v4 ~/.npm", "result": "install 90s -> 12s", "score": 5}),
    ));
    assert_eq!(submit["result"]["isError"], false, "{submit}");
    let found = ask(call(3, "kb_search", json!({"query": "npm cache CI"})));
    let text = found["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("resource: actions/cache@v4 ~/.npm"), "{text}");
    let bad = ask(call(4, "kb_search", json!({"query": "x", "top_k": 99})));
    assert_eq!(bad["result"]["isError"], true);
    assert_eq!(bad["result"]["content"][0]["text"], "kb_search: top_k: must be an integer from 1 to 50, got 99");
    let unknown = ask(call(5, "kb_delete_all", json!({})));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(unknown["error"]["message"].as_str().unwrap().contains("kb_delete_all"));
    drop(stdin);
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    assert!(rest.is_empty(), "nothing after the last answer: {rest:?}");
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exits cleanly when stdin closes");
    assert!(String::from_utf8_lossy(&out.stderr).contains("knowhub mcp"), "logs went to stderr");

    let r: Value = reqwest::Client::new()
        .get(format!("{}/api/search", s.url))
        .query(&[("q", "npm cache"), ("agent_id", "cc-test")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["count"], 1, "the hub recorded the submit under the agent's id: {r}");
}

async fn post(c: &reqwest::Client, url: &str, key: Option<&str>, body: String) -> reqwest::Response {
    let mut req = c.post(url).header("content-type", "application/json").header("accept", ACCEPT).body(body);
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn mcp_endpoint_takes_the_rest_keys_and_roles() {
    let d = tempfile::tempdir().unwrap();
    let s = Server::start_with(d.path(), &[], &[("KNOWHUB_AUTH", "true")]);
    let agent = create_key(d.path(), "agent", "cc-agent");
    let c = reqwest::Client::new();
    let mcp = format!("{}/mcp", s.url);

    for key in [None, Some("kh_not_a_key")] {
        let r = post(&c, &mcp, key, initialize(1)).await;
        assert_eq!(r.status(), 401, "{key:?}");
        assert_eq!(r.headers()["www-authenticate"], "Bearer");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unauthorized", "{body}");
    }

    let r = post(&c, &mcp, Some(&agent), initialize(1)).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    assert!(r.headers().get("mcp-session-id").is_none(), "stateless: no session");
    let body = call(
        2,
        "kb_submit",
        json!({"task": "Pin Node in CI", "resource": "actions/setup-node@v4 node-version-file", "result": "same Node as local"}),
    );
    let r: Value = post(&c, &format!("{mcp}?agent_id=ci-bot"), Some(&agent), body).await.json().await.unwrap();
    assert_eq!(r["result"]["isError"], false, "{r}");
    let id = r["result"]["structuredContent"]["id"].as_str().unwrap().to_string();
    let e: Value = c
        .get(format!("{}/api/experiences/{id}", s.url))
        .bearer_auth(&agent)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    // With auth on, the agent id is stored under the key that wrote it.
    assert_eq!(e["agent_id"], "cc-agent/ci-bot");

    // The agent key gets the agent's tools and nothing more: no review tools exist over MCP, and the
    // same key is refused by the REST review queue.
    let tools: Value = post(&c, &mcp, Some(&agent), rpc(3, "tools/list", json!({}))).await.json().await.unwrap();
    let names: Vec<&str> =
        tools["result"]["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["kb_search", "kb_submit", "kb_content", "kb_feedback", "kb_playbook"]);
    let pending = c.get(format!("{}/api/pending", s.url)).bearer_auth(&agent).send().await.unwrap();
    assert_eq!(pending.status(), 403);

    // DNS rebinding and cross-site pages are refused on a loopback hub.
    let r = c
        .post(&mcp)
        .header("host", "evil.example")
        .header("content-type", "application/json")
        .header("accept", ACCEPT)
        .bearer_auth(&agent)
        .body(initialize(4))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let r = c
        .post(&mcp)
        .header("origin", "https://evil.example")
        .header("content-type", "application/json")
        .header("accept", ACCEPT)
        .bearer_auth(&agent)
        .body(initialize(5))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);

    // The REST API is unchanged beside it.
    assert_eq!(c.get(format!("{}/healthz", s.url)).send().await.unwrap().status(), 200);
    assert_eq!(c.get(format!("{}/nope", s.url)).send().await.unwrap().status(), 404);
}
