//! Embedders, chosen once from config as an enum rather than scattered conditionals.
//!
//! Every vector leaves here L2-normalised with non-finite values zeroed (as the host's memory
//! system does), so dot product = cosine everywhere downstream. Query embeddings are cached (LRU)
//! because agents repeat searches and embedding dominates search latency.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use knowhub_core::rank::Dense;
use knowhub_core::BlockScores;
use lru::LruCache;
use parking_lot::Mutex;
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embedding provider unreachable: {0}")]
    Unreachable(String),
    #[error("embedding provider answered {status}: {body}")]
    Status { status: u16, body: String },
    #[error("embedding provider returned something unexpected: {0}")]
    BadResponse(String),
    #[error("no embedder configured")]
    Disabled,
}

/// An OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, vLLM, LocalAI, ...).
pub struct OpenAiEmbedder {
    base_url: String,
    model: String,
    api_key: Option<String>,
    client: reqwest::Client,
}

impl std::fmt::Debug for OpenAiEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiEmbedder")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .finish()
    }
}

impl OpenAiEmbedder {
    pub fn new(base_url: &str, model: &str, api_key: Option<String>, timeout: Duration) -> Result<Self, EmbedError> {
        let client =
            reqwest::Client::builder().timeout(timeout).build().map_err(|e| EmbedError::Unreachable(e.to_string()))?;
        Ok(OpenAiEmbedder {
            base_url: base_url.trim_end_matches('/').to_string(),
            model: model.to_string(),
            api_key,
            client,
        })
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        #[derive(Deserialize)]
        struct Item {
            index: usize,
            embedding: Vec<f32>,
        }
        #[derive(Deserialize)]
        struct Resp {
            data: Vec<Item>,
        }
        let mut req = self
            .client
            .post(format!("{}/embeddings", self.base_url))
            .json(&serde_json::json!({"model": self.model, "input": texts}));
        if let Some(k) = &self.api_key {
            req = req.bearer_auth(k);
        }
        let resp = req.send().await.map_err(|e| EmbedError::Unreachable(e.to_string()))?;
        let status = resp.status();
        if !status.is_success() {
            let body: String = resp.text().await.unwrap_or_default().chars().take(300).collect();
            return Err(EmbedError::Status { status: status.as_u16(), body });
        }
        let mut parsed: Resp = resp.json().await.map_err(|e| EmbedError::BadResponse(e.to_string()))?;
        if parsed.data.len() != texts.len() {
            return Err(EmbedError::BadResponse(format!(
                "{} embeddings for {} inputs",
                parsed.data.len(),
                texts.len()
            )));
        }
        parsed.data.sort_by_key(|d| d.index);
        Ok(parsed.data.into_iter().map(|d| d.embedding).collect())
    }
}

enum Provider {
    /// Full-text only: the fallback that always works.
    None,
    OpenAi(OpenAiEmbedder),
    /// multilingual-e5-small + all-MiniLM-L6-v2 in-process (knowhub-embed); blocking work goes
    /// to the blocking pool.
    Local(Arc<LocalPair>),
}

/// The local embedder: multilingual E5 for meaning in any language (and across languages), plus
/// English MiniLM, which ranks English and code text much better than E5 but knows no Chinese.
/// A record's vector is `[e5 ; t·minilm]` (768 dims, one model id; see `compose`), so every
/// backend stores and indexes it like any other vector (by inner product).
struct LocalPair {
    e5: knowhub_embed::E5Model,
    minilm: knowhub_embed::MiniLmModel,
    /// E5's Chinese-vs-English direction, removed from query vectors (see `language_axis`).
    axis: Option<Vec<f32>>,
}

/// A query's vectors. Candidates are found with `scan`; when `rescore` is set, the candidates
/// (and any full-text hits) are then scored with it instead.
///
/// For the local pair, `scan` is `[e5 ; 0]`: candidates are E5's nearest records, so a Chinese
/// query still finds English records and the reverse. `rescore` is `[e5 ; minilm]` for a query
/// written wholly in Latin script ([`latin_share`] = 1): English queries are ranked by both
/// models, Chinese and mixed ones by E5 alone (no `rescore`, and MiniLM is not even run).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryVectors {
    pub scan: Vec<f32>,
    pub rescore: Option<Vec<f32>>,
    /// How many leading column blocks (`knowhub_core::VECTOR_BLOCK`) hold the primary
    /// (multilingual) model's part; the blocks after them are the English model's.
    pub primary_blocks: usize,
    /// The query's Latin-script share (`latin_share`), which the local pair compares with each
    /// record's (the length of its English block) for `Dense::script_gap`.
    pub latin: f64,
}

