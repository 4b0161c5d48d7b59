//! The integer GEMM behind every linear layer: activations are quantised to int8 per row and
//! 32-wide block, the weights stay as integer codes (E5's 4-bit file codes, MiniLM's 7-bit
//! codes), and each block's products are summed as integers. Only one float multiply-add per
//! block and output column remains.
//!
//! Why: a query embedding is nearly all of a search's time, and ~80% of it was the f32 GEMM.
//! AVX2 `vpmaddubsw` does 32 multiply-adds per instruction where an f32 FMA does 8, and the
//! weights need no dequantising into a scratch panel.
//!
//! Exactness: the integer sums never overflow or saturate (bounds below), and every path does
//! the same float operations in the same order (the block update is a fused multiply-add on
//! every path: `vfmadd` here, `f32::mul_add` in the portable kernel), so the AVX2 kernel and
//! the portable one give bit-identical outputs; tests check that.

use crate::panels::NR;
use crate::simd::Simd;

/// Weights and activations per quantisation block (the file's Q4_0 block size).
pub const QK: usize = crate::quant::QK;
/// Input positions per integer step: `vpmaddubsw` + `vpmaddwd` sum 4 adjacent byte products.
const K4: usize = 4;
/// Steps per block.
const STEPS: usize = QK / K4;

/// 32 input positions x 16 output columns of integer weights (`w * scale`), each stored as the
/// unsigned code `w + offset` ([`W4_OFFSET`] or [`W7_OFFSET`]). Byte `32h + 4j + t` of
/// `codes[s]` holds input `4s + t` of column `8h + j`, so each half of a step is one 32-byte
/// operand for `vpmaddubsw`.
///
/// Unsigned weights and signed activations, not the other way round: the offset's share of a
/// block's sum is then `offset * (sum of the row's activation codes)`, one number per row and
/// block that quantising the activations yields ([`QuantActs`]), where unsigned activations
/// needed a correction per column stored in every block. A query reads every weight byte once,
/// from L3 or memory, and that correction was 64 of a block's 640 bytes.
///
/// E5's 4-bit codes are stored one per byte: twice the memory of nibbles (~23 MB for the
/// model instead of ~12), but unpacking nibbles costs three instructions per step and made
/// the compiler spill every unpacked register to the stack.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct IntBlock {
    scale: [f32; NR],
    codes: [[u8; 64]; STEPS],
}

impl IntBlock {
    const EMPTY: IntBlock = IntBlock { scale: [0.0; NR], codes: [[0; 64]; STEPS] };

    /// Where column `j`, input `kk` lives: `codes[step][byte]` (the layout above).
    #[inline(always)]
    fn at(j: usize, kk: usize) -> (usize, usize) {
        (kk / K4, (j / 8) * 32 + (j % 8) * K4 + kk % K4)
    }

    fn set(&mut self, j: usize, kk: usize, code: u8) {
        let (s, i) = Self::at(j, kk);
        self.codes[s][i] = code;
    }

    /// Column `j`, input `kk`: its unsigned code.
    #[inline(always)]
    fn code(&self, j: usize, kk: usize) -> u8 {
        let (s, i) = Self::at(j, kk);
        self.codes[s][i]
    }

    /// The weight of column `j`, input `kk`, for codes stored with `offset` (tests).
    #[cfg(test)]
    pub fn weight(&self, j: usize, kk: usize, offset: i32) -> f32 {
        (self.code(j, kk) as i32 - offset) as f32 * self.scale[j]
    }
}

/// What makes E5's 4-bit weights (-8..=7) unsigned: their codes are then the file's own, 0..=15.
pub const W4_OFFSET: i32 = 8;
/// What makes the 7-bit weights (-63..=63) unsigned: codes 1..=127.
pub const W7_OFFSET: i32 = 64;

/// Re-lay out `n` rows of the file's Q4_0 blocks (`k` weights each) into panels: the file's
/// codes `q` in [0, 15] (weights `q - 8`), its f16 scales widened to f32 (exact).
pub fn pack_q4(n: usize, k: usize, q4: &[u8]) -> Vec<IntBlock> {
    let mut blocks = vec![IntBlock::EMPTY; n / NR * (k / QK)];
    crate::panels::q4_weight_blocks(n, k, q4, |i, j, d, codes| {
        blocks[i].scale[j] = d;
        for (kk, &q) in codes.iter().enumerate() {
            blocks[i].set(j, kk, q);
        }
    });
    blocks
}

/// Quantise `n` rows of `k` f32 weights to 7 bits per 32-wide block (scale = largest
/// magnitude / 63, round to nearest even) and lay them out in panels, as codes `w + 64`.
///
/// Seven bits, not eight: an unsigned code is then at most 127, so a pair of products with
/// activation codes (at most 127 in magnitude) is at most 2 * 127 * 127 = 32258 and fits
/// `vpmaddubsw`'s saturating 16-bit sum; with 8 bits it could saturate.
pub fn pack_f32(n: usize, k: usize, w: &[f32]) -> Vec<IntBlock> {
    let mut blocks = vec![IntBlock::EMPTY; n / NR * (k / QK)];
    crate::panels::quantise_weight_blocks(n, k, w, 63.0, round_even, |i, j, d, codes| {
        blocks[i].scale[j] = d;
        for (kk, &c) in codes.iter().enumerate() {
            blocks[i].set(j, kk, (c as i32 + W7_OFFSET) as u8);
        }
    });
    blocks
}

/// Round half to even without `roundf` (a libm call on baseline x86-64): adding and
/// subtracting 1.5 * 2^23 leaves the nearest integer for |x| < 2^22.
#[inline(always)]
fn round_even(x: f32) -> f32 {
    (x + ROUND_MAGIC) - ROUND_MAGIC
}

