//! Brute-force vector index over an in-memory int8 matrix (see `quant`).
//!
//! Brute force is memory-bandwidth bound: the scan reads only the query's column blocks (the
//! E5 half for the local pair), ~10 ms at 1M records on 2 cores (bench/results/2026-11-24-load.md: p99
//! 27-35 ms over HTTP at 1M), inside the budget, so no approximate index stands in front of it. A
//! sign-sketch first pass was tried: ×2 faster at 1M, but recall@10 only 0.93-0.96. The public
//! surface (`upsert`, `set_status`, `search`) is all the store uses, so an ANN index can
//! replace it behind the same methods.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use knowhub_core::{BlockScores, CoreError, Result, SearchFilter, Status};
use rusqlite::Connection;

use super::table::Rows;
use crate::db::sql_err;
use crate::filter::Facets;
use crate::vectors::decode_into;

#[derive(Debug, Default)]
pub struct FlatIndex {
    model: String,
    dim: usize,
    rows: Rows,
    /// Int8 codes and per-row scales: the scan, and (against the f32 query) the scores. The f32
    /// vectors stay in SQLite only: at 768 dims they would be 307 MB per 100k records in RAM.
    /// Codes are stored in column blocks of `SEGMENT` dims, one row-major matrix per block, so a
    /// query that uses only the leading blocks streams only those bytes (see `search`).
    codes: Vec<Vec<i8>>,
    scales: Vec<f32>,
    /// Per-row block norms of the f32 vector (`blocks` per row), so scores become cosines over
    /// any blocks without the f32 vector.
    norms: Vec<f32>,
    /// The codes of the row being written (no allocation per upsert).
    scratch: Vec<i8>,
}

/// Candidates the int8 x int8 scan keeps per requested result before rescoring with the f32 query.
const RESCORE_FACTOR: usize = 4;
const RESCORE_MIN: usize = 64;

/// Dimensions per column block of the codes: the blocks scores are reported in.
const SEGMENT: usize = knowhub_core::VECTOR_BLOCK;

/// Rows per thread below which splitting the scan is not worth a thread.
const PARALLEL_MIN_ROWS: usize = 16_384;

impl FlatIndex {
    pub fn new(model: &str) -> Self {
        FlatIndex { model: model.to_string(), ..Default::default() }
    }

    /// Loads every vector of `model` from the database.
    pub fn load(conn: &Connection, model: &str) -> Result<Self> {
        let mut idx = FlatIndex::new(model);
        if model.is_empty() {
            return Ok(idx);
        }
        let n: i64 =
            conn.query_row("SELECT count(*) FROM vectors WHERE model = ?1", [model], |r| r.get(0)).map_err(sql_err)?;
        idx.rows.reserve(n.max(0) as usize);
        let mut st = conn
            .prepare("SELECT v.seq, e.id, e.score, e.status, e.agent_id, v.data, e.scope, e.held FROM vectors v JOIN experiences e ON e.seq = v.seq WHERE v.model = ?1")
            .map_err(sql_err)?;
        let mut rows = st.query([model]).map_err(sql_err)?;
        let mut v = Vec::new();
        // Columns are borrowed from SQLite's row buffer and the vector decoded into one buffer:
        // at 1M records, per-row allocations were most of the load time.
        while let Some(r) = rows.next().map_err(sql_err)? {
            let (seq, score): (i64, i64) = (r.get(0).map_err(sql_err)?, r.get(2).map_err(sql_err)?);
            let id = crate::rows::row_str(r, 1)?;
            let blob = r.get_ref(5).map_err(sql_err)?.as_blob().map_err(|e| CoreError::Internal(e.to_string()))?;
            decode_into(blob, &mut v).map_err(|e| CoreError::Internal(format!("{id}: {e}")))?;
            let facets = Facets {
                score: score as u8,
                status: Status::parse(crate::rows::row_str(r, 3)?).unwrap_or(Status::Pending),
                agent: crate::rows::row_str(r, 4)?,
                scope: crate::rows::row_str(r, 6)?,
                held: r.get::<_, i64>(7).map_err(sql_err)? != 0,
            };
            idx.upsert(seq, id, facets, &v);
        }
        Ok(idx)
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.len() == 0
    }