impl QueryVectors {
    /// The vector that scores candidates.
    pub fn scoring(&self) -> &[f32] {
        self.rescore.as_deref().unwrap_or(&self.scan)
    }

    /// A record's vector scores against `scoring()`, read from its per-block scores: the
    /// cosine fusion ranks by, and each model's own cosine. For the local pair with an English
    /// query that is `(cos_e5 + t·cos_minilm) / √(1 + t²)` (the record's vector being
    /// `[e5 ; t·minilm]`), so English and Chinese records land on one scale; otherwise the
    /// primary model's cosine.
    pub fn dense(&self, b: &BlockScores) -> Dense {
        let p = self.primary_blocks.min(b.dots.len());
        let cos = |d: &[f64], n: &[f64]| {
            let nn: f64 = n.iter().map(|x| x * x).sum::<f64>().sqrt();
            if nn > 0.0 {
                d.iter().sum::<f64>() / nn
            } else {
                0.0
            }
        };
        let primary = cos(&b.dots[..p], &b.norms[..p]);
        let secondary_norm: f64 = b.norms[p..].iter().map(|x| x * x).sum::<f64>().sqrt();
        // The English block's length is the record's Latin share `t` (`compose`); a vector
        // without that block (another embedder) says nothing of its script.
        let script_gap = if p < b.norms.len() { (self.latin - secondary_norm.min(1.0)).abs() } else { 0.0 };
        if self.rescore.is_none() || secondary_norm <= 0.0 {
            return Dense { fused: primary, primary, english: None, script_gap };
        }
        let english = Some(cos(&b.dots[p..], &b.norms[p..]));
        Dense { fused: cos(&b.dots, &b.norms), primary, english, script_gap }
    }
}

/// Which embedder to build, from config. Kept here so the server, the CLI and the benchmarks
/// build it the same way.
#[derive(Clone, Default)]
pub struct EmbedderSettings {
    pub kind: EmbedderKind,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key: Option<String>,
    pub model_dir: Option<std::path::PathBuf>,
    pub timeout: Option<Duration>,
    /// Local model only: remove the language direction from query vectors (cross-lingual debias).
    pub debias: bool,
}

impl std::fmt::Debug for EmbedderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbedderSettings")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("model_dir", &self.model_dir)
            .finish()
    }
}

/// The embedder providers fixed in config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EmbedderKind {
    None,
    OpenAi,
    #[default]
    Local,
}

/// The configured embedder plus its query cache.
pub struct Embedder {
    provider: Provider,
    model_id: Option<String>,
    cache: Mutex<LruCache<String, Arc<QueryVectors>>>,
}

const QUERY_CACHE: usize = 1024;

impl Embedder {
    fn with(provider: Provider, model_id: Option<String>) -> Self {
        Embedder {
            provider,
            model_id,
            cache: Mutex::new(LruCache::new(NonZeroUsize::new(QUERY_CACHE).expect("nonzero"))),
        }
    }

    pub fn none() -> Self {
        Self::with(Provider::None, None)
    }

    pub fn openai(e: OpenAiEmbedder) -> Self {
        let id = format!("openai:{}", e.model);
        Self::with(Provider::OpenAi(e), Some(id))
    }

