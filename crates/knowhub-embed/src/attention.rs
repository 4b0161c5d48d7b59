//! Self-attention for one head of one sequence, register-blocked over queries, with an AVX2
//! body picked at run time where the head width allows it.

use crate::elementwise::{exp_f, sum8};
use crate::simd::Simd;

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
    use crate::elementwise::exp_f;

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
