//! `knowhub reindex`: rebuild the full-text index (with today's segmentation) and the vectors
//! (for today's embedding model) into a temporary database, then swap it in with one rename.
//! A crash or an embedder failure at any point leaves the original database untouched.

use std::path::Path;

use knowhub_core::{text, CoreError, Result};
use rusqlite::{params, Connection};

use crate::db::{db_path, lock_dir, open_connection, sql_err};
use crate::migrations;
use crate::vectors::encode;

/// Progress report: which phase, how far.
#[derive(Debug, Clone, Copy)]
pub struct ReindexProgress {
    pub phase: &'static str,
    pub done: u64,
    pub total: u64,
}

/// What the rebuild did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReindexStats {
    pub records: u64,
    pub vectors_kept: u64,
    pub vectors_embedded: u64,
}

const EMBED_BATCH: usize = 64;

/// Embeds a batch of passages (the caller bridges to whichever embedder is configured).
pub type EmbedFn<'a> = dyn FnMut(&[String]) -> Result<Vec<Vec<f32>>> + 'a;

/// Rebuilds the store in `dir`. With `model`, vectors of that model are kept (unless
/// `re_embed`) and every other record is embedded with `embed`; vectors of other models are
/// dropped. Takes the data dir's lock, so it refuses to run beside a server.
pub fn reindex(
    dir: &Path,
    model: Option<&str>,
    re_embed: bool,
    embed: &mut EmbedFn<'_>,
    progress: &mut dyn FnMut(ReindexProgress),
) -> Result<ReindexStats> {
    let _lock = lock_dir(dir)?;
    let src_path = db_path(dir);
    if !src_path.exists() {
        return Err(CoreError::NotFound(format!("database {}", src_path.display())));
    }
    let mut src = open_connection(&src_path)?;
    migrations::migrate(&mut src)?;
    src.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").map_err(sql_err)?;

    let tmp_path = dir.join("knowhub.db.reindex");
    let _ = std::fs::remove_file(&tmp_path);
    let _ = std::fs::remove_file(dir.join("knowhub.db.reindex-journal"));
    let result = build(&src_path, &tmp_path, model, re_embed, embed, progress);
    let stats = match result {
        Ok(s) => s,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp_path);
            return Err(e);
        }
    };
    std::fs::File::open(&tmp_path)
        .and_then(|f| f.sync_all())
        .map_err(|e| CoreError::Unavailable(format!("sync: {e}")))?;
    src.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").map_err(sql_err)?;
    drop(src);
    for ext in ["-wal", "-shm"] {
        let p = dir.join(format!("{}{ext}", crate::db::DB_FILE));
        if p.exists() {
            std::fs::remove_file(&p).map_err(|e| CoreError::Unavailable(format!("remove {}: {e}", p.display())))?;
        }
    }
    std::fs::rename(&tmp_path, &src_path)
        .map_err(|e| CoreError::Unavailable(format!("swap in rebuilt database: {e}")))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(stats)
}