const ROUND_MAGIC: f32 = 12_582_912.0;

/// One call's activations as int8 codes in [-127, 127] (the signed operand of `vpmaddubsw`),
/// row-major (`m x k`); per row and block, one scale (largest magnitude / 127) and the weight
/// codes' offset times the sum of the block's codes: what the offset adds to the block's
/// integer sum, to take off again.
#[derive(Default)]
pub struct QuantActs {
    k: usize,
    codes: Vec<i8>,
    scale: Vec<f32>,
    corr: Vec<i32>,
}

/// One row of a call's activations, as a tile reads it.
#[derive(Clone, Copy)]
struct Row<'a> {
    codes: &'a [i8],
    scale: &'a [f32],
    corr: &'a [i32],
}

impl QuantActs {
    /// Quantise `m` rows of `k` activations into this buffer (grown as needed, never shrunk),
    /// for weights whose codes carry `offset`. One routine (compiled twice, see below) serves
    /// every kernel path, so all of them multiply the same codes. Codes stay in [-127, 127].
    pub fn quantise(&mut self, simd: Simd, x: &[f32], m: usize, k: usize, offset: i32) {
        let kb = k / QK;
        self.k = k;
        self.codes.resize(m * k, 0);
        self.scale.resize(m * kb, 0.0);
        self.corr.resize(m * kb, 0);
        match simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the AVX2 variants are only produced after runtime feature detection.
            Simd::Avx2Fma | Simd::Avx512Vnni => unsafe { quantise_avx2(&x[..m * k], self, offset) },
            #[cfg(target_arch = "aarch64")]
            Simd::NeonDot => quantise_blocks(&x[..m * k], self, offset),
            Simd::Portable => quantise_blocks(&x[..m * k], self, offset),
        }
    }
}

/// The AVX2 build of [`quantise_blocks`]: element-wise IEEE operations and an exact max, so
/// the codes are the same as the portable build's.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn quantise_avx2(x: &[f32], q: &mut QuantActs, offset: i32) {
    quantise_blocks(x, q, offset)
}

#[inline(always)]
fn quantise_blocks(x: &[f32], q: &mut QuantActs, offset: i32) {
    let blocks = x.chunks_exact(QK).zip(q.codes.chunks_exact_mut(QK)).zip(q.scale.iter_mut().zip(q.corr.iter_mut()));
    for ((src, dst), (scale, corr)) in blocks {
        // The largest magnitude as the largest of the sign-cleared bit patterns: for floats
        // that are not NaN the integer order is the float order, and an integer max
        // vectorises, where `f32::max` (NaN-aware) compiled to 32 scalar steps per block,
        // most of this pass's time. 8 partial maxima so the reduction vectorises.
        let mut mx = [0u32; 8];
        for c in src.chunks_exact(8) {
            for (m, &v) in mx.iter_mut().zip(c) {
                *m = (*m).max(v.to_bits() & 0x7fff_ffff);
            }
        }
        let amax = f32::from_bits(mx.iter().fold(0, |a, &b| a.max(b)));
        let inv = if amax > 0.0 { 127.0 / amax } else { 0.0 };
        *scale = amax / 127.0;
        let mut codes = [0i32; QK];
        for (c, &v) in codes.iter_mut().zip(src) {
            // Round half to even by the 1.5 * 2^23 trick and read the integer straight out of
            // the mantissa (vectorises, unlike a saturating `as i32`); the integer clamp keeps
            // even a NaN input's code in range.
            let bits = ((v * inv).clamp(-127.0, 127.0) + ROUND_MAGIC).to_bits() as i32;
            *c = (bits - ROUND_MAGIC.to_bits() as i32).clamp(-127, 127);
        }
        for (d, &c) in dst.iter_mut().zip(&codes) {
            *d = c as i8;
        }
        *corr = offset * codes.iter().sum::<i32>();
    }
}

/// The weights of one layer in the integer layout, by how wide their codes are.
pub enum IntBlocks {
    /// 4-bit codes: a block's 8 steps sum in 16 bits (see [`tile_avx2`]).
    W4(Store),
    /// 7-bit codes: each step widens to 32 bits.
    W7(Store),
}

/// Where a layer's blocks live: its own vector while the model is built, then a range of the
/// model's one weight region ([`pin`]).
pub enum Store {
    Own(Vec<IntBlock>),
    Pinned(std::sync::Arc<Region>, std::ops::Range<usize>),
}

impl Store {
    fn get(&self) -> &[IntBlock] {
        match self {
            Store::Own(b) => b,
            Store::Pinned(r, range) => &r.blocks()[range.clone()],
        }
    }
}

/// 2 MB: the x86-64 and (4 KB-granule) aarch64 huge-page size.
const HUGE: usize = 2 << 20;

/// A model's integer weights in one anonymous mapping whose 2 MB-aligned start the kernel is
/// asked to back with transparent huge pages.
///
/// Why: a query streams every weight once (12 MB for MiniLM, 23 MB for E5), more than the
/// caches keep between queries, so its GEMMs also wait on memory. With 4 KB pages that stream
/// takes a TLB miss every 4 KB, and in a virtual machine each miss walks two page tables: here
/// a plain read of 13-40 MB ran at 9.6-10.8 GB/s on 4 KB pages and 12.5-13.6 GB/s on 2 MB pages.
/// One region per model, not one per layer: no layer fills a 2 MB page by itself.
pub struct Region {
    map: memmap2::MmapMut,
    /// Byte offset of block 0: the first 2 MB boundary in the mapping.
    start: usize,
    len: usize,
}

