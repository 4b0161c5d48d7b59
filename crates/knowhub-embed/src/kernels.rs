//! Numeric kernels: the packed-weight f32 GEMM (the reference, and the default where the integer
//! GEMM in `intgemm.rs` has no fast path) and the element-wise pieces (LayerNorm, GELU, softmax).
//!
//! Every kernel has one portable body. The x86-64 build also compiles that body a second time
//! inside a `#[target_feature(enable = "avx2,fma")]` wrapper and picks it at run time, so
//! release binaries run fast on any AVX2 machine without `-C target-cpu=native`, and still
//! run (slower) on machines without it. The GEMM tile gets hand-written intrinsics because
//! the register blocking is what makes it fast.

/// Which code path the kernels take; detected once at model load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
    /// The AVX2 + FMA kernels, with the integer GEMM's dot products in AVX-512 VNNI
    /// (`vpdpbusd` on 256-bit registers: four byte products summed into 32 bits per lane in one
    /// instruction, where AVX2 needs `vpmaddubsw` + `vpmaddwd`). Same integer sums, same bits.
    #[cfg(target_arch = "x86_64")]
    Avx512Vnni,
    /// aarch64 with the Armv8.2 dot product (`sdot`: four signed byte products summed into
    /// each 32-bit lane): the integer GEMM's tile in NEON; every f32 kernel takes the portable
    /// code, which NEON (aarch64's baseline) already vectorises.
    #[cfg(target_arch = "aarch64")]
    NeonDot,
}

impl Simd {
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            // KNOWHUB_EMBED_NO_SIMD=1 forces the portable path (to rule out a SIMD issue).
            if std::env::var_os("KNOWHUB_EMBED_NO_SIMD").is_none()
                && is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("fma")
            {
                // KNOWHUB_EMBED_NO_VNNI=1 keeps the AVX2 integer kernel (to compare the two).
                if vnni() && std::env::var_os("KNOWHUB_EMBED_NO_VNNI").is_none() {
                    return Simd::Avx512Vnni;
                }
                return Simd::Avx2Fma;
            }
        }
        #[cfg(target_arch = "aarch64")]
        if std::env::var_os("KNOWHUB_EMBED_NO_SIMD").is_none() && dotprod() {
            return Simd::NeonDot;
        }
        Simd::Portable
    }

    /// Every code path this CPU can run (tests compare them; the kernel benchmark times them).
    pub(crate) fn all_available() -> Vec<Simd> {
        let mut v = vec![Simd::Portable];
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            v.push(Simd::Avx2Fma);
            if vnni() {
                v.push(Simd::Avx512Vnni);
            }
        }
        #[cfg(target_arch = "aarch64")]
        if dotprod() {
            v.push(Simd::NeonDot);
        }
        v
    }

    pub fn name(self) -> &'static str {
        match self {
            Simd::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Fma => "avx2+fma",
            #[cfg(target_arch = "x86_64")]
            Simd::Avx512Vnni => "avx2+fma+avx512vnni",
            #[cfg(target_arch = "aarch64")]
            Simd::NeonDot => "neon+dotprod",
        }
    }
}

/// Whether the CPU runs 256-bit `vpdpbusd` (AVX-512 VNNI with VL: Intel since Ice Lake and
/// Sapphire Rapids, AMD since Zen 4).
#[cfg(target_arch = "x86_64")]
pub(crate) fn vnni() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vnni")
}

/// Whether the CPU has the Armv8.2 dot product (`sdot`; optional in Armv8.2, standard from
/// Armv8.4: Graviton 2 and later, Ampere Altra, Apple M-series, Cortex-A76 and later).
#[cfg(target_arch = "aarch64")]
pub(crate) fn dotprod() -> bool {
    std::arch::is_aarch64_feature_detected!("dotprod")
}

/// Output columns per packed panel (two 8-lane AVX registers).
pub const NR: usize = 16;
/// Rows per register tile: 6 x 2 accumulators + 2 weight registers + 1 broadcast = 15 of
/// the 16 ymm registers.
const MR: usize = 6;

/// One 16-wide slice of a dequantised weight panel; 64-byte aligned so a panel row is exactly
/// one cache line and the AVX loads never split lines.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Lane16(pub [f32; NR]);

/// 32 consecutive input positions (`k`) x 16 output columns of 4-bit weights, re-laid out from
/// the file's row-major Q4_0 blocks so a whole panel row (16 columns) unpacks with a few
/// vector instructions. Byte `j` of `codes[kk]` holds column `j` (low nibble) and `j + 8`
/// (high nibble). Scales are the file's f16 block scales widened to f32 (exact).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct PanelBlock {
    scale: [f32; NR],
    codes: [[u8; NR / 2]; QK],
}

const QK: usize = crate::quant::QK;

use crate::intgemm::{self, IntBlocks, QuantActs, Store};

/// A linear layer `y = x W^T + b` whose weights stay 4-bit in memory (13 MB for the whole
/// model instead of 82 MB as f32: it fits in L3, so a single query is not bound by DRAM
/// bandwidth). Panel `p` covers output columns `16p..16p+16`; each call dequantises one panel
/// at a time into an L1/L2-resident f32 scratch and runs every row tile against it, so the
/// unpacking is amortised over all tokens of the call. Dequantised values are bit-exact.
pub struct PackedLinear {
    pub n: usize,
    pub k: usize,
    blocks: Blocks,
    bias: Vec<f32>,
}

/// 32 input positions x 16 output columns of 8-bit weights with one f32 scale per column and
/// block: for models shipped in full precision, where 4 bits would cost too much accuracy
/// (all-MiniLM-L6-v2: cosine 0.97 to the f32 model at 4 bits; 8 bits keeps it at 0.9999).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct PanelBlock8 {
    scale: [f32; NR],
    codes: [[i8; NR]; QK],
}

enum Blocks {
    Q4(Vec<PanelBlock>),
    Q8(Vec<PanelBlock8>),
    /// Integer codes for [`crate::intgemm`].
    Int(IntBlocks),
}

/// Which arithmetic the linear layers use; fixed at model load.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// int8 activations x integer weight codes ([`crate::intgemm`]): the default where the
    /// AVX2 integer kernel runs.
    Int8,
    /// Dequantised f32 weights and f32 FMA: the reference, and the default elsewhere (the
    /// portable integer kernel is there for exactness tests, not for speed).
    F32,
}

impl Precision {
    /// Int8 where the SIMD integer kernel exists; `KNOWHUB_EMBED_F32=1` forces f32.
    pub fn detect(simd: Simd) -> Precision {
        if std::env::var_os("KNOWHUB_EMBED_F32").is_some_and(|v| !v.is_empty() && v != "0") {
            return Precision::F32;
        }
        match simd {
            #[cfg(target_arch = "x86_64")]
            Simd::Avx2Fma | Simd::Avx512Vnni => Precision::Int8,
            #[cfg(target_arch = "aarch64")]
            Simd::NeonDot => Precision::Int8,
            Simd::Portable => Precision::F32,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Precision::Int8 => "int8",
            Precision::F32 => "f32",
        }
    }
}

/// Gather these layers' integer weights into one huge-page region, in this order (see
/// [`intgemm::pin`]); f32-GEMM layers keep their vectors.
pub fn pin(layers: Vec<&mut PackedLinear>) {
    let mut ints: Vec<&mut IntBlocks> = layers
        .into_iter()
        .filter_map(|l| match &mut l.blocks {
            Blocks::Int(b) => Some(b),
            _ => None,
        })
        .collect();
    intgemm::pin(&mut ints);
}