    /// Loads both local models from `dir` (see `scripts/fetch-model.sh`). With `debias`, E5
    /// query vectors lose their component along the model's language axis.
    pub fn local(dir: &std::path::Path, debias: bool) -> Result<Self, knowhub_embed::EmbedError> {
        let e5 = knowhub_embed::E5Model::load(dir)?;
        let minilm = knowhub_embed::MiniLmModel::load(dir)?;
        let id = format!("local:{}+{}", e5.model_id(), minilm.model_id());
        // Which kernels run here (e.g. `avx2+fma+avx512vnni`, int8): what the speed depends on.
        tracing::info!(kernels = e5.kernel_name(), gemm = e5.precision_name(), "local embedding models loaded");
        let axis = if debias { Some(language_axis(&e5)?) } else { None };
        Ok(Self::with(Provider::Local(Arc::new(LocalPair { e5, minilm, axis })), Some(id)))
    }

    /// Builds the configured embedder. A broken setup (missing model file, missing URL) never
    /// stops the hub: it is reported as an error naming the fix, and search falls back to full
    /// text. Returns the embedder and that error, if any.
    pub fn from_settings(s: &EmbedderSettings) -> (Self, Option<String>) {
        match s.kind {
            EmbedderKind::None => (Self::none(), None),
            EmbedderKind::OpenAi => {
                let (Some(url), Some(model)) = (&s.base_url, &s.model) else {
                    return (
                        Self::none(),
                        Some("embedder 'openai' needs KNOWHUB_EMBED_BASE_URL and KNOWHUB_EMBED_MODEL; full-text search only".into()),
                    );
                };
                match OpenAiEmbedder::new(url, model, s.api_key.clone(), s.timeout.unwrap_or(Duration::from_secs(30))) {
                    Ok(e) => (Self::openai(e), None),
                    Err(e) => {
                        (Self::none(), Some(format!("cannot set up the openai embedder ({e}); full-text search only")))
                    }
                }
            }
            EmbedderKind::Local => {
                let dir = s.model_dir.clone().unwrap_or_else(knowhub_embed::default_model_dir);
                match Self::local(&dir, s.debias) {
                    Ok(e) => (e, None),
                    Err(e) => (Self::none(), Some(format!("{e}; until then: full-text search only"))),
                }
            }
        }
    }

    /// Stable id stored with every vector; `None` when vectors are off.
    pub fn model_id(&self) -> Option<&str> {
        self.model_id.as_deref()
    }

    pub fn is_enabled(&self) -> bool {
        !matches!(self.provider, Provider::None)
    }

    /// How many leading column blocks of a stored vector belong to the primary (multilingual)
    /// model: 1 for the local pair's E5 half, all of them for a single model.
    pub fn primary_blocks(&self) -> usize {
        match &self.provider {
            Provider::Local(m) => m.e5.dim().div_ceil(knowhub_core::VECTOR_BLOCK),
            _ => usize::MAX,
        }
    }

    /// How relevance is calibrated for this embedder's scores: fitted for the local pair only
    /// (another model's cosine scale is unknown, so it gets the text-only mapping).
    pub fn calibration(&self) -> knowhub_core::calibrate::Calibration {
        match self.provider {
            Provider::Local(_) => knowhub_core::calibrate::Calibration::LocalPair,
            _ => knowhub_core::calibrate::Calibration::TextOnly,
        }
    }