impl Region {
    fn new(len: usize) -> std::io::Result<Region> {
        let bytes = len * std::mem::size_of::<IntBlock>();
        // One huge page of slack, so the blocks can start on a 2 MB boundary (never touched,
        // so never resident).
        let map = memmap2::MmapOptions::new().len(bytes + HUGE).map_anon()?;
        let base = map.as_ptr() as usize;
        let start = base.next_multiple_of(HUGE) - base;
        // Only a hint: without THP (or on other systems) the region is ordinary memory. Only
        // the blocks' range is advised, so a last part-filled 2 MB stays in 4 KB pages and
        // adds nothing to the resident set.
        #[cfg(target_os = "linux")]
        let _ = map.advise_range(memmap2::Advice::HugePage, start, bytes);
        Ok(Region { map, start, len })
    }

    fn blocks(&self) -> &[IntBlock] {
        // SAFETY: `start` is 2 MB-aligned (so 64-byte aligned, as IntBlock needs) and
        // `start + len` blocks lie inside the mapping (see `new`); IntBlock is plain data, for
        // which every byte pattern (here: zeroes, then copied blocks) is a valid value.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().add(self.start) as *const IntBlock, self.len) }
    }

    fn blocks_mut(&mut self) -> &mut [IntBlock] {
        // SAFETY: as in `blocks`, with `&mut self` for exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().add(self.start) as *mut IntBlock, self.len) }
    }
}

/// Move the blocks of `layers` (in this order, the order a pass reads them) into one
/// [`Region`], and leave each layer a range of it. If the mapping fails the layers keep their
/// own vectors: the region is a speed-up, never a requirement.
pub fn pin(layers: &mut [&mut IntBlocks]) {
    let total = layers.iter().map(|l| l.blocks().len()).sum();
    let Ok(mut region) = Region::new(total) else { return };
    let mut ranges = Vec::with_capacity(layers.len());
    let mut at = 0;
    for l in layers.iter_mut() {
        // Each layer's own vector is freed as soon as it is copied, so loading needs one
        // layer's worth of memory beyond the model, not a second model.
        let old = std::mem::replace(l.store_mut(), Store::Own(Vec::new()));
        let b = old.get();
        region.blocks_mut()[at..at + b.len()].copy_from_slice(b);
        ranges.push(at..at + b.len());
        at += b.len();
    }
    let region = std::sync::Arc::new(region);
    for (l, range) in layers.iter_mut().zip(ranges) {
        *l.store_mut() = Store::Pinned(region.clone(), range);
    }
}

impl IntBlocks {
    /// What this format adds to a weight to store it unsigned.
    pub fn offset(&self) -> i32 {
        match self {
            IntBlocks::W4(_) => W4_OFFSET,
            IntBlocks::W7(_) => W7_OFFSET,
        }
    }

    fn blocks(&self) -> &[IntBlock] {
        match self {
            IntBlocks::W4(b) | IntBlocks::W7(b) => b.get(),
        }
    }

    fn store_mut(&mut self) -> &mut Store {
        match self {
            IntBlocks::W4(b) | IntBlocks::W7(b) => b,
        }
    }

    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(self.blocks())
    }

    /// Append `other`'s blocks (building a fused layer, before [`pin`]).
    pub fn extend(&mut self, other: &IntBlocks) {
        match (self, other) {
            (IntBlocks::W4(Store::Own(a)), IntBlocks::W4(b)) | (IntBlocks::W7(Store::Own(a)), IntBlocks::W7(b)) => {
                a.extend_from_slice(b.get())
            }
            _ => panic!("concat of layers with different weight formats, or after pinning"),
        }
    }

    /// Output columns `16p..16p+16` of rows `r0..r1` of `qa`, plus bias, written to `c` (row
    /// `r0`; row stride `ldc`). GELU, where the layer has it, is a separate pass
    /// (`kernels::linear`).
    ///
    /// One call per panel strip, with the row loop inside the kernel's own build: called per
    /// pair of rows, the dispatch and slicing around each tile cost ~8% of a layer.
    ///
    /// The strip's first tile also prefetches the next panel into L2 (x86-64): a query's
    /// weights come from L3 or memory, and the hardware prefetcher, which stops at page
    /// boundaries and only follows the loads, left the first tile of every panel waiting on
    /// them while the other tiles ran from cache. Into L2, not L1: a 1536-wide panel is about
    /// L1's size and the rest of the strip still reads it.
    ///
    /// # Safety
    /// `c` must be valid for writes of `r1 - r0` rows of 16 floats at stride `ldc`, and rows
    /// `r0..r1` must be rows of `qa`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn panel_rows(
        &self,
        simd: Simd,
        p: usize,
        qa: &QuantActs,
        r0: usize,
        r1: usize,
        bias: &[f32],
        c: *mut f32,
        ldc: usize,
    ) {
        let kb = qa.k / QK;
        let all = self.blocks();
        // This panel's blocks, then the next panel's (none after the last) for the first tile
        // to prefetch.
        let b = &all[p * kb..((p + 2) * kb).min(all.len())];
        assert!(bias.len() >= NR && r0 <= r1 && r1 * qa.k <= qa.codes.len());
        #[cfg(target_arch = "x86_64")]
        match (simd, self) {
            (Simd::Avx512Vnni, _) => return rows_vnni(b, qa, r0, r1, bias.as_ptr(), c, ldc),
            (Simd::Avx2Fma, IntBlocks::W4(_)) => return rows_avx2::<true>(b, qa, r0, r1, bias.as_ptr(), c, ldc),
            (Simd::Avx2Fma, IntBlocks::W7(_)) => return rows_avx2::<false>(b, qa, r0, r1, bias.as_ptr(), c, ldc),
            (Simd::Portable, _) => {}
        }
        #[cfg(target_arch = "aarch64")]
        if simd == Simd::NeonDot {
            // SAFETY: NeonDot is only produced after runtime detection of `dotprod`; the rest
            // is this function's contract.
            return rows_neon(b, qa, r0, r1, bias.as_ptr(), c, ldc);
        }
        for r in r0..r1 {
            finish(tile_portable(&b[..kb], qa.row(r)), bias, c.add((r - r0) * ldc));
        }
    }
}

