//! Deterministic pseudo-random weights and activations, for the kernel tests and for
//! `kernel_bench` (which times the kernels without model files). One generator, so the tests
//! of both kernel modules and the benchmark draw the same kind of data.

use crate::quant::QK;

/// A 64-bit LCG (Knuth's MMIX constants); the high bits as `u32`.
pub(crate) fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut state = seed;
    move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as u32
    }
}

/// Pseudo-random Q4_0 rows with valid f16 scales around 0.01..0.03. Mode 1 uses only the codes
/// 0 and 15 (weights -8 and 7); mode 2 only code 15 (the integer kernel's unsigned operand at
/// its largest, so the largest 16-bit sums it can meet); any other mode, every code.
pub(crate) fn random_q4(n: usize, k: usize, seed: u64, mode: u8) -> Vec<u8> {
    let mut next = lcg(seed);
    let mut out = Vec::new();
    for _ in 0..n * k / QK {
        let scale: u16 = 0x2000 + (next() % 0x0a00) as u16;
        out.extend_from_slice(&scale.to_le_bytes());
        for _ in 0..QK / 2 {
            let b = next() as u8;
            out.push(match mode {
                1 => [0x00, 0xff, 0x0f, 0xf0][b as usize % 4],
                2 => 0xff,
                _ => b,
            });
        }
    }
    out
}

/// `len` values in [-1, 1] on a grid of 1e-4.
pub(crate) fn random_f32(len: usize, seed: u64) -> Vec<f32> {
    let mut next = lcg(seed);
    (0..len).map(|_| (next() % 20_001) as f32 / 10_000.0 - 1.0).collect()
}
