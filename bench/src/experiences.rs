//! Search on experiences, as an agent meets it: bench/data/experiences (hand-written experience
//! records and judged queries, see its README) loaded into a fresh hub through the HTTP API
//! (`POST /api/submit`, approved on submit, near-duplicates merged as the server merges
//! them), then every query through `GET /api/search` with the server's defaults, and again with
//! `min_score=1` (failures are usually scored low, so the default rating floor hides them).
//!
//! Reported per query language and overall: answerable queries with a relevant record among the
//! results (failure lessons apart), near-domain and off-topic queries that get any result, AUROC
//! of the top hit's relevance (answerable against each kind of unanswerable query), and a
//! reliability table of the relevance of every hit (the share relevant per decile) with its
//! expected calibration error. Relevance-only figures come from the same searches with
//! `min_relevance=0`, so the threshold does not decide what is measured.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Method, Request};
use knowhub_core::Store;
use knowhub_service::{Hub, SearchConfig};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::abstain::auroc;
use crate::retrieval;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Folder with records.jsonl and queries.jsonl.
    #[arg(long, default_value = "bench/data/experiences")]
    data: PathBuf,
    /// none | openai | local (the server's local pair by default).
    #[arg(long, default_value = "local")]
    embedder: String,
    /// Also print the figures as one JSON object (for comparing runs).
    #[arg(long)]
    json: bool,
    /// Write one line per query and search variant (hits with relevance) to this file.
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Write each query's candidates (fusion order, `--depth` of them) with their raw signals
    /// and labels as JSON lines, for fitting relevance (bench/fit_calibration.py), then stop.
    #[arg(long)]
    features: Option<PathBuf>,
    #[arg(long, default_value_t = 10)]
    depth: usize,
    /// The fusion to rank with (as `retrieval --fusions`; default: the server's).
    #[arg(long)]
    fusion: Option<String>,
    /// With `--features`: also each query content token's best cosine to the record's tokens
    /// (late interaction over E5's token states, bench/src/late.rs) and its IDF over the hub.
    #[arg(long)]
    late: bool,
    /// With `--late`: token states after this many encoder layers (default: all 12).
    #[arg(long)]
    late_layers: Option<usize>,
    /// With `--features`: background sentences (one a line) for each query's cosine statistics.
    #[arg(long)]
    background: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
struct Record {
    id: String,
    task: String,
    resource: String,
    #[serde(default)]
    resource_version: Option<String>,
    result: String,
    score: u8,
    outcome: String,
}

#[derive(Debug, Deserialize)]
struct Query {
    id: String,
    text: String,
    lang: String,
    kind: String,
    #[serde(default)]
    style: String,
    #[serde(default)]
    relevant: Vec<String>,
    /// The topic group (docker, pgbouncer, ...): cross-validation holds out whole groups.
    #[serde(default)]
    group: String,
}

fn read_jsonl<T: serde::de::DeserializeOwned>(path: &Path) -> anyhow::Result<Vec<T>> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// One request through the real router; the JSON answer, or an error naming the status.
async fn call(app: &axum::Router, method: Method, uri: &str, body: Option<Value>) -> anyhow::Result<Value> {
    let mut req = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(b) => {
            req = req.header(header::CONTENT_TYPE, "application/json");
            Body::from(serde_json::to_vec(&b)?)
        }
        None => Body::empty(),
    };
    let res = tower::ServiceExt::oneshot(app.clone(), req.body(body)?).await?;
    let status = res.status();
    let bytes = http_body_util::BodyExt::collect(res.into_body()).await?.to_bytes();
    anyhow::ensure!(status.is_success(), "{uri}: {status} {}", String::from_utf8_lossy(&bytes));
    Ok(serde_json::from_slice(&bytes)?)
}

/// A search as an agent sends it: only `q` and the given extra parameters, the rest the server's.
fn search_uri(q: &str, extra: &[(&str, &str)]) -> anyhow::Result<String> {
    let mut params = vec![("q", q)];
    params.extend_from_slice(extra);
    let url = reqwest::Url::parse_with_params("http://hub/api/search", &params)?;
    Ok(format!("{}?{}", url.path(), url.query().unwrap_or("")))
}