impl PackedLinear {
    /// Build from the file's row-major Q4_0 data: `n` rows of `k` weights.
    pub fn from_q4(n: usize, k: usize, q4: &[u8], bias: Vec<f32>, prec: Precision) -> Self {
        assert!(n.is_multiple_of(NR) && k.is_multiple_of(QK) && bias.len() == n);
        assert!(q4.len() >= n * crate::quant::row_bytes(k));
        if prec == Precision::Int8 {
            return PackedLinear {
                n,
                k,
                blocks: Blocks::Int(IntBlocks::W4(Store::Own(intgemm::pack_q4(n, k, q4)))),
                bias,
            };
        }
        let empty = PanelBlock { scale: [0.0; NR], codes: [[0; NR / 2]; QK] };
        let mut blocks = vec![empty; n / NR * (k / QK)];
        q4_weight_blocks(n, k, q4, |i, j, d, codes| {
            blocks[i].scale[j] = d;
            for (row, &q) in blocks[i].codes.iter_mut().zip(codes) {
                row[j % 8] |= q << (4 * (j / 8));
            }
        });
        PackedLinear { n, k, blocks: Blocks::Q4(blocks), bias }
    }

    /// Build from full-precision row-major weights (`n` rows of `k`), quantising each run of
    /// 32 weights of a row to 8 bits (scale = largest magnitude / 127, round to nearest), so f32
    /// models run on the same kernels and stay cache-resident (a quarter of their f32 size).
    pub fn from_f32(n: usize, k: usize, w: &[f32], bias: Vec<f32>, prec: Precision) -> Self {
        assert!(n.is_multiple_of(NR) && k.is_multiple_of(QK) && bias.len() == n && w.len() >= n * k);
        if prec == Precision::Int8 {
            return PackedLinear {
                n,
                k,
                blocks: Blocks::Int(IntBlocks::W7(Store::Own(intgemm::pack_f32(n, k, w)))),
                bias,
            };
        }
        let kb = k / QK;
        let empty = PanelBlock8 { scale: [0.0; NR], codes: [[0; NR]; QK] };
        let mut blocks = vec![empty; n / NR * kb];
        quantise_weight_blocks(n, k, w, 127.0, f32::round, |i, j, d, codes| {
            blocks[i].scale[j] = d;
            for (row, &c) in blocks[i].codes.iter_mut().zip(codes) {
                row[j] = c;
            }
        });
        PackedLinear { n, k, blocks: Blocks::Q8(blocks), bias }
    }

    /// Concatenate layers along the output dimension (fuses Q, K and V into one GEMM).
    pub fn concat(parts: Vec<PackedLinear>) -> Self {
        let k = parts[0].k;
        assert!(parts.iter().all(|p| p.k == k));
        let n = parts.iter().map(|p| p.n).sum();
        let mut bias = Vec::with_capacity(n);
        let mut blocks = match parts[0].blocks {
            Blocks::Q4(_) => Blocks::Q4(Vec::with_capacity(n / NR * (k / QK))),
            Blocks::Q8(_) => Blocks::Q8(Vec::with_capacity(n / NR * (k / QK))),
            Blocks::Int(IntBlocks::W4(_)) => Blocks::Int(IntBlocks::W4(Store::Own(Vec::new()))),
            Blocks::Int(IntBlocks::W7(_)) => Blocks::Int(IntBlocks::W7(Store::Own(Vec::new()))),
        };
        for p in parts {
            match (&mut blocks, &p.blocks) {
                (Blocks::Q4(all), Blocks::Q4(b)) => all.extend_from_slice(b),
                (Blocks::Q8(all), Blocks::Q8(b)) => all.extend_from_slice(b),
                (Blocks::Int(all), Blocks::Int(b)) => all.extend(b),
                _ => panic!("concat of layers with different weight formats"),
            }
            bias.extend_from_slice(&p.bias);
        }
        PackedLinear { n, k, blocks, bias }
    }

    pub fn bytes(&self) -> usize {
        let blocks = match &self.blocks {
            Blocks::Q4(b) => b.len() * std::mem::size_of::<PanelBlock>(),
            Blocks::Q8(b) => b.len() * std::mem::size_of::<PanelBlock8>(),
            Blocks::Int(b) => b.bytes(),
        };
        blocks + self.bias.len() * 4
    }

    /// The arithmetic this layer was packed for.
    pub fn precision(&self) -> Precision {
        match self.blocks {
            Blocks::Int(_) => Precision::Int8,
            _ => Precision::F32,
        }
    }

    /// Dequantise panel `p` (`k` rows of 16 columns) into `out`.
    fn unpack(&self, simd: Simd, p: usize, out: &mut [Lane16]) {
        let kb = self.k / QK;
        match (&self.blocks, simd) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the AVX2 variants are only produced after runtime feature detection.
            (Blocks::Q4(b), Simd::Avx2Fma | Simd::Avx512Vnni) => unsafe {
                unpack_panel_avx2(&b[p * kb..(p + 1) * kb], out)
            },
            (Blocks::Q4(b), _) => unpack_panel_portable(&b[p * kb..(p + 1) * kb], out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            (Blocks::Q8(b), Simd::Avx2Fma | Simd::Avx512Vnni) => unsafe {
                unpack_panel8_avx2(&b[p * kb..(p + 1) * kb], out)
            },
            (Blocks::Q8(b), _) => unpack_panel8_portable(&b[p * kb..(p + 1) * kb], out),
            (Blocks::Int(_), _) => unreachable!("integer layers have no f32 panels"),
        }
    }
}

/// Walk `n` rows of the file's Q4_0 blocks (`k` weights each) and hand each block to `put` as
/// (panel block index, column in the panel, scale widened to f32 (exact), the 32 codes 0..=15).
/// Both weight layouts use it.
pub(crate) fn q4_weight_blocks(n: usize, k: usize, q4: &[u8], mut put: impl FnMut(usize, usize, f32, &[u8; QK])) {
    use crate::quant::{f16_to_f32, row_bytes, BLOCK_BYTES};
    let (rb, kb) = (row_bytes(k), k / QK);
    for o in 0..n {
        let (p, j) = (o / NR, o % NR);
        for b in 0..kb {
            let src = &q4[o * rb + b * BLOCK_BYTES..o * rb + (b + 1) * BLOCK_BYTES];
            let mut codes = [0u8; QK];
            for (kk, q) in codes.iter_mut().enumerate() {
                let byte = src[2 + kk % (QK / 2)];
                *q = if kk < QK / 2 { byte & 0x0f } else { byte >> 4 };
            }
            put(p * kb + b, j, f16_to_f32(u16::from_le_bytes([src[0], src[1]])), &codes);
        }
    }
}

/// Quantise each run of 32 weights of each of `n` rows (`k` weights each) to codes of at most
/// `max` in magnitude (scale = largest magnitude / `max`), and hand each block to `put` as
/// (panel block index, column in the panel, scale, codes). Both weight layouts use it.
pub(crate) fn quantise_weight_blocks(
    n: usize,
    k: usize,
    w: &[f32],
    max: f32,
    round: impl Fn(f32) -> f32,
    mut put: impl FnMut(usize, usize, f32, &[i8; QK]),
) {
    let kb = k / QK;
    for o in 0..n {
        let (p, j) = (o / NR, o % NR);
        for b in 0..kb {
            let src = &w[o * k + b * QK..o * k + (b + 1) * QK];
            let amax = src.iter().fold(0f32, |m, x| m.max(x.abs()));
            let d = amax / max;
            let inv = if d > 0.0 { 1.0 / d } else { 0.0 };
            let mut codes = [0i8; QK];
            for (c, &x) in codes.iter_mut().zip(src) {
                *c = round(x * inv).clamp(-max, max) as i8;
            }
            put(p * kb + b, j, d, &codes);
        }
    }
}

