//! The f32 GEMM engine: 4-bit or 8-bit weights re-laid out in panels, each panel dequantised
//! into an L1/L2-resident f32 scratch and run against every row tile. The reference arithmetic,
//! and the engine where the integer GEMM in `intgemm.rs` has no fast path.
//!
//! The tile has one portable body and, on x86-64, hand-written AVX2 intrinsics picked at run
//! time: the register blocking is what makes it fast.

use crate::elementwise::gelu_slice;
use crate::panels::{q4_weight_blocks, quantise_weight_blocks, Epilogue, NR};
use crate::simd::Simd;

const QK: usize = crate::quant::QK;

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

/// 32 input positions x 16 output columns of 8-bit weights with one f32 scale per column and
/// block: for models shipped in full precision, where 4 bits would cost too much accuracy
/// (all-MiniLM-L6-v2: cosine 0.97 to the f32 model at 4 bits; 8 bits keeps it at 0.9999).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct PanelBlock8 {
    scale: [f32; NR],
    codes: [[i8; NR]; QK],
}

/// A layer's weights in the f32 engine's panels: panel `p` covers output columns `16p..16p+16`.
pub enum F32Blocks {
    Q4(Vec<PanelBlock>),
    Q8(Vec<PanelBlock8>),
}

impl F32Blocks {
    /// Re-lay out the file's row-major Q4_0 data (`n` rows of `k` weights) into panels;
    /// dequantised values stay bit-exact.
    pub fn from_q4(n: usize, k: usize, q4: &[u8]) -> Self {
        let empty = PanelBlock { scale: [0.0; NR], codes: [[0; NR / 2]; QK] };
        let mut blocks = vec![empty; n / NR * (k / QK)];
        q4_weight_blocks(n, k, q4, |i, j, d, codes| {
            blocks[i].scale[j] = d;
            for (row, &q) in blocks[i].codes.iter_mut().zip(codes) {
                row[j % 8] |= q << (4 * (j / 8));
            }
        });
        F32Blocks::Q4(blocks)
    }

    /// Quantise full-precision row-major weights (`n` rows of `k`) to 8 bits per run of 32
    /// weights of a row (scale = largest magnitude / 127, round to nearest).
    pub fn from_f32(n: usize, k: usize, w: &[f32]) -> Self {
        let kb = k / QK;
        let empty = PanelBlock8 { scale: [0.0; NR], codes: [[0; NR]; QK] };
        let mut blocks = vec![empty; n / NR * kb];
        quantise_weight_blocks(n, k, w, 127.0, f32::round, |i, j, d, codes| {
            blocks[i].scale[j] = d;
            for (row, &c) in blocks[i].codes.iter_mut().zip(codes) {
                row[j] = c;
            }
        });
        F32Blocks::Q8(blocks)
    }

    /// An empty set of the same format, with room for `n` output columns of `k` inputs.
    pub fn empty_like(&self, n: usize, k: usize) -> Self {
        match self {
            F32Blocks::Q4(_) => F32Blocks::Q4(Vec::with_capacity(n / NR * (k / QK))),
            F32Blocks::Q8(_) => F32Blocks::Q8(Vec::with_capacity(n / NR * (k / QK))),
        }
    }

    /// Append `other`'s panels (the same format) after these.
    pub fn extend(&mut self, other: &F32Blocks) {
        match (self, other) {
            (F32Blocks::Q4(all), F32Blocks::Q4(b)) => all.extend_from_slice(b),
            (F32Blocks::Q8(all), F32Blocks::Q8(b)) => all.extend_from_slice(b),
            _ => panic!("concat of layers with different weight formats"),
        }
    }

    pub fn bytes(&self) -> usize {
        match self {
            F32Blocks::Q4(b) => b.len() * std::mem::size_of::<PanelBlock>(),
            F32Blocks::Q8(b) => b.len() * std::mem::size_of::<PanelBlock8>(),
        }
    }

    /// Dequantise panel `p` (`k` rows of 16 columns) into `out`.
    pub fn unpack(&self, simd: Simd, p: usize, k: usize, out: &mut [Lane16]) {
        let kb = k / QK;
        match (self, simd) {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the AVX2 variants are only produced after runtime feature detection.
            (F32Blocks::Q4(b), Simd::Avx2Fma | Simd::Avx512Vnni) => unsafe {
                unpack_panel_avx2(&b[p * kb..(p + 1) * kb], out)
            },
            (F32Blocks::Q4(b), _) => unpack_panel_portable(&b[p * kb..(p + 1) * kb], out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            (F32Blocks::Q8(b), Simd::Avx2Fma | Simd::Avx512Vnni) => unsafe {
                unpack_panel8_avx2(&b[p * kb..(p + 1) * kb], out)
            },
            (F32Blocks::Q8(b), _) => unpack_panel8_portable(&b[p * kb..(p + 1) * kb], out),
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
    /// Per-thread dequantised panel (k x 16 f32: 24 KB for k = 384, 96 KB for k = 1536).
    static PANEL: std::cell::RefCell<Vec<Lane16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `y = x W^T + b` (then the epilogue) for all `m` rows of `x` (`k` wide) and the output
/// columns of panels `p0..p1`; `bias` and `y` (stride `n`) cover every column of the layer.
///
/// # Safety
/// `y` must be valid for writes of `m` rows of `n` floats, and the columns of panels `p0..p1`
/// in those rows must belong to this call alone.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_panels(
    simd: Simd,
    blocks: &F32Blocks,
    x: &[f32],
    m: usize,
    k: usize,
    bias: &[f32],
    y: *mut f32,
    n: usize,
    epi: Epilogue,
    p0: usize,
    p1: usize,
) {
    // Balanced tile heights (20 rows -> 5+5+5+5, not 6+6+6+2): a short tile wastes most of
    // its FMA slots on weight loads.
    let ntiles = m.div_ceil(MR);
    PANEL.with(|buf| {
        let mut buf = buf.borrow_mut();
        if buf.len() < k {
            buf.resize(k, Lane16([0.0; NR]));
        }
        let panel = &mut buf[..k];
        for p in p0..p1 {
            blocks.unpack(simd, p, k, panel);
            let bias = &bias[p * NR..(p + 1) * NR];
            let mut r = 0;
            for ti in 0..ntiles {
                let rows = m * (ti + 1) / ntiles - r;
                // SAFETY: rows r..r+rows and columns p*NR..p*NR+NR are inside y and owned by
                // this call alone (the caller's contract).
                unsafe {
                    let c = y.add(r * n + p * NR);
                    tile(simd, rows, &x[r * k..], k, panel, bias, c, n, epi);
                }
                r += rows;
            }
            debug_assert_eq!(r, m);
        }
    })
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
