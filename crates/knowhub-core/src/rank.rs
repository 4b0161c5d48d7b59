//! Ranking, shared by every backend (only candidate retrieval differs), as one pure pipeline:
//!
//! 1. `fuse`: per-query normalised BM25 and vector scores, combined (the order of relevance);
//! 2. `calibrate`: each candidate's absolute relevance, roughly the probability that it answers
//!    the query, from raw signals that mean the same for every query, language and hub size
//!    (docs/ranking.md §5);
//! 3. `order_score`: the fusion score (by default half the relevance of stage 2) times the
//!    record's priors (rating, confirmations, outcome feedback, temporal decay from its last
//!    confirmation);
//! 4. `select`: drop what is below `min_relevance`, optional MMR, cut to `top_k`.
//!
//! `rank` runs them in order. Each stage is a plain function, unit-tested with hand-computed values.
//!
//! BM25 normalisation: the seed's `1/(1+max(0,rank))` maps every FTS5 hit (FTS5 ranks are
//! negative) to 1.0, discarding the ranking. We negate FTS5's rank to get a positive BM25 `s` and
//! divide by the best `s` of the query, so the best text hit scores 1.0 and the others keep their
//! BM25 proportions. Cosine scores are min-max normalised over the vector candidate pool, because
//! sentence-embedding cosines crowd into a narrow band (0.75-0.9 for E5) and would otherwise be
//! drowned by the text signal in a weighted sum.

use std::collections::HashSet;

/// How text and vector candidates are combined. Chosen once from config.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Fusion {
    /// `vector·v̂ + text·t̂` over per-query-normalised scores (seed 002 §7.6, normalised properly).
    Weighted { vector: f64, text: f64 },
    /// Reciprocal-rank fusion: `Σ 1/(k + rank)`, rescaled so a document ranked first in every list scores 1.
    Rrf { k: f64 },
    /// `Weighted`, with the text weight scaled per query by how much the two lists agree: the
    /// share of the text list's top 10 that is also in the vector list's top 10. Lists that agree
    /// are fused as `Weighted`; when full text finds other things than the vectors, it is
    /// trusted less. (The vector signal is the stronger one on every benchmark set.)
    Agreement { vector: f64, text: f64 },
    /// `relevance·r + vector·v̂ + text·t̂` (weights summing to 1 after scaling): the calibrated
    /// relevance (stage 2, absolute: one candidate's standing does not depend on the others in
    /// the pool, so the priors can lift any of them) beside `Weighted`'s per-query parts.
    /// `vector: 0, text: 0` orders by relevance alone.
    Calibrated { relevance: f64, vector: f64, text: f64 },
}

/// How many leading ids of each list `Fusion::Agreement` compares.
const AGREEMENT_DEPTH: usize = 10;

/// Share of `a`'s top candidates that are also among `b`'s top ones (0 when either is empty).
fn agreement(a: &[(usize, f64)], b: &[(usize, f64)]) -> f64 {
    let n = AGREEMENT_DEPTH.min(a.len()).min(b.len());
    if n == 0 {
        return 0.0;
    }
    let top_b: HashSet<usize> = b.iter().take(n).map(|(i, _)| *i).collect();
    a.iter().take(n).filter(|(i, _)| top_b.contains(i)).count() as f64 / n as f64
}

impl Default for Fusion {
    /// Half calibrated relevance, half `Weighted` 0.8 / 0.2 (of the weighted fusions evaluated on
    /// CoSQA, ATEC and LCQMC, the one whose worst margin over the better single signal is
    /// largest). The absolute half lets feedback lift any candidate, however small the pool, and
    /// keeps order and relevance in step; the per-query half keeps nDCG@10 within 0.002 of
    /// `Weighted` alone on every set (docs/ranking.md §4).
    fn default() -> Self {
        Fusion::Calibrated { relevance: 0.5, vector: 0.4, text: 0.1 }
    }
}

/// Maps positive BM25 scores (higher = better) to (0, 1], the best being 1.
pub fn normalize_bm25(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().copied().fold(0.0_f64, f64::max);
    if max <= 0.0 {
        return scores.iter().map(|_| 1.0).collect();
    }
    scores.iter().map(|s| (s / max).clamp(0.0, 1.0)).collect()
}

