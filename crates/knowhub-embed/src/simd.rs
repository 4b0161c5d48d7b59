//! Which code path the kernels take on this CPU: detected once at model load, read by every
//! kernel (the f32 GEMM, the integer GEMM, the element-wise maths) to pick its body.

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
