//! Vectors for hubs larger than the embedder can fill here: 1M records would take ~5 h of
//! embedding on 2 cores (56 records/s). The real vectors of embedded benchmark hubs
//! (`retrieval --cache-dir`) are taken as they are, and record `i` past them gets the mixture
//! its text is made of (`load::record`: text `a` followed by a piece of text `b`):
//! `0.85·a + 0.15·b` per column block, scaled to `a`'s block norm, so the vectors keep the
//! model's layout and neighbourhoods.

use std::path::PathBuf;

/// The real vectors of the model most present in each hub's `knowhub.db`, in record order.
pub fn real_vectors(dirs: &[PathBuf]) -> anyhow::Result<(String, Vec<Vec<f32>>)> {
    let (mut model, mut out) = (None::<String>, Vec::new());
    for d in dirs {
        let conn = rusqlite::Connection::open_with_flags(
            d.join(knowhub_store_sqlite::DB_FILE),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )?;
        let m: String =
            conn.query_row("SELECT model FROM vectors GROUP BY model ORDER BY count(*) DESC LIMIT 1", [], |r| {
                r.get(0)
            })?;
        anyhow::ensure!(model.as_ref().is_none_or(|x| x == &m), "{} holds {m}, not {model:?}", d.display());
        let mut st = conn.prepare("SELECT data FROM vectors WHERE model = ?1 ORDER BY seq")?;
        let rows = st.query_map([&m], |r| r.get::<_, Vec<u8>>(0))?;
        for b in rows {
            out.push(knowhub_store_sqlite::decode_vector(&b?)?);
        }
        model = Some(m);
    }
    anyhow::ensure!(!out.is_empty(), "no vectors in {dirs:?}: embed them first (retrieval --cache-dir)");
    Ok((model.unwrap_or_default(), out))
}

/// The vector of record `i`, mixed from the records its text is made of (`load::sources`).
pub fn vector(base: &[Vec<f32>], i: usize) -> Vec<f32> {
    let Some((a, b)) = crate::load::sources(i, base.len()) else {
        return base[i].clone();
    };
    let (a, b) = (&base[a], &base[b]);
    let block = knowhub_core::VECTOR_BLOCK;
    a.chunks(block)
        .zip(b.chunks(block))
        .flat_map(|(x, y)| {
            let norm = |v: &[f32]| v.iter().map(|t| t * t).sum::<f32>().sqrt();
            let (nx, ny) = (norm(x), norm(y));
            let mix: Vec<f32> = if nx == 0.0 || ny == 0.0 {
                x.to_vec()
            } else {
                x.iter().zip(y).map(|(p, q)| 0.85 * p / nx + 0.15 * q / ny).collect()
            };
            let nm = norm(&mix);
            mix.into_iter().map(move |t| if nm > 0.0 { t * nx / nm } else { t })
        })
        .collect()
}

/// Vectors for records loaded without embedding (ids `r<i>`): each record `i` gets
/// `vector(base, i)`, as `load --vectors-from` and `scopes` build their hubs.
pub fn vectors_for(missing: Vec<(String, String)>, base: &[Vec<f32>]) -> Vec<(String, Vec<f32>)> {
    missing
        .into_iter()
        .map(|(id, _)| {
            let i = id.strip_prefix('r').and_then(|x| x.parse().ok()).unwrap_or(0);
            (id, vector(base, i))
        })
        .collect()
}
