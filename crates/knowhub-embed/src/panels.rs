//! The panel layout both GEMMs share: weights are re-laid out in panels of [`NR`] output
//! columns, built block by block from the file's Q4_0 rows or from quantised f32 rows.

const QK: usize = crate::quant::QK;

/// Output columns per packed panel (two 8-lane AVX registers).
pub const NR: usize = 16;

/// What to do with each output tile while it is still in L1.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Epilogue {
    None,
    Gelu,
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