    pub(crate) fn upsert(&mut self, seq: i64, id: &str, facets: Facets<'_>, v: &[f32]) {
        if self.dim == 0 {
            self.dim = v.len();
        }
        if v.len() != self.dim {
            tracing::warn!(id, got = v.len(), want = self.dim, "vector dimension mismatch; not indexed");
            return;
        }
        let d = self.dim;
        let i = match self.rows.row_of_seq(seq) {
            Some(i) => {
                self.rows.set_meta(i, facets);
                i
            }
            None => {
                let i = self.rows.push(seq, id, facets);
                self.scales.push(0.0);
                self.norms.resize(self.norms.len() + d.div_ceil(SEGMENT), 0.0);
                i
            }
        };
        let blocks = d.div_ceil(SEGMENT);
        for (o, n) in self.norms[i * blocks..(i + 1) * blocks].iter_mut().zip(knowhub_core::store::block_norms(v)) {
            *o = n as f32;
        }
        let mut code = std::mem::take(&mut self.scratch);
        code.resize(d, 0);
        self.scales[i] = super::quant::quantise(v, &mut code);
        if self.codes.is_empty() {
            self.codes = (0..d.div_ceil(SEGMENT)).map(|_| Vec::new()).collect();
        }
        let rows = self.rows.capacity();
        for (s, (seg, part)) in self.codes.iter_mut().zip(code.chunks(SEGMENT)).enumerate() {
            let w = part.len();
            if seg.len() < (i + 1) * w {
                if seg.capacity() < (i + 1) * w {
                    // Room for as many rows as the metadata has (a bulk load reserved them all),
                    // advised for huge pages before any of it is written.
                    seg.reserve(rows.max(i + 1) * w - seg.len());
                    super::huge::advise(seg);
                }
                seg.resize((i + 1) * w, 0);
            }
            seg[i * w..(i + 1) * w].copy_from_slice(part);
            debug_assert_eq!(w, SEGMENT.min(d - s * SEGMENT));
        }
        self.scratch = code;
    }

    /// A deleted record: its row stays allocated (until the next restart) but is never found.
    pub fn remove(&mut self, seq: i64) {
        self.rows.forget(seq);
    }

    /// A review may also change the rating.
    pub(crate) fn set_meta(&mut self, seq: i64, facets: Facets<'_>) {
        if let Some(row) = self.rows.row_of_seq(seq) {
            self.rows.set_meta(row, facets);
        }
    }

    /// Approve/reject changes visibility without touching the vector.
    pub fn set_status(&mut self, seq: i64, status: Status) {
        self.rows.set_status(seq, status);
    }

    /// Block scores of the query against specific rows (those without a vector are left out).
    pub fn score_ids(&self, q: &[f32], ids: &[String]) -> Vec<(String, BlockScores)> {
        if q.len() != self.dim {
            return Vec::new();
        }
        let blocks = self.dim.div_ceil(SEGMENT);
        ids.iter()
            .filter_map(|id| {
                let i = self.rows.row_of_id(id)?;
                let dots = self.block_dots(q, i).map(f64::from).collect();
                let norms = self.norms[i * blocks..(i + 1) * blocks].iter().map(|n| f64::from(*n)).collect();
                Some((id.clone(), BlockScores { dots, norms }))
            })
            .collect()
    }

    /// f32 query against a row's int8 codes, block by block: within ~1e-3 of the f32 products.
    fn block_dots<'a>(&'a self, q: &'a [f32], i: usize) -> impl Iterator<Item = f32> + 'a {
        self.codes
            .iter()
            .zip(q.chunks(SEGMENT))
            .map(move |(seg, qp)| dot_f32_i8(qp, &seg[i * qp.len()..(i + 1) * qp.len()]) * self.scales[i])
    }

    fn score_row(&self, q: &[f32], i: usize) -> f32 {
        self.block_dots(q, i).sum()
    }

