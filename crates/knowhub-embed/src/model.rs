//! The BERT/XLM-R encoder forward pass of multilingual-e5-small: 12 layers, hidden 384,
//! 12 heads, FFN 1536, post-LayerNorm, exact GELU, absolute position embeddings.
//!
//! Several texts are run as one "packed" sequence: their tokens are concatenated into one
//! `[T x hidden]` matrix (no padding), every linear layer is one GEMM over all T rows (each
//! weight panel is unpacked once per pass, not once per text), and attention is restricted to
//! each text's own tokens. A text's result is therefore independent of what else is in the
//! batch: every output row is computed by the same instructions in the same order.

use std::cell::RefCell;

use rayon::prelude::*;

use crate::attention::{self, AttnHead};
use crate::elementwise;
use crate::format::{self, Config, DType, Parsed};
use crate::kernels::{self, PackedLinear, Precision};
use crate::panels::{Epilogue, NR};
use crate::quant;
use crate::simd::Simd;
use crate::EmbedError;

pub struct Layer {
    pub qkv: PackedLinear,
    pub ao: PackedLinear,
    pub aln_w: Vec<f32>,
    pub aln_b: Vec<f32>,
    pub fi: PackedLinear,
    pub fo: PackedLinear,
    pub oln_w: Vec<f32>,
    pub oln_b: Vec<f32>,
}

/// Where the token-embedding rows live in the mapped file.
#[derive(Clone, Copy)]
pub enum WordTable {
    /// Q4_0 rows (E5: 250k x 384 would be 384 MB as f32), dequantised on lookup.
    Q4 { offset: usize },
    /// Little-endian f32 rows (MiniLM's 30k-token table).
    F32 { offset: usize },
}

/// The pieces of an encoder, as each weight format's loader finds them.
pub struct Parts {
    pub cfg: Config,
    pub word: WordTable,
    pub pos: Vec<f32>,
    pub type0: Vec<f32>,
    pub eln_w: Vec<f32>,
    pub eln_b: Vec<f32>,
    pub layers: Vec<Layer>,
}

pub struct Encoder {
    pub cfg: Config,
    pub simd: Simd,
    /// Token embeddings, read from the mapped file on lookup (only the rows used are paged in).
    word: WordTable,
    pos: Vec<f32>,
    type0: Vec<f32>,
    eln_w: Vec<f32>,
    eln_b: Vec<f32>,
    layers: Vec<Layer>,
}

/// Reusable activation buffers, sized for the largest chunk seen so far.
#[derive(Default)]
pub struct Workspace {
    x: Vec<f32>,
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    tmp: Vec<f32>,
    mid: Vec<f32>,
    /// Run only this many layers (diagnostics: token states of an inner layer); `None`: all.
    pub layers: Option<usize>,
}

impl Workspace {
    /// The last hidden states of the most recent `forward`: `tokens × hidden`, row-major.
    pub fn states(&self, tokens: usize, hidden: usize) -> &[f32] {
        &self.x[..tokens * hidden]
    }
}

fn grow(v: &mut Vec<f32>, n: usize) {
    if v.len() < n {
        v.resize(n, 0.0);
    }
}

thread_local! {
    /// Per-thread attention scratch: transposed K, one scores row, one head's output.
    static ATTN_SCRATCH: RefCell<[Vec<f32>; 3]> = const { RefCell::new([Vec::new(), Vec::new(), Vec::new()]) };
}

#[derive(Clone, Copy)]
struct SendPtr(*mut f32);
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// Going through a method makes closures capture the whole (Send) wrapper, not the raw
    /// pointer field.
    fn get(self) -> *mut f32 {
        self.0
    }
}

