//! Calibrated relevance: each search hit's `relevance` is roughly the probability that it
//! answers the query, the same for every query, language and hub size, so an agent can tell
//! "the hub knows this" from "the hub has nothing on this" and `min_relevance` can cut.
//!
//! Fusion scores are normalised per query (the best hit always scores 1.0), so they cannot say
//! whether anything relevant exists, and they change with the candidate pool (`top_k`). So
//! relevance uses only signals that mean the same in every query, for every `top_k` and hub size:
//! each model's own cosine (absolute for a given model) and the share of the query's tokens the
//! record holds. A logistic model over them, with weights kept non-negative (more similar never
//! means less relevant), one per regime: the record's shape (an experience with a result, or question-shaped imported text,
//! whose cosines to a question run on another scale) times the vectors it was scored with.
//! Experiences are fitted on the experience dev set, question-shaped text on the paraphrase
//! sets (CoSQA, ATEC, LCQMC) with off-topic queries mixed in; docs/ranking.md §5 says how, and
//! `knowhub-bench experiences` and `knowhub-bench abstain` measure it. By default it is also half
//! of the order (`rank::Fusion::Calibrated`).

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
    /// How far apart the query's and the record's scripts are (`Dense::script_gap`); its
    /// weight may take either sign: it is not a similarity but the scale the cosines run on.
    pub script_gap: f64,
}

/// A candidate's absolute signals, as the logistic models read them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Signals {
    pub primary: f64,
    pub english: f64,
    pub coverage: f64,
    pub script_gap: f64,
}