/// Min-max normalises cosine scores over the candidate pool into [0, 1]. A pool whose scores are
/// (nearly) all equal carries no ordering information: every candidate gets its raw cosine clamped.
pub fn normalize_cosine(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    if max - min <= 1e-6 || !max.is_finite() || !min.is_finite() {
        return scores.iter().map(|s| s.clamp(0.0, 1.0)).collect();
    }
    scores.iter().map(|s| (s - min) / (max - min)).collect()
}

/// One signal's list: the candidates it scored, best first, with their normalised scores.
fn signal_list(scores: &[Option<f64>], normalize: fn(&[f64]) -> Vec<f64>) -> Vec<(usize, f64)> {
    let mut list: Vec<(usize, f64)> = scores.iter().enumerate().filter_map(|(i, s)| s.map(|s| (i, s))).collect();
    list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let norm = normalize(&list.iter().map(|x| x.1).collect::<Vec<_>>());
    list.iter().zip(norm).map(|((i, _), n)| (*i, n)).collect()
}

/// Stage 1. Fuses each candidate's text score (raw BM25) and vector score (cosine), `None` where
/// a signal did not score it, into a per-query relevance in [0, 1]: the order fusion ranks by.
pub fn fuse(text: &[Option<f64>], vector: &[Option<f64>], fusion: Fusion) -> Vec<f64> {
    let n = text.len().max(vector.len());
    let t = signal_list(text, normalize_bm25);
    let v = signal_list(vector, normalize_cosine);
    let mut tn = vec![0.0; n];
    let mut vn = vec![0.0; n];
    let mut rrf = vec![0.0; n];
    for (list, norm) in [(&t, &mut tn), (&v, &mut vn)] {
        for (rank, (i, s)) in list.iter().enumerate() {
            norm[*i] = *s;
            if let Fusion::Rrf { k } = fusion {
                rrf[*i] += 1.0 / (k + rank as f64 + 1.0);
            }
        }
    }
    let lists = (!t.is_empty()) as u8 + (!v.is_empty()) as u8;
    let (wv, wt) = match fusion {
        Fusion::Weighted { vector, text } => (vector, text),
        Fusion::Agreement { vector: wv, text: wt } => (wv, wt * agreement(&t, &v)),
        Fusion::Calibrated { vector, text, .. } => (vector, text),
        Fusion::Rrf { .. } => (0.0, 0.0),
    };
    (0..n)
        .map(|i| match fusion {
            // With one signal missing entirely (no embedder, or no text match at all), the
            // other carries the full weight so relevance stays on the same 0-1 scale.
            // (For `Calibrated` this is the part beside relevance; `rank` adds relevance.)
            Fusion::Weighted { .. } | Fusion::Agreement { .. } | Fusion::Calibrated { .. } => {
                match (t.is_empty(), v.is_empty()) {
                    (false, true) => tn[i],
                    (true, false) => vn[i],
                    _ => (wv * vn[i] + wt * tn[i]) / (wv + wt).max(f64::EPSILON),
                }
            }
            Fusion::Rrf { k } => rrf[i] * (k + 1.0) / f64::from(lists.max(1)),
        })
        .collect()
}

/// Exponential decay with the given half-life: 1 at age 0, 0.5 at one half-life.
pub fn temporal_decay(age_days: f64, half_life_days: f64) -> f64 {
    if half_life_days <= 0.0 {
        return 1.0;
    }
    let lambda = std::f64::consts::LN_2 / half_life_days;
    (-lambda * age_days.max(0.0)).exp()
}

/// The quality prior in [-0.5, 1]: rating 1..5 maps to -0.5..0.5, plus up to 0.5 for
/// confirmations (log10, so 10 independent confirmations give the full 0.5).
pub fn quality_prior(score: u8, confirmations: u32) -> f64 {
    let rating = (f64::from(score.clamp(1, 5)) - 3.0) / 4.0;
    let conf = (f64::from(confirmations.max(1))).log10().min(1.0) * 0.5;
    rating + conf
}

