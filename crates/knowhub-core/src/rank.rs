//! Candidate fusion and re-ranking, shared by every backend (only candidate retrieval differs).
//!
//! Pipeline: text candidates (BM25) and vector candidates (cosine), each `top_k × multiplier`
//! long, are normalised per query, unioned by id and fused; then optional temporal decay, then an
//! optional quality prior (rating and confirmations), then optional MMR for diversity.
//!
//! BM25 normalisation: the seed's `1/(1+max(0,rank))` maps every FTS5 hit (FTS5 ranks are
//! negative) to 1.0, discarding the ranking. We negate FTS5's rank to get a positive BM25 `s` and
//! divide by the best `s` of the query, so the best text hit scores 1.0 and the others keep their
//! BM25 proportions. Cosine scores are min-max normalised over the vector candidate pool, because
//! sentence-embedding cosines crowd into a narrow band (0.75-0.9 for E5) and would otherwise be
//! drowned by the text signal in a weighted sum.

use std::collections::{HashMap, HashSet};

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
}

/// How many leading ids of each list `Fusion::Agreement` compares.
const AGREEMENT_DEPTH: usize = 10;

/// Share of `a`'s top ids that are also among `b`'s top ids (0 when either is empty).
fn agreement(a: &[(String, f64)], b: &[(String, f64)]) -> f64 {
    let n = AGREEMENT_DEPTH.min(a.len()).min(b.len());
    if n == 0 {
        return 0.0;
    }
    let top_b: HashSet<&str> = b.iter().take(n).map(|(i, _)| i.as_str()).collect();
    a.iter().take(n).filter(|(i, _)| top_b.contains(i.as_str())).count() as f64 / n as f64
}

impl Default for Fusion {
    /// 0.8 / 0.2: of the fusions evaluated on all three benchmark sets (CoSQA, ATEC, LCQMC), the
    /// one whose worst margin over the better single signal is largest (docs/ranking.md §3).
    fn default() -> Self {
        Fusion::Weighted { vector: 0.8, text: 0.2 }
    }
}

/// A candidate after fusion. `text`/`vector` are the normalised per-signal scores (0 when absent).
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub id: String,
    pub relevance: f64,
    pub text: f64,
    pub vector: f64,
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

/// Fuses text candidates `(id, bm25)` and vector candidates `(id, cosine)`, both best-first.
pub fn fuse(text: &[(String, f64)], vector: &[(String, f64)], fusion: Fusion) -> Vec<Fused> {
    let mut by_id: HashMap<&str, Fused> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    let tn = normalize_bm25(&text.iter().map(|(_, s)| *s).collect::<Vec<_>>());
    let vn = normalize_cosine(&vector.iter().map(|(_, s)| *s).collect::<Vec<_>>());
    // One pass per signal; `is_text` says which score field the normalised value lands in.
    for (list, norm, is_text) in [(text, &tn, true), (vector, &vn, false)] {
        for (rank, ((id, _), s)) in list.iter().zip(norm).enumerate() {
            let e = by_id.entry(id).or_insert_with(|| {
                order.push(id);
                Fused { id: id.clone(), relevance: 0.0, text: 0.0, vector: 0.0 }
            });
            if is_text {
                e.text = *s;
            } else {
                e.vector = *s;
            }
            if let Fusion::Rrf { k } = fusion {
                e.relevance += 1.0 / (k + rank as f64 + 1.0);
            }
        }
    }
    let lists = (!text.is_empty()) as u8 + (!vector.is_empty()) as u8;
    let (wv, wt) = match fusion {
        Fusion::Weighted { vector, text } => (vector, text),
        Fusion::Agreement { vector: v, text: t } => (v, t * agreement(text, vector)),
        Fusion::Rrf { .. } => (0.0, 0.0),
    };
    let mut out: Vec<Fused> = order
        .into_iter()
        .map(|id| {
            let mut f = by_id.remove(id).expect("id recorded in order");
            f.relevance = match fusion {
                Fusion::Weighted { .. } | Fusion::Agreement { .. } => {
                    // With one signal missing entirely (no embedder, or no text match at all), the
                    // other carries the full weight so relevance stays on the same 0-1 scale.
                    match (text.is_empty(), vector.is_empty()) {
                        (false, true) => f.text,
                        (true, false) => f.vector,
                        _ => (wv * f.vector + wt * f.text) / (wv + wt).max(f64::EPSILON),
                    }
                }
                Fusion::Rrf { k } => f.relevance * (k + 1.0) / lists.max(1) as f64,
            };
            f
        })
        .collect();
    sort_desc(&mut out, |f| f.relevance);
    out
}

fn sort_desc<T>(v: &mut [T], key: impl Fn(&T) -> f64) {
    v.sort_by(|a, b| key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[(&str, f64)]) -> Vec<(String, f64)> {
        v.iter().map(|(i, s)| (i.to_string(), *s)).collect()
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
        let f = fuse(&text, &vec, Fusion::Weighted { vector: 0.7, text: 0.3 });
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
        let f = fuse(&text, &[], Fusion::default());
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
        let (fw, fa) = (fuse(&same, &vec, w), fuse(&same, &vec, a));
        for (x, y) in fw.iter().zip(&fa) {
            assert_eq!(x.id, y.id);
            assert!((x.relevance - y.relevance).abs() < 1e-12);
        }
        // Disjoint lists: text gets no weight, the vector order stands.
        let other = ids(&[("X", 9.0), ("Y", 1.0)]);
        let f = fuse(&other, &vec, a);
        assert_eq!(f[0].id, "A");
        assert!((f[0].relevance - 1.0).abs() < 1e-12);
        assert!(f.iter().filter(|x| x.id == "X" || x.id == "Y").all(|x| x.relevance == 0.0));
        // One of two shared: half the text weight (B: 0.7*0.5 + 0.15*1 over 0.85).
        let half = ids(&[("B", 4.0), ("Z", 2.0)]);
        let vec2 = ids(&[("A", 0.9), ("B", 0.8), ("C", 0.7)]);
        let f = fuse(&half, &vec2[..2], a);
        let b = f.iter().find(|x| x.id == "B").unwrap();
        assert!((b.relevance - (0.7 * 0.0 + 0.15 * 1.0) / 0.85).abs() < 1e-12, "{f:?}");
    }

    #[test]
    fn rrf_hand_computed() {
        let text = ids(&[("A", 3.0), ("B", 2.0)]);
        let vec = ids(&[("B", 0.9), ("C", 0.8)]);
        let f = fuse(&text, &vec, Fusion::Rrf { k: 60.0 });
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
}
