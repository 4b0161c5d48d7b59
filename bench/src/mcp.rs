//! `kb_search` round trip through `knowhub mcp` (stdio) beside the same search over plain HTTP,
//! in one run, against one real `knowhub serve` on loopback. Both clients ask for the same
//! queries, interleaved, so they see the same hub, cache and machine state; the difference is
//! what MCP adds (a process hop, JSON-RPC, the REST call `knowhub mcp` makes, the wrapping).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context};
use serde_json::{json, Value};

use crate::percentile;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The knowhub binary to run (serve and mcp).
    #[arg(long, default_value = "target/release/knowhub")]
    bin: PathBuf,
    /// Records in the hub before measuring (synthetic, deterministic).
    #[arg(long, default_value_t = 2_000)]
    records: usize,
    /// Timed searches per client (after `warmup` untimed ones).
    #[arg(long, default_value_t = 500)]
    queries: usize,
    #[arg(long, default_value_t = 50)]
    warmup: usize,
    /// The hub's embedder: none (full text) | local (needs the models, see docs/embedder.md).
    #[arg(long, default_value = "none")]
    embedder: String,
}

const TOPICS: [&str; 12] = [
    "postgres connection pool",
    "docker build cache",
    "kubectl rollout",
    "pytest fixtures",
    "npm install timeout",
    "nginx reverse proxy",
    "redis eviction policy",
    "git rebase conflict",
    "terraform state lock",
    "rust borrow checker",
    "数据库 连接 超时",
    "日志 轮转 磁盘",
];
const ACTIONS: [&str; 6] = ["fix", "speed up", "debug", "configure", "migrate", "monitor"];

/// A hub process, killed on drop.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A newline-delimited JSON-RPC client of `knowhub mcp`.
struct McpClient {
    _proc: Proc,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl McpClient {
    fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.next += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params});
        writeln!(self.stdin, "{msg}")?;
        let mut line = String::new();
        self.stdout.read_line(&mut line)?;
        let v: Value = serde_json::from_str(&line).with_context(|| format!("not JSON-RPC: {line:?}"))?;
        if v["id"] != json!(self.next) {
            bail!("answer to another request: {line}");
        }
        Ok(v)
    }
}

fn start_hub(a: &Args, dir: &std::path::Path) -> anyhow::Result<(Proc, String)> {
    let mut child = Command::new(&a.bin)
        .args(["serve", "--bind", "127.0.0.1:0", "--embedder", &a.embedder, "--data-dir"])
        .arg(dir)
        .env("KNOWHUB_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {}", a.bin.display()))?;
    let mut line = String::new();
    BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let url = line.trim().strip_prefix("knowhub listening on ").context("unexpected first line")?.to_string();
    Ok((Proc(child), url))
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let (_hub, url) = start_hub(&a, dir.path())?;
    let http = reqwest::Client::new();
    let t = Instant::now();
    for i in 0..a.records {
        let (topic, action) = (TOPICS[i % TOPICS.len()], ACTIONS[(i / TOPICS.len()) % ACTIONS.len()]);
        let body = json!({"task": format!("{action} {topic} #{i}"), "resource": format!("tool-{} --flag {}", i % 97, i % 13),
                          "result": format!("{topic}: took {} ms after the change, variant {i}", 10 + i % 500), "score": 1 + i % 5});
        let r = http.post(format!("{url}/api/submit")).json(&body).send().await?;
        if !r.status().is_success() {
            bail!("seeding failed: HTTP {}", r.status());
        }
    }
    eprintln!("seeded {} records in {:.1} s", a.records, t.elapsed().as_secs_f64());

    let mut child = Command::new(&a.bin)
        .args(["mcp", "--url", &url])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let (stdin, stdout) = (child.stdin.take().context("stdin")?, child.stdout.take().context("stdout")?);
    let mut mcp = McpClient { _proc: Proc(child), stdin, stdout: BufReader::new(stdout), next: 0 };
    let t = Instant::now();
    mcp.request(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "knowhub-bench", "version": "1"}}),
    )?;
    let init_ms = t.elapsed().as_secs_f64() * 1000.0;
    writeln!(mcp.stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;

    let (mut over_http, mut over_mcp) = (Vec::new(), Vec::new());
    for i in 0..a.warmup + a.queries {
        let q = format!("{} {}", ACTIONS[i % ACTIONS.len()], TOPICS[(i * 7) % TOPICS.len()]);
        let t = Instant::now();
        let r: Value = http
            .get(format!("{url}/api/search"))
            .query(&[("q", q.as_str()), ("top_k", "5"), ("min_score", "1")])
            .send()
            .await?
            .json()
            .await?;
        let h = t.elapsed().as_secs_f64() * 1000.0;
        let t = Instant::now();
        let m = mcp.request(
            "tools/call",
            json!({"name": "kb_search", "arguments": {"query": q, "top_k": 5, "min_score": 1}}),
        )?;
        let s = t.elapsed().as_secs_f64() * 1000.0;
        if m["result"]["isError"] != json!(false) || m["result"]["structuredContent"]["count"] != r["count"] {
            bail!("the two paths disagree for {q:?}: http {} vs mcp {}", r["count"], m["result"]);
        }
        if i >= a.warmup {
            over_http.push(h);
            over_mcp.push(s);
        }
    }
    let report = |name: &str, v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "{name:<34} p50 {:>7.3} ms   p99 {:>7.3} ms   mean {:>7.3} ms   (n={})",
            percentile(v, 50.0),
            percentile(v, 99.0),
            mean,
            v.len()
        );
    };
    println!("kb_search round trip, {} records, embedder {}, top_k 5, loopback", a.records, a.embedder);
    report("HTTP GET /api/search", &mut over_http);
    report("MCP stdio tools/call kb_search", &mut over_mcp);
    println!("knowhub mcp: initialize answered {init_ms:.1} ms after spawn");
    Ok(())
}
