//! The Q4_0 weight format of `e5-small-q4.bin`: blocks of 32 weights, each an IEEE
//! half-precision scale followed by 16 bytes of 4-bit codes. Byte `j` holds weight `j` in its
//! low nibble and weight `j + 16` in its high nibble; a code `q` stands for `(q - 8) * scale`.

/// Weights per block.
pub const QK: usize = 32;
/// Bytes per block: a 2-byte f16 scale + 16 bytes of nibbles.
pub const BLOCK_BYTES: usize = 2 + QK / 2;

/// IEEE 754 binary16 -> binary32, exact for every input (normals, subnormals, inf, NaN).
/// Written out by hand so the crate needs no `half` dependency and no F16C.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = man * 2^-24, which is a normal f32; let the FPU do it.
            let v = man as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (31, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// Number of bytes one quantised row of `n` weights occupies (`n` must be a multiple of 32).
pub fn row_bytes(n: usize) -> usize {
    n / QK * BLOCK_BYTES
}

/// Dequantise one block (18 bytes) into 32 floats.
#[inline]
pub fn dequant_block(block: &[u8], out: &mut [f32]) {
    debug_assert!(block.len() >= BLOCK_BYTES && out.len() >= QK);
    let d = f16_to_f32(u16::from_le_bytes([block[0], block[1]]));
    let qs = &block[2..BLOCK_BYTES];
    for j in 0..QK / 2 {
        let b = qs[j];
        out[j] = ((b & 0x0f) as i32 - 8) as f32 * d;
        out[j + QK / 2] = ((b >> 4) as i32 - 8) as f32 * d;
    }
}

/// Dequantise a row of `out.len()` weights stored as consecutive blocks in `row`.
pub fn dequant_row(row: &[u8], out: &mut [f32]) {
    debug_assert_eq!(out.len() % QK, 0);
    debug_assert!(row.len() >= row_bytes(out.len()));
    for (block, o) in row.chunks_exact(BLOCK_BYTES).zip(out.chunks_exact_mut(QK)) {
        dequant_block(block, o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_known_values() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x3800), 0.5);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x03ff), 1023.0 * 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x8001), -(2f32.powi(-24)));
        assert_eq!(f16_to_f32(0x0400), 2f32.powi(-14));
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x8000).to_bits(), 0x8000_0000);
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    /// Every finite f16 must round-trip through f32 -> f16 (computed by a reference
    /// encoder in f64) so no exponent/mantissa bit is misplaced.
    #[test]
    fn f16_all_finite_values_are_consistent() {
        for h in 0u16..=0xffff {
            let exp = (h >> 10) & 0x1f;
            if exp == 31 {
                continue;
            }
            let v = f16_to_f32(h) as f64;
            let man = (h & 0x3ff) as f64;
            let want = if exp == 0 { man * 2f64.powi(-24) } else { (1.0 + man / 1024.0) * 2f64.powi(exp as i32 - 15) };
            let want = if h & 0x8000 != 0 { -want } else { want };
            assert_eq!(v, want, "h = {h:#06x}");
        }
    }

    #[test]
    fn block_nibble_layout_and_offset() {
        // scale 0.5, byte j = (hi = 15 - j%16, lo = j%16)
        let mut block = vec![0x00, 0x38];
        for j in 0..16u8 {
            block.push(((15 - j) << 4) | j);
        }
        let mut out = [0f32; 32];
        dequant_block(&block, &mut out);
        for j in 0..16 {
            assert_eq!(out[j], (j as f32 - 8.0) * 0.5, "low nibble {j}");
            assert_eq!(out[j + 16], ((15 - j) as f32 - 8.0) * 0.5, "high nibble {j}");
        }
        assert_eq!(out[0], -4.0);
        assert_eq!(out[16], 3.5);
    }

    #[test]
    fn row_is_consecutive_blocks() {
        let mut row = Vec::new();
        for (scale, code) in [(0x3c00u16, 0x99u8), (0xc000u16, 0x07u8)] {
            row.extend_from_slice(&scale.to_le_bytes());
            row.extend(std::iter::repeat_n(code, 16));
        }
        assert_eq!(row.len(), row_bytes(64));
        let mut out = [0f32; 64];
        dequant_row(&row, &mut out);
        assert!(out[..32].iter().all(|&v| v == 1.0));
        assert!(out[32..48].iter().all(|&v| v == 2.0)); // (7-8) * -2
        assert!(out[48..].iter().all(|&v| v == 16.0)); // (0-8) * -2
    }
}