impl QuantActs {
    /// Row `r`: its codes, block scales and block corrections.
    #[inline(always)]
    fn row(&self, r: usize) -> Row<'_> {
        let kb = self.k / QK;
        Row {
            codes: &self.codes[r * self.k..(r + 1) * self.k],
            scale: &self.scale[r * kb..(r + 1) * kb],
            corr: &self.corr[r * kb..(r + 1) * kb],
        }
    }
}

/// Rows `r0..r1` of one panel in tiles of two rows (one for an odd last row), in the AVX2 build.
/// `NARROW`: 4-bit codes (see [`tile_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn rows_avx2<const NARROW: bool>(
    b: &[IntBlock],
    qa: &QuantActs,
    r0: usize,
    r1: usize,
    bias: *const f32,
    c: *mut f32,
    ldc: usize,
) {
    row_loop(
        qa,
        r0,
        r1,
        c,
        ldc,
        b,
        |b, rows, c| tile_avx2::<2, NARROW>(b, rows, bias, c),
        |b, rows, c| tile_avx2::<1, NARROW>(b, rows, bias, c),
    )
}

/// [`rows_avx2`] with the VNNI tile.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512vl,avx512vnni")]
unsafe fn rows_vnni(b: &[IntBlock], qa: &QuantActs, r0: usize, r1: usize, bias: *const f32, c: *mut f32, ldc: usize) {
    row_loop(
        qa,
        r0,
        r1,
        c,
        ldc,
        b,
        |b, rows, c| tile_vnni::<2>(b, rows, bias, c),
        |b, rows, c| tile_vnni::<1>(b, rows, bias, c),
    )
}

/// The row loop of [`rows_avx2`], [`rows_vnni`] and `rows_neon`, inlined into each (so the
/// tiles it calls inline with that build's target features): pairs of rows through `two`, an
/// odd last row through `one`; row `r0`'s output at `c`, stride `ldc`. `b` is the panel's
/// blocks, possibly followed by the next panel's: the first tile gets both (and prefetches
/// the second), the others the panel alone.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn row_loop(
    qa: &QuantActs,
    r0: usize,
    r1: usize,
    c: *mut f32,
    ldc: usize,
    b: &[IntBlock],
    two: impl Fn(&[IntBlock], [Row; 2], [*mut f32; 2]),
    one: impl Fn(&[IntBlock], [Row; 1], [*mut f32; 1]),
) {
    let out = |r: usize| c.add((r - r0) * ldc);
    let mut r = r0;
    // The first tile gets the lookahead; the others only the panel.
    let mut b = b;
    while r + 2 <= r1 {
        two(b, [qa.row(r), qa.row(r + 1)], [out(r), out(r + 1)]);
        b = &b[..qa.k / QK];
        r += 2;
    }
    if r < r1 {
        one(b, [qa.row(r)], [out(r)]);
    }
}

/// Bias and store of one finished row of 16 outputs (the portable path; the AVX2 tile does
/// the same add itself).
#[inline(always)]
unsafe fn finish(mut row: [f32; NR], bias: &[f32], out: *mut f32) {
    for (v, &b) in row.iter_mut().zip(bias) {
        *v += b;
    }
    std::ptr::copy_nonoverlapping(row.as_ptr(), out, NR);
}

/// Portable tile: the same integer sums and float operations as [`tile_avx2`].
fn tile_portable(blocks: &[IntBlock], row: Row) -> [f32; NR] {
    let mut acc = [0f32; NR];
    for (((blk, a), &sa), &corr) in blocks.iter().zip(row.codes.chunks_exact(QK)).zip(row.scale).zip(row.corr) {
        for (j, out) in acc.iter_mut().enumerate() {
            let mut dot = 0i32;
            for (kk, &av) in a.iter().enumerate() {
                dot += av as i32 * blk.code(j, kk) as i32;
            }
            let d = (dot - corr) as f32;
            *out = d.mul_add(blk.scale[j] * sa, *out);
        }
    }
    acc
}

/// AVX2 tile, `R` rows (1 or 2) x 16 columns; each weight load feeds every row. Per step:
/// broadcast 4 activation codes of a row (signed) and `vpmaddubsw` each half's 32 weight bytes
/// (unsigned) against them, which sums adjacent pairs into 16 bits. With 4-bit codes
/// (`NARROW`, at most 15) a pair is at most 2 * 15 * 127 = 3810, so a block's 8 steps add up in
/// 16 bits (at most 30480) and `vpmaddwd` widens once per block; 7-bit codes (pairs up to
/// 32258) widen every step. Then, per block: subtract the row's offset correction, convert,
/// and multiply-add by weight x activation scale. Last, the bias is added and the rows stored
/// in place: returning them as arrays for `finish` went through the stack and SSE code in the
/// baseline caller (~7% of a batch's time).
///
/// An empty `asm!` pins the accumulators after every step: without it the compiler regrouped
/// the sums row by row and spilled every weight register to the stack (slower than one row per
/// tile).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn tile_avx2<const R: usize, const NARROW: bool>(
    blocks: &[IntBlock],
    rows: [Row; R],
    bias: *const f32,
    c: [*mut f32; R],
) {
    use std::arch::x86_64::*;
    let ones = _mm256_set1_epi16(1);
    let step = |av: __m256i, w0: __m256i, w1: __m256i, s0: &mut __m256i, s1: &mut __m256i| unsafe {
        let (p0, p1) = (_mm256_maddubs_epi16(w0, av), _mm256_maddubs_epi16(w1, av));
        if NARROW {
            *s0 = _mm256_add_epi16(*s0, p0);
            *s1 = _mm256_add_epi16(*s1, p1);
        } else {
            *s0 = _mm256_add_epi32(*s0, _mm256_madd_epi16(p0, ones));
            *s1 = _mm256_add_epi32(*s1, _mm256_madd_epi16(p1, ones));
        }
        std::arch::asm!(
            "/* {0} {1} */",
            inout(ymm_reg) * s0,
            inout(ymm_reg) * s1,
            options(pure, nomem, nostack, preserves_flags)
        );
    };
    let widen = |s: &mut __m256i| {
        if NARROW {
            *s = _mm256_madd_epi16(*s, ones);
        }
    };
    tile_loops(blocks, rows, bias, c, step, widen)
}