/// Jaccard similarity of two token sets (MMR's redundancy measure, as in the host's memory search).
pub fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let inter = a.intersection(b).count() as f64;
    let union = (a.len() + b.len()) as f64 - inter;
    if union == 0.0 {
        0.0
    } else {
        inter / union
    }
}

/// Maximal marginal relevance (Carbonell & Goldstein 1998): greedily picks the item maximising
/// `λ·relevance − (1−λ)·max_similarity_to_already_picked`. Returns indices into `relevance`.
pub fn mmr(relevance: &[f64], similarity: impl Fn(usize, usize) -> f64, lambda: f64, k: usize) -> Vec<usize> {
    let mut picked: Vec<usize> = Vec::with_capacity(k.min(relevance.len()));
    let mut left: Vec<usize> = (0..relevance.len()).collect();
    while picked.len() < k && !left.is_empty() {
        let mut best = (0usize, f64::NEG_INFINITY);
        for (pos, &i) in left.iter().enumerate() {
            let redundancy = picked.iter().map(|&j| similarity(i, j)).fold(0.0, f64::max);
            let score = lambda * relevance[i] - (1.0 - lambda) * redundancy;
            if score > best.1 {
                best = (pos, score);
            }
        }
        picked.push(left.remove(best.0));
    }
    picked
}

/// A candidate's vector scores, read off the store's per-block scores by the embedder
/// (`QueryVectors::dense` in knowhub-ai).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dense {
    /// The cosine fusion ranks by (over the parts of the query vector that score).
    pub fused: f64,
    /// The primary (multilingual) model's own cosine.
    pub primary: f64,
    /// The English model's own cosine, for an English query against a record that has its part.
    pub english: Option<f64>,
    /// How far apart the query's and the record's scripts are: |Latin share of the query −
    /// Latin share of the record|, 0 (same script) to 1 (English against Chinese); 0 when the
    /// embedder cannot tell. Cross-lingual cosines run on a lower scale, so the same cosine
    /// means more across languages than within one (docs/ranking.md §5).
    pub script_gap: f64,
}

/// The record's own evidence: it orders results, it is not relevance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    pub rating: u8,
    /// Distinct confirmers.
    pub confirmations: u32,
    pub helped: u32,
    pub failed: u32,
    /// Agents report it failing (`FeedbackCounts::disputed`).
    pub disputed: bool,
    /// Days since it was last confirmed (or created).
    pub age_days: f64,
}

impl Default for Prior {
    fn default() -> Self {
        Prior { rating: 3, confirmations: 1, helped: 0, failed: 0, disputed: false, age_days: 0.0 }
    }
}

/// Everything the ranking knows of one candidate, raw.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// BM25 for the query (`None`: no query token in it, or no full text).
    pub bm25: Option<f64>,
    /// `None`: no vector yet, or no embedder.
    pub dense: Option<Dense>,
    /// Share of the query's tokens the record holds (`text::coverage`).
    pub coverage: f64,
    /// An experience (it has a result), or question-shaped text (an import with a task only):
    /// their cosines to a question run on different scales, so each has its own calibration.
    pub experience: bool,
    pub prior: Prior,
}

/// How outcome votes move the order: helpfulness is estimated as `(helped + s/2) / (helped +
/// failed + s)`, the vote counts shrunk towards "unknown" (½) by `s` pseudo-votes, so a few votes
/// move it little and many move it much; the order is multiplied by `1 + weight·(2h − 1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeedbackPrior {
    pub pseudo_votes: f64,
    pub weight: f64,
    /// Multiplies the order of a disputed record.
    pub dispute_factor: f64,
}

impl Default for FeedbackPrior {
    fn default() -> Self {
        FeedbackPrior { pseudo_votes: 4.0, weight: 1.0, dispute_factor: 0.5 }
    }
}

impl FeedbackPrior {
    /// The shrunk helpfulness estimate in (0, 1); ½ without votes.
    pub fn helpfulness(&self, helped: u32, failed: u32) -> f64 {
        let s = self.pseudo_votes.max(0.0);
        let n = f64::from(helped) + f64::from(failed) + s;
        if n <= 0.0 {
            return 0.5;
        }
        (f64::from(helped) + s / 2.0) / n
    }

