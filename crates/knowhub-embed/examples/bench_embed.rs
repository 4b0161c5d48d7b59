//! Speed and memory of the embedder on this machine.
//! `scripts/fetch-model.sh && cargo run --release -p knowhub-embed --example bench_embed`
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = default_model_dir();
    println!("rss before load: {}", fmt_rss());
    let t0 = Instant::now();
    let model = E5Model::load(&dir)?;
    println!(
        "load: {:.0} ms  (kernels: {}, threads: {}, packed weights: {:.0} MiB)",
        ms(t0.elapsed()),
        model.kernel_name(),
        rayon::current_num_threads(),
        model.weight_bytes() as f64 / (1 << 20) as f64
    );
    println!("rss after load: {}", fmt_rss());

    let query = "how do I fix a Postgres connection timeout in my Rust service?";
    let ntok = model.tokenize(query, TextKind::Query).len();
    for _ in 0..20 {
        model.embed(&[query], TextKind::Query)?;
    }
    let runs = 200;
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            model.embed(&[query], TextKind::Query).unwrap();
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "single query ({ntok} tokens incl. prefix and <s></s>), {runs} runs: p50 {:.2} ms  p99 {:.2} ms  min {:.2} ms",
        ms(times[runs / 2]),
        ms(times[runs * 99 / 100]),
        ms(times[0])
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
    let tokens: usize = refs.iter().map(|t| model.tokenize(t, TextKind::Passage).len()).sum();
    model.embed(&refs[..32], TextKind::Passage)?;
    let mut rates: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            let out = model.embed(&refs, TextKind::Passage).unwrap();
            assert_eq!(out.len(), 256);
            256.0 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    println!(
        "batch of 256 short passages ({:.1} tokens avg), 3 runs: median {:.0} texts/s, best {:.0} texts/s",
        tokens as f64 / 256.0,
        rates[1],
        rates[2]
    );
    let t = Instant::now();
    for p in &refs[..64] {
        model.embed(&[p], TextKind::Passage)?;
    }
    println!("one-by-one (64 passages): {:.0} texts/s", 64.0 / t.elapsed().as_secs_f64());
    println!("rss after bench: {}", fmt_rss());

    // all-MiniLM-L6-v2: the English half of the local pair, run for Latin-script queries.
    let t0 = Instant::now();
    let mini = MiniLmModel::load(&dir)?;
    println!("minilm load: {:.0} ms, rss after load: {}", ms(t0.elapsed()), fmt_rss());
    let ntok = mini.tokenize(query).len();
    for _ in 0..20 {
        mini.embed(&[query])?;
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            mini.embed(&[query]).unwrap();
            t.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "minilm single query ({ntok} tokens incl. [CLS] [SEP]), {runs} runs: p50 {:.2} ms  p99 {:.2} ms",
        ms(times[runs / 2]),
        ms(times[runs * 99 / 100])
    );
    let mut rates: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            mini.embed(&refs).unwrap();
            256.0 / t.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    println!("minilm batch of 256 short passages, 3 runs: median {:.0} texts/s", rates[1]);
    println!("rss after both: {}", fmt_rss());
    Ok(())
}