impl Encoder {
    pub fn load(file: &[u8], p: &Parsed, simd: Simd, prec: Precision) -> Result<Encoder, EmbedError> {
        let cfg = p.config;
        let (h, ff) = (cfg.hidden, cfg.ffn);
        if h % NR != 0 || ff % NR != 0 {
            return Err(EmbedError::BadModel(format!("hidden {h} / ffn {ff} not multiples of 16")));
        }
        let word = p.tensor("emb.word", DType::Q4, cfg.vocab * h)?;
        let f32t = |name: &str, n: usize| -> Result<Vec<f32>, EmbedError> {
            Ok(format::read_f32s(file, p.tensor(name, DType::F32, n)?))
        };
        let pos = f32t("emb.pos", cfg.max_positions * h)?;
        let type_all = format::read_f32s(
            file,
            p.tensors
                .iter()
                .find(|t| t.name == "emb.type" && t.dtype == DType::F32 && t.elements >= h)
                .ok_or_else(|| EmbedError::BadModel("missing tensor emb.type".into()))?,
        );
        let type0 = type_all[..h].to_vec();
        let eln_w = f32t("emb.ln.w", h)?;
        let eln_b = f32t("emb.ln.b", h)?;

        let linear = |name: &str, n: usize, k: usize| -> Result<PackedLinear, EmbedError> {
            let w = p.tensor(&format!("{name}.w"), DType::Q4, n * k)?;
            let bias = f32t(&format!("{name}.b"), n)?;
            Ok(PackedLinear::from_q4(n, k, &file[w.offset..w.offset + w.nbytes], bias, prec))
        };
        let layers = (0..cfg.layers)
            .into_par_iter()
            .map(|l| -> Result<Layer, EmbedError> {
                let n = |s: &str| format!("l{l}.{s}");
                Ok(Layer {
                    qkv: PackedLinear::concat(vec![
                        linear(&n("q"), h, h)?,
                        linear(&n("k"), h, h)?,
                        linear(&n("v"), h, h)?,
                    ]),
                    ao: linear(&n("ao"), h, h)?,
                    aln_w: f32t(&n("aln.w"), h)?,
                    aln_b: f32t(&n("aln.b"), h)?,
                    fi: linear(&n("fi"), ff, h)?,
                    fo: linear(&n("fo"), h, ff)?,
                    oln_w: f32t(&n("oln.w"), h)?,
                    oln_b: f32t(&n("oln.b"), h)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Encoder::from_parts(
            Parts { cfg, word: WordTable::Q4 { offset: word.offset }, pos, type0, eln_w, eln_b, layers },
            simd,
        ))
    }

    pub fn from_parts(p: Parts, simd: Simd) -> Encoder {
        let Parts { cfg, word, pos, type0, eln_w, eln_b, mut layers } = p;
        kernels::pin(layers.iter_mut().flat_map(|l| [&mut l.qkv, &mut l.ao, &mut l.fi, &mut l.fo]).collect());
        Encoder { cfg, simd, word, pos, type0, eln_w, eln_b, layers }
    }

    /// The linear layers' arithmetic (all layers are packed alike).
    pub fn precision(&self) -> Precision {
        self.layers.first().map_or(Precision::F32, |l| l.qkv.precision())
    }

    /// Bytes of transformer weights held on the heap (for docs/bench output).
    pub fn weight_bytes(&self) -> usize {
        self.layers.iter().map(|l| l.qkv.bytes() + l.ao.bytes() + l.fi.bytes() + l.fo.bytes()).sum::<usize>()
            + self.pos.len() * 4
    }

    /// Run the encoder over the concatenated token ids `ids`, where `segs` gives each text's
    /// `[start, end)` range (each starting with `<s>` and ending with `</s>`), and write each
    /// text's mean-pooled (not yet normalised) final hidden state into `out[seg]`.
    pub fn forward(
        &self,
        file: &[u8],
        ws: &mut Workspace,
        ids: &[u32],
        segs: &[(usize, usize)],
        out: &mut [f32],
        parallel: bool,
    ) {
        let Config { hidden: h, ffn: ff, heads, eps, .. } = self.cfg;
        let t = ids.len();
        let simd = self.simd;
        grow(&mut ws.x, t * h);
        grow(&mut ws.qkv, t * 3 * h);
        grow(&mut ws.ctx, t * h);
        grow(&mut ws.tmp, t * h);
        grow(&mut ws.mid, t * ff);
        let x = &mut ws.x[..t * h];
        let qkv = &mut ws.qkv[..t * 3 * h];
        let ctx = &mut ws.ctx[..t * h];
        let tmp = &mut ws.tmp[..t * h];
        let mid = &mut ws.mid[..t * ff];

        // Embeddings: word (dequantised on lookup) + position + token type 0, then LayerNorm.
        let rb = quant::row_bytes(h);
        for &(s0, s1) in segs {
            for (p, i) in (s0..s1).enumerate() {
                let id = (ids[i] as usize).min(self.cfg.vocab - 1);
                let row = &mut x[i * h..(i + 1) * h];
                match self.word {
                    WordTable::Q4 { offset } => {
                        let off = offset + id * rb;
                        quant::dequant_row(&file[off..off + rb], row);
                    }
                    WordTable::F32 { offset } => {
                        let off = offset + id * h * 4;
                        for (v, b) in row.iter_mut().zip(file[off..off + h * 4].chunks_exact(4)) {
                            *v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                        }
                    }
                }
                let pe = &self.pos[p * h..(p + 1) * h];
                for ((v, &a), &b) in row.iter_mut().zip(pe).zip(&self.type0) {
                    *v += a + b;
                }
            }
        }
        elementwise::layernorm(simd, x, &self.eln_w, &self.eln_b, eps);

        let hd = h / heads;
        let scale = 1.0 / (hd as f32).sqrt();
        let attn_work: usize = segs.iter().map(|&(a, b)| (b - a) * (b - a)).sum::<usize>() * h;
        let par_attn = parallel && attn_work >= 1 << 17;
        for ly in self.layers.iter().take(ws.layers.unwrap_or(usize::MAX)) {
            kernels::linear(simd, x, t, &ly.qkv, qkv, Epilogue::None, parallel);
            self.attention(qkv, ctx, segs, hd, scale, par_attn);
            kernels::linear(simd, ctx, t, &ly.ao, tmp, Epilogue::None, parallel);
            elementwise::add_layernorm(simd, x, tmp, &ly.aln_w, &ly.aln_b, eps);
            kernels::linear(simd, x, t, &ly.fi, mid, Epilogue::Gelu, parallel);
            kernels::linear(simd, mid, t, &ly.fo, tmp, Epilogue::None, parallel);
            elementwise::add_layernorm(simd, x, tmp, &ly.oln_w, &ly.oln_b, eps);
        }

        // Mean pooling over every token of the text, <s> and </s> included (E5's recipe with
        // an all-ones attention mask).
        for (si, &(s0, s1)) in segs.iter().enumerate() {
            let o = &mut out[si * h..(si + 1) * h];
            o.fill(0.0);
            for i in s0..s1 {
                for (a, &v) in o.iter_mut().zip(&x[i * h..(i + 1) * h]) {
                    *a += v;
                }
            }
            let inv = 1.0 / (s1 - s0) as f32;
            o.iter_mut().for_each(|a| *a *= inv);
        }
    }

    fn attention(&self, qkv: &[f32], ctx: &mut [f32], segs: &[(usize, usize)], hd: usize, scale: f32, parallel: bool) {
        let h = self.cfg.hidden;
        let heads = self.cfg.heads;
        let ld = 3 * h;
        let simd = self.simd;
        let cp = SendPtr(ctx.as_mut_ptr());
        let task = |i: usize| {
            let (s0, s1) = segs[i / heads];
            let head = i % heads;
            let len = s1 - s0;
            ATTN_SCRATCH.with(|sc| {
                let [kt, scores, out] = &mut *sc.borrow_mut();
                let (nk, ns) = attention::attn_scratch(len, hd);
                grow(kt, nk);
                grow(scores, ns);
                grow(out, len * hd);
                let view = AttnHead {
                    qkv: &qkv[s0 * ld..s1 * ld],
                    ld,
                    len,
                    q_off: head * hd,
                    k_off: h + head * hd,
                    v_off: 2 * h + head * hd,
                    hd,
                    scale,
                };
                attention::attention_head(simd, &view, kt, scores, out, hd);
                for r in 0..len {
                    // SAFETY: (row s0 + r, columns head*hd..+hd) belongs to this task only,
                    // and lies inside ctx (t x h).
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            out.as_ptr().add(r * hd),
                            cp.get().add((s0 + r) * h + head * hd),
                            hd,
                        );
                    }
                }
            });
        };
        let ntasks = segs.len() * heads;
        if parallel {
            (0..ntasks).into_par_iter().for_each(task);
        } else {
            (0..ntasks).for_each(task);
        }
    }
}
