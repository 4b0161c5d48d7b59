//! Int8 codes of the vectors: the in-memory index holds nothing else.
//!
//! The scan is memory-bandwidth bound: reading 1 byte per dimension instead of 4 makes it
//! several times faster at 100k records, and keeps 100k x 768 dims at 77 MB instead of 307 MB.
//! Each vector is quantised symmetrically with its own scale. The scan quantises the query too
//! (integer dot products pick candidates); candidates are then scored with the f32 query
//! against the codes, within ~1e-3 of the f32 cosine (retrieval quality: docs/embedder.md).

/// Quantises `v` into `out` (same length); returns the scale (value = code × scale).
pub fn quantise(v: &[f32], out: &mut [i8]) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 || !max.is_finite() {
        out.iter_mut().for_each(|o| *o = 0);
        return 0.0;
    }
    let inv = 127.0 / max;
    for (o, x) in out.iter_mut().zip(v) {
        *o = round_small((x * inv).clamp(-127.0, 127.0)) as i8;
    }
    max / 127.0
}

/// `y` rounded to the nearest integer (ties to even) for |y| < 2^22: adding and subtracting
/// 1.5 × 2^23 leaves no fraction bits. `f32::round` is a libm call per element on baseline
/// x86-64, which was most of the time of loading 1M vectors; this vectorises.
#[inline]
fn round_small(y: f32) -> f32 {
    const MAGIC: f32 = 12_582_912.0;
    (y + MAGIC) - MAGIC
}

/// Asks the CPU to bring `codes` into its cache ahead of use (a hint: nothing is read, no fault).
#[inline]
pub fn prefetch(codes: &[i8]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in codes.chunks(64) {
            // SAFETY: SSE is part of x86_64; a prefetch of any address is only a hint, and these
            // addresses are inside the slice.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = codes;
}

/// Integer dot product of two int8 vectors.
#[inline]
pub fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is present (checked above); the function reads only within the slices.
            return unsafe { dot_i8_avx2(a, b) };
        }
    }
    dot_i8_scalar(a, b)
}

pub fn dot_i8_scalar(a: &[i8], b: &[i8]) -> i32 {
    a.iter().zip(b).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_i8_avx2(a: &[i8], b: &[i8]) -> i32 {
    use std::arch::x86_64::*;
    let n = a.len().min(b.len());
    let chunks = n / 32;
    let mut acc = _mm256_setzero_si256();
    let ones = _mm256_set1_epi16(1);
    for i in 0..chunks {
        let va = _mm256_loadu_si256(a.as_ptr().add(i * 32) as *const __m256i);
        let vb = _mm256_loadu_si256(b.as_ptr().add(i * 32) as *const __m256i);
        // |a| * (b with a's sign) = a * b, in the unsigned x signed form maddubs takes.
        // Codes are within -127..127, so pairs sum to at most 2 * 127 * 127 < i16::MAX.
        let prod = _mm256_maddubs_epi16(_mm256_sign_epi8(va, va), _mm256_sign_epi8(vb, va));
        acc = _mm256_add_epi32(acc, _mm256_madd_epi16(prod, ones));
    }
    let mut lanes = [0i32; 8];
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, acc);
    let mut s: i32 = lanes.iter().sum();
    for i in chunks * 32..n {
        s += i32::from(a[i]) * i32::from(b[i]);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_matches_scalar_with_remainders() {
        for n in [1, 31, 32, 33, 384, 385] {
            let a: Vec<i8> = (0..n).map(|i| (i * 37 % 255 - 127) as i8).collect();
            let b: Vec<i8> = (0..n).map(|i| (i * 91 % 255 - 127) as i8).collect();
            assert_eq!(dot_i8(&a, &b), dot_i8_scalar(&a, &b), "n = {n}");
        }
    }

    #[test]
    fn quantised_dot_approximates_cosine() {
        let v: Vec<f32> = (0..384).map(|i| ((i as f32) * 0.37).sin()).collect();
        let w: Vec<f32> = (0..384).map(|i| ((i as f32) * 0.11).cos()).collect();
        let norm = |x: &[f32]| x.iter().map(|a| a * a).sum::<f32>().sqrt();
        let (v, w): (Vec<f32>, Vec<f32>) =
            (v.iter().map(|x| x / norm(&v)).collect(), w.iter().map(|x| x / norm(&w)).collect());
        let exact: f32 = v.iter().zip(&w).map(|(a, b)| a * b).sum();
        let (mut qv, mut qw) = (vec![0i8; 384], vec![0i8; 384]);
        let (sv, sw) = (quantise(&v, &mut qv), quantise(&w, &mut qw));
        let approx = dot_i8(&qv, &qw) as f32 * sv * sw;
        assert!((approx - exact).abs() < 0.01, "{approx} vs {exact}");
        assert_eq!(quantise(&[0.0, 0.0], &mut [0, 0]), 0.0);
    }

    #[test]
    fn round_small_rounds_to_nearest() {
        for (y, want) in
            [(0.49, 0.0), (0.51, 1.0), (-0.51, -1.0), (126.6, 127.0), (-126.4, -126.0), (2.5, 2.0), (3.5, 4.0)]
        {
            assert_eq!(round_small(y), want, "{y}");
        }
        for i in -12_700..=12_700 {
            let y = i as f32 / 100.0;
            assert!((round_small(y) - y).abs() <= 0.5, "{y}");
            if (y.fract().abs() - 0.5).abs() > 1e-3 {
                assert_eq!(round_small(y), y.round(), "{y}");
            }
        }
    }
}
