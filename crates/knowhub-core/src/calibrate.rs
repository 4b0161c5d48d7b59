//! Calibrated relevance: each search hit's `relevance` is roughly the probability that it
//! answers the query, the same for every query, language and hub size, so an agent can tell
//! "the hub knows this" from "the hub has nothing on this" and `min_relevance` can cut.
//!
//! Fusion scores are normalised per query (the best hit always scores 1.0), so they cannot say
//! whether anything relevant exists, and they change with the candidate pool (`top_k`). So
//! relevance uses only signals that mean the same in every query, for every `top_k` and hub size:
//! each model's own cosine (absolute for a given model) and the share of the query's tokens the
//! record holds. A logistic model over them, with weights kept non-negative (more similar never
//! means less relevant), was fitted on the shared dev sets (CoSQA, ATEC, LCQMC) with off-topic
//! queries mixed in, one set of constants for all sets; docs/ranking.md §5 says how, and
//! `knowhub-bench abstain` measures it. Relevance is not what orders results: today's fusion
//! does (with the record's priors), as it ranks better than any calibrated score we fitted.

use crate::rank::Candidate;

/// `σ(bias + Σ wᵢ·xᵢ)` over a candidate's absolute signals (absent signals count 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Logistic {
    pub bias: f64,
    /// The multilingual model's cosine.
    pub primary: f64,
    /// The English model's cosine.
    pub english: f64,
    /// Share of the query's tokens the record holds.
    pub coverage: f64,
}

impl Logistic {
    pub fn probability(&self, primary: f64, english: f64, coverage: f64) -> f64 {
        let z = self.bias + self.primary * primary + self.english * english + self.coverage * coverage;
        1.0 / (1.0 + (-z).exp())
    }
}

/// Which mapping applies: fixed by the embedder, chosen once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Calibration {
    /// The bundled local pair (multilingual-e5-small + all-MiniLM-L6-v2), whose cosine scales are
    /// known: one model for hits scored by E5 alone, one for hits scored by both.
    LocalPair,
    /// No vectors (no embedder, the query embedding failed, or a record not embedded yet), or an
    /// embedder whose cosine scale was never measured: full-text coverage only.
    TextOnly,
}

/// Fitted on the dev sets by bench/fit_calibration.py (docs/ranking.md §5): an English query against a record with an
/// English-model part.
pub const LOCAL_ENGLISH: Logistic = Logistic { bias: -25.2309, primary: 21.8186, english: 6.1367, coverage: 0.1096 };
/// Every other hit with a vector (Chinese or mixed queries, or Chinese records).
pub const LOCAL_MULTILINGUAL: Logistic = Logistic { bias: -31.9872, primary: 29.1592, english: 0.0, coverage: 4.9900 };
/// Hits without a vector.
pub const TEXT_ONLY: Logistic = Logistic { bias: -4.7734, primary: 0.0, english: 0.0, coverage: 4.3250 };

/// The `min_relevance` a search gets when it names none (docs/ranking.md §5): on the dev sets,
/// the lowest threshold (on a 0.0005 grid) at which no set answers more than 5.5% of its
/// off-topic queries. Low, because the dev sets' paraphrase-style positives make the mapping
/// conservative for experience records (task + resource + result), whose cosines to a question
/// run lower; a higher threshold would drop many of their relevant hits.
pub const DEFAULT_MIN_RELEVANCE: f64 = 0.005;

impl Calibration {
    /// Stage 2 of the ranking: a candidate's relevance from its raw signals.
    pub fn relevance(&self, c: &Candidate) -> f64 {
        match (self, c.dense) {
            (Calibration::LocalPair, Some(d)) => match d.english {
                Some(en) => LOCAL_ENGLISH.probability(d.primary, en, c.coverage),
                None => LOCAL_MULTILINGUAL.probability(d.primary, 0.0, c.coverage),
            },
            _ => TEXT_ONLY.probability(0.0, 0.0, c.coverage),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{Dense, Prior};

    fn cand(dense: Option<Dense>, coverage: f64) -> Candidate {
        Candidate { bm25: Some(1.0), dense, coverage, prior: Prior::default() }
    }

    #[test]
    fn hand_computed_probabilities() {
        // English: z = -25.2309 + 21.8186*0.9 + 6.1367*0.7 + 0.1096*1 = -1.18887
        let en = cand(Some(Dense { fused: 1.1, primary: 0.9, english: Some(0.7) }), 1.0);
        let want = 1.0 / (1.0 + (1.18887f64).exp());
        assert!((Calibration::LocalPair.relevance(&en) - want).abs() < 1e-4);
        // Multilingual: z = -31.9872 + 29.1592*0.95 + 4.99*0.5 = -1.79096
        let zh = cand(Some(Dense { fused: 0.95, primary: 0.95, english: None }), 0.5);
        let want = 1.0 / (1.0 + (1.79096f64).exp());
        assert!((Calibration::LocalPair.relevance(&zh) - want).abs() < 1e-4);
        // No vector, or an embedder of unknown scale: coverage only, z = -4.7734 + 4.3250*0.5.
        let want = 1.0 / (1.0 + (4.7734f64 - 2.1625).exp());
        assert!((Calibration::LocalPair.relevance(&cand(None, 0.5)) - want).abs() < 1e-9);
        assert!((Calibration::TextOnly.relevance(&zh) - want).abs() < 1e-9);
    }

    #[test]
    fn more_similar_is_never_less_relevant() {
        let mut last = 0.0;
        for i in 0..=20 {
            let cos = 0.7 + 0.015 * f64::from(i);
            let r =
                Calibration::LocalPair.relevance(&cand(Some(Dense { fused: cos, primary: cos, english: None }), 0.3));
            assert!(r >= last && (0.0..=1.0).contains(&r));
            last = r;
        }
        // An unrelated hit is far below the default threshold; a close paraphrase far above it.
        let off = cand(Some(Dense { fused: 0.8, primary: 0.8, english: None }), 0.0);
        let close = cand(Some(Dense { fused: 0.96, primary: 0.96, english: None }), 1.0);
        assert!(Calibration::LocalPair.relevance(&off) < DEFAULT_MIN_RELEVANCE / 5.0);
        assert!(Calibration::LocalPair.relevance(&close) > 0.5);
    }
}