/// The integer tiles' loops, shared by the AVX2 and VNNI builds and inlined into each (so they
/// run with that build's target features): per block and step, load the two weight halves and
/// let `step` add a row's broadcast activation bytes times them into the row's two sums; per
/// block, `widen` each sum to 32 bits if needed, then [`block_update`]; last, [`store_rows`].
/// `blocks` may continue past the panel (a row's block count says where it ends) with the next
/// panel's, and block `b` then prefetches that panel's block `b` into L2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn tile_loops<const R: usize>(
    blocks: &[IntBlock],
    rows: [Row; R],
    bias: *const f32,
    c: [*mut f32; R],
    step: impl Fn(
        std::arch::x86_64::__m256i,
        std::arch::x86_64::__m256i,
        std::arch::x86_64::__m256i,
        &mut std::arch::x86_64::__m256i,
        &mut std::arch::x86_64::__m256i,
    ),
    widen: impl Fn(&mut std::arch::x86_64::__m256i),
) {
    use std::arch::x86_64::*;
    let (blocks, ahead) = blocks.split_at(rows[0].scale.len());
    debug_assert!((0..R).all(|r| rows[r].codes.len() == blocks.len() * QK && rows[r].corr.len() == blocks.len()));
    let mut f0 = [_mm256_setzero_ps(); R];
    let mut f1 = [_mm256_setzero_ps(); R];
    for (b, blk) in blocks.iter().enumerate() {
        if let Some(next) = ahead.get(b) {
            let next = next as *const IntBlock as *const i8;
            for line in 0..std::mem::size_of::<IntBlock>() / 64 {
                _mm_prefetch::<_MM_HINT_T1>(next.add(64 * line));
            }
        }
        let mut s0 = [_mm256_setzero_si256(); R];
        let mut s1 = [_mm256_setzero_si256(); R];
        for s in 0..STEPS {
            let w0 = _mm256_load_si256(blk.codes[s].as_ptr() as *const __m256i);
            let w1 = _mm256_load_si256(blk.codes[s].as_ptr().add(32) as *const __m256i);
            for r in 0..R {
                let av =
                    _mm256_set1_epi32((rows[r].codes.as_ptr().add(b * QK + s * K4) as *const i32).read_unaligned());
                step(av, w0, w1, &mut s0[r], &mut s1[r]);
            }
        }
        for r in 0..R {
            widen(&mut s0[r]);
            widen(&mut s1[r]);
        }
        block_update(blk, &s0, &s1, rows, b, &mut f0, &mut f1);
    }
    store_rows(&f0, &f1, bias, c);
}

/// The end of one block, shared by the integer tiles (inlined into each, so it runs with their
/// target features): subtract the row's offset correction from the 32-bit sums, convert,
/// and multiply-add by weight scale x activation scale.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn block_update<const R: usize>(
    blk: &IntBlock,
    s0: &[std::arch::x86_64::__m256i; R],
    s1: &[std::arch::x86_64::__m256i; R],
    rows: [Row; R],
    b: usize,
    f0: &mut [std::arch::x86_64::__m256; R],
    f1: &mut [std::arch::x86_64::__m256; R],
) {
    use std::arch::x86_64::*;
    let ws0 = _mm256_load_ps(blk.scale.as_ptr());
    let ws1 = _mm256_load_ps(blk.scale.as_ptr().add(8));
    for r in 0..R {
        let sr = _mm256_set1_ps(*rows[r].scale.get_unchecked(b));
        let corr = _mm256_set1_epi32(*rows[r].corr.get_unchecked(b));
        f0[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(s0[r], corr)), _mm256_mul_ps(ws0, sr), f0[r]);
        f1[r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(s1[r], corr)), _mm256_mul_ps(ws1, sr), f1[r]);
    }
}

/// Bias and store of the tile's rows, as `finish` does on the portable path (the same single add).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store_rows<const R: usize>(
    f0: &[std::arch::x86_64::__m256; R],
    f1: &[std::arch::x86_64::__m256; R],
    bias: *const f32,
    c: [*mut f32; R],
) {
    use std::arch::x86_64::*;
    let (b0, b1) = (_mm256_loadu_ps(bias), _mm256_loadu_ps(bias.add(8)));
    for r in 0..R {
        _mm256_storeu_ps(c[r], _mm256_add_ps(f0[r], b0));
        _mm256_storeu_ps(c[r].add(8), _mm256_add_ps(f1[r], b1));
    }
}

