//! Element-wise maths (GELU, LayerNorm and the `exp` under softmax). Written branch-free over
//! slices so LLVM vectorises them (8 lanes under the AVX2 wrapper, 4 with baseline SSE2).

use crate::panels::NR;
use crate::simd::Simd;

/// `c[0] x^(N-1) + c[1] x^(N-2) + ... + c[N-1]` by Horner's rule, each step a multiply then an
/// add (unfused on every path, so every path gives the same bits).
#[inline(always)]
fn horner<const N: usize>(x: f32, c: [f32; N]) -> f32 {
    c[1..].iter().fold(c[0], |p, &k| p * x + k)
}

/// e^x for x in about [-87, 88], relative error ~2e-7 (Cephes `expf` polynomial).
#[inline(always)]
pub(crate) fn exp_f(x: f32) -> f32 {
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
pub(crate) fn gelu_slice(xs: &mut [f32]) {
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
pub(crate) fn sum8(xs: &[f32], f: impl Fn(f32) -> f32) -> f32 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