    /// The factor the order is multiplied by (1 without votes).
    pub fn factor(&self, p: &Prior) -> f64 {
        let h = self.helpfulness(p.helped, p.failed);
        let f = (1.0 + self.weight * (2.0 * h - 1.0)).max(0.0);
        if p.disputed {
            f * self.dispute_factor
        } else {
            f
        }
    }
}

/// Everything `rank` needs besides the candidates, from config and the request.
#[derive(Debug, Clone, PartialEq)]
pub struct RankParams {
    pub fusion: Fusion,
    pub calibration: crate::calibrate::Calibration,
    /// Weight of the rating/confirmations prior (0 = off).
    pub quality_weight: f64,
    pub feedback: FeedbackPrior,
    pub decay_half_life_days: Option<f64>,
    /// Hits whose relevance is below this are not returned.
    pub min_relevance: f64,
    pub top_k: usize,
    pub mmr_lambda: Option<f64>,
}

/// A candidate in the final order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    /// Index into the candidates given to `rank`.
    pub index: usize,
    /// Per-query fusion score (stage 1).
    pub fused: f64,
    /// Calibrated relevance (stage 2): what clients see and `min_relevance` filters on.
    pub relevance: f64,
    /// The fusion score times the record's priors (stage 3): the order.
    pub order: f64,
}

/// Stage 3. The fusion score times the record's priors: rating and confirmations (at most
/// −5%..+10% at the default weight), outcome feedback, and decay from the last confirmation.
/// With `Fusion::Calibrated` (the default) the fusion score already holds the relevance.
pub fn order_score(fused: f64, p: &Prior, params: &RankParams) -> f64 {
    let mut o = fused * (1.0 + params.quality_weight * quality_prior(p.rating, p.confirmations));
    o *= params.feedback.factor(p);
    if let Some(h) = params.decay_half_life_days {
        o *= temporal_decay(p.age_days, h);
    }
    o
}

/// Relevance as clients see it, to four decimals. `select` compares `min_relevance` with this,
/// so a caller who asks for a hit's own shown relevance keeps that hit.
pub fn shown_relevance(relevance: f64) -> f64 {
    (relevance * 10_000.0).round() / 10_000.0
}

/// Stage 4. Drops what is below `min_relevance` (as shown: `shown_relevance`), then picks
/// `top_k` by order, or by MMR over the order when `mmr_lambda` is set (`similarity` compares two
/// candidates by index).
/// Relevance is absolute and the order relative (fusion weighs every candidate of the query),
/// so relevance need not decrease down the list; each hit is kept or dropped on its own.
pub fn select(mut ranked: Vec<Ranked>, params: &RankParams, similarity: &dyn Fn(usize, usize) -> f64) -> Vec<Ranked> {
    ranked.retain(|r| shown_relevance(r.relevance) >= params.min_relevance);
    ranked.sort_by(|a, b| b.order.total_cmp(&a.order).then(a.index.cmp(&b.index)));
    match params.mmr_lambda {
        Some(lambda) if ranked.len() > 1 => {
            let max = ranked[0].order.max(f64::EPSILON);
            let rel: Vec<f64> = ranked.iter().map(|r| r.order / max).collect();
            let picked = mmr(&rel, |i, j| similarity(ranked[i].index, ranked[j].index), lambda, params.top_k);
            picked.into_iter().map(|i| ranked[i]).collect()
        }
        _ => {
            ranked.truncate(params.top_k);
            ranked
        }
    }
}