    /// Embeds texts to be stored (E5-style models get the `passage: ` prefix).
    pub async fn embed_passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        match &self.provider {
            Provider::None => Err(EmbedError::Disabled),
            Provider::OpenAi(e) => {
                let mut out = e.embed(texts).await?;
                out.iter_mut().for_each(|v| normalize(v));
                Ok(out)
            }
            Provider::Local(m) => {
                let m = m.clone();
                let texts = texts.to_vec();
                blocking(move || m.passages(&texts)).await
            }
        }
    }

    /// Unit multilingual-E5 passage vectors of `texts`, for the learned injection screen (its
    /// weights were fitted on exactly these). `None` when the embedder is not the local model.
    pub async fn e5_passages(&self, texts: &[String]) -> Result<Option<Vec<Vec<f32>>>, EmbedError> {
        let Provider::Local(m) = &self.provider else { return Ok(None) };
        let m = m.clone();
        let texts = texts.to_vec();
        let mut v = blocking(move || {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            m.e5.embed(&refs, knowhub_embed::TextKind::Passage)
        })
        .await?;
        v.iter_mut().for_each(|x| normalize(x));
        Ok(Some(v))
    }

    /// Query vectors held in the cache: how many distinct queries were embedded lately.
    pub fn cached_queries(&self) -> usize {
        self.cache.lock().len()
    }

    /// A stored record vector turned into a query for that record's own neighbours, with no
    /// model call (the review queue asks this for every item on a page). For the local pair:
    /// its E5 half scans, and a record with an English half rescores with both halves at unit
    /// length, as an English query would. `None` when vectors are off or the length is not
    /// this embedder's.
    pub fn record_as_query(&self, v: &[f32]) -> Option<QueryVectors> {
        match &self.provider {
            Provider::None => None,
            Provider::OpenAi(_) => {
                let mut scan = v.to_vec();
                normalize(&mut scan);
                Some(QueryVectors { scan, rescore: None, primary_blocks: usize::MAX, latin: 1.0 })
            }
            Provider::Local(m) => {
                let d = m.e5.dim();
                if v.len() != d + m.minilm.dim() {
                    return None;
                }
                let (mut e5, mut mini) = (v[..d].to_vec(), v[d..].to_vec());
                normalize(&mut e5);
                let english = mini.iter().any(|x| *x != 0.0);
                // The record's Latin share is its English block's length (`compose`).
                let latin = f64::from(mini.iter().map(|x| x * x).sum::<f32>().sqrt());
                normalize(&mut mini);
                Some(m.query_vectors(e5, english.then_some(mini), latin))
            }
        }
    }

    /// Embeds a search query, from the cache when it was seen recently.
    pub async fn embed_query(&self, q: &str) -> Result<Arc<QueryVectors>, EmbedError> {
        if let Some(v) = self.cache.lock().get(q) {
            return Ok(v.clone());
        }
        let v = match &self.provider {
            Provider::None => return Err(EmbedError::Disabled),
            Provider::OpenAi(e) => {
                let mut v = e
                    .embed(&[q.to_string()])
                    .await?
                    .pop()
                    .ok_or_else(|| EmbedError::BadResponse("no embedding returned".into()))?;
                normalize(&mut v);
                QueryVectors { scan: v, rescore: None, primary_blocks: usize::MAX, latin: f64::from(latin_share(q)) }
            }
            Provider::Local(m) => {
                let m = m.clone();
                let q = q.to_string();
                blocking(move || m.query(&q)).await?
            }
        };
        let v = Arc::new(v);
        self.cache.lock().put(q.to_string(), v.clone());
        Ok(v)
    }
}

