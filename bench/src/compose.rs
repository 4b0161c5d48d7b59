//! Upgrades a benchmark hub embedded with E5 alone to the local pair's vectors by computing only
//! the MiniLM half (`knowhub_ai::add_minilm`, the same code the embedder runs; the E5 half is the
//! stored E5 vector). Re-embedding a 100k hub from scratch costs ~40 min on 2 cores; this costs
//! the MiniLM share of it. The result is what `knowhub reindex` would produce.

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
}

pub async fn run(a: Args) -> anyhow::Result<()> {
    let minilm = MiniLmModel::load(&knowhub_ai::default_model_dir())?;
    let to = format!("local:{}+{}", knowhub_embed::MODEL_ID, minilm.model_id());
    let mut conn = rusqlite::Connection::open(a.dir.join("knowhub.db"))?;
    let total: i64 = conn.query_row("SELECT count(*) FROM vectors WHERE model = ?1", [&a.from], |r| r.get(0))?;
    let t0 = Instant::now();
    let mut done = 0i64;
    loop {
        let rows: Vec<(i64, Vec<u8>, String)> = {
            let mut st = conn.prepare(
                "SELECT v.seq, v.data, e.task, e.resource, e.result FROM vectors v JOIN experiences e ON e.seq = v.seq \
                 WHERE v.model = ?1 LIMIT 512",
            )?;
            let it = st.query_map([&a.from], |r| {
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
        let e5: Vec<Vec<f32>> = rows
            .iter()
            .map(|r| r.1.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
            .collect();
        let texts: Vec<&str> = rows.iter().map(|r| r.2.as_str()).collect();
        let vectors = knowhub_ai::add_minilm(e5, &texts, &minilm)?;
        let tx = conn.transaction()?;
        for ((seq, _, _), v) in rows.iter().zip(vectors) {
            let data: Vec<u8> = v.into_iter().flat_map(|x| x.to_le_bytes()).collect();
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
