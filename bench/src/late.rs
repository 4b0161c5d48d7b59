//! Late interaction (ColBERT-style MaxSim) over E5's contextual token vectors, measured as a
//! relevance signal: for each content token of the query, its best cosine to any token of the
//! record. A pooled vector says "same technology"; the least-covered query term can say
//! "another problem". `experiences --features --late` writes these per query token, with the
//! token's IDF over the hub's own records, and bench/late_interaction.py fits and measures them.

use std::collections::HashMap;

use knowhub_embed::{E5Model, TextKind, TokenStates};

/// The model and the hub's token statistics.
pub struct Late {
    pub model: E5Model,
    /// Token states after this many layers (`None`: the last hidden states).
    pub layers: Option<usize>,
    /// Per record id: its states (search text: task, resource, result) and the task's alone.
    pub records: HashMap<String, (TokenStates, TokenStates)>,
    /// Document frequency of each token id over the records' search texts.
    df: HashMap<u32, usize>,
    n: usize,
    /// The mean content-token vector of the records: token states share a large common
    /// component (every cosine lands in 0.7-0.95), which `centered` removes.
    pub mean: Vec<f32>,
    /// The records' states (search text, task) with `mean` removed.
    pub centered: HashMap<String, (TokenStates, TokenStates)>,
}

/// `s` with `mean` subtracted from every row, rows renormalised.
pub fn center(s: &TokenStates, mean: &[f32]) -> TokenStates {
    let mut out = s.clone();
    for row in out.vectors.chunks_exact_mut(s.dim) {
        row.iter_mut().zip(mean).for_each(|(a, m)| *a -= m);
        let n = row.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
        row.iter_mut().for_each(|a| *a /= n);
    }
    out
}

/// Positions of `s` that carry content: after `<s>` and the role prefix, before `</s>`, and
/// holding a letter or digit (not bare `▁` or punctuation).
pub fn content(model: &E5Model, s: &TokenStates, kind: TextKind) -> Vec<usize> {
    let start = model.prefix_tokens(kind);
    (start..s.ids.len().saturating_sub(1))
        .filter(|&i| model.token_piece(s.ids[i]).chars().any(char::is_alphanumeric))
        .collect()
}

/// For each of `q`'s positions `qpos`, its best cosine to any of `d`'s positions `dpos`.
pub fn best_cosines(q: &TokenStates, qpos: &[usize], d: &TokenStates, dpos: &[usize]) -> Vec<f32> {
    qpos.iter()
        .map(|&i| {
            let a = q.row(i);
            dpos.iter()
                .map(|&j| a.iter().zip(d.row(j)).map(|(x, y)| x * y).sum::<f32>())
                .fold(f32::NEG_INFINITY, f32::max)
        })
        .map(|c| if c.is_finite() { c } else { 0.0 })
        .collect()
}

impl Late {
    /// Token states of every record (`id`, task, search text), as a hub would compute at submit.
    pub fn new(model: E5Model, layers: Option<usize>, records: &[(String, String, String)]) -> anyhow::Result<Self> {
        let t0 = std::time::Instant::now();
        let full: Vec<&str> = records.iter().map(|r| r.2.as_str()).collect();
        let tasks: Vec<&str> = records.iter().map(|r| r.1.as_str()).collect();
        let fs = model.token_states_after(&full, TextKind::Passage, layers)?;
        let el = t0.elapsed();
        let ts = model.token_states_after(&tasks, TextKind::Passage, layers)?;
        let tokens: usize = fs.iter().map(|s| s.ids.len()).sum();
        eprintln!(
            "late interaction: token states of {} records' search texts in {:.0} ms ({:.2} ms a record, {:.0} tokens \
             a record: {:.1} KB a record as int8 rows)",
            records.len(),
            el.as_secs_f64() * 1e3,
            el.as_secs_f64() * 1e3 / records.len().max(1) as f64,
            tokens as f64 / records.len().max(1) as f64,
            tokens as f64 * (model.dim() as f64 + 4.0) / 1024.0 / records.len().max(1) as f64
        );
        let mut df: HashMap<u32, usize> = HashMap::new();
        for s in &fs {
            let mut ids: Vec<u32> = content(&model, s, TextKind::Passage).iter().map(|&i| s.ids[i]).collect();
            ids.sort_unstable();
            ids.dedup();
            for id in ids {
                *df.entry(id).or_default() += 1;
            }
        }
        let n = records.len();
        let mut mean = vec![0f32; model.dim()];
        let mut count = 0usize;
        for s in &fs {
            for i in content(&model, s, TextKind::Passage) {
                mean.iter_mut().zip(s.row(i)).for_each(|(a, b)| *a += b);
                count += 1;
            }
        }
        mean.iter_mut().for_each(|a| *a /= count.max(1) as f32);
        let centered = records
            .iter()
            .zip(fs.iter().zip(&ts))
            .map(|(r, (f, t))| (r.0.clone(), (center(f, &mean), center(t, &mean))))
            .collect();
        let records = records.iter().map(|r| r.0.clone()).zip(fs.into_iter().zip(ts)).collect();
        Ok(Late { model, layers, records, df, n, mean, centered })
    }

    /// IDF of a token over the hub's records (BM25's, floored at 0).
    pub fn idf(&self, id: u32) -> f64 {
        let df = self.df.get(&id).copied().unwrap_or(0) as f64;
        (((self.n as f64 - df + 0.5) / (df + 0.5)) + 1.0).ln().max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_cosines_take_the_best_row_per_query_token() {
        // Two query rows, three document rows (dim 2, unit vectors).
        let q = TokenStates { ids: vec![1, 2], vectors: vec![1.0, 0.0, 0.0, 1.0], dim: 2 };
        let d = TokenStates { ids: vec![3, 4, 5], vectors: vec![0.6, 0.8, 1.0, 0.0, 0.8, 0.6], dim: 2 };
        assert_eq!(best_cosines(&q, &[0, 1], &d, &[0, 1, 2]), vec![1.0, 0.8]);
        // Only the given document positions count.
        assert_eq!(best_cosines(&q, &[0, 1], &d, &[0]), vec![0.6, 0.8]);
        // No document position: 0, not -inf.
        assert_eq!(best_cosines(&q, &[0], &d, &[]), vec![0.0]);
    }
}