fn unpack_panel8_portable(blocks: &[PanelBlock8], out: &mut [Lane16]) {
    for (blk, rows) in blocks.iter().zip(out.chunks_exact_mut(QK)) {
        for (codes, row) in blk.codes.iter().zip(rows) {
            for ((o, &c), &d) in row.0.iter_mut().zip(codes).zip(&blk.scale) {
                *o = c as f32 * d;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn unpack_panel8_avx2(blocks: &[PanelBlock8], out: &mut [Lane16]) {
    use std::arch::x86_64::*;
    for (blk, rows) in blocks.iter().zip(out.chunks_exact_mut(QK)) {
        let s0 = _mm256_loadu_ps(blk.scale.as_ptr());
        let s1 = _mm256_loadu_ps(blk.scale.as_ptr().add(8));
        for (codes, row) in blk.codes.iter().zip(rows) {
            let lo = _mm_loadl_epi64(codes.as_ptr() as *const __m128i);
            let hi = _mm_loadl_epi64(codes.as_ptr().add(8) as *const __m128i);
            let q0 = _mm256_cvtepi8_epi32(lo);
            let q1 = _mm256_cvtepi8_epi32(hi);
            let dst = row.0.as_mut_ptr();
            _mm256_store_ps(dst, _mm256_mul_ps(_mm256_cvtepi32_ps(q0), s0));
            _mm256_store_ps(dst.add(8), _mm256_mul_ps(_mm256_cvtepi32_ps(q1), s1));
        }
    }
}

fn unpack_panel_portable(blocks: &[PanelBlock], out: &mut [Lane16]) {
    for (blk, rows) in blocks.iter().zip(out.chunks_exact_mut(QK)) {
        for (codes, row) in blk.codes.iter().zip(rows) {
            for (j, &c) in codes.iter().enumerate() {
                row.0[j] = ((c & 0x0f) as i32 - 8) as f32 * blk.scale[j];
                row.0[j + 8] = ((c >> 4) as i32 - 8) as f32 * blk.scale[j + 8];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn unpack_panel_avx2(blocks: &[PanelBlock], out: &mut [Lane16]) {
    use std::arch::x86_64::*;
    let mask = _mm_set1_epi8(0x0f);
    let eight = _mm256_set1_epi32(8);
    for (blk, rows) in blocks.iter().zip(out.chunks_exact_mut(QK)) {
        let s0 = _mm256_loadu_ps(blk.scale.as_ptr());
        let s1 = _mm256_loadu_ps(blk.scale.as_ptr().add(8));
        for (codes, row) in blk.codes.iter().zip(rows) {
            let c = _mm_loadl_epi64(codes.as_ptr() as *const __m128i);
            let lo = _mm_and_si128(c, mask);
            let hi = _mm_and_si128(_mm_srli_epi16(c, 4), mask);
            let q0 = _mm256_sub_epi32(_mm256_cvtepu8_epi32(lo), eight);
            let q1 = _mm256_sub_epi32(_mm256_cvtepu8_epi32(hi), eight);
            let dst = row.0.as_mut_ptr();
            _mm256_store_ps(dst, _mm256_mul_ps(_mm256_cvtepi32_ps(q0), s0));
            _mm256_store_ps(dst.add(8), _mm256_mul_ps(_mm256_cvtepi32_ps(q1), s1));
        }
    }
}

thread_local! {
    /// Per-thread buffer for a call's quantised activations (reused: a batch's can be 10 MB).
    static QUANT: std::cell::RefCell<QuantActs> = std::cell::RefCell::new(QuantActs::default());
    /// Per-thread dequantised panel (k x 16 f32: 24 KB for k = 384, 96 KB for k = 1536).
    static PANEL: std::cell::RefCell<Vec<Lane16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What to do with each output tile while it is still in L1.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Epilogue {
    None,
    Gelu,
}

/// Raw pointer that may cross threads; users guarantee disjoint writes.
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

/// `y[m][n] = x[m][k] W^T + b` (then the epilogue). Output columns are split over the rayon
/// pool when `parallel` is set; each task owns whole panels, so writes are disjoint.
pub fn linear(simd: Simd, x: &[f32], m: usize, lin: &PackedLinear, y: &mut [f32], epi: Epilogue, parallel: bool) {
    let (n, k) = (lin.n, lin.k);
    assert!(x.len() >= m * k && y.len() >= m * n);
    let npanels = n / NR;
    let yp = SendPtr(y.as_mut_ptr());
    if let Blocks::Int(ib) = &lin.blocks {
        // Quantised once per call and shared read-only by every task.
        QUANT.with(|cell| {
            // A rayon worker waiting on these tasks may run another model's call on this
            // thread while the buffer is lent out; that call quantises into a fresh one.
            let mut fresh = QuantActs::default();
            let mut guard = cell.try_borrow_mut();
            let qa = match guard.as_deref_mut() {
                Ok(buf) => buf,
                Err(_) => &mut fresh,
            };
            qa.quantise(simd, x, m, k, ib.offset());
            let qa = &*qa;
            // Rows in chunks whose codes (~96 KB) stay in L2 while every panel runs over them:
            // a 512-token pass of the 1536-wide layer would otherwise stream 768 KB of
            // activations from L3 once per panel.
            let chunk = (96 * 1024 / k).max(16) & !1;
            let run = |p0: usize, p1: usize| {
                for c0 in (0..m).step_by(chunk) {
                    let c1 = (c0 + chunk).min(m);
                    for p in p0..p1 {
                        let bias = &lin.bias[p * NR..(p + 1) * NR];
                        // SAFETY: rows c0..c1, columns p*NR..p*NR+NR lie inside y (checked
                        // above) and belong to this task alone; c1 <= m.
                        unsafe { ib.panel_rows(simd, p, qa, c0, c1, bias, yp.get().add(c0 * n + p * NR), n) };
                        // GELU as its own pass over the panel's rows just written: in the tile
                        // epilogue (called from baseline code) it ran 4-wide SSE2, and an AVX2
                        // epilogue there measured slower in batches.
                        if epi == Epilogue::Gelu {
                            // SAFETY: as above: these rows of this panel belong to this task.
                            unsafe { gelu_strip(simd, yp.get().add(c0 * n + p * NR), c1 - c0, n) };
                        }
                    }
                }
            };
            split_panels(parallel, m, n, k, npanels, run);
        });
        return;
    }
    // Balanced tile heights (20 rows -> 5+5+5+5, not 6+6+6+2): a short tile wastes most of
    // its FMA slots on weight loads.
    let ntiles = m.div_ceil(MR);
    let run = |p0: usize, p1: usize| {
        PANEL.with(|buf| {
            let mut buf = buf.borrow_mut();
            if buf.len() < k {
                buf.resize(k, Lane16([0.0; NR]));
            }
            let panel = &mut buf[..k];
            for p in p0..p1 {
                lin.unpack(simd, p, panel);
                let bias = &lin.bias[p * NR..(p + 1) * NR];
                let mut r = 0;
                for ti in 0..ntiles {
                    let rows = m * (ti + 1) / ntiles - r;
                    // SAFETY: rows r..r+rows and columns p*NR..p*NR+NR are inside y
                    // (checked above) and owned by this task alone.
                    unsafe {
                        let c = yp.get().add(r * n + p * NR);
                        tile(simd, rows, &x[r * k..], k, panel, bias, c, n, epi);
                    }
                    r += rows;
                }
                debug_assert_eq!(r, m);
            }
        })
    };
    split_panels(parallel, m, n, k, npanels, run);
}

/// Run `run(p0, p1)` over the panels, split over the rayon pool when `parallel` is set and
/// the call is big enough.
fn split_panels(parallel: bool, m: usize, n: usize, k: usize, npanels: usize, run: impl Fn(usize, usize) + Sync) {
    let threads = if parallel { rayon::current_num_threads() } else { 1 };
    // Enough work per task to amortise a rayon hand-off (~a few microseconds).
    let tasks = if threads <= 1 || m * n * k < 1 << 19 {
        1
    } else if m >= 64 {
        (threads * 4).min(npanels)
    } else {
        threads.min(npanels)
    };
    if tasks == 1 {
        run(0, npanels);
    } else {
        use rayon::prelude::*;
        (0..tasks).into_par_iter().for_each(|t| {
            run(t * npanels / tasks, (t + 1) * npanels / tasks);
        });
    }
}

/// One register tile: `rows` (1..=6) x 16 outputs.
///
/// # Safety
/// `c` must be valid for writes of `rows` rows of 16 floats at stride `ldc`; `a` must hold
/// `rows` rows of `k` floats.
#[allow(clippy::too_many_arguments)]
unsafe fn tile(
    simd: Simd,
    rows: usize,
    a: &[f32],
    k: usize,
    panel: &[Lane16],
    bias: &[f32],
    c: *mut f32,
    ldc: usize,
    epi: Epilogue,
) {
    debug_assert!(a.len() >= (rows - 1) * k + k && panel.len() == k);
    macro_rules! dispatch {
        ($f:ident) => {
            match rows {
                6 => $f::<6>(a, k, panel, bias, c, ldc, epi),
                5 => $f::<5>(a, k, panel, bias, c, ldc, epi),
                4 => $f::<4>(a, k, panel, bias, c, ldc, epi),
                3 => $f::<3>(a, k, panel, bias, c, ldc, epi),
                2 => $f::<2>(a, k, panel, bias, c, ldc, epi),
                _ => $f::<1>(a, k, panel, bias, c, ldc, epi),
            }
        };
    }
    match simd {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2Fma | Simd::Avx512Vnni => dispatch!(tile_avx2),
        #[cfg(target_arch = "aarch64")]
        Simd::NeonDot => dispatch!(tile_portable),
        Simd::Portable => dispatch!(tile_portable),
    }
}

/// `a * b + c`, fused where the target always has FMA (aarch64: NEON `fmla`); on baseline
/// x86-64 `mul_add` would be a slow libm call, so there it stays two operations.
#[inline(always)]
fn fmadd(a: f32, b: f32, c: f32) -> f32 {
    if cfg!(target_arch = "aarch64") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

#[inline(always)]
unsafe fn tile_portable<const R: usize>(
    a: &[f32],
    k: usize,
    panel: &[Lane16],
    bias: &[f32],
    c: *mut f32,
    ldc: usize,
    epi: Epilogue,
) {
    let mut acc = [[0f32; NR]; R];
    for (kk, w) in panel.iter().enumerate() {
        for (r, row) in acc.iter_mut().enumerate() {
            let av = a[r * k + kk];
            for (c, &wv) in row.iter_mut().zip(&w.0) {
                *c = fmadd(av, wv, *c);
            }
        }
    }
    for (r, row) in acc.iter_mut().enumerate() {
        for j in 0..NR {
            row[j] += bias[j];
        }
        if epi == Epilogue::Gelu {
            gelu_slice(row);
        }
        std::ptr::copy_nonoverlapping(row.as_ptr(), c.add(r * ldc), NR);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn tile_avx2<const R: usize>(
    a: &[f32],
    k: usize,
    panel: &[Lane16],
    bias: &[f32],
    c: *mut f32,
    ldc: usize,
    epi: Epilogue,
) {
    use std::arch::x86_64::*;
    let mut c0 = [_mm256_setzero_ps(); R];
    let mut c1 = [_mm256_setzero_ps(); R];
    let ap = a.as_ptr();
    let wp = panel.as_ptr() as *const f32;
    for kk in 0..k {
        let w0 = _mm256_load_ps(wp.add(kk * NR));
        let w1 = _mm256_load_ps(wp.add(kk * NR + 8));
        for r in 0..R {
            let av = _mm256_broadcast_ss(&*ap.add(r * k + kk));
            c0[r] = _mm256_fmadd_ps(av, w0, c0[r]);
            c1[r] = _mm256_fmadd_ps(av, w1, c1[r]);
        }
    }
    let b0 = _mm256_loadu_ps(bias.as_ptr());
    let b1 = _mm256_loadu_ps(bias.as_ptr().add(8));
    for r in 0..R {
        let out = c.add(r * ldc);
        _mm256_storeu_ps(out, _mm256_add_ps(c0[r], b0));
        _mm256_storeu_ps(out.add(8), _mm256_add_ps(c1[r], b1));
        if epi == Epilogue::Gelu {
            gelu_slice(std::slice::from_raw_parts_mut(out, NR));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Element-wise maths. Written branch-free over slices so LLVM vectorises them (8 lanes under
// the AVX2 wrapper, 4 with baseline SSE2).

/// `c[0] x^(N-1) + c[1] x^(N-2) + ... + c[N-1]` by Horner's rule, each step a multiply then an
/// add (unfused on every path, so every path gives the same bits).
#[inline(always)]
fn horner<const N: usize>(x: f32, c: [f32; N]) -> f32 {
    c[1..].iter().fold(c[0], |p, &k| p * x + k)
}

/// e^x for x in about [-87, 88], relative error ~2e-7 (Cephes `expf` polynomial).
#[inline(always)]
fn exp_f(x: f32) -> f32 {
    let x = x.clamp(-87.0, 88.0);
    // n = round(x / ln 2) via the 1.5 * 2^23 trick (vectorises; no rounding intrinsic needed).
    // The integer n is read from the low mantissa bits of the biased sum: a saturating
    // `n as i32` would not vectorise, and GELU (which calls this per FFN output) then ran as
    // scalar code, ~a quarter of a query's time.
    const MAGIC: f32 = 12_582_912.0;
    let biased = x * std::f32::consts::LOG2_E + MAGIC;
    let n = biased - MAGIC;
    let ni = (biased.to_bits() as i32).wrapping_sub(MAGIC.to_bits() as i32);
    let r = x - n * 0.693_359_4 + n * 2.121_944_4e-4;
    let p = horner(r, [1.987_569_1e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 5e-1]);
    let y = p * r * r + r + 1.0;
    f32::from_bits(y.to_bits().wrapping_add((ni << 23) as u32))
}

/// Exact (erf-based) GELU as BERT uses, with erf from Abramowitz & Stegun 7.1.28:
/// `erf(z) = 1 - 1 / (1 + a1 z + ... + a6 z^6)^16` for z >= 0 (absolute error < 3e-7; here,
/// in f32, GELU stays within 9e-7 of the exact value over [-6, 6]: tested). It needs one
/// division and four squarings where 7.1.26 needs a division and an `exp`: GELU over a
/// 512 x 1536 FFN output took 0.57 ms against 1.19 ms (one core; bench/results, 2026-11-26).
/// For large |z| the power overflows to infinity and erf is exactly +-1, as it is in f32.
#[inline(always)]
fn gelu_f(x: f32) -> f32 {
    let z = x.abs() * std::f32::consts::FRAC_1_SQRT_2;
    let d = horner(z, [4.306_38e-5, 2.765_672e-4, 1.520_143e-4, 9.270_527e-3, 4.228_201e-2, 7.052_307_8e-2, 1.0]);
    let d2 = d * d;
    let d4 = d2 * d2;
    let d16 = (d4 * d4) * (d4 * d4);
    let erf = (1.0 - 1.0 / d16).copysign(x);
    0.5 * x * (1.0 + erf)
}

#[inline(always)]
fn gelu_slice(xs: &mut [f32]) {
    for x in xs {
        *x = gelu_f(*x);
    }
}

/// Multiversion an element-wise kernel: portable body + AVX2/FMA clone, chosen at run time.
/// `unsafe fn` kernels (raw pointers) keep their contract: the caller's, as written on them.
macro_rules! multiversion {
    ($(#[$m:meta])* pub fn $name:ident($($arg:ident : $ty:ty),*) $(-> $ret:ty)? $body:block) => {
        $(#[$m])*
        pub fn $name(simd: Simd, $($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn generic($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) $(-> $ret)? { generic($($arg),*) }
            match simd {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the AVX2 variants are only produced after runtime feature detection.
                Simd::Avx2Fma | Simd::Avx512Vnni => unsafe { avx2($($arg),*) },
                #[cfg(target_arch = "aarch64")]
                Simd::NeonDot => generic($($arg),*),
                Simd::Portable => generic($($arg),*),
            }
        }
    };
    ($(#[$m:meta])* pub unsafe fn $name:ident($($arg:ident : $ty:ty),*) $body:block) => {
        $(#[$m])*
        pub unsafe fn $name(simd: Simd, $($arg: $ty),*) {
            #[inline(always)]
            unsafe fn generic($($arg: $ty),*) $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn avx2($($arg: $ty),*) { generic($($arg),*) }
            match simd {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: AVX2 variants only after runtime feature detection; the rest is the
                // caller's contract.
                Simd::Avx2Fma | Simd::Avx512Vnni => avx2($($arg),*),
                #[cfg(target_arch = "aarch64")]
                Simd::NeonDot => generic($($arg),*),
                Simd::Portable => generic($($arg),*),
            }
        }
    };
}

multiversion! {
    /// In-place GELU over a slice (tests: the reference the GEMMs' GELU is checked against).
    #[cfg(test)]
    pub fn gelu(xs: &mut [f32]) {
        gelu_slice(xs)
    }
}

multiversion! {
    /// In-place GELU over a strip of `rows` rows of [`NR`] floats at stride `ld` from `c`: the
    /// integer GEMM's pass over one panel's finished rows, while they are still in L1. (A pass over
    /// the whole chunk of rows afterwards measured ~1% slower; GELU stays ~6% of a batch either
    /// way, bound by its division and exp, not by memory.)
    ///
    /// # Safety
    /// `c` must be valid for reads and writes of `rows` rows of `NR` floats at stride `ld`, with
    /// no other access to them during the call.
    pub unsafe fn gelu_strip(c: *mut f32, rows: usize, ld: usize) {
        for r in 0..rows {
            gelu_slice(std::slice::from_raw_parts_mut(c.add(r * ld), NR));
        }
    }
}

multiversion! {
    /// `x[row] = LayerNorm(x[row] + r[row])` for every row of width `w.len()`.
    pub fn add_layernorm(x: &mut [f32], r: &[f32], w: &[f32], b: &[f32], eps: f32) {
        let h = w.len();
        for (row, res) in x.chunks_exact_mut(h).zip(r.chunks_exact(h)) {
            for (v, &d) in row.iter_mut().zip(res) {
                *v += d;
            }
            layernorm_row(row, w, b, eps);
        }
    }
}

multiversion! {
    /// In-place LayerNorm of every row.
    pub fn layernorm(x: &mut [f32], w: &[f32], b: &[f32], eps: f32) {
        for row in x.chunks_exact_mut(w.len()) {
            layernorm_row(row, w, b, eps);
        }
    }
}

/// 8 independent partial sums so the reduction vectorises without fast-math.
#[inline(always)]
fn sum8(xs: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut acc = [0f32; 8];
    let chunks = xs.chunks_exact(8);
    let tail: f32 = chunks.remainder().iter().map(|&v| f(v)).sum();
    for c in chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += f(v);
        }
    }
    acc.iter().sum::<f32>() + tail
}

#[inline(always)]
fn layernorm_row(row: &mut [f32], w: &[f32], b: &[f32], eps: f32) {
    let h = row.len() as f32;
    let mean = sum8(row, |v| v) / h;
    let var = sum8(row, |v| (v - mean) * (v - mean)) / h;
    let inv = 1.0 / (var + eps).sqrt();
    for ((v, &g), &bb) in row.iter_mut().zip(w).zip(b) {
        *v = (*v - mean) * inv * g + bb;
    }
}

/// Queries per block in `attention_head`: four rows of scores or outputs accumulate in
/// registers while each K or V value is loaded once for all four.
pub const ATTN_QUERIES: usize = 4;
/// Columns per accumulator row (two AVX2 registers).
const ATTN_LANES: usize = 16;

/// Scratch floats [`attention_head`] needs for a sequence of `len` positions and head width
/// `hd`: `(kt, scores)`, with positions padded to whole blocks of [`ATTN_LANES`]. `kt` holds
/// K transposed and, on the AVX2 path, a contiguous copy of the head's V.
pub fn attn_scratch(len: usize, hd: usize) -> (usize, usize) {
    let lp = len.next_multiple_of(ATTN_LANES);
    (2 * hd * lp, ATTN_QUERIES * lp)
}

/// One attention head of one sequence, as the kernels read it: `qkv` rows hold `[q | k | v]`
/// (stride `ld`), `q_off/k_off/v_off` select this head's `hd` columns, and `scale` multiplies
/// every score.
#[derive(Clone, Copy)]
pub struct AttnHead<'a> {
    pub qkv: &'a [f32],
    pub ld: usize,
    pub len: usize,
    pub q_off: usize,
    pub k_off: usize,
    pub v_off: usize,
    pub hd: usize,
    pub scale: f32,
}

/// Self-attention for one head of one sequence: writes `len` rows of `hd` floats to `out`
/// (stride `ldo`). `kt` and `scores` are scratch of at least [`attn_scratch`]`(len, hd)` floats.
///
/// K is transposed first, then queries are taken `ATTN_QUERIES` at a time: their scores for
/// 16 positions, and their outputs for 16 columns, are accumulated in registers, so each K and
/// V value is loaded once per block instead of once per query, with no store between
/// multiply-adds (a 512-token passage spent most of its time here). Every sum is taken in the
/// same order, with the same unfused operations, as one query at a time, so the result is
/// bit-identical to it on every path (tested).
pub fn attention_head(simd: Simd, h: &AttnHead, kt: &mut [f32], scores: &mut [f32], out: &mut [f32], ldo: usize) {
    match simd {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the AVX2 variants are only produced after runtime feature detection.
        Simd::Avx2Fma | Simd::Avx512Vnni => unsafe { attention_avx2(h, kt, scores, out, ldo) },
        #[cfg(target_arch = "aarch64")]
        Simd::NeonDot => attention_blocked(h, kt, scores, out, ldo),
        Simd::Portable => attention_blocked(h, kt, scores, out, ldo),
    }
}

/// The portable body of [`attention_head`] (also the AVX2 path's fallback for head widths
/// that are not a multiple of 16).
#[inline(always)]
fn attention_blocked(h: &AttnHead, kt: &mut [f32], scores: &mut [f32], out: &mut [f32], ldo: usize) {
    let AttnHead { qkv, ld, len, q_off, k_off, v_off, hd, scale } = *h;
    const QB: usize = ATTN_QUERIES;
    const L: usize = ATTN_LANES;
    // K's rows are padded with zeros to whole blocks of 16 positions, so every position
    // is scored by the register-blocked loop: a scalar loop for the last `len % 16` took
    // most of a short passage's attention time. Padded scores are never read.
    let lp = len.next_multiple_of(L);
    let kt = &mut kt[..hd * lp];
    for e in 0..hd {
        kt[e * lp + len..(e + 1) * lp].fill(0.0);
    }
    for s in 0..len {
        let kr = &qkv[s * ld + k_off..s * ld + k_off + hd];
        for (e, &kv) in kr.iter().enumerate() {
            kt[e * lp + s] = kv * scale;
        }
    }
    let scores = &mut scores[..QB * lp];
    let mut t0 = 0;
    while t0 < len {
        let nb = QB.min(len - t0);
        // A short last block repeats its last query; the extra rows are never read.
        let q: [&[f32]; QB] = std::array::from_fn(|i| {
            let t = t0 + i.min(nb - 1);
            &qkv[t * ld + q_off..t * ld + q_off + hd]
        });
        for s in (0..lp).step_by(L) {
            let mut acc = [[0f32; L]; QB];
            for e in 0..hd {
                let k: &[f32; L] = kt[e * lp + s..e * lp + s + L].try_into().expect("L columns");
                for (a, qi) in acc.iter_mut().zip(&q) {
                    let qe = qi[e];
                    for (x, &kv) in a.iter_mut().zip(k) {
                        *x += qe * kv;
                    }
                }
            }
            for (i, a) in acc.iter().enumerate() {
                scores[i * lp + s..i * lp + s + L].copy_from_slice(a);
            }
        }
        softmax_rows(scores, lp, len);
        let mut c = 0;
        while c < hd {
            let w = L.min(hd - c);
            let mut acc = [[0f32; L]; QB];
            // Full 16-column blocks as fixed-size arrays, so the accumulators stay in
            // registers; the narrower last block (head widths not a multiple of 16) takes
            // the same sums over a slice.
            if w == L {
                for u in 0..len {
                    let v: &[f32; L] = qkv[u * ld + v_off + c..u * ld + v_off + c + L].try_into().expect("L columns");
                    for (i, a) in acc.iter_mut().enumerate() {
                        let p = scores[i * lp + u];
                        for (x, &vv) in a.iter_mut().zip(v) {
                            *x += p * vv;
                        }
                    }
                }
            } else {
                for u in 0..len {
                    let v = &qkv[u * ld + v_off + c..u * ld + v_off + c + w];
                    for (i, a) in acc.iter_mut().enumerate() {
                        let p = scores[i * lp + u];
                        for (x, &vv) in a.iter_mut().zip(v) {
                            *x += p * vv;
                        }
                    }
                }
            }
            for (i, a) in acc.iter().enumerate().take(nb) {
                let t = t0 + i;
                out[t * ldo + c..t * ldo + c + w].copy_from_slice(&a[..w]);
            }
            c += w;
        }
        t0 += nb;
    }
}

/// Softmax of the first `len` scores of each of the `ATTN_QUERIES` rows (stride `lp`), in
/// place: shared by both attention paths so they normalise alike.
#[inline(always)]
fn softmax_rows(scores: &mut [f32], lp: usize, len: usize) {
    for i in 0..ATTN_QUERIES {
        let row = &mut scores[i * lp..i * lp + len];
        let mx = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
        for sc in row.iter_mut() {
            *sc = exp_f(*sc - mx);
        }
        let inv = 1.0 / sum8(row, |v| v);
        for sc in row.iter_mut() {
            *sc *= inv;
        }
    }
}

/// [`attention_blocked`] in AVX2 intrinsics for head widths that are a multiple of 16 (both
/// models use 32). The auto-vectorised build re-checked bounds on every score it read and
/// assembled each V row from scalar pieces; the K transpose stored one float at a time. Here
/// K is transposed in 8x8 blocks, and the score and output blocks are the same unfused
/// multiplies and adds, in the same order, as the portable body, so the bits are the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn attention_avx2(h: &AttnHead, kt: &mut [f32], scores: &mut [f32], out: &mut [f32], ldo: usize) {
    let AttnHead { qkv, ld, len, q_off, k_off, v_off, hd, scale } = *h;
    use std::arch::x86_64::*;
    const QB: usize = ATTN_QUERIES;
    const L: usize = ATTN_LANES;
    if !hd.is_multiple_of(L) || len == 0 {
        return attention_blocked(h, kt, scores, out, ldo);
    }
    let lp = len.next_multiple_of(L);
    // Every raw access below stays inside these bounds.
    assert!(kt.len() >= 2 * hd * lp && scores.len() >= QB * lp);
    assert!(qkv.len() >= (len - 1) * ld + q_off.max(k_off).max(v_off) + hd);
    assert!(out.len() >= (len - 1) * ldo + hd);
    let src = qkv.as_ptr();
    let kp = kt.as_mut_ptr();
    let sc = _mm256_set1_ps(scale);
    // K transposed in panels of 16 positions: panel `s / 16` holds, for each of the `hd`
    // columns, that column's 16 scaled values, so a score block streams one contiguous 2 KB
    // panel (a plain `hd x lp` transpose strides `lp` floats between columns).
    let at = |s: usize, e: usize| (s / L) * hd * L + e * L + s % L;
    let mut s0 = 0;
    while s0 + 8 <= len {
        for e0 in (0..hd).step_by(8) {
            let r: [__m256; 8] =
                std::array::from_fn(|i| _mm256_mul_ps(_mm256_loadu_ps(src.add((s0 + i) * ld + k_off + e0)), sc));
            for (i, col) in transpose8(r).into_iter().enumerate() {
                _mm256_storeu_ps(kp.add(at(s0, e0 + i)), col);
            }
        }
        s0 += 8;
    }
    for s in s0..lp {
        for e in 0..hd {
            *kp.add(at(s, e)) = if s < len { *src.add(s * ld + k_off + e) * scale } else { 0.0 };
        }
    }
    // The head's V rows, copied next to each other: read in place they lie a whole `qkv`
    // row (4.6 KB) apart, so every output block walked a new page per position.
    let vp = kp.add(hd * lp);
    for u in 0..len {
        std::ptr::copy_nonoverlapping(src.add(u * ld + v_off), vp.add(u * hd), hd);
    }
    let sp = scores.as_mut_ptr();
    let op = out.as_mut_ptr();
    let mut t0 = 0;
    while t0 < len {
        let nb = QB.min(len - t0);
        // A short last block repeats its last query; the extra rows are never read.
        let q: [*const f32; QB] = std::array::from_fn(|i| src.add((t0 + i.min(nb - 1)) * ld + q_off));
        for s in (0..lp).step_by(L) {
            let mut acc = [_mm256_setzero_ps(); 2 * QB];
            for e in 0..hd {
                let k0 = _mm256_loadu_ps(kp.add(at(s, e)));
                let k1 = _mm256_loadu_ps(kp.add(at(s, e) + 8));
                for i in 0..QB {
                    let qe = _mm256_broadcast_ss(&*q[i].add(e));
                    acc[2 * i] = _mm256_add_ps(acc[2 * i], _mm256_mul_ps(qe, k0));
                    acc[2 * i + 1] = _mm256_add_ps(acc[2 * i + 1], _mm256_mul_ps(qe, k1));
                }
            }
            for i in 0..QB {
                _mm256_storeu_ps(sp.add(i * lp + s), acc[2 * i]);
                _mm256_storeu_ps(sp.add(i * lp + s + 8), acc[2 * i + 1]);
            }
        }
        // Through `sp`, not a fresh borrow of `scores`, so `sp` stays valid after the call.
        softmax_rows(std::slice::from_raw_parts_mut(sp, QB * lp), lp, len);
        for c in (0..hd).step_by(L) {
            let mut acc = [_mm256_setzero_ps(); 2 * QB];
            for u in 0..len {
                let v0 = _mm256_loadu_ps(vp.add(u * hd + c));
                let v1 = _mm256_loadu_ps(vp.add(u * hd + c + 8));
                for i in 0..QB {
                    let p = _mm256_broadcast_ss(&*sp.add(i * lp + u));
                    acc[2 * i] = _mm256_add_ps(acc[2 * i], _mm256_mul_ps(p, v0));
                    acc[2 * i + 1] = _mm256_add_ps(acc[2 * i + 1], _mm256_mul_ps(p, v1));
                }
            }
            for i in 0..nb {
                _mm256_storeu_ps(op.add((t0 + i) * ldo + c), acc[2 * i]);
                _mm256_storeu_ps(op.add((t0 + i) * ldo + c + 8), acc[2 * i + 1]);
            }
        }
        t0 += nb;
    }
}

/// The columns of an 8x8 block given as its 8 rows.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn transpose8(r: [std::arch::x86_64::__m256; 8]) -> [std::arch::x86_64::__m256; 8] {
    use std::arch::x86_64::*;
    // Pairs of rows interleaved, then pairs of pairs: each 128-bit lane of `u[j]` holds
    // column j (low lane) or j + 4 (high lane) of four rows.
    let lo = |a, b| _mm256_unpacklo_ps(a, b);
    let hi = |a, b| _mm256_unpackhi_ps(a, b);
    let t = [lo(r[0], r[1]), hi(r[0], r[1]), lo(r[2], r[3]), hi(r[2], r[3])];
    let w = [lo(r[4], r[5]), hi(r[4], r[5]), lo(r[6], r[7]), hi(r[6], r[7])];
    let quad = |t: &[__m256; 4]| {
        [
            _mm256_shuffle_ps::<0x44>(t[0], t[2]),
            _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
            _mm256_shuffle_ps::<0x44>(t[1], t[3]),
            _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
        ]
    };
    let (u, v) = (quad(&t), quad(&w));
    std::array::from_fn(|j| {
        if j < 4 {
            _mm256_permute2f128_ps::<0x20>(u[j], v[j])
        } else {
            _mm256_permute2f128_ps::<0x31>(u[j - 4], v[j - 4])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::random_q4;

    /// erf by its Taylor series in f64 (converges fine for |x| <= 4).
    fn erf_ref(x: f64) -> f64 {
        let mut sum = 0.0;
        let mut term = x; // x^(2n+1) (-1)^n / n!
        for n in 0..200 {
            sum += term / (2 * n + 1) as f64;
            term *= -x * x / (n + 1) as f64;
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn exp_is_accurate() {
        for i in -8000..=8000 {
            let x = i as f32 / 100.0;
            let got = exp_f(x) as f64;
            let want = (x as f64).exp();
            assert!(((got - want) / want).abs() < 5e-7, "exp({x}) = {got}, want {want}");
        }
        assert_eq!(exp_f(-1000.0), exp_f(-87.0));
    }

    #[test]
    fn gelu_matches_exact_definition() {
        for s in Simd::all_available() {
            // Every 1e-4 over [-6, 6] (the approximation's worst spots are narrow).
            let xs: Vec<f32> = (-60_000..=60_000).map(|i| i as f32 / 10_000.0).collect();
            let mut ys = xs.clone();
            gelu(s, &mut ys);
            for (&x, &y) in xs.iter().zip(&ys) {
                let xd = x as f64;
                let want = 0.5 * xd * (1.0 + erf_ref(xd / std::f64::consts::SQRT_2));
                assert!((y as f64 - want).abs() < 1e-6, "{s:?} gelu({x}) = {y}, want {want}");
            }
            // Far out, erf is exactly +-1 in f32 (the power overflows to infinity, not NaN).
            let mut far = [50.0f32, -50.0, 1e30, -1e30];
            gelu(s, &mut far);
            assert_eq!(far, [50.0, 0.0, 1e30, 0.0], "{s:?}");
        }
    }

    #[test]
    fn layernorm_normalises() {
        for s in Simd::all_available() {
            let w = vec![2.0f32; 40];
            let b = vec![0.5f32; 40];
            let mut x: Vec<f32> = (0..80).map(|i| (i as f32 * 0.37).sin() * 3.0 + 1.0).collect();
            let r = vec![1.0f32; 80];
            add_layernorm(s, &mut x, &r, &w, &b, 1e-12);
            for row in x.chunks(40) {
                let z: Vec<f64> = row.iter().map(|&v| (v as f64 - 0.5) / 2.0).collect();
                let mean = z.iter().sum::<f64>() / 40.0;
                let var = z.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 40.0;
                assert!(mean.abs() < 1e-5 && (var - 1.0).abs() < 1e-4, "{mean} {var}");
            }
        }
    }

    /// Panel re-layout + unpacking reproduce `quant::dequant_row` bit for bit.
    #[test]
    fn panels_unpack_to_exact_dequantised_weights() {
        let (n, k) = (48, 96);
        let q4 = random_q4(n, k, 7, 0);
        let lin = PackedLinear::from_q4(n, k, &q4, vec![0.0; n], Precision::F32);
        let rb = crate::quant::row_bytes(k);
        for s in Simd::all_available() {
            let mut panel = vec![Lane16([0.0; NR]); k];
            for p in 0..n / NR {
                lin.unpack(s, p, &mut panel);
                for j in 0..NR {
                    let mut want = vec![0f32; k];
                    let o = p * NR + j;
                    crate::quant::dequant_row(&q4[o * rb..(o + 1) * rb], &mut want);
                    for kk in 0..k {
                        assert_eq!(panel[kk].0[j].to_bits(), want[kk].to_bits(), "{s:?} o={o} k={kk}");
                    }
                }
            }
        }
    }

    /// 8-bit packing: every weight comes back within half a quantisation step, both code
    /// paths unpack identically, and the GEMM over it matches a naive product of the
    /// dequantised weights.
    #[test]
    fn q8_panels_round_trip_within_half_a_step() {
        let (n, k) = (32, 64);
        let w: Vec<f32> =
            (0..n * k).map(|i| ((i * 7919 % 1000) as f32 / 500.0 - 1.0) * (1.0 + (i % 5) as f32)).collect();
        let lin = PackedLinear::from_f32(n, k, &w, vec![0.5; n], Precision::F32);
        let mut first: Option<Vec<f32>> = None;
        for s in Simd::all_available() {
            let mut all = Vec::new();
            for p in 0..n / NR {
                let mut panel = vec![Lane16([0.0; NR]); k];
                lin.unpack(s, p, &mut panel);
                for j in 0..NR {
                    let o = p * NR + j;
                    for kk in 0..k {
                        let blk = &w[o * k + kk / QK * QK..o * k + (kk / QK + 1) * QK];
                        let step = blk.iter().fold(0f32, |m, x| m.max(x.abs())) / 127.0;
                        let got = panel[kk].0[j];
                        assert!((got - w[o * k + kk]).abs() <= step * 0.5 + 1e-6, "{s:?} o={o} k={kk}");
                        all.push(got);
                    }
                }
            }
            match &first {
                None => first = Some(all),
                Some(f) => assert_eq!(f, &all, "{s:?} unpacks differently"),
            }
        }
        let x: Vec<f32> = (0..3 * k).map(|i| (i as f32 * 0.37).sin()).collect();
        let mut y = vec![0f32; 3 * n];
        linear(Simd::detect(), &x, 3, &lin, &mut y, Epilogue::None, false);
        let deq = first.expect("one path ran");
        for r in 0..3 {
            for o in 0..n {
                let (p, j) = (o / NR, o % NR);
                let want: f32 = 0.5 + (0..k).map(|kk| x[r * k + kk] * deq[(p * NR + j) * k + kk]).sum::<f32>();
                assert!((y[r * n + o] - want).abs() < 1e-3, "row {r} col {o}: {} vs {want}", y[r * n + o]);
            }
        }
    }

    /// The packed GEMM against a naive triple loop, for every tile height and with
    /// multi-task splitting.
    #[test]
    fn linear_matches_naive() {
        for s in Simd::all_available() {
            for &(m, n, k) in &[(1, 16, 32), (7, 48, 64), (13, 32, 96), (130, 64, 128), (20, 64, 384)] {
                let q4 = random_q4(n, k, (m * n * k) as u64, 0);
                let rb = crate::quant::row_bytes(k);
                let mut w = vec![0f32; n * k];
                for o in 0..n {
                    crate::quant::dequant_row(&q4[o * rb..(o + 1) * rb], &mut w[o * k..(o + 1) * k]);
                }
                let bias: Vec<f32> = (0..n).map(|i| i as f32 * 0.1).collect();
                let x: Vec<f32> = (0..m * k).map(|i| ((i * 31) % 53) as f32 / 26.0 - 1.0).collect();
                let lin = if n > NR {
                    PackedLinear::concat(vec![
                        PackedLinear::from_q4(NR, k, &q4[..NR * rb], bias[..NR].to_vec(), Precision::F32),
                        PackedLinear::from_q4(n - NR, k, &q4[NR * rb..], bias[NR..].to_vec(), Precision::F32),
                    ])
                } else {
                    PackedLinear::from_q4(n, k, &q4, bias.clone(), Precision::F32)
                };
                for par in [false, true] {
                    let mut y = vec![f32::NAN; m * n];
                    linear(s, &x, m, &lin, &mut y, Epilogue::None, par);
                    for i in 0..m {
                        for o in 0..n {
                            let want: f64 = bias[o] as f64
                                + (0..k).map(|kk| x[i * k + kk] as f64 * w[o * k + kk] as f64).sum::<f64>();
                            let got = y[i * n + o] as f64;
                            assert!((got - want).abs() < 1e-4, "{s:?} {m}x{n}x{k} [{i},{o}] {got} vs {want}");
                        }
                    }
                    let mut g = vec![0f32; m * n];
                    linear(s, &x, m, &lin, &mut g, Epilogue::Gelu, par);
                    let mut y2 = y.clone();
                    gelu(s, &mut y2);
                    assert_eq!(g, y2);
                }
            }
        }
    }

    /// Pinned integer weights (one region for the model) and the layers' own vectors give
    /// the same output bits on every kernel path, whole panels and the next-panel lookahead
    /// included; f32-GEMM layers are left as they are.
    #[test]
    fn pinning_changes_no_output_bit() {
        let (m, k) = (5, 96);
        let x: Vec<f32> = (0..m * k).map(|i| ((i * 31) % 53) as f32 / 26.0 - 1.0).collect();
        let bias = |n: usize| (0..n).map(|i| i as f32 * 0.1).collect::<Vec<f32>>();
        let mut lins = vec![
            PackedLinear::from_q4(48, k, &random_q4(48, k, 11, 0), bias(48), Precision::Int8),
            PackedLinear::from_f32(32, k, &crate::synth::random_f32(32 * k, 12), bias(32), Precision::Int8),
            PackedLinear::concat(vec![
                PackedLinear::from_q4(16, k, &random_q4(16, k, 13, 0), bias(16), Precision::Int8),
                PackedLinear::from_q4(32, k, &random_q4(32, k, 14, 0), bias(32), Precision::Int8),
            ]),
            PackedLinear::from_q4(32, k, &random_q4(32, k, 15, 0), bias(32), Precision::F32),
        ];
        let run = |lins: &[PackedLinear]| -> Vec<Vec<f32>> {
            let mut out = Vec::new();
            for s in Simd::all_available() {
                for lin in lins {
                    for par in [false, true] {
                        let mut y = vec![f32::NAN; m * lin.n];
                        linear(s, &x, m, lin, &mut y, Epilogue::Gelu, par);
                        out.push(y);
                    }
                }
            }
            out
        };
        let before = run(&lins);
        let bytes: Vec<usize> = lins.iter().map(|l| l.bytes()).collect();
        pin(lins.iter_mut().collect());
        assert_eq!(run(&lins), before);
        assert_eq!(lins.iter().map(|l| l.bytes()).collect::<Vec<_>>(), bytes);
        let pinned = |l: &PackedLinear| {
            matches!(&l.blocks, Blocks::Int(IntBlocks::W4(Store::Pinned(..)) | IntBlocks::W7(Store::Pinned(..))))
        };
        assert!(lins[..3].iter().all(pinned));
        assert!(matches!(lins[3].blocks, Blocks::Q4(_)));
    }

    /// One head against a naive f64 softmax(QK^T * scale) V.
    #[test]
    fn attention_matches_naive() {
        for s in Simd::all_available() {
            let (len, hd, heads) = (11, 8, 2);
            let ld = 3 * hd * heads;
            let qkv: Vec<f32> = (0..len * ld).map(|i| ((i * 37 % 101) as f32 / 50.0) - 1.0).collect();
            let head = 1;
            let (qo, ko, vo) = (head * hd, hd * heads + head * hd, 2 * hd * heads + head * hd);
            let scale = 0.7;
            let mut out = vec![0f32; len * hd];
            let (nk, ns) = attn_scratch(len, hd);
            let (mut kt, mut sc) = (vec![f32::NAN; nk], vec![f32::NAN; ns]);
            let h = AttnHead { qkv: &qkv, ld, len, q_off: qo, k_off: ko, v_off: vo, hd, scale };
            attention_head(s, &h, &mut kt, &mut sc, &mut out, hd);
            for t in 0..len {
                let logits: Vec<f64> = (0..len)
                    .map(|u| {
                        (0..hd).map(|e| qkv[t * ld + qo + e] as f64 * qkv[u * ld + ko + e] as f64).sum::<f64>()
                            * scale as f64
                    })
                    .collect();
                let mx = logits.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = logits.iter().map(|l| (l - mx).exp()).sum();
                for e in 0..hd {
                    let want: f64 = (0..len).map(|u| (logits[u] - mx).exp() / z * qkv[u * ld + vo + e] as f64).sum();
                    let got = out[t * hd + e] as f64;
                    assert!((got - want).abs() < 1e-5, "{s:?} t={t} e={e}: {got} vs {want}");
                }
            }
        }
    }

    /// The query-at-a-time kernel this file had before the blocked one: scores as AXPYs over
    /// the transposed K, softmax, then `o += (p · inv) · v` row by row.
    #[allow(clippy::too_many_arguments)]
    fn attention_one_query_at_a_time(
        qkv: &[f32],
        ld: usize,
        len: usize,
        q_off: usize,
        k_off: usize,
        v_off: usize,
        hd: usize,
        scale: f32,
    ) -> Vec<f32> {
        let mut kt = vec![0f32; hd * len];
        for s in 0..len {
            for e in 0..hd {
                kt[e * len + s] = qkv[s * ld + k_off + e] * scale;
            }
        }
        let mut out = vec![0f32; len * hd];
        let mut scores = vec![0f32; len];
        for t in 0..len {
            let q = &qkv[t * ld + q_off..t * ld + q_off + hd];
            scores.fill(0.0);
            for (e, &qe) in q.iter().enumerate() {
                for (sc, &kv) in scores.iter_mut().zip(&kt[e * len..(e + 1) * len]) {
                    *sc += qe * kv;
                }
            }
            let mx = scores.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
            for sc in scores.iter_mut() {
                *sc = exp_f(*sc - mx);
            }
            let inv = 1.0 / sum8(&scores, |v| v);
            let o = &mut out[t * hd..(t + 1) * hd];
            for (s, &p) in scores.iter().enumerate() {
                let p = p * inv;
                for (oo, &vv) in o.iter_mut().zip(&qkv[s * ld + v_off..s * ld + v_off + hd]) {
                    *oo += p * vv;
                }
            }
        }
        out
    }

    /// The blocked kernel gives the same bits as one query at a time, for lengths around the
    /// block sizes (queries in fours, positions and columns in sixteens) and head widths that
    /// are and are not multiples of 16, on every available instruction set.
    #[test]
    fn blocked_attention_is_bit_identical_to_one_query_at_a_time() {
        for s in Simd::all_available() {
            for (len, hd) in
                [(1, 32), (3, 32), (4, 32), (5, 32), (15, 32), (16, 32), (17, 32), (33, 8), (64, 24), (130, 32)]
            {
                let heads = 2;
                let ld = 3 * hd * heads;
                let qkv: Vec<f32> =
                    (0..len * ld).map(|i: usize| ((i.wrapping_mul(2654435761) % 1999) as f32 / 700.0) - 1.4).collect();
                let (qo, ko, vo) = (hd, hd * heads + hd, 2 * hd * heads + hd);
                let want = attention_one_query_at_a_time(&qkv, ld, len, qo, ko, vo, hd, 0.17);
                // Scratch starts as NaN: a padded or stale value that leaked into a sum would show.
                let (nk, ns) = attn_scratch(len, hd);
                let (mut kt, mut sc) = (vec![f32::NAN; nk], vec![f32::NAN; ns]);
                // A wider output stride, to check rows land where `ldo` says.
                let ldo = hd + 3;
                let mut out = vec![f32::NAN; len * ldo];
                let h = AttnHead { qkv: &qkv, ld, len, q_off: qo, k_off: ko, v_off: vo, hd, scale: 0.17 };
                attention_head(s, &h, &mut kt, &mut sc, &mut out, ldo);
                for t in 0..len {
                    let got: Vec<u32> = out[t * ldo..t * ldo + hd].iter().map(|x| x.to_bits()).collect();
                    let exp: Vec<u32> = want[t * hd..(t + 1) * hd].iter().map(|x| x.to_bits()).collect();
                    assert_eq!(got, exp, "{s:?} len={len} hd={hd} t={t}");
                }
            }
        }
    }
}