/// Hits of a search answer: (hub id, relevance).
fn hits(v: &Value) -> Vec<(String, f64)> {
    v["results"]
        .as_array()
        .map(|rs| {
            rs.iter()
                .map(|h| (h["id"].as_str().unwrap_or_default().to_string(), h["relevance"].as_f64().unwrap_or(0.0)))
                .collect()
        })
        .unwrap_or_default()
}

/// Reliability by relevance decile: (hits, mean relevance, share relevant) per bin, and the
/// expected calibration error (bins weighted by their hits).
fn reliability(points: &[(f64, bool)]) -> (Vec<(usize, f64, f64)>, f64) {
    let mut bins = vec![(0usize, 0.0f64, 0usize); 10];
    for &(r, ok) in points {
        let b = ((r.clamp(0.0, 1.0) * 10.0) as usize).min(9);
        bins[b].0 += 1;
        bins[b].1 += r;
        bins[b].2 += usize::from(ok);
    }
    let n = points.len().max(1) as f64;
    let mut ece = 0.0;
    let rows = bins
        .into_iter()
        .map(|(c, sum, good)| {
            if c == 0 {
                return (0, f64::NAN, f64::NAN);
            }
            let (mean, share) = (sum / c as f64, good as f64 / c as f64);
            ece += c as f64 / n * (mean - share).abs();
            (c, mean, share)
        })
        .collect();
    (rows, ece)
}

/// What one query got in one search variant.
struct Outcome {
    /// Hits at the server's relevance floor.
    served: Vec<(String, f64)>,
    /// Hits with `min_relevance=0`.
    all: Vec<(String, f64)>,
}

struct Judged<'a> {
    q: &'a Query,
    relevant: Vec<String>,
    /// Every relevant record is a failure (the answer is a lesson).
    failure: bool,
}

fn pct(n: usize, of: usize) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1}% ({n}/{of})", 100.0 * n as f64 / of as f64)
    }
}

