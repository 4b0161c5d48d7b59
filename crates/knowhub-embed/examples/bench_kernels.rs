//! The integer GEMM's kernel paths side by side on this CPU, with random weights shaped as one
//! encoder layer of E5 (4-bit codes) and of MiniLM (7-bit codes), one thread, a 20-row query and
//! a 512-row batch. No model files are needed, so it runs on any machine (the AVX-512 VNNI path
//! needs a CPU that has it). Runs alternate between paths so machine drift hits all alike; each
//! path's outputs must match the first's bit for bit.
//!
//! The query also runs as "6 layers in turn": six different layers one after another, as a
//! model's pass reads them, so the weights come from L3 or memory rather than from the caches
//! one layer rerun keeps them in (a query's real case; memory-side changes show only there).
//! `cargo run --release -p knowhub-embed --example bench_kernels` (`BENCH_RUNS`, default 200).
use std::time::Instant;

use knowhub_embed::kernel_bench::{paths, Layer};

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let paths: Vec<_> = paths().into_iter().filter(|p| p.name() != "portable").collect();
    println!("paths: {:?}", paths.iter().map(|p| p.name()).collect::<Vec<_>>());
    for (model, w7) in [("E5 (4-bit codes)", false), ("MiniLM (7-bit codes)", true)] {
        let layers: Vec<Layer> = (0..6).map(|i| Layer::new(w7, 7 + 10 * i)).collect();
        for (m, turn) in [(20usize, false), (20, true), (512, false)] {
            let mut io = Layer::input(m);
            let reps = if m > 100 { runs / 10 } else { runs }.max(5);
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); paths.len()];
            let want: Vec<u64> = layers.iter().map(|l| l.run(paths[0], m, &mut io)).collect();
            for rep in 0..reps {
                for (i, p) in paths.iter().enumerate() {
                    let l = if turn { (rep * paths.len() + i) % layers.len() } else { 0 };
                    let t = Instant::now();
                    let got = layers[l].run(*p, m, &mut io);
                    times[i].push(t.elapsed().as_secs_f64() * 1e3);
                    assert_eq!(got, want[l], "{} differs from {}", p.name(), paths[0].name());
                }
            }
            let med = |v: &mut Vec<f64>| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let meds: Vec<f64> = times.iter_mut().map(med).collect();
            let line: Vec<String> =
                paths.iter().zip(&meds).map(|(p, t)| format!("{} {t:.3} ms (x{:.2})", p.name(), meds[0] / t)).collect();
            let what = if turn { "6 layers in turn" } else { "one layer" };
            println!("{model}, {m} rows, {what}'s products, median of {reps}: {}", line.join(" | "));
        }
    }
}