    /// Top `k` rows by dot product (= cosine for normalised vectors) that pass `filter`: an int8
    /// scan picks `k × 4` (at least 64) candidates, which are then scored with the f32 query.
    /// Dimensions past the query's last non-zero one are not read: a query that uses only the
    /// first part of a composite vector (the local embedder's E5 half) scans only that part.
    pub fn search(&self, q: &[f32], filter: &SearchFilter, k: usize) -> Vec<(String, f64)> {
        if q.len() != self.dim || self.rows.len() == 0 || k == 0 {
            return Vec::new();
        }
        let Some(pass) = self.rows.agents.matcher(filter) else { return Vec::new() };
        let n = self.rows.len();
        let d = self.dim;
        let mut qc = vec![0i8; d];
        let qs = super::quant::quantise(q, &mut qc);
        // Column blocks after the query's last non-zero code contribute nothing: skip them.
        let active = qc.iter().rposition(|&c| c != 0).map_or(0, |p| p / SEGMENT + 1);
        let parts: Vec<(&[i8], &[i8])> =
            self.codes[..active].iter().zip(qc.chunks(SEGMENT)).map(|(seg, qp)| (qp, seg.as_slice())).collect();
        let keep = (k * RESCORE_FACTOR).max(RESCORE_MIN);
        let int8 = |i: usize| {
            let dot: i32 =
                parts.iter().map(|(qp, seg)| super::quant::dot_i8(qp, &seg[i * qp.len()..(i + 1) * qp.len()])).sum();
            dot as f32 * self.scales[i] * qs
        };
        // Only a scope or agent filter leaves passing rows scattered (see `top_rows`).
        let scattered = filter.scopes.is_some() || filter.agent_id.is_some();
        let prefetch = |i: usize| {
            for (qp, seg) in &parts {
                super::quant::prefetch(&seg[i * qp.len()..(i + 1) * qp.len()]);
            }
        };
        let candidates = top_rows(n, keep, |i| pass(&self.rows.meta[i]), int8, scattered.then_some(prefetch));
        let mut exact: Vec<(f32, usize)> = candidates.into_iter().map(|i| (self.score_row(q, i), i)).collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0));
        exact.truncate(k);
        exact.into_iter().map(|(s, i)| (self.rows.ids[i].to_string(), f64::from(s))).collect()
    }
}

/// Passing rows whose codes a scan asks for ahead of scoring them (see `top_rows`).
const PREFETCH_AHEAD: usize = 8;

/// The `keep` rows in `0..n` that pass `pass` with the highest `score`, in no order; large scans
/// are split over two threads, each keeping `keep` (all of them go on to be rescored).
///
/// Why `prefetch`: when every row passes, the scan streams the codes and the hardware prefetcher
/// keeps ahead of it. A filter that passes a scattered part of the rows (a key reading `org` and
/// one team) breaks that stream, and each passing row then waited on memory: such a scan of a
/// fifth of the rows took longer than a scan of all of them. So the scan asks for the codes of the
/// passing rows `PREFETCH_AHEAD` ahead of the one it scores (`prefetch`: none where nearly every
/// row passes, as the hardware's own keeps up).
fn top_rows(
    n: usize,
    keep: usize,
    pass: impl Fn(usize) -> bool + Sync,
    score: impl Fn(usize) -> f32 + Sync,
    prefetch: Option<impl Fn(usize) + Sync>,
) -> Vec<usize> {
    let scan = |lo: usize, hi: usize| {
        let mut heap = BinaryHeap::with_capacity(keep + 1);
        // Passing rows in `i..ahead`, all asked for already.
        let (mut ahead, mut pending) = (lo, 0usize);
        for i in lo..hi {
            if let Some(fetch) = &prefetch {
                while pending < PREFETCH_AHEAD && ahead < hi {
                    if pass(ahead) {
                        fetch(ahead);
                        pending += 1;
                    }
                    ahead += 1;
                }
            }
            if !pass(i) {
                continue;
            }
            pending = pending.saturating_sub(1);
            let s = score(i);
            if heap.len() < keep {
                heap.push(MinScored(s, i));
            } else if heap.peek().is_some_and(|m: &MinScored| s > m.0) {
                heap.pop();
                heap.push(MinScored(s, i));
            }
        }
        heap.into_vec()
    };
    let all = if n >= 2 * PARALLEL_MIN_ROWS {
        let mid = n / 2;
        std::thread::scope(|s| {
            let h = s.spawn(|| scan(mid, n));
            let mut a = scan(0, mid);
            a.extend(h.join().unwrap_or_default());
            a
        })
    } else {
        scan(0, n)
    };
    all.into_iter().map(|m| m.1).collect()
}

/// f32 x int8 dot product (eight accumulators, so it vectorises).
#[inline]
pub fn dot_f32_i8(a: &[f32], b: &[i8]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..8 {
            acc[j] += x[j] * f32::from(y[j]);
        }
    }
    let mut s: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += x * f32::from(*y);
    }
    s
}

/// Heap entry ordered so the *smallest* score is on top (we keep the k largest).
struct MinScored(f32, usize);
impl PartialEq for MinScored {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for MinScored {}
impl PartialOrd for MinScored {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for MinScored {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter().map(|x| x / n).collect()
    }