/// The whole pipeline: fuse, calibrate, order, select. `similarity` is only called with MMR on.
pub fn rank(cands: &[Candidate], params: &RankParams, similarity: &dyn Fn(usize, usize) -> f64) -> Vec<Ranked> {
    let text: Vec<Option<f64>> = cands.iter().map(|c| c.bm25).collect();
    let vector: Vec<Option<f64>> = cands.iter().map(|c| c.dense.map(|d| d.fused)).collect();
    let fused = fuse(&text, &vector, params.fusion);
    let ranked = cands
        .iter()
        .zip(fused)
        .enumerate()
        .map(|(index, (c, fused))| {
            let relevance = params.calibration.relevance(c);
            let fused = match params.fusion {
                Fusion::Calibrated { relevance: wr, vector: wv, text: wt } => {
                    let rest = wv + wt;
                    (wr * relevance + rest * fused) / (wr + rest).max(f64::EPSILON)
                }
                _ => fused,
            };
            Ranked { index, fused, relevance, order: order_score(fused, &c.prior, params) }
        })
        .collect();
    select(ranked, params, similarity)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[(&str, f64)]) -> Vec<(String, f64)> {
        v.iter().map(|(i, s)| (i.to_string(), *s)).collect()
    }

    #[derive(Debug)]
    struct F {
        id: String,
        relevance: f64,
    }

    /// `fuse` over candidates named by the two lists, best first (ties in order of appearance).
    fn fuse_ids(text: &[(String, f64)], vector: &[(String, f64)], fusion: Fusion) -> Vec<F> {
        let mut names: Vec<String> = Vec::new();
        for (id, _) in text.iter().chain(vector) {
            if !names.contains(id) {
                names.push(id.clone());
            }
        }
        let find = |l: &[(String, f64)], n: &str| l.iter().find(|(i, _)| i == n).map(|x| x.1);
        let t: Vec<Option<f64>> = names.iter().map(|n| find(text, n)).collect();
        let v: Vec<Option<f64>> = names.iter().map(|n| find(vector, n)).collect();
        let mut out: Vec<F> =
            names.into_iter().zip(fuse(&t, &v, fusion)).map(|(id, relevance)| F { id, relevance }).collect();
        out.sort_by(|a, b| b.relevance.total_cmp(&a.relevance));
        out
    }

    #[test]
    fn bm25_keeps_proportions() {
        assert_eq!(normalize_bm25(&[8.0, 4.0, 2.0]), vec![1.0, 0.5, 0.25]);
        assert_eq!(normalize_bm25(&[]), Vec::<f64>::new());
        assert_eq!(normalize_bm25(&[0.0]), vec![1.0]);
    }

    #[test]
    fn cosine_min_max() {
        let n = normalize_cosine(&[0.9, 0.85, 0.8]);
        assert!((n[0] - 1.0).abs() < 1e-12 && (n[1] - 0.5).abs() < 1e-9 && n[2].abs() < 1e-12);
        assert_eq!(normalize_cosine(&[0.7, 0.7]), vec![0.7, 0.7]);
    }

    #[test]
    fn weighted_fusion_hand_computed() {
        // text: A=10, C=5  -> A 1.0, C 0.5
        // vec:  A=0.9, B=0.8, D=0.7 -> A 1.0, B 0.5, D 0.0
        let text = ids(&[("A", 10.0), ("C", 5.0)]);
        let vec = ids(&[("A", 0.9), ("B", 0.8), ("D", 0.7)]);
        let f = fuse_ids(&text, &vec, Fusion::Weighted { vector: 0.7, text: 0.3 });
        let got: Vec<(&str, f64)> = f.iter().map(|x| (x.id.as_str(), x.relevance)).collect();
        // A = 0.7*1 + 0.3*1 = 1.0; B = 0.7*0.5 = 0.35; C = 0.3*0.5 = 0.15; D = 0
        let want = [("A", 1.0), ("B", 0.35), ("C", 0.15), ("D", 0.0)];
        assert_eq!(got.len(), 4);
        for ((gi, gs), (wi, ws)) in got.iter().zip(want) {
            assert_eq!(*gi, wi);
            assert!((gs - ws).abs() < 1e-9, "{gi}: {gs} vs {ws}");
        }
    }

    #[test]
    fn single_signal_keeps_full_scale() {
        let text = ids(&[("A", 6.0), ("B", 3.0)]);
        let f = fuse_ids(&text, &[], Fusion::default());
        assert_eq!(f[0].relevance, 1.0);
        assert_eq!(f[1].relevance, 0.5);
    }

    #[test]
    fn agreement_fusion_scales_text_weight_by_top_list_overlap() {
        let vec = ids(&[("A", 0.9), ("B", 0.8), ("C", 0.7)]);
        let w = Fusion::Weighted { vector: 0.7, text: 0.3 };
        let a = Fusion::Agreement { vector: 0.7, text: 0.3 };
        // Same members: fused exactly as Weighted.
        let same = ids(&[("B", 6.0), ("A", 3.0), ("C", 1.0)]);
        let (fw, fa) = (fuse_ids(&same, &vec, w), fuse_ids(&same, &vec, a));
        for (x, y) in fw.iter().zip(&fa) {
            assert_eq!(x.id, y.id);
            assert!((x.relevance - y.relevance).abs() < 1e-12);
        }
        // Disjoint lists: text gets no weight, the vector order stands.
        let other = ids(&[("X", 9.0), ("Y", 1.0)]);
        let f = fuse_ids(&other, &vec, a);
        assert_eq!(f[0].id, "A");
        assert!((f[0].relevance - 1.0).abs() < 1e-12);
        assert!(f.iter().filter(|x| x.id == "X" || x.id == "Y").all(|x| x.relevance == 0.0));
        // One of two shared: half the text weight (B: 0.7*0.5 + 0.15*1 over 0.85).
        let half = ids(&[("B", 4.0), ("Z", 2.0)]);
        let vec2 = ids(&[("A", 0.9), ("B", 0.8), ("C", 0.7)]);
        let f = fuse_ids(&half, &vec2[..2], a);
        let b = f.iter().find(|x| x.id == "B").unwrap();
        assert!((b.relevance - (0.7 * 0.0 + 0.15 * 1.0) / 0.85).abs() < 1e-12, "{f:?}");
    }

    #[test]
    fn rrf_hand_computed() {
        let text = ids(&[("A", 3.0), ("B", 2.0)]);
        let vec = ids(&[("B", 0.9), ("C", 0.8)]);
        let f = fuse_ids(&text, &vec, Fusion::Rrf { k: 60.0 });
        // B: 1/62 + 1/61; A: 1/61; C: 1/62; rescaled by (k+1)/2
        let scale = 61.0 / 2.0;
        assert_eq!(f[0].id, "B");
        assert!((f[0].relevance - (1.0 / 62.0 + 1.0 / 61.0) * scale).abs() < 1e-12);
        assert_eq!(f[1].id, "A");
        assert!((f[1].relevance - scale / 61.0).abs() < 1e-12);
        assert_eq!(f[2].id, "C");
    }

    #[test]
    fn decay_hand_computed() {
        assert_eq!(temporal_decay(0.0, 30.0), 1.0);
        assert!((temporal_decay(30.0, 30.0) - 0.5).abs() < 1e-12);
        assert!((temporal_decay(60.0, 30.0) - 0.25).abs() < 1e-12);
        assert!((temporal_decay(10.0, 30.0) - 0.5f64.powf(1.0 / 3.0)).abs() < 1e-12);
        assert_eq!(temporal_decay(-5.0, 30.0), 1.0, "future dates do not boost");
        assert_eq!(temporal_decay(100.0, 0.0), 1.0, "half-life 0 disables decay");
    }

    #[test]
    fn quality_prior_range() {
        assert_eq!(quality_prior(3, 1), 0.0);
        assert_eq!(quality_prior(5, 1), 0.5);
        assert_eq!(quality_prior(1, 1), -0.5);
        assert!((quality_prior(3, 10) - 0.5).abs() < 1e-12);
        assert!((quality_prior(5, 1000) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn jaccard_values() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<HashSet<_>>();
        assert_eq!(jaccard(&s(&["a", "b"]), &s(&["b", "c"])), 1.0 / 3.0);
        assert_eq!(jaccard(&s(&["a"]), &s(&["b"])), 0.0);
        assert_eq!(jaccard(&s(&["a", "b"]), &s(&["a", "b"])), 1.0);
    }

    #[test]
    fn mmr_hand_computed() {
        // relevance: 0:1.0, 1:0.9, 2:0.5 ; 0 and 1 are near-duplicates (sim 0.9), 2 is different.
        let rel = [1.0, 0.9, 0.5];
        let sim = |i: usize, j: usize| if (i, j) == (0, 1) || (i, j) == (1, 0) { 0.9 } else { 0.0 };
        // λ=0.7: pick 0 (0.7). Then 1: 0.63-0.27=0.36; 2: 0.35-0 = 0.35 -> 1 wins narrowly.
        assert_eq!(mmr(&rel, sim, 0.7, 3), vec![0, 1, 2]);
        // λ=0.5: after 0: 1 -> 0.45-0.45=0; 2 -> 0.25 -> 2 first.
        assert_eq!(mmr(&rel, sim, 0.5, 3), vec![0, 2, 1]);
        // λ=1 is plain relevance order; k truncates.
        assert_eq!(mmr(&rel, sim, 1.0, 2), vec![0, 1]);
    }

    fn params() -> RankParams {
        RankParams {
            fusion: Fusion::Weighted { vector: 0.8, text: 0.2 },
            calibration: crate::calibrate::Calibration::LocalPair,
            quality_weight: 0.1,
            feedback: FeedbackPrior::default(),
            decay_half_life_days: None,
            min_relevance: 0.0,
            top_k: 10,
            mmr_lambda: None,
        }
    }

    fn cand(bm25: Option<f64>, cos: Option<f64>, coverage: f64) -> Candidate {
        Candidate {
            experience: false,
            bm25,
            dense: cos.map(|c| Dense { fused: c, primary: c, english: None, script_gap: 0.0 }),
            coverage,
            prior: Prior::default(),
        }
    }

    #[test]
    fn feedback_prior_shrinks_few_votes() {
        let f = FeedbackPrior { pseudo_votes: 4.0, weight: 1.0, dispute_factor: 0.5 };
        assert_eq!(f.helpfulness(0, 0), 0.5);
        // (0 + 2) / (1 + 4) = 0.4 -> factor 1 + (0.8 - 1) = 0.8
        assert!((f.helpfulness(0, 1) - 0.4).abs() < 1e-12);
        let p = |helped, failed, disputed| Prior { helped, failed, disputed, ..Prior::default() };
        assert!((f.factor(&p(0, 1, false)) - 0.8).abs() < 1e-12);
        // 3 failures: 2/7 -> 1 + (4/7 - 1) = 4/7; disputed halves it.
        assert!((f.factor(&p(0, 3, false)) - 4.0 / 7.0).abs() < 1e-12);
        assert!((f.factor(&p(0, 3, true)) - 2.0 / 7.0).abs() < 1e-12);
        // 6 helped: 8/10 -> 1.6
        assert!((f.factor(&p(6, 0, false)) - 1.6).abs() < 1e-12);
        assert_eq!(f.factor(&p(0, 0, false)), 1.0, "no votes, no change");
        let off = FeedbackPrior { weight: 0.0, ..f };
        assert_eq!(off.factor(&p(0, 9, false)), 1.0);
    }

    #[test]
    fn order_score_hand_computed() {
        let mut pr = params();
        let p = Prior { rating: 5, confirmations: 10, helped: 0, failed: 1, disputed: false, age_days: 30.0 };
        // fused 0.5 x (1 + 0.1 x (0.5 + 0.5)) x 0.8 = 0.44; with 30-day half-life decay x 0.5 = 0.22
        assert!((order_score(0.5, &p, &pr) - 0.44).abs() < 1e-12);
        pr.decay_half_life_days = Some(30.0);
        assert!((order_score(0.5, &p, &pr) - 0.22).abs() < 1e-12);
    }

    #[test]
    fn select_filters_then_cuts() {
        let r = |index, relevance, order| Ranked { index, fused: order, relevance, order };
        let ranked = vec![r(0, 0.9, 0.5), r(1, 0.01, 0.9), r(2, 0.3, 0.7), r(3, 0.5, 0.6)];
        let mut p = params();
        p.min_relevance = 0.02;
        p.top_k = 2;
        let got: Vec<usize> = select(ranked.clone(), &p, &|_, _| 0.0).iter().map(|x| x.index).collect();
        assert_eq!(got, vec![2, 3], "1 is below min_relevance even though it orders first");
        p.min_relevance = 0.95;
        assert!(select(ranked, &p, &|_, _| 0.0).is_empty(), "nothing relevant is an answer");
        // A hit's shown relevance, asked for as the floor, keeps it even where showing rounds up.
        let hit = vec![r(0, 0.98765, 0.5)];
        p.min_relevance = shown_relevance(0.98765);
        assert_eq!(p.min_relevance, 0.9877);
        assert_eq!(select(hit, &p, &|_, _| 0.0).len(), 1);
    }

    #[test]
    fn rank_end_to_end() {
        // Fusion: bm25 A=10, B=5 -> 1.0, 0.5; cos A=0.95, B=0.85, C=0.90 -> 1.0, 0.0, 0.5
        // fused: A = 1.0; B = 0.2*0.5 = 0.1; C = 0.8*0.5 = 0.4 -> order A, C, B.
        let c = vec![cand(Some(10.0), Some(0.95), 1.0), cand(Some(5.0), Some(0.85), 0.5), cand(None, Some(0.90), 0.0)];
        let r = rank(&c, &params(), &|_, _| 0.0);
        assert_eq!(r.iter().map(|x| x.index).collect::<Vec<_>>(), vec![0, 2, 1]);
        assert!(
            (r[0].fused - 1.0).abs() < 1e-12 && (r[1].fused - 0.4).abs() < 1e-12 && (r[2].fused - 0.1).abs() < 1e-12
        );
        for x in &r {
            assert_eq!(x.relevance, crate::calibrate::Calibration::LocalPair.relevance(&c[x.index]));
        }
        // A failure report on A lets C overtake it only once it outweighs the fusion gap.
        let mut c2 = c.clone();
        c2[0].prior = Prior { failed: 3, disputed: true, ..Prior::default() };
        let r2 = rank(&c2, &params(), &|_, _| 0.0);
        assert_eq!(r2[0].index, 2, "disputed: 1.0 x 2/7 < 0.4");
        assert_eq!(r2[0].relevance, r[1].relevance, "feedback orders; it does not change relevance");
    }

    #[test]
    fn relevance_in_the_order_lets_feedback_lift_the_last_of_two() {
        use crate::calibrate::Calibration;
        // Two look-alike experiences, both relevant. Min-max over a pool of two puts B's vector
        // part at 0 and its text part at 0.5, so `Weighted` gives A 1.0 and B 0.1.
        let mut c = vec![cand(Some(10.0), Some(0.95), 1.0), cand(Some(5.0), Some(0.94), 1.0)];
        for x in &mut c {
            x.experience = true;
        }
        let rel: Vec<f64> = c.iter().map(|x| Calibration::LocalPair.relevance(x)).collect();
        assert!(rel[1] > 0.5, "both read as answers: {rel:?}");
        // Three agents report A failed (disputed) and B helped.
        c[0].prior = Prior { failed: 3, disputed: true, ..Prior::default() };
        c[1].prior = Prior { helped: 3, ..Prior::default() };
        let weighted = rank(&c, &params(), &|_, _| 0.0);
        assert_eq!(weighted[0].index, 0, "per-query fusion alone: B's 0.1 x 10/7 stays below A's 1.0 x 2/7");
        let blended = Fusion::Calibrated { relevance: 0.5, vector: 0.4, text: 0.1 };
        assert_eq!(blended, Fusion::default());
        let r = rank(&c, &RankParams { fusion: blended, ..params() }, &|_, _| 0.0);
        assert_eq!(r[0].index, 1, "with relevance in the order the helpful one comes first");
        // The order without priors: 0.5·relevance + 0.5·weighted fusion (A 1.0, B 0.1).
        let base = [0.5 * rel[0] + 0.5, 0.5 * rel[1] + 0.05];
        for x in &r {
            assert!((x.fused - base[x.index]).abs() < 1e-12, "{x:?}");
        }
    }
}