fn build(
    src_path: &Path,
    tmp_path: &Path,
    model: Option<&str>,
    re_embed: bool,
    embed: &mut EmbedFn<'_>,
    progress: &mut dyn FnMut(ReindexProgress),
) -> Result<ReindexStats> {
    let mut tmp = Connection::open(tmp_path).map_err(sql_err)?;
    tmp.execute_batch("PRAGMA journal_mode=DELETE; PRAGMA synchronous=OFF; PRAGMA foreign_keys=ON;")
        .map_err(sql_err)?;
    migrations::migrate(&mut tmp)?;
    tmp.execute("ATTACH DATABASE ?1 AS old", [src_path.to_string_lossy()]).map_err(sql_err)?;
    let tx = tmp.transaction().map_err(sql_err)?;
    tx.execute_batch(
        "INSERT INTO experiences SELECT * FROM old.experiences; INSERT INTO contents SELECT * FROM old.contents; \
         INSERT INTO api_keys SELECT * FROM old.api_keys; INSERT INTO extract_messages SELECT * FROM old.extract_messages; \
         INSERT INTO extract_jobs SELECT * FROM old.extract_jobs; INSERT INTO confirmations SELECT * FROM old.confirmations; \
         INSERT INTO votes SELECT * FROM old.votes; INSERT INTO sources SELECT * FROM old.sources; \
         INSERT INTO usage_days SELECT * FROM old.usage_days; INSERT INTO quarantines SELECT * FROM old.quarantines; \
         INSERT INTO events SELECT * FROM old.events; INSERT INTO cursors SELECT * FROM old.cursors; \
         INSERT INTO sync_bases SELECT * FROM old.sync_bases; INSERT INTO playbooks SELECT * FROM old.playbooks; \
         DELETE FROM hub; INSERT INTO hub SELECT * FROM old.hub;",
    )
    .map_err(sql_err)?;
    let mut stats = ReindexStats::default();
    if let (Some(m), false) = (model, re_embed) {
        stats.vectors_kept =
            tx.execute("INSERT INTO vectors SELECT * FROM old.vectors WHERE model = ?1", [m]).map_err(sql_err)? as u64;
    }
    let total: i64 = tx.query_row("SELECT COUNT(*) FROM experiences", [], |r| r.get(0)).map_err(sql_err)?;
    stats.records = total as u64;
    {
        let mut read =
            tx.prepare("SELECT seq, task, resource, result FROM experiences ORDER BY seq").map_err(sql_err)?;
        let mut ins = tx.prepare("INSERT INTO experiences_fts (rowid, body) VALUES (?1, ?2)").map_err(sql_err)?;
        let mut rows = read.query([]).map_err(sql_err)?;
        let mut done = 0u64;
        while let Some(r) = rows.next().map_err(sql_err)? {
            let seq: i64 = r.get(0).map_err(sql_err)?;
            let body = text::tokenize(&knowhub_core::search_text(
                &r.get::<_, String>(1).map_err(sql_err)?,
                &r.get::<_, String>(2).map_err(sql_err)?,
                &r.get::<_, String>(3).map_err(sql_err)?,
            ))
            .join(" ");
            ins.execute(params![seq, body]).map_err(sql_err)?;
            done += 1;
            if done.is_multiple_of(1000) || done == stats.records {
                progress(ReindexProgress { phase: "full-text", done, total: stats.records });
            }
        }
    }
    if let Some(m) = model {
        let todo: Vec<(i64, String)> = {
            let mut st = tx
                .prepare(
                    "SELECT e.seq, e.task, e.resource, e.result FROM experiences e LEFT JOIN vectors v ON v.seq = e.seq \
                     WHERE v.seq IS NULL AND e.status != 'rejected' ORDER BY e.seq",
                )
                .map_err(sql_err)?;
            let rows = st
                .query_map([], |r| {
                    Ok((
                        r.get(0)?,
                        knowhub_core::search_text(
                            &r.get::<_, String>(1)?,
                            &r.get::<_, String>(2)?,
                            &r.get::<_, String>(3)?,
                        ),
                    ))
                })
                .map_err(sql_err)?;
            rows.collect::<std::result::Result<_, _>>().map_err(sql_err)?
        };
        let total = todo.len() as u64;
        let mut ins =
            tx.prepare("INSERT INTO vectors (seq, model, dim, data) VALUES (?1, ?2, ?3, ?4)").map_err(sql_err)?;
        for chunk in todo.chunks(EMBED_BATCH) {
            let texts: Vec<String> = chunk.iter().map(|(_, t)| t.clone()).collect();
            let vecs = embed(&texts)?;
            if vecs.len() != chunk.len() {
                return Err(CoreError::Internal(format!(
                    "embedder returned {} vectors for {} texts",
                    vecs.len(),
                    chunk.len()
                )));
            }
            for ((seq, _), v) in chunk.iter().zip(vecs) {
                ins.execute(params![seq, m, v.len() as i64, encode(&v)]).map_err(sql_err)?;
            }
            stats.vectors_embedded += chunk.len() as u64;
            progress(ReindexProgress { phase: "embeddings", done: stats.vectors_embedded, total });
        }
    }
    tx.commit().map_err(sql_err)?;
    tmp.execute_batch("DETACH DATABASE old; PRAGMA optimize;").map_err(sql_err)?;
    tmp.execute("INSERT INTO experiences_fts(experiences_fts) VALUES ('optimize')", []).map_err(sql_err)?;
    Ok(stats)
}