/// VNNI tile: [`tile_avx2`] with each step's `vpmaddubsw` (+ `vpmaddwd`) replaced by one
/// `vpdpbusd`, which multiplies the same unsigned weight bytes by the same signed activation
/// codes and adds each group of four products straight into a 32-bit lane (no 16-bit stage, so
/// 4-bit and 7-bit codes take the same path). The integer sums are exact on both, and the float
/// operations after them are the same, so the outputs are bit-identical to the AVX2 tile's.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,avx512f,avx512vl,avx512vnni")]
unsafe fn tile_vnni<const R: usize>(blocks: &[IntBlock], rows: [Row; R], bias: *const f32, c: [*mut f32; R]) {
    use std::arch::x86_64::*;
    let step = |av: __m256i, w0: __m256i, w1: __m256i, s0: &mut __m256i, s1: &mut __m256i| {
        *s0 = _mm256_dpbusd_epi32(*s0, w0, av);
        *s1 = _mm256_dpbusd_epi32(*s1, w1, av);
    };
    tile_loops(blocks, rows, bias, c, step, |_| {})
}

/// [`rows_avx2`] with the NEON dot-product tile.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon,dotprod")]
unsafe fn rows_neon(b: &[IntBlock], qa: &QuantActs, r0: usize, r1: usize, bias: *const f32, c: *mut f32, ldc: usize) {
    row_loop(
        qa,
        r0,
        r1,
        c,
        ldc,
        // The panel alone, no lookahead to prefetch: aarch64's prefetch intrinsic is not stable
        // Rust, and without an aarch64 machine its effect could not be measured.
        &b[..qa.k / QK],
        |b, rows, c| tile_neon::<2>(b, rows, bias, c),
        |b, rows, c| tile_neon::<1>(b, rows, bias, c),
    )
}

/// `acc[j] += sum over t of w[4j + t] * a[4L + t]`: `sdot` by element, four signed byte
/// products per 32-bit lane, the activations' four bytes picked by lane `L` of `a`. Written
/// in `asm!` because the dot-product intrinsics are not stable Rust yet. Its own
/// `target_feature` lets the assembler accept `sdot` even where it is not inlined (it is, into
/// [`tile_neon`], which has the same features).
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon,dotprod")]
#[inline]
unsafe fn sdot_lane<const L: u32>(
    acc: &mut std::arch::aarch64::int32x4_t,
    w: std::arch::aarch64::int8x16_t,
    a: std::arch::aarch64::int8x16_t,
) {
    std::arch::asm!(
        "sdot {acc:v}.4s, {w:v}.16b, {a:v}.4b[{l}]",
        acc = inout(vreg) *acc,
        w = in(vreg) w,
        a = in(vreg) a,
        l = const L,
        options(pure, nomem, nostack, preserves_flags)
    );
}