impl LocalPair {
    fn passages(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, knowhub_embed::EmbedError> {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (shares, latin) = latin_texts(&refs);
        // The two models side by side, as for a query: each leaves cores idle between layers.
        let (e5, mini) = rayon::join(
            || self.e5.embed(&refs, knowhub_embed::TextKind::Passage),
            || if latin.is_empty() { Ok(Vec::new()) } else { self.minilm.embed(&latin) },
        );
        Ok(compose_all(&e5?, &shares, mini?, self.minilm.dim()))
    }

    fn query(&self, q: &str) -> Result<QueryVectors, knowhub_embed::EmbedError> {
        // MiniLM only for queries wholly in Latin script: on a mixed query it would see the
        // Chinese part as `[UNK]`s and rank by what is left (a query such as "python 检查变量是否可迭代"
        // then favours every Python record), while E5 reads the whole query.
        // Both models at once: a short query's layers are too small to keep every core busy, so
        // running the two side by side beats running them one after the other.
        let latin = latin_share(q);
        let (e5, mini) = if latin >= 1.0 {
            let (e5, mini) =
                rayon::join(|| self.e5.embed(&[q], knowhub_embed::TextKind::Query), || self.minilm.embed_query(&[q]));
            (e5?, Some(mini?.pop().unwrap_or_default()))
        } else {
            (self.e5.embed(&[q], knowhub_embed::TextKind::Query)?, None)
        };
        let mut e5 = e5.into_iter().next().unwrap_or_default();
        normalize(&mut e5);
        if let Some(axis) = &self.axis {
            remove_component(&mut e5, axis);
        }
        Ok(self.query_vectors(e5, mini, f64::from(latin)))
    }

    /// A query's vectors from its unit E5 vector and, for English, its MiniLM one: candidates
    /// are E5's nearest (`[e5 ; 0]`), rescored by both models when MiniLM is given.
    fn query_vectors(&self, e5: Vec<f32>, minilm: Option<Vec<f32>>, latin: f64) -> QueryVectors {
        let mut scan = e5.clone();
        scan.resize(e5.len() + self.minilm.dim(), 0.0);
        let rescore = minilm.map(|mini| compose(&e5, &mini, 1.0));
        QueryVectors { scan, rescore, primary_blocks: e5.len().div_ceil(knowhub_core::VECTOR_BLOCK), latin }
    }
}

/// Records' vectors from their E5 vectors and texts: MiniLM runs on the texts with some
/// Latin script only. A Chinese record gets no MiniLM half (and costs no MiniLM run), so its
/// MiniLM "similarity" cannot add noise to English queries. See `compose`.
pub fn add_minilm(
    e5: Vec<Vec<f32>>,
    texts: &[&str],
    minilm: &knowhub_embed::MiniLmModel,
) -> Result<Vec<Vec<f32>>, knowhub_embed::EmbedError> {
    let (shares, latin) = latin_texts(texts);
    let mini = if latin.is_empty() { Vec::new() } else { minilm.embed(&latin)? };
    Ok(compose_all(&e5, &shares, mini, minilm.dim()))
}

/// Each text's Latin share, and the texts MiniLM reads (a share above 0), in order.
fn latin_texts<'a>(texts: &[&'a str]) -> (Vec<f32>, Vec<&'a str>) {
    let shares: Vec<f32> = texts.iter().map(|t| latin_share(t)).collect();
    let latin = texts.iter().zip(&shares).filter(|(_, &t)| t > 0.0).map(|(x, _)| *x).collect();
    (shares, latin)
}

/// Records' vectors from their E5 vectors, Latin shares and the MiniLM vectors of the records
/// with a share above 0 (in order).
fn compose_all(e5: &[Vec<f32>], shares: &[f32], mini: Vec<Vec<f32>>, mini_dim: usize) -> Vec<Vec<f32>> {
    let mut mini = mini.into_iter();
    let none = vec![0.0; mini_dim];
    e5.iter()
        .zip(shares)
        .map(|(a, &t)| if t > 0.0 { compose(a, &mini.next().unwrap_or_default(), t) } else { compose(a, &none, 0.0) })
        .collect()
}

/// A record's vector: `[e5 ; t·minilm]`, `t` being its Latin-script share, so the E5 half is
/// unit length and the whole is `√(1 + t²)` long. A query `[e5 ; 0]` (candidates, Chinese and
/// mixed queries) then scores every record by its E5 cosine, whatever its language; a query
/// `[e5 ; minilm]` scores it `cos_e5 + t·cos_minilm`, which the search divides by the record's
/// length (`QueryVectors::dense`), so English and Chinese records land on one scale.
pub fn compose(e5: &[f32], minilm: &[f32], t: f32) -> Vec<f32> {
    e5.iter().copied().chain(minilm.iter().map(|x| x * t)).collect()
}

/// How much of `q` is Latin-script text, in [0, 1]: Latin letters against Han/kana/Hangul
/// characters, one CJK character counting as much as 2.5 letters (a Chinese word is ~2
/// characters, an English one ~5 letters). Text with no letters at all (numbers, symbols)
/// counts as Latin when it has ASCII alphanumerics: MiniLM reads those fine.
pub fn latin_share(q: &str) -> f32 {
    let (mut latin, mut cjk) = (0.0f32, 0.0f32);
    for c in q.chars() {
        if c.is_ascii_alphabetic() || ('\u{c0}'..='\u{24f}').contains(&c) && c.is_alphabetic() {
            latin += 1.0;
        } else if c.is_alphabetic() && !c.is_ascii() {
            cjk += 2.5;
        }
    }
    if latin + cjk == 0.0 {
        return if q.chars().any(|c| c.is_ascii_alphanumeric()) { 1.0 } else { 0.0 };
    }
    latin / (latin + cjk)
}

const LANG_PAIRS: &str = include_str!("lang_pairs.tsv");

