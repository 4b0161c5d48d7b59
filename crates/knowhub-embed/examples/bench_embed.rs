//! Speed and memory of the embedders on this machine, the integer GEMM against the f32 GEMM
//! in one run (runs alternate between the two so machine drift hits both alike).
//! `scripts/fetch-model.sh && cargo run --release -p knowhub-embed --example bench_embed`
//! (`RAYON_NUM_THREADS=1` measures one core, as each model gets when both run side by side).
use std::time::{Duration, Instant};

use knowhub_embed::{default_model_dir, E5Model, MiniLmModel, TextKind};

/// Resident set size in MiB from /proc (Linux only).
fn rss_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn fmt_rss() -> String {
    rss_mib().map_or("n/a".into(), |m| format!("{m:.0} MiB"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct Stats {
    p50: f64,
    p99: f64,
    min: f64,
}

fn stats(mut t: Vec<Duration>) -> Stats {
    t.sort();
    let n = t.len();
    Stats { p50: ms(t[n / 2]), p99: ms(t[n * 99 / 100]), min: ms(t[0]) }
}

/// Time `runs` calls of each embedder, alternating between them.
fn interleaved(runs: usize, fs: &[&dyn Fn()]) -> Vec<Stats> {
    for f in fs {
        for _ in 0..20 {
            f();
        }
    }
    let mut times = vec![Vec::with_capacity(runs); fs.len()];
    for _ in 0..runs {
        for (f, t) in fs.iter().zip(&mut times) {
            let s = Instant::now();
            f();
            t.push(s.elapsed());
        }
    }
    times.into_iter().map(stats).collect()
}

/// Texts per second for one batch call, median of 3 (alternating).
fn batch_rates(fs: &[&dyn Fn() -> usize]) -> Vec<f64> {
    let mut rates = vec![Vec::new(); fs.len()];
    for _ in 0..3 {
        for (f, r) in fs.iter().zip(&mut rates) {
            let t = Instant::now();
            let n = f();
            r.push(n as f64 / t.elapsed().as_secs_f64());
        }
    }
    rates
        .into_iter()
        .map(|mut r| {
            r.sort_by(f64::total_cmp);
            r[1]
        })
        .collect()
}

fn report(model: &str, what: &str, s: &[Stats]) {
    let (f, i) = (&s[0], &s[1]);
    println!(
        "{model} {what}: f32 p50 {:.2} p99 {:.2} min {:.2} ms | int8 p50 {:.2} p99 {:.2} min {:.2} ms | speed-up p50 x{:.2} p99 x{:.2} min x{:.2}",
        f.p50,
        f.p99,
        f.min,
        i.p50,
        i.p99,
        i.min,
        f.p50 / i.p50,
        f.p99 / i.p99,
        f.min / i.min
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = default_model_dir();
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
    println!("rss before load: {}", fmt_rss());
    let t0 = Instant::now();
    let e5 = E5Model::load(&dir)?;
    println!(
        "e5 load: {:.0} ms  (kernels: {}, gemm: {}, threads: {}, packed weights: {:.0} MiB), rss {}",
        ms(t0.elapsed()),
        e5.kernel_name(),
        e5.precision_name(),
        rayon::current_num_threads(),
        e5.weight_bytes() as f64 / (1 << 20) as f64,
        fmt_rss()
    );
    let e5i = E5Model::load_with_int8(&dir)?;
    let e5f = E5Model::load_f32(&dir)?;

    let query = "how do I fix a Postgres connection timeout in my Rust service?";
    let zh = "数据库连接池满了以后请求一直超时，应该怎么排查和调整连接数";
    println!(
        "queries: en {} tokens, zh {} tokens (E5, incl. prefix and <s></s>)",
        e5.tokenize(query, TextKind::Query).len(),
        e5.tokenize(zh, TextKind::Query).len()
    );
    for (name, q) in [("en query", query), ("zh query", zh)] {
        let s = interleaved(
            runs,
            &[&|| drop(e5f.embed(&[q], TextKind::Query).unwrap()), &|| drop(e5i.embed(&[q], TextKind::Query).unwrap())],
        );
        report("e5", name, &s);
    }

    // Text length: what a long query (an agent pasting its whole task) would cost without the
    // query cap (MAX_QUERY_TOKENS). Timed as passages, which are not capped; words from a
    // real sentence, repeated until the tokenizer gives the wanted length.
    let words: Vec<&str> = "the service times out when the connection pool is exhausted under load so requests queue and the retry loop makes it worse"
        .split(' ')
        .collect();
    let mut longest = String::new();
    for target in [16usize, 32, 64, 128, 256, 512] {
        let mut text = String::new();
        let mut i = 0;
        while e5.tokenize(&text, TextKind::Passage).len() < target {
            text.push_str(words[i % words.len()]);
            text.push(' ');
            i += 1;
        }
        let n = e5.tokenize(&text, TextKind::Passage).len();
        let s = interleaved(
            (runs / 10).max(10),
            &[&|| drop(e5f.embed(&[&text], TextKind::Passage).unwrap()), &|| {
                drop(e5i.embed(&[&text], TextKind::Passage).unwrap())
            }],
        );
        report("e5", &format!("text of {n} tokens (uncapped)"), &s);
        longest = text;
    }
    let s = interleaved(
        (runs / 10).max(10),
        &[&|| drop(e5f.embed(&[&longest], TextKind::Query).unwrap()), &|| {
            drop(e5i.embed(&[&longest], TextKind::Query).unwrap())
        }],
    );
    report(
        "e5",
        &format!("that text as a query (capped at {} tokens)", e5.tokenize(&longest, TextKind::Query).len()),
        &s,
    );

    let topics = [
        "Fixed Postgres connection timeouts by raising the pool size to 32",
        "数据库连接超时：把连接池调大并加上重试",
        "Use pg_dump --format=custom, then pg_restore -j 4 for faster restores",
        "React.useEffect 的清理函数会在下一次 effect 之前执行",
        "tokio::spawn a blocking call froze the runtime; moved it to spawn_blocking",
        "kubectl logs --previous shows why the pod was in CrashLoopBackOff",
        "Set RUST_LOG=debug to see the sqlx queries",
        "用 jieba 分词后再建 FTS5 索引，两个字的中文词也能搜到",
    ];
    let passages: Vec<String> = (0..256).map(|i| format!("{} (case {i})", topics[i % topics.len()])).collect();
    let refs: Vec<&str> = passages.iter().map(|s| s.as_str()).collect();
    let tokens: usize = refs.iter().map(|t| e5.tokenize(t, TextKind::Passage).len()).sum();
    let r = batch_rates(&[&|| e5f.embed(&refs, TextKind::Passage).unwrap().len(), &|| {
        e5i.embed(&refs, TextKind::Passage).unwrap().len()
    }]);
    println!(
        "e5 batch of 256 short passages ({:.1} tokens avg): f32 {:.0} texts/s | int8 {:.0} texts/s | x{:.2}",
        tokens as f64 / 256.0,
        r[0],
        r[1],
        r[1] / r[0]
    );
    println!("rss after e5 (three copies loaded): {}", fmt_rss());

    // all-MiniLM-L6-v2: the English half of the local pair, run for Latin-script queries.
    let t0 = Instant::now();
    let mini = MiniLmModel::load(&dir)?;
    println!(
        "minilm load: {:.0} ms (gemm: {}), rss after load: {}",
        ms(t0.elapsed()),
        mini.precision_name(),
        fmt_rss()
    );
    let (mf, mi) = (MiniLmModel::load_f32(&dir)?, MiniLmModel::load_with_int8(&dir)?);
    let s = interleaved(runs, &[&|| drop(mf.embed(&[query]).unwrap()), &|| drop(mi.embed(&[query]).unwrap())]);
    report("minilm", &format!("en query ({} tokens)", mini.tokenize(query).len()), &s);
    let r = batch_rates(&[&|| mf.embed(&refs).unwrap().len(), &|| mi.embed(&refs).unwrap().len()]);
    println!(
        "minilm batch of 256 short passages: f32 {:.0} texts/s | int8 {:.0} texts/s | x{:.2}",
        r[0],
        r[1],
        r[1] / r[0]
    );
    println!("rss after both: {}", fmt_rss());
    Ok(())
}