/// NEON tile, `R` rows (1 or 2) x 16 columns, on the same blocks as [`tile_avx2`]: a step's 64
/// weight bytes are four 16-byte operands, each 4 columns x 4 inputs, which is what `sdot` by
/// element multiplies against one row's 4 activation codes. `sdot` is signed x signed; the
/// unsigned weight codes are at most 127, so they read the same as signed bytes, and the sum
/// less the row's offset correction equals the other paths' exactly. The float operations
/// after it (convert, weight scale x activation scale, fused multiply-add, one bias add at the
/// end) are the same, in the same order, so the outputs are bit-identical.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon,dotprod")]
unsafe fn tile_neon<const R: usize>(blocks: &[IntBlock], rows: [Row; R], bias: *const f32, c: [*mut f32; R]) {
    use std::arch::aarch64::*;
    debug_assert!((0..R).all(|r| rows[r].codes.len() == blocks.len() * QK && rows[r].corr.len() == blocks.len()));
    let mut f = [[vdupq_n_f32(0.0); 4]; R];
    for (b, blk) in blocks.iter().enumerate() {
        let mut d = [[vdupq_n_s32(0); 4]; R];
        // Eight steps of 4 inputs: two 16-byte activation vectors per row, four lanes each.
        for half in 0..2 {
            let mut av = [vdupq_n_s8(0); R];
            for r in 0..R {
                av[r] = vld1q_s8(rows[r].codes.as_ptr().add(b * QK + half * 16));
            }
            macro_rules! step {
                ($lane:literal) => {{
                    // Unsigned codes, at most 127: the same bytes read as signed.
                    let codes = blk.codes[half * 4 + $lane].as_ptr() as *const i8;
                    let w =
                        [vld1q_s8(codes), vld1q_s8(codes.add(16)), vld1q_s8(codes.add(32)), vld1q_s8(codes.add(48))];
                    for r in 0..R {
                        for q in 0..4 {
                            sdot_lane::<$lane>(&mut d[r][q], w[q], av[r]);
                        }
                    }
                }};
            }
            step!(0);
            step!(1);
            step!(2);
            step!(3);
        }
        for r in 0..R {
            let sr = *rows[r].scale.get_unchecked(b);
            let corr = vdupq_n_s32(*rows[r].corr.get_unchecked(b));
            for q in 0..4 {
                let ws = vmulq_n_f32(vld1q_f32(blk.scale.as_ptr().add(4 * q)), sr);
                f[r][q] = vfmaq_f32(f[r][q], vcvtq_f32_s32(vsubq_s32(d[r][q], corr)), ws);
            }
        }
    }
    for (fr, cr) in f.iter().zip(c) {
        for (q, &fq) in fr.iter().enumerate() {
            vst1q_f32(cr.add(4 * q), vaddq_f32(fq, vld1q_f32(bias.add(4 * q))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{linear, PackedLinear, Precision};
    use crate::panels::Epilogue;
    use crate::synth::{random_f32, random_q4};

    /// `pin` copies every layer's blocks, in order, into one region that starts on a 2 MB
    /// boundary, and leaves each layer its own range of it.
    #[test]
    fn pin_moves_layers_into_one_aligned_region_in_order() {
        let k = 64;
        let mut fused = IntBlocks::W4(Store::Own(pack_q4(16, k, &random_q4(16, k, 1, 0))));
        fused.extend(&IntBlocks::W4(Store::Own(pack_q4(32, k, &random_q4(32, k, 2, 0)))));
        let mut layers = [fused, IntBlocks::W7(Store::Own(pack_f32(48, k, &random_f32(48 * k, 3))))];
        let want: Vec<Vec<f32>> = layers
            .iter()
            .map(|l| {
                (0..l.blocks().len() * NR * QK)
                    .map(|i| l.blocks()[i / (NR * QK)].weight(i % NR, i / NR % QK, l.offset()))
                    .collect()
            })
            .collect();
        pin(&mut layers.iter_mut().collect::<Vec<_>>());
        let mut next = 0;
        let mut first: Option<std::sync::Arc<Region>> = None;
        for (l, want) in layers.iter().zip(&want) {
            let got: Vec<f32> = (0..l.blocks().len() * NR * QK)
                .map(|i| l.blocks()[i / (NR * QK)].weight(i % NR, i / NR % QK, l.offset()))
                .collect();
            assert_eq!(&got, want);
            let (IntBlocks::W4(Store::Pinned(region, range)) | IntBlocks::W7(Store::Pinned(region, range))) = l else {
                panic!("layer not pinned")
            };
            assert_eq!(range.start, next, "layers are laid out in the order given");
            next = range.end;
            assert_eq!(region.blocks().as_ptr() as usize % HUGE, 0, "the region starts on a 2 MB boundary");
            let region = first.get_or_insert_with(|| region.clone());
            assert!(std::ptr::eq(region.blocks().as_ptr(), l.blocks().as_ptr().wrapping_sub(range.start)));
        }
        assert_eq!(first.unwrap().blocks().len(), next);
        assert!(matches!(layers[1], IntBlocks::W7(_)), "the code width survives pinning");
    }

    /// The panel layout holds exactly the file's dequantised weights.
    #[test]
    fn q4_panels_hold_the_file_weights() {
        let (n, k) = (48, 96);
        let q4 = random_q4(n, k, 3, 0);
        let blocks = pack_q4(n, k, &q4);
        let (rb, kb) = (crate::quant::row_bytes(k), k / QK);
        for o in 0..n {
            let mut want = vec![0f32; k];
            crate::quant::dequant_row(&q4[o * rb..(o + 1) * rb], &mut want);
            for kk in 0..k {
                let got = blocks[(o / NR) * kb + kk / QK].weight(o % NR, kk % QK, W4_OFFSET);
                assert_eq!(got.to_bits(), want[kk].to_bits(), "o={o} k={kk}");
            }
        }
    }

    /// 7-bit packing: every weight within half a step of the original.
    #[test]
    fn f32_weights_pack_to_7_bits_within_half_a_step() {
        let (n, k) = (32, 64);
        let w = random_f32(n * k, 9);
        let blocks = pack_f32(n, k, &w);
        let kb = k / QK;
        for o in 0..n {
            for kk in 0..k {
                let blk = &w[o * k + kk / QK * QK..o * k + (kk / QK + 1) * QK];
                let step = blk.iter().fold(0f32, |m, x| m.max(x.abs())) / 63.0;
                let got = blocks[(o / NR) * kb + kk / QK].weight(o % NR, kk % QK, W7_OFFSET);
                assert!((got - w[o * k + kk]).abs() <= step * 0.5 + 1e-6, "o={o} k={kk}: {got} vs {}", w[o * k + kk]);
            }
        }
    }

    #[test]
    fn activation_codes_stay_in_range() {
        let mut x = random_f32(4 * 64, 5);
        x[3] = f32::NAN;
        x[40] = f32::INFINITY;
        x[64..96].fill(0.0);
        let mut q = QuantActs::default();
        for s in Simd::all_available() {
            q.quantise(s, &x, 4, 64, W7_OFFSET);
            assert!(q.codes.iter().all(|&c| c != -128), "{s:?}: a code is -128");
            assert!(q.codes[64..96].iter().all(|&c| c == 0) && q.scale[2] == 0.0 && q.corr[2] == 0, "zero block");
            let amax = x[128..160].iter().fold(0f32, |m, v| m.max(v.abs()));
            assert_eq!(q.scale[4], amax / 127.0);
            let top = x[128..160].iter().position(|v| v.abs() == amax).unwrap();
            assert_eq!((q.codes[128 + top] as i32).abs(), 127, "the largest value gets code 127");
            for (b, &corr) in q.corr.iter().enumerate() {
                let sum: i32 = q.codes[b * QK..(b + 1) * QK].iter().map(|&c| c as i32).sum();
                assert_eq!(corr, W7_OFFSET * sum, "block {b}: the offset times the codes' sum");
            }
        }
    }

    /// The VNNI tile is taken wherever the CPU has it (and then checked against the others by
    /// the exactness test below, which runs every available path).
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn vnni_is_taken_where_the_cpu_has_it() {
        let avx2 = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        let env_off = ["KNOWHUB_EMBED_NO_VNNI", "KNOWHUB_EMBED_NO_SIMD"].iter().any(|v| std::env::var_os(v).is_some());
        let want = avx2 && crate::simd::vnni() && !env_off;
        assert_eq!(Simd::detect() == Simd::Avx512Vnni, want, "{:?}", Simd::detect());
        assert_eq!(Simd::all_available().contains(&Simd::Avx512Vnni), avx2 && crate::simd::vnni());
        eprintln!("kernel paths on this CPU: {:?}", Simd::all_available());
    }

    /// The NEON dot-product tile is taken wherever the CPU has `dotprod` (and then checked
    /// against the portable kernel by the exactness test below).
    #[test]
    #[cfg(target_arch = "aarch64")]
    fn neon_dot_is_taken_where_the_cpu_has_it() {
        let dot = crate::simd::dotprod();
        let env_off = std::env::var_os("KNOWHUB_EMBED_NO_SIMD").is_some();
        assert_eq!(Simd::detect() == Simd::NeonDot, dot && !env_off, "{:?}", Simd::detect());
        assert_eq!(Simd::all_available().contains(&Simd::NeonDot), dot);
        eprintln!("kernel paths on this CPU: {:?}", Simd::all_available());
    }

    /// Reference: the same quantised codes as weights and activations (offset removed), summed
    /// exactly in i64 and scaled in f64.
    fn reference(x: &[f32], m: usize, k: usize, layer: &IntBlocks, n: usize, bias: &[f32]) -> Vec<f64> {
        let (blocks, offset) = (layer.blocks(), layer.offset() as i64);
        let mut q = QuantActs::default();
        q.quantise(Simd::Portable, x, m, k, 0);
        let kb = k / QK;
        let mut y = vec![0f64; m * n];
        for r in 0..m {
            for o in 0..n {
                let mut acc = bias[o] as f64;
                for b in 0..kb {
                    let blk = &blocks[(o / NR) * kb + b];
                    let dot: i64 = (0..QK)
                        .map(|kk| {
                            let a = q.codes[r * k + b * QK + kk] as i64;
                            let w = blk.code(o % NR, kk) as i64 - offset;
                            a * w
                        })
                        .sum();
                    acc += dot as f64 * blk.scale[o % NR] as f64 * q.scale[r * kb + b] as f64;
                }
                y[r * n + o] = acc;
            }
        }
        y
    }

    /// Both weight widths, extreme codes included: the SIMD kernel gives the portable kernel's
    /// outputs bit for bit (so no 16-bit sum saturated or wrapped), both match an exact
    /// integer reference, and the whole layer stays close to the f32 product.
    #[test]
    fn integer_linear_is_exact_and_the_same_on_every_path() {
        for &(m, n, k, mode) in &[
            (1, 16, 32, 0),
            (5, 32, 64, 1),
            (20, 48, 384, 0),
            (37, 64, 128, 1),
            (3, 16, 1536, 0),
            (6, 32, 96, 2),
            (130, 64, 1536, 0),
        ] {
            let bias: Vec<f32> = (0..n).map(|i| i as f32 * 0.01).collect();
            let q4 = random_q4(n, k, (m * n + k) as u64, mode);
            let mut wf = random_f32(n * k, k as u64);
            let mut x = random_f32(m * k, (m * 7 + n) as u64);
            match mode {
                // Every activation at full scale (codes +-127).
                1 => x.iter_mut().for_each(|v| *v = if *v < 0.0 { -1.0 } else { 1.0 }),
                // Worst case: every activation code +127 against every weight at its largest
                // unsigned code (15, 127), so all products are maximal and of one sign.
                2 => {
                    x.fill(1.0);
                    wf.fill(1.0);
                }
                _ => {}
            }
            let layers = [
                (
                    PackedLinear::from_q4(n, k, &q4, bias.clone(), Precision::Int8),
                    IntBlocks::W4(Store::Own(pack_q4(n, k, &q4))),
                ),
                (
                    PackedLinear::from_f32(n, k, &wf, bias.clone(), Precision::Int8),
                    IntBlocks::W7(Store::Own(pack_f32(n, k, &wf))),
                ),
            ];
            for (lin, blocks) in &layers {
                let want = reference(&x, m, k, blocks, n, &bias);
                let mut first: Option<Vec<f32>> = None;
                for s in Simd::all_available() {
                    for par in [false, true] {
                        let mut y = vec![f32::NAN; m * n];
                        linear(s, &x, m, lin, &mut y, Epilogue::None, par);
                        for (i, (&g, &w)) in y.iter().zip(&want).enumerate() {
                            assert!(
                                (g as f64 - w).abs() <= 1e-4 * (1.0 + w.abs()),
                                "{s:?} {m}x{n}x{k} [{i}] {g} vs {w}"
                            );
                        }
                        match &first {
                            None => first = Some(y),
                            Some(f) => assert_eq!(f, &y, "{s:?} par={par} differs from the portable kernel"),
                        }
                    }
                }
                // GELU (its own pass per row chunk and task): the same GELU as the f32 path,
                // applied to the same outputs. 130 x 64 x 1536 spans three row chunks and,
                // in parallel, several tasks.
                for s in Simd::all_available() {
                    for par in [false, true] {
                        let mut g = vec![0f32; m * n];
                        linear(s, &x, m, lin, &mut g, Epilogue::Gelu, par);
                        let mut y = first.clone().unwrap();
                        crate::elementwise::gelu(s, &mut y);
                        assert_eq!(g, y, "{s:?} par={par} gelu");
                    }
                }
            }
            // Against the f32 GEMM over the same 4-bit weights: int8 activations cost little.
            let f32lin = PackedLinear::from_q4(n, k, &q4, bias.clone(), Precision::F32);
            let (mut a, mut b) = (vec![0f32; m * n], vec![0f32; m * n]);
            linear(Simd::detect(), &x, m, &layers[0].0, &mut a, Epilogue::None, false);
            linear(Simd::detect(), &x, m, &f32lin, &mut b, Epilogue::None, false);
            let dot: f64 = a.iter().zip(&b).map(|(p, q)| *p as f64 * *q as f64).sum();
            let na: f64 = a.iter().map(|p| (*p as f64).powi(2)).sum::<f64>().sqrt();
            let nb: f64 = b.iter().map(|p| (*p as f64).powi(2)).sum::<f64>().sqrt();
            assert!(dot / (na * nb) > 0.999, "{m}x{n}x{k}: cosine to the f32 GEMM {}", dot / (na * nb));
        }
    }
}