    #[test]
    fn finds_nearest_and_filters() {
        let mut idx = FlatIndex::new("m");
        idx.upsert(
            1,
            "a",
            Facets { score: 5, status: Status::Approved, agent: "main", scope: "org", held: false },
            &unit(&[1.0, 0.0, 0.0]),
        );
        idx.upsert(
            2,
            "b",
            Facets { score: 2, status: Status::Approved, agent: "main", scope: "org", held: false },
            &unit(&[0.9, 0.1, 0.0]),
        );
        idx.upsert(
            3,
            "c",
            Facets { score: 5, status: Status::Pending, agent: "main", scope: "org", held: false },
            &unit(&[1.0, 0.0, 0.01]),
        );
        idx.upsert(
            4,
            "d",
            Facets { score: 4, status: Status::Approved, agent: "other", scope: "org", held: false },
            &unit(&[0.5, 0.5, 0.0]),
        );
        let q = unit(&[1.0, 0.0, 0.0]);
        let f = SearchFilter::default();
        let got: Vec<String> = idx.search(&q, &f, 10).into_iter().map(|x| x.0).collect();
        assert_eq!(got, vec!["a", "b", "d"], "pending c excluded");
        let f3 = SearchFilter { min_score: 3, ..Default::default() };
        assert_eq!(idx.search(&q, &f3, 10).into_iter().map(|x| x.0).collect::<Vec<_>>(), vec!["a", "d"]);
        let fa = SearchFilter { agent_id: Some("other".into()), ..Default::default() };
        assert_eq!(idx.search(&q, &fa, 10).into_iter().map(|x| x.0).collect::<Vec<_>>(), vec!["d"]);
        let fx = SearchFilter { agent_id: Some("nobody".into()), ..Default::default() };
        assert!(idx.search(&q, &fx, 10).is_empty());
        idx.set_status(3, Status::Approved);
        assert_eq!(idx.search(&q, &f, 1)[0].0, "a");
        assert_eq!(idx.search(&q, &f, 2).len(), 2);
        assert!((idx.search(&q, &f, 1)[0].1 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn parallel_scan_matches_serial_top_k() {
        let mut idx = FlatIndex::new("m");
        let n = 2 * PARALLEL_MIN_ROWS + 7;
        let mut best = (f32::MIN, String::new());
        let q = unit(&[0.3, -0.2, 0.9, 0.1]);
        for i in 0..n {
            let x = i as f32;
            let v = unit(&[(x * 0.37).sin(), (x * 0.11).cos(), (x * 0.05).sin(), 0.5]);
            let s = dot(&q, &v);
            if s > best.0 {
                best = (s, format!("id{i}"));
            }
            idx.upsert(
                i as i64,
                &format!("id{i}"),
                Facets { score: 3, status: Status::Approved, agent: "", scope: "org", held: false },
                &v,
            );
        }
        let top = idx.search(&q, &SearchFilter::default(), 5);
        assert_eq!(top.len(), 5);
        // The split scan returns the index's own top 5 (its int8 scores may swap near-ties
        // among 65k 4-d vectors relative to f32, never by more than int8 error).
        let all: Vec<String> = (0..n).map(|i| format!("id{i}")).collect();
        let mut serial: Vec<(String, f64)> =
            idx.score_ids(&q, &all).into_iter().map(|(id, b)| (id, b.dots.iter().sum())).collect();
        serial.sort_by(|a, b| b.1.total_cmp(&a.1));
        assert_eq!(top, serial[..5].to_vec());
        assert!((top[0].1 as f32 - best.0).abs() < 0.01);
        assert!(top.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    /// A filter passing a scattered part of the rows (the scan that prefetches ahead) returns the
    /// same top k as scoring every passing row, in both halves of a split scan and at their edges.
    #[test]
    fn scattered_filter_scan_matches_serial_top_k() {
        let mut idx = FlatIndex::new("m");
        let n = 2 * PARALLEL_MIN_ROWS + 11;
        let scope = |i: usize| ["org", "team/a", "team/b", "team/c"][(i * 7 + i / 3) % 4];
        let q = unit(&[0.3, -0.2, 0.9, 0.1]);
        for i in 0..n {
            let x = i as f32;
            let v = unit(&[(x * 0.37).sin(), (x * 0.11).cos(), (x * 0.05).sin(), 0.5]);
            let f = Facets { score: 3, status: Status::Approved, agent: "", scope: scope(i), held: false };
            idx.upsert(i as i64, &format!("id{i}"), f, &v);
        }
        for (allowed, k) in
            [(&["team/a", "team/c"][..], 7), (&["team/b"][..], 3), (&["org", "team/a", "team/b"][..], 64)]
        {
            let filter =
                SearchFilter { scopes: Some(allowed.iter().map(|s| s.to_string()).collect()), ..Default::default() };
            let top = idx.search(&q, &filter, k);
            let passing: Vec<String> =
                (0..n).filter(|i| allowed.contains(&scope(*i))).map(|i| format!("id{i}")).collect();
            let mut serial: Vec<(String, f64)> =
                idx.score_ids(&q, &passing).into_iter().map(|(id, b)| (id, b.dots.iter().sum())).collect();
            serial.sort_by(|a, b| b.1.total_cmp(&a.1));
            assert_eq!(top, serial[..k].to_vec(), "{allowed:?}");
        }
    }

    /// Eight independent accumulators let the compiler vectorise without `-ffast-math`.
    #[inline]
    fn dot(a: &[f32], b: &[f32]) -> f32 {
        let mut acc = [0.0f32; 8];
        let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
        let (ra, rb) = (ca.remainder(), cb.remainder());
        for (x, y) in ca.zip(cb) {
            for j in 0..8 {
                acc[j] += x[j] * y[j];
            }
        }
        let mut s: f32 = acc.iter().sum();
        for (x, y) in ra.iter().zip(rb) {
            s += x * y;
        }
        s
    }

    /// A query whose tail is zero ranks by the head only, and the scores it returns are the
    /// full-precision cosines within int8 error.
    #[test]
    fn zero_tail_query_scans_the_head_and_scores_accurately() {
        // One column block, and two (the local pair's 768 dims).
        for dim in [64, 2 * SEGMENT] {
            zero_tail_case(dim);
        }
    }

    fn zero_tail_case(dim: usize) {
        let mut idx = FlatIndex::new("m");
        let mut want = Vec::new();
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        let rows: Vec<Vec<f32>> = (0..200).map(|_| unit(&(0..dim).map(|_| rnd()).collect::<Vec<_>>())).collect();
        // The query resembles row 42's first half; its second half is zero.
        let q = unit(&(0..dim).map(|i| if i < dim / 2 { rows[42][i] + 0.3 * rnd() } else { 0.0 }).collect::<Vec<_>>());
        for (r, v) in rows.iter().enumerate() {
            want.push((dot(&q, v), format!("r{r}")));
            idx.upsert(
                r as i64,
                &format!("r{r}"),
                Facets { score: 3, status: Status::Approved, agent: "", scope: "org", held: false },
                v,
            );
        }
        want.sort_by(|a, b| b.0.total_cmp(&a.0));
        let got = idx.search(&q, &SearchFilter::default(), 5);
        assert_eq!(got[0].0, want[0].1, "{got:?} {:?}", &want[..3]);
        for (id, s) in &got {
            let exact = want.iter().find(|w| &w.1 == id).unwrap().0;
            assert!((*s as f32 - exact).abs() < 5e-3, "{id}: {s} vs {exact}");
        }
        let ids: Vec<String> = want.iter().take(3).map(|w| w.1.clone()).collect();
        for ((id, s), w) in idx.score_ids(&q, &ids).iter().zip(&want) {
            assert_eq!(id, &w.1);
            let v = &rows[id[1..].parse::<usize>().unwrap()];
            // One dot product and one norm per column block; the blocks add up to the whole.
            assert_eq!((s.dots.len(), s.norms.len()), (dim.div_ceil(SEGMENT), dim.div_ceil(SEGMENT)));
            assert!((s.dots.iter().sum::<f64>() as f32 - w.0).abs() < 5e-3);
            for (b, (d, n)) in s.dots.iter().zip(&s.norms).enumerate() {
                let r = b * SEGMENT..((b + 1) * SEGMENT).min(dim);
                assert!((*d as f32 - dot(&q[r.clone()], &v[r.clone()])).abs() < 5e-3);
                assert!((*n as f32 - dot(&v[r.clone()], &v[r]).sqrt()).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn dot_handles_remainders() {
        let a: Vec<f32> = (0..13).map(|i| i as f32).collect();
        let b = vec![1.0f32; 13];
        assert_eq!(dot(&a, &b), 78.0);
    }
}