/// The figures of one search variant, printed and returned as JSON.
fn report(name: &str, judged: &[Judged], got: &[Outcome]) -> Value {
    let langs = ["en", "zh", "mixed", "all"];
    let in_lang = |j: &Judged, l: &str| l == "all" || j.q.lang == l;
    let found = |j: &Judged, hs: &[(String, f64)]| hs.iter().take(5).any(|(id, _)| j.relevant.contains(id));
    println!("\n### {name}\n");
    println!(
        "| lang | answerable: relevant in top 5 | of them failure lessons | success answers | top 5 with min_relevance=0 \
         | near-domain answered | off-topic answered | AUROC ans. vs near | AUROC ans. vs off-topic |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut out = serde_json::Map::new();
    for l in langs {
        let (mut a, mut a_ok, mut f, mut f_ok, mut s, mut s_ok, mut ceil) = (0, 0, 0, 0, 0, 0, 0);
        let (mut near, mut near_any, mut off, mut off_any) = (0, 0, 0, 0);
        let (mut pos, mut neg_near, mut neg_off) = (Vec::new(), Vec::new(), Vec::new());
        for (j, o) in judged.iter().zip(got) {
            if !in_lang(j, l) {
                continue;
            }
            let top = o.all.first().map(|h| h.1).unwrap_or(0.0);
            match j.q.kind.as_str() {
                "answerable" => {
                    let ok = found(j, &o.served);
                    a += 1;
                    a_ok += usize::from(ok);
                    ceil += usize::from(found(j, &o.all));
                    if j.failure {
                        f += 1;
                        f_ok += usize::from(ok);
                    } else {
                        s += 1;
                        s_ok += usize::from(ok);
                    }
                    pos.push(top);
                }
                "near_domain" => {
                    near += 1;
                    near_any += usize::from(!o.served.is_empty());
                    neg_near.push(top);
                }
                _ => {
                    off += 1;
                    off_any += usize::from(!o.served.is_empty());
                    neg_off.push(top);
                }
            }
        }
        let (au_near, au_off) = (auroc(&pos, &neg_near), auroc(&pos, &neg_off));
        println!(
            "| {l} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} |",
            pct(a_ok, a),
            pct(f_ok, f),
            pct(s_ok, s),
            pct(ceil, a),
            pct(near_any, near),
            pct(off_any, off),
            au_near,
            au_off
        );
        let rate = |n: usize, of: usize| if of == 0 { Value::Null } else { json!(n as f64 / of as f64) };
        let num = |x: f64| if x.is_nan() { Value::Null } else { json!(x) };
        out.insert(
            l.to_string(),
            json!({
                "answerable": a, "answerable_top5": rate(a_ok, a),
                "failure_lessons": f, "failure_lessons_top5": rate(f_ok, f),
                "success_answers": s, "success_answers_top5": rate(s_ok, s),
                "answerable_top5_no_floor": rate(ceil, a),
                "near_domain": near, "near_domain_answered": rate(near_any, near),
                "offtopic": off, "offtopic_answered": rate(off_any, off),
                "auroc_answerable_vs_near": num(au_near), "auroc_answerable_vs_offtopic": num(au_off),
            }),
        );
    }
    // Answerable by style (all languages): which kinds of question lose their answer.
    let mut styles: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (j, o) in judged.iter().zip(got) {
        if j.q.kind == "answerable" {
            let e = styles.entry(j.q.style.as_str()).or_default();
            e.0 += 1;
            e.1 += usize::from(found(j, &o.served));
        }
    }
    let parts: Vec<String> = styles.iter().map(|(k, (n, ok))| format!("{k} {}", pct(*ok, *n))).collect();
    println!("\nanswerable by style: {}", parts.join(", "));
    // Reliability over every hit returned with min_relevance=0: is it relevant to its query?
    let mut points = Vec::new();
    let mut by_lang: BTreeMap<&str, Vec<(f64, bool)>> = BTreeMap::new();
    for (j, o) in judged.iter().zip(got) {
        for (id, r) in o.all.iter().take(5) {
            let p = (*r, j.relevant.contains(id));
            points.push(p);
            by_lang.entry(j.q.lang.as_str()).or_default().push(p);
        }
    }
    let (rows, ece) = reliability(&points);
    println!("\nreliability (every hit of the top 5, min_relevance=0):\n");
    println!("| relevance | hits | mean relevance | share relevant |");
    println!("|---|---|---|---|");
    let mut table = Vec::new();
    for (i, (c, mean, share)) in rows.iter().enumerate() {
        println!("| {:.1}-{:.1} | {c} | {mean:.3} | {share:.3} |", i as f64 / 10.0, (i + 1) as f64 / 10.0);
        table.push(json!({"bin": i, "hits": c, "mean_relevance": if c > &0 { json!(mean) } else { Value::Null },
            "share_relevant": if c > &0 { json!(share) } else { Value::Null }}));
    }
    let ece_lang: Vec<String> = by_lang.iter().map(|(l, p)| format!("{l} {:.3}", reliability(p).1)).collect();
    println!("\nexpected calibration error: {ece:.3} (by language: {})", ece_lang.join(", "));
    // Relevance of correct top answers: a correct answer should read as one.
    let mut correct_top: Vec<f64> = judged
        .iter()
        .zip(got)
        .filter(|(j, o)| j.q.kind == "answerable" && o.all.first().is_some_and(|(id, _)| j.relevant.contains(id)))
        .map(|(_, o)| o.all[0].1)
        .collect();
    correct_top.sort_by(|x, y| x.total_cmp(y));
    let median = crate::percentile(&correct_top, 50.0);
    println!(
        "correct top answers (relevant record first, min_relevance=0): {}, median relevance {median:.3}, {} read >= 0.5",
        correct_top.len(),
        pct(correct_top.iter().filter(|r| **r >= 0.5).count(), correct_top.len())
    );
    out.insert("reliability".into(), json!(table));
    out.insert("ece".into(), json!(ece));
    out.insert("correct_top_median_relevance".into(), json!(median));
    Value::Object(out)
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let records: Vec<Record> = read_jsonl(&a.data.join("records.jsonl"))?;
    let queries: Vec<Query> = read_jsonl(&a.data.join("queries.jsonl"))?;
    let embedder = Arc::new(retrieval::embedder_from_name(&a.embedder)?);
    let tmp = tempfile::tempdir()?;
    let store = Arc::new(SqliteStore::open(
        tmp.path(),
        OpenOptions { vector_model: embedder.model_id().map(str::to_string), exclusive: true },
    )?);
    // The server's search settings and policies (`knowhub serve` with no config file).
    let mut cfg = SearchConfig::default();
    if let Some(f) = &a.fusion {
        (cfg.fusion, cfg.score_union) = retrieval::parse_fusion(f)?;
    }
    let hub = Hub::new(store as Arc<dyn Store>, embedder.clone(), cfg);
    let app = knowhub_http::app(hub.clone());

    // Submit every record as its own agent would; a merge maps the record to the one it confirmed.
    let t0 = std::time::Instant::now();
    let mut hub_id: HashMap<String, String> = HashMap::new();
    let (mut merged, mut redacted, mut held) = (Vec::new(), Vec::new(), Vec::new());
    for r in &records {
        let body = json!({
            "task": r.task, "resource": r.resource, "result": r.result, "score": r.score,
            "outcome": r.outcome, "resource_version": r.resource_version, "agent_id": format!("agent-{}", r.id),
        });
        let res = call(&app, Method::POST, "/api/submit", Some(body)).await?;
        let id = res["id"].as_str().unwrap_or_default().to_string();
        if res.get("duplicate_of").is_some_and(|d| !d.is_null()) {
            let into = hub_id.iter().find(|(_, v)| **v == id).map(|(k, _)| k.clone()).unwrap_or_default();
            merged.push((r.id.clone(), into));
        }
        if res["status"] != json!("approved") {
            held.push(format!("{} {}", r.id, res["flags"]));
        }
        if res.get("redactions").is_some_and(|x| x.as_object().is_some_and(|o| !o.is_empty())) {
            redacted.push(format!("{} {}", r.id, res["redactions"]));
        }
        hub_id.insert(r.id.clone(), id);
    }
    if let Some(m) = embedder.model_id() {
        retrieval::embed_all(&hub, m).await?;
    }
    eprintln!(
        "{} records submitted in {:.1}s: {} merged into another, {} not approved, {} with redactions",
        records.len(),
        t0.elapsed().as_secs_f64(),
        merged.len(),
        held.len(),
        redacted.len()
    );
    for r in &redacted {
        eprintln!("  redacted: {r}");
    }
    for r in &held {
        eprintln!("  held for review: {r}");
    }
    for (from, into) in &merged {
        eprintln!("  merged: {from} -> {into}");
    }

    let outcome_of: HashMap<&str, &str> = records.iter().map(|r| (r.id.as_str(), r.outcome.as_str())).collect();
    let mut judged = Vec::new();
    for q in &queries {
        let mut relevant = Vec::new();
        for r in &q.relevant {
            let id = hub_id.get(r).ok_or_else(|| anyhow::anyhow!("query {}: unknown record {r}", q.id))?;
            relevant.push(id.clone());
        }
        let failure =
            !q.relevant.is_empty() && q.relevant.iter().all(|r| outcome_of.get(r.as_str()) == Some(&"failure"));
        judged.push(Judged { q, relevant, failure });
    }
    let counts: BTreeMap<(&str, &str), usize> = queries.iter().fold(BTreeMap::new(), |mut m, q| {
        *m.entry((q.kind.as_str(), q.lang.as_str())).or_default() += 1;
        m
    });
    println!(
        "experience dev set: {} records ({} merged on submit), {} queries {:?}; embedder {}; server defaults: \
         top_k 5, min_score 3, min_relevance {}",
        records.len(),
        merged.len(),
        queries.len(),
        counts,
        embedder.model_id().unwrap_or("none"),
        SearchConfig::default().min_relevance
    );

    if let Some(path) = &a.features {
        let by_hub: HashMap<&str, &Record> =
            records.iter().filter_map(|r| hub_id.get(&r.id).map(|h| (h.as_str(), r))).collect();
        let bg = match &a.background {
            Some(p) => {
                let lines: Vec<String> =
                    std::fs::read_to_string(p)?.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
                embedder.embed_passages(&lines).await?
            }
            None => Vec::new(),
        };
        let late = if a.late {
            let model = knowhub_embed::E5Model::load(&knowhub_embed::default_model_dir())?;
            let recs: Vec<(String, String, String)> = by_hub
                .iter()
                .map(|(id, r)| {
                    (id.to_string(), r.task.clone(), knowhub_core::model::search_text(&r.task, &r.resource, &r.result))
                })
                .collect();
            Some(crate::late::Late::new(model, a.late_layers, &recs)?)
        } else {
            None
        };
        let extra = Extra { background: &bg, late: late.as_ref() };
        return write_features(&hub, &embedder, &judged, &by_hub, extra, a.depth, path).await;
    }

    let variants: [(&str, &[(&str, &str)]); 2] = [("defaults", &[]), ("min_score=1", &[("min_score", "1")])];
    let mut dump = match &a.dump {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p)?)),
        None => None,
    };
    let mut summary = serde_json::Map::new();
    for (name, extra) in variants {
        let mut got = Vec::new();
        for j in &judged {
            let served = hits(&call(&app, Method::GET, &search_uri(&j.q.text, extra)?, None).await?);
            let mut zero = extra.to_vec();
            zero.push(("min_relevance", "0"));
            let all = hits(&call(&app, Method::GET, &search_uri(&j.q.text, &zero)?, None).await?);
            if let Some(w) = dump.as_mut() {
                use std::io::Write;
                let back: HashMap<&str, &str> = hub_id.iter().map(|(k, v)| (v.as_str(), k.as_str())).collect();
                let named = |hs: &[(String, f64)]| -> Vec<Value> {
                    hs.iter().map(|(id, r)| json!([back.get(id.as_str()).unwrap_or(&id.as_str()), r])).collect()
                };
                writeln!(
                    w,
                    "{}",
                    json!({"variant": name, "query": j.q.id, "kind": j.q.kind, "lang": j.q.lang, "text": j.q.text,
                        "relevant": j.q.relevant, "served": named(&served), "all": named(&all)})
                )?;
            }
            got.push(Outcome { served, all });
        }
        summary.insert(name.to_string(), report(name, &judged, &got));
    }
    if a.json {
        summary.insert("records".into(), json!(records.len()));
        summary.insert("merged".into(), json!(merged.len()));
        summary.insert("queries".into(), json!(queries.len()));
        println!("{}", Value::Object(summary));
    }
    Ok(())
}