impl Logistic {
    pub fn probability(&self, s: Signals) -> f64 {
        let z = self.bias
            + self.primary * s.primary
            + self.english * s.english
            + self.coverage * s.coverage
            + self.script_gap * s.script_gap;
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

/// The three models of one record shape (docs/ranking.md §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Regimes {
    /// An English query against a record with an English-model part.
    pub english: Logistic,
    /// Every other hit with a vector (Chinese or mixed queries, or Chinese records).
    pub multilingual: Logistic,
    /// Hits without a vector.
    pub text_only: Logistic,
}

/// Experiences (a result present), fitted on the experience dev set by bench/fit_calibration.py.
pub const EXPERIENCE: Regimes = Regimes {
    english: Logistic { bias: -55.2723, primary: 53.9365, english: 6.1254, coverage: 7.2025, script_gap: 3.5170 },
    multilingual: Logistic { bias: -95.0679, primary: 101.0215, english: 0.0, coverage: 7.3732, script_gap: 3.5837 },
    text_only: Logistic { bias: -6.5625, primary: 0.0, english: 0.0, coverage: 10.4645, script_gap: 0.0 },
};

/// Question-shaped text (a task only, as imports of Q&A data are), fitted on the paraphrase sets
/// with off-topic queries mixed in.
pub const QUESTION: Regimes = Regimes {
    english: Logistic { bias: -24.3490, primary: 21.0857, english: 5.7437, coverage: 0.2064, script_gap: 0.0 },
    multilingual: Logistic { bias: -44.0046, primary: 42.9819, english: 0.0, coverage: 4.2741, script_gap: 0.0 },
    text_only: Logistic { bias: -4.7067, primary: 0.0, english: 0.0, coverage: 4.1480, script_gap: 0.0 },
};

/// The `min_relevance` a search gets when it names none (docs/ranking.md §5): the highest
/// threshold (on a 0.005 grid) at which every dev set, experiences and paraphrases alike, keeps
/// 97.5% of the relevant hits its top 5 holds. Silence where it costs almost no answers; below
/// the answers, what comes back says how likely it is to be one.
pub const DEFAULT_MIN_RELEVANCE: f64 = 0.02;

impl Calibration {
    /// Stage 2 of the ranking: a candidate's relevance from its raw signals.
    pub fn relevance(&self, c: &Candidate) -> f64 {
        let r = if c.experience { EXPERIENCE } else { QUESTION };
        let coverage = c.coverage;
        match (self, c.dense) {
            (Calibration::LocalPair, Some(d)) => {
                let s = Signals {
                    primary: d.primary,
                    english: d.english.unwrap_or(0.0),
                    coverage,
                    script_gap: d.script_gap,
                };
                if d.english.is_some() {
                    r.english.probability(s)
                } else {
                    r.multilingual.probability(s)
                }
            }
            _ => r.text_only.probability(Signals { coverage, ..Signals::default() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{Dense, Prior};

    fn cand(dense: Option<Dense>, coverage: f64, experience: bool) -> Candidate {
        Candidate { bm25: Some(1.0), dense, coverage, experience, prior: Prior::default() }
    }

    fn sigma(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    #[test]
    fn hand_computed_probabilities() {
        // Question-shaped, English: z = bias + primary·0.9 + english·0.7 + coverage·1.
        let q = QUESTION.english;
        let en = cand(Some(Dense { fused: 1.1, primary: 0.9, english: Some(0.7), script_gap: 0.0 }), 1.0, false);
        let want = sigma(q.bias + q.primary * 0.9 + q.english * 0.7 + q.coverage);
        assert!((Calibration::LocalPair.relevance(&en) - want).abs() < 1e-12);
        // The same signals on an experience: its own constants.
        let e = EXPERIENCE.english;
        let want = sigma(e.bias + e.primary * 0.9 + e.english * 0.7 + e.coverage);
        assert!((Calibration::LocalPair.relevance(&cand(en.dense, 1.0, true)) - want).abs() < 1e-12);
        // No English part: the multilingual model.
        let m = EXPERIENCE.multilingual;
        let zh = cand(Some(Dense { fused: 0.95, primary: 0.95, english: None, script_gap: 0.0 }), 0.5, true);
        assert!(
            (Calibration::LocalPair.relevance(&zh) - sigma(m.bias + m.primary * 0.95 + m.coverage * 0.5)).abs() < 1e-12
        );
        // No vector, or an embedder of unknown scale: coverage only.
        let want = sigma(EXPERIENCE.text_only.bias + EXPERIENCE.text_only.coverage * 0.5);
        assert!((Calibration::LocalPair.relevance(&cand(None, 0.5, true)) - want).abs() < 1e-12);
        assert!((Calibration::TextOnly.relevance(&zh) - want).abs() < 1e-12);
    }

    #[test]
    fn the_same_cosine_means_more_across_scripts() {
        // Cross-lingual cosines run lower (E5 keeps a same-language bonus), so an English answer
        // to a Chinese question at the cosine a Chinese near miss gets reads more relevant.
        let at = |gap: f64, english: Option<f64>| {
            let d = Dense { fused: 0.86, primary: 0.86, english, script_gap: gap };
            Calibration::LocalPair.relevance(&cand(Some(d), 0.2, true))
        };
        assert!(at(1.0, None) > at(0.0, None));
        assert!(at(0.6, Some(0.5)) > at(0.0, Some(0.5)));
        // Question-shaped text has no fitted gap: its sets hold no cross-lingual answer.
        let q = |gap: f64| {
            let d = Dense { fused: 0.86, primary: 0.86, english: None, script_gap: gap };
            Calibration::LocalPair.relevance(&cand(Some(d), 0.2, false))
        };
        assert_eq!(q(1.0), q(0.0));
    }

    #[test]
    fn more_similar_is_never_less_relevant() {
        for experience in [false, true] {
            for english in [None, Some(0.6)] {
                let mut last = 0.0;
                for i in 0..=20 {
                    let cos = 0.7 + 0.015 * f64::from(i);
                    let c = cand(Some(Dense { fused: cos, primary: cos, english, script_gap: 0.0 }), 0.3, experience);
                    let r = Calibration::LocalPair.relevance(&c);
                    assert!(r >= last && (0.0..=1.0).contains(&r), "{experience} {english:?} {cos}");
                    last = r;
                }
            }
            // An unrelated hit is far below the default threshold; a close match far above it.
            let off = cand(Some(Dense { fused: 0.75, primary: 0.75, english: None, script_gap: 0.0 }), 0.0, experience);
            let close =
                cand(Some(Dense { fused: 0.96, primary: 0.96, english: None, script_gap: 0.0 }), 1.0, experience);
            assert!(Calibration::LocalPair.relevance(&off) < DEFAULT_MIN_RELEVANCE / 5.0, "{experience}");
            assert!(Calibration::LocalPair.relevance(&close) > 0.5, "{experience}");
        }
    }
}
