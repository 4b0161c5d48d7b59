//! Upgrades a benchmark hub embedded with E5 alone to the local pair's vectors by computing only
//! the MiniLM half (`knowhub_ai::compose`; the E5 half is the stored E5 vector). Re-embedding a
//! 100k hub from scratch costs ~40 min on 2 cores; this costs the MiniLM share of it. The
//! result is what `knowhub reindex` would produce (same texts, same models, same composition).
//! `--halves` instead re-composes 768-dim vectors stored as `[e5 ; minilm] / √2` (this
//! session's first layout) with the current composition, without running any model.

use std::path::PathBuf;
use std::time::Instant;

use knowhub_embed::MiniLmModel;
use rusqlite::params;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hub's data dir (its knowhub.db is updated in place; the server must not be running).
    dir: PathBuf,
    /// Model id of the stored E5 vectors.
    #[arg(long, default_value = "local:multilingual-e5-small-q4")]
    from: String,
    /// The stored vectors are `[e5 ; minilm] / √2` (768 dims): split them instead of embedding.
    #[arg(long)]
    halves: bool,
    /// The stored vectors are `[e5 ; t·minilm] / √(1 + t²)` (this session's second layout):
    /// scale them to the current `[e5 ; t·minilm]`.
    #[arg(long, conflicts_with = "halves")]
    rescale: bool,
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let dir = knowhub_ai::default_model_dir();
    let minilm = MiniLmModel::load(&dir)?;
    let to = format!("local:{}+{}", knowhub_embed::E5Model::load(&dir)?.model_id(), minilm.model_id());
    let mut conn = rusqlite::Connection::open(a.dir.join("knowhub.db"))?;
    // Re-composing in place: mark the rows first so the loop below can page through them.
    let from = if a.halves || a.rescale {
        let tmp = format!("{}#halves", a.from);
        conn.execute("UPDATE vectors SET model = ?1 WHERE model = ?2", [&tmp, &a.from])?;
        tmp
    } else {
        a.from.clone()
    };
    let total: i64 = conn.query_row("SELECT count(*) FROM vectors WHERE model = ?1", [&from], |r| r.get(0))?;
    let t0 = Instant::now();
    let mut done = 0i64;
    let half = std::f32::consts::FRAC_1_SQRT_2;
    loop {
        let rows: Vec<(i64, Vec<u8>, String)> = {
            let mut st = conn.prepare(
                "SELECT v.seq, v.data, e.task, e.resource, e.result FROM vectors v JOIN experiences e ON e.seq = v.seq \
                 WHERE v.model = ?1 LIMIT 512",
            )?;
            let it = st.query_map([&from], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    knowhub_core::search_text(
                        &r.get::<_, String>(2)?,
                        &r.get::<_, String>(3)?,
                        &r.get::<_, String>(4)?,
                    ),
                ))
            })?;
            it.collect::<Result<_, _>>()?
        };
        if rows.is_empty() {
            break;
        }
        let stored: Vec<Vec<f32>> = rows
            .iter()
            .map(|r| r.1.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
            .collect();
        let shares: Vec<f32> = rows.iter().map(|r| knowhub_ai::latin_share(&r.2)).collect();
        let pairs: Vec<(Vec<f32>, Vec<f32>)> = if a.rescale {
            stored
                .iter()
                .zip(&shares)
                .map(|(v, &t)| {
                    let k = (1.0 + t * t).sqrt();
                    let (e, m) = v.split_at(v.len() / 2);
                    let m: Vec<f32> = if t > 0.0 { m.iter().map(|x| x * k / t).collect() } else { vec![0.0; m.len()] };
                    (e.iter().map(|x| x * k).collect(), m)
                })
                .collect()
        } else if a.halves {
            stored
                .iter()
                .map(|v| {
                    let (e, m) = v.split_at(v.len() / 2);
                    (e.iter().map(|x| x / half).collect(), m.iter().map(|x| x / half).collect())
                })
                .collect()
        } else {
            let latin: Vec<&str> =
                rows.iter().zip(&shares).filter(|(_, &w)| w > 0.0).map(|(r, _)| r.2.as_str()).collect();
            let mut mini = minilm.embed(&latin)?.into_iter();
            stored
                .into_iter()
                .zip(&shares)
                .map(|(e, &w)| (e, if w > 0.0 { mini.next().unwrap_or_default() } else { vec![0.0; minilm.dim()] }))
                .collect()
        };
        let tx = conn.transaction()?;
        for ((seq, _, _), ((e5, m), w)) in rows.iter().zip(pairs.into_iter().zip(shares)) {
            let data: Vec<u8> = knowhub_ai::compose(&e5, &m, w).into_iter().flat_map(|x| x.to_le_bytes()).collect();
            tx.execute(
                "UPDATE vectors SET model = ?1, dim = ?2, data = ?3 WHERE seq = ?4",
                params![to, (data.len() / 4) as i64, data, seq],
            )?;
        }
        tx.commit()?;
        done += rows.len() as i64;
        eprintln!("compose: {done}/{total} ({:.0}/s)", done as f64 / t0.elapsed().as_secs_f64());
    }
    println!("composed {done} vectors into {to} in {:.1}s", t0.elapsed().as_secs_f64());
    Ok(())
}