/// Cosines of the query to a passage vector `[e5 ; t·minilm]`: (E5, MiniLM when both exist).
fn part_cosines(q: &knowhub_ai::QueryVectors, v: &[f32]) -> (f64, Option<f64>) {
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| f64::from(x * y)).sum::<f64>();
    let split = 384.min(v.len()).min(q.scan.len());
    let e5 = dot(&q.scan[..split], &v[..split]);
    let mini = q.rescore.as_ref().and_then(|r| {
        let t = dot(&v[split..], &v[split..]).sqrt();
        (t > 0.0 && r.len() == v.len()).then(|| dot(&r[split..], &v[split..]) / t)
    });
    (e5, mini)
}

/// Signals measured beside the server's: cosines to background text, late interaction.
struct Extra<'a> {
    background: &'a [Vec<f32>],
    late: Option<&'a crate::late::Late>,
}

/// The raw signals of every query's candidates, labelled, plus signals the server does not use
/// yet (coverage by field, cosines to the task and the result alone), to choose them by measurement.
async fn write_features(
    hub: &Hub,
    embedder: &knowhub_ai::Embedder,
    judged: &[Judged<'_>],
    by_hub: &HashMap<&str, &Record>,
    extra: Extra<'_>,
    depth: usize,
    path: &Path,
) -> anyhow::Result<()> {
    let Extra { background: bg, late } = extra;
    use knowhub_core::text;
    use std::io::Write;
    let caller = knowhub_service::Caller::local();
    // Field vectors, embedded once per record.
    let ids: Vec<&str> = by_hub.keys().copied().collect();
    let tasks: Vec<String> = ids.iter().map(|i| by_hub[i].task.clone()).collect();
    let results: Vec<String> = ids.iter().map(|i| by_hub[i].result.clone()).collect();
    let (tv, rv) = if embedder.model_id().is_some() {
        (embedder.embed_passages(&tasks).await?, embedder.embed_passages(&results).await?)
    } else {
        (Vec::new(), Vec::new())
    };
    let field: HashMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    // Late-interaction cost: query states, recomputing the top 10 candidates' states, MaxSim.
    let (mut t_query, mut t_recompute, mut t_maxsim, mut n_recompute, mut n_maxsim) = (0.0, 0.0, 0.0, 0usize, 0usize);
    for (qi, j) in judged.iter().enumerate() {
        let mut q = knowhub_service::SearchQuery::new(j.q.text.clone());
        q.top_k = depth;
        q.filter.min_score = 1;
        q.min_relevance = Some(0.0);
        let mut all = hub.explain(&caller, &q).await?;
        all.sort_by(|a, b| b.fused.total_cmp(&a.fused));
        let qv = match embedder.model_id() {
            Some(_) => Some(embedder.embed_query(&j.q.text).await?),
            None => None,
        };
        let tokens = text::query_tokens(&j.q.text);
        let lq = match late {
            Some(l) => {
                let t0 = std::time::Instant::now();
                let s = l
                    .model
                    .token_states_after(&[j.q.text.as_str()], knowhub_embed::TextKind::Query, l.layers)?
                    .remove(0);
                t_query += t0.elapsed().as_secs_f64();
                if qi % 10 == 0 {
                    let texts: Vec<String> = all
                        .iter()
                        .take(10)
                        .filter_map(|x| by_hub.get(x.id.as_str()))
                        .map(|r| knowhub_core::model::search_text(&r.task, &r.resource, &r.result))
                        .collect();
                    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
                    let t0 = std::time::Instant::now();
                    l.model.token_states(&refs, knowhub_embed::TextKind::Passage)?;
                    t_recompute += t0.elapsed().as_secs_f64();
                    n_recompute += refs.len();
                }
                let pos = crate::late::content(&l.model, &s, knowhub_embed::TextKind::Query);
                Some((s, pos))
            }
            None => None,
        };
        let lqc = late.zip(lq.as_ref()).map(|(l, (s, pos))| (crate::late::center(s, &l.mean), pos.clone()));
        let li_c = |id: &str| -> (Option<Vec<f32>>, Option<Vec<f32>>) {
            let (Some(l), Some((s, pos))) = (late, lqc.as_ref()) else { return (None, None) };
            let Some((full, task)) = l.centered.get(id) else { return (None, None) };
            let k = knowhub_embed::TextKind::Passage;
            let f = crate::late::best_cosines(s, pos, full, &crate::late::content(&l.model, full, k));
            let t = crate::late::best_cosines(s, pos, task, &crate::late::content(&l.model, task, k));
            (Some(f), Some(t))
        };
        let mut li = |id: &str| -> (Option<Vec<f32>>, Option<Vec<f32>>) {
            let (Some(l), Some((s, pos))) = (late, lq.as_ref()) else { return (None, None) };
            let Some((full, task)) = l.records.get(id) else { return (None, None) };
            let t0 = std::time::Instant::now();
            let k = knowhub_embed::TextKind::Passage;
            let f = crate::late::best_cosines(s, pos, full, &crate::late::content(&l.model, full, k));
            t_maxsim += t0.elapsed().as_secs_f64();
            n_maxsim += 1;
            let t = crate::late::best_cosines(s, pos, task, &crate::late::content(&l.model, task, k));
            (Some(f), Some(t))
        };
        let cands: Vec<Value> = all
            .iter()
            .take(depth)
            .map(|x| {
                let c = &x.candidate;
                let r = by_hub.get(x.id.as_str());
                let cov = |f: fn(&Record) -> &str| r.map(|r| text::coverage(&tokens, f(r)));
                let at = field.get(x.id.as_str()).copied();
                let (ft, fr) = (at.and_then(|i| tv.get(i)), at.and_then(|i| rv.get(i)));
                let cos = |v: Option<&Vec<f32>>| qv.as_ref().zip(v).map(|(q, v)| part_cosines(q, v));
                let (task_cos, result_cos) = (cos(ft), cos(fr));
                let (li_full, li_task) = li(x.id.as_str());
                let (li_full_c, li_task_c) = li_c(x.id.as_str());
                let r4 = |v: Option<Vec<f32>>| v.map(|v| v.iter().map(|c| (c * 1e4).round() / 1e4).collect::<Vec<f32>>());
                json!({
                    "li_full": r4(li_full), "li_task": r4(li_task), "li_fullc": r4(li_full_c), "li_taskc": r4(li_task_c),
                    "id": x.id, "rid": r.map(|r| r.id.as_str()), "fused": x.fused, "rel": x.relevance,
                    "dense": c.dense.map(|d| d.fused), "cos_e5": c.dense.map(|d| d.primary),
                    "cos_m": c.dense.and_then(|d| d.english), "gap": c.dense.map(|d| d.script_gap), "bm25": c.bm25, "cov": c.coverage, "experience": c.experience,
                    "cov_task": cov(|r| &r.task), "cov_res": cov(|r| &r.resource), "cov_result": cov(|r| &r.result),
                    "task_e5": task_cos.map(|t| t.0), "task_m": task_cos.and_then(|t| t.1),
                    "result_e5": result_cos.map(|t| t.0), "result_m": result_cos.and_then(|t| t.1),
                    "outcome": r.map(|r| r.outcome.as_str()),
                    "label": j.relevant.contains(&x.id),
                })
            })
            .collect();
        let (bg_e5, bg_m) = qv.as_ref().map_or((None, None), |v| crate::abstain::background(v, bg));
        let line = json!({
            "hub": "experiences", "qset": "experiences", "qid": j.q.id, "q": j.q.text, "kind": j.q.kind,
            "lang": j.q.lang, "style": j.q.style, "group": j.q.group, "answerable": j.q.kind == "answerable",
            "latin": qv.as_ref().is_some_and(|v| v.rescore.is_some()), "ntok": tokens.len(),
            "n_relevant": j.relevant.len(),
            "bg_e5": bg_e5, "bg_m": bg_m,
            "li_piece": lq.as_ref().map(|(s, pos)| pos.iter().map(|&i| late.map_or("", |l| l.model.token_piece(s.ids[i]))).collect::<Vec<_>>()),
            "li_idf": lq.as_ref().map(|(s, pos)| pos.iter().map(|&i| late.map_or(0.0, |l| l.idf(s.ids[i]))).collect::<Vec<_>>()),
            "relevant_rank": all.iter().position(|x| j.relevant.contains(&x.id)), "cands": cands,
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    if late.is_some() {
        eprintln!(
            "late interaction cost: query token states {:.2} ms a query; recomputing candidates' states {:.2} ms a \
             candidate (top 10, batched, {n_recompute} candidates); MaxSim {:.4} ms a candidate",
            t_query * 1e3 / judged.len().max(1) as f64,
            t_recompute * 1e3 / n_recompute.max(1) as f64,
            t_maxsim * 1e3 / n_maxsim.max(1) as f64
        );
    }
    eprintln!("features of {} queries written to {}", judged.len(), path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reliability_bins_and_ece_by_hand() {
        // Bin 9: 0.9 and 0.95, one relevant (share 0.5, mean 0.925); bin 1: 0.1, not relevant.
        let (rows, ece) = reliability(&[(0.9, true), (0.95, false), (0.1, false)]);
        assert_eq!(rows[9].0, 2);
        assert!((rows[9].1 - 0.925).abs() < 1e-12 && (rows[9].2 - 0.5).abs() < 1e-12);
        assert_eq!(rows[1].0, 1);
        assert_eq!(rows[5].0, 0);
        // (2/3)·|0.925 − 0.5| + (1/3)·|0.1 − 0|
        assert!((ece - (2.0 / 3.0 * 0.425 + 0.1 / 3.0)).abs() < 1e-12);
        // Relevance 1.0 falls in the last bin, not past it.
        assert_eq!(reliability(&[(1.0, true)]).0[9].0, 1);
    }

    #[test]
    fn search_uri_encodes_the_query() {
        let u = search_uri("数据库 a&b=c", &[("min_score", "1")]).unwrap();
        assert!(u.starts_with("/api/search?q="));
        assert!(u.ends_with("&min_score=1"));
        assert!(!u.contains("a&b"), "{u}");
    }

    #[test]
    fn the_dev_set_is_consistent() {
        // Every relevant id names a record; only answerable queries have them; kinds and languages are known.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/experiences");
        let records: Vec<Record> = read_jsonl(&dir.join("records.jsonl")).unwrap();
        let queries: Vec<Query> = read_jsonl(&dir.join("queries.jsonl")).unwrap();
        let ids: std::collections::HashSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids.len(), records.len(), "record ids are unique");
        for r in &records {
            assert!((1..=5).contains(&r.score) && matches!(r.outcome.as_str(), "success" | "failure"), "{}", r.id);
        }
        for q in &queries {
            assert!(matches!(q.kind.as_str(), "answerable" | "near_domain" | "offtopic"), "{}", q.id);
            assert!(matches!(q.lang.as_str(), "en" | "zh" | "mixed"), "{}", q.id);
            assert_eq!(q.kind == "answerable", !q.relevant.is_empty(), "{}", q.id);
            for r in &q.relevant {
                assert!(ids.contains(r.as_str()), "{}: unknown record {r}", q.id);
            }
        }
    }
}