/// The direction along which the model separates Chinese from English text of the same meaning:
/// the mean of `embed(zh) − embed(en)` over translation pairs, as queries and as passages.
///
/// Why: small multilingual models give a same-language bonus, so a Chinese query ranks an
/// unrelated Chinese record above the English record that answers it. Removing this one
/// direction from the *query* subtracts `(q·d)(v·d)` from every cosine, which penalises the
/// query's own language and favours the other by the same amount, and shifts all records of one
/// language alike (so monolingual rankings barely move). Stored vectors are untouched, so it can
/// be switched without re-embedding.
pub fn language_axis(m: &knowhub_embed::E5Model) -> Result<Vec<f32>, knowhub_embed::EmbedError> {
    let (zh, en): (Vec<&str>, Vec<&str>) = LANG_PAIRS.lines().filter_map(|l| l.split_once('\t')).unzip();
    let mut d = vec![0f32; m.dim()];
    for kind in [knowhub_embed::TextKind::Query, knowhub_embed::TextKind::Passage] {
        let (z, e) = (m.embed(&zh, kind)?, m.embed(&en, kind)?);
        for (a, b) in z.iter().zip(&e) {
            for ((x, y), o) in a.iter().zip(b).zip(d.iter_mut()) {
                *o += x - y;
            }
        }
    }
    normalize(&mut d);
    Ok(d)
}

/// `v − (v·axis)·axis`, renormalised (`axis` is unit length).
pub fn remove_component(v: &mut [f32], axis: &[f32]) {
    let p: f32 = v.iter().zip(axis).map(|(a, b)| a * b).sum();
    v.iter_mut().zip(axis).for_each(|(x, a)| *x -= p * a);
    normalize(v);
}

/// Runs model inference off the async workers (it blocks and uses every core).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, knowhub_embed::EmbedError> + Send + 'static,
) -> Result<T, EmbedError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| EmbedError::BadResponse(format!("local embedder task: {e}")))?
        .map_err(|e| EmbedError::BadResponse(e.to_string()))
}

/// Zeroes non-finite values and scales to unit length (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    for x in v.iter_mut() {
        if !x.is_finite() {
            *x = 0.0;
        }
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 1e-10 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_zeroes_non_finite_and_scales() {
        let mut v = vec![3.0, f32::NAN, 4.0, f32::INFINITY];
        normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.0, 0.8, 0.0]);
        let mut z = vec![0.0, 0.0];
        normalize(&mut z);
        assert_eq!(z, vec![0.0, 0.0]);
    }

    #[test]
    fn removing_a_component_makes_vectors_orthogonal_to_it() {
        let axis = vec![0.0, 1.0, 0.0];
        let mut v = vec![0.6, 0.8, 0.0];
        remove_component(&mut v, &axis);
        assert_eq!(v, vec![1.0, 0.0, 0.0]);
    }

    #[test]
    fn language_pairs_are_well_formed() {
        let n = LANG_PAIRS.lines().filter(|l| l.split('\t').count() == 2).count();
        assert_eq!(n, LANG_PAIRS.lines().count());
        assert!(n >= 30);
        assert!(LANG_PAIRS.lines().all(|l| l.split('\t').next().unwrap().chars().any(knowhub_core::text::is_han)));
    }

    #[test]
    fn latin_share_by_script() {
        assert_eq!(latin_share("How to fix a Postgres timeout"), 1.0);
        assert_eq!(latin_share("数据库连接超时怎么办"), 0.0);
        assert_eq!(latin_share("404"), 1.0);
        assert_eq!(latin_share("？！"), 0.0);
        // 5 Latin letters vs 2 Han characters (= 5 letters' worth).
        assert!((latin_share("React 报错") - 0.5).abs() < 1e-6);
        assert_eq!(latin_share("Café naïve"), 1.0);
    }

    #[test]
    fn api_key_hidden_from_debug() {
        let e = OpenAiEmbedder::new("http://127.0.0.1:1/v1", "m", Some("sk-secret".into()), Duration::from_secs(1))
            .unwrap();
        let s = format!("{e:?}");
        assert!(!s.contains("sk-secret") && s.contains("***"), "{s}");
    }
}
