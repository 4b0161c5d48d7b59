//! The linear layers and the choice of engine behind them: a [`PackedLinear`] holds its weights
//! for the arithmetic chosen at model load ([`Precision`]), and [`linear`] runs it on the integer
//! GEMM (`intgemm.rs`) or the f32 GEMM (`f32gemm.rs`), split over the rayon pool.
//!
//! The engines and the element-wise kernels each have one portable body and SIMD bodies picked
//! at run time ([`Simd`]), so release binaries run fast on any AVX2 machine without
//! `-C target-cpu=native`, and still run (slower) on machines without it.

use crate::elementwise::gelu_strip;
use crate::f32gemm::{self, F32Blocks};
use crate::intgemm::{self, IntBlocks, QuantActs, Store};
use crate::panels::{Epilogue, NR};
use crate::simd::Simd;

const QK: usize = crate::quant::QK;

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

/// A layer's weights, in the form its engine reads.
enum Blocks {
    /// Panels for [`crate::f32gemm`].
    F32(F32Blocks),
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
        let blocks = match prec {
            Precision::Int8 => Blocks::Int(IntBlocks::W4(Store::Own(intgemm::pack_q4(n, k, q4)))),
            Precision::F32 => Blocks::F32(F32Blocks::from_q4(n, k, q4)),
        };
        PackedLinear { n, k, blocks, bias }
    }

    /// Build from full-precision row-major weights (`n` rows of `k`), quantising each run of
    /// 32 weights of a row (to 8 bits for the f32 GEMM, 7 for the integer one), so f32 models
    /// run on the same kernels and stay cache-resident (a quarter of their f32 size).
    pub fn from_f32(n: usize, k: usize, w: &[f32], bias: Vec<f32>, prec: Precision) -> Self {
        assert!(n.is_multiple_of(NR) && k.is_multiple_of(QK) && bias.len() == n && w.len() >= n * k);
        let blocks = match prec {
            Precision::Int8 => Blocks::Int(IntBlocks::W7(Store::Own(intgemm::pack_f32(n, k, w)))),
            Precision::F32 => Blocks::F32(F32Blocks::from_f32(n, k, w)),
        };
        PackedLinear { n, k, blocks, bias }
    }

    /// Concatenate layers along the output dimension (fuses Q, K and V into one GEMM).
    pub fn concat(parts: Vec<PackedLinear>) -> Self {
        let k = parts[0].k;
        assert!(parts.iter().all(|p| p.k == k));
        let n = parts.iter().map(|p| p.n).sum();
        let mut bias = Vec::with_capacity(n);
        let mut blocks = match &parts[0].blocks {
            Blocks::F32(b) => Blocks::F32(b.empty_like(n, k)),
            Blocks::Int(IntBlocks::W4(_)) => Blocks::Int(IntBlocks::W4(Store::Own(Vec::new()))),
            Blocks::Int(IntBlocks::W7(_)) => Blocks::Int(IntBlocks::W7(Store::Own(Vec::new()))),
        };
        for p in parts {
            match (&mut blocks, &p.blocks) {
                (Blocks::F32(all), Blocks::F32(b)) => all.extend(b),
                (Blocks::Int(all), Blocks::Int(b)) => all.extend(b),
                _ => panic!("concat of layers with different weight formats"),
            }
            bias.extend_from_slice(&p.bias);
        }
        PackedLinear { n, k, blocks, bias }
    }

    pub fn bytes(&self) -> usize {
        let blocks = match &self.blocks {
            Blocks::F32(b) => b.bytes(),
            Blocks::Int(b) => b.bytes(),
        };
        blocks + self.bias.len() * 4
    }

    /// The arithmetic this layer was packed for.
    pub fn precision(&self) -> Precision {
        match self.blocks {
            Blocks::Int(_) => Precision::Int8,
            Blocks::F32(_) => Precision::F32,
        }
    }

    /// Dequantise panel `p` (`k` rows of 16 columns) of an f32-GEMM layer into `out`.
    #[cfg(test)]
    fn unpack(&self, simd: Simd, p: usize, out: &mut [f32gemm::Lane16]) {
        match &self.blocks {
            Blocks::F32(b) => b.unpack(simd, p, self.k, out),
            Blocks::Int(_) => unreachable!("integer layers have no f32 panels"),
        }
    }
}

thread_local! {
    /// Per-thread buffer for a call's quantised activations (reused: a batch's can be 10 MB).
    static QUANT: std::cell::RefCell<QuantActs> = std::cell::RefCell::new(QuantActs::default());
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
    let fb = match &lin.blocks {
        Blocks::F32(b) => b,
        Blocks::Int(_) => unreachable!("handled above"),
    };
    let run = |p0: usize, p1: usize| {
        // SAFETY: y holds m rows of n (checked above), and the columns of panels p0..p1 belong
        // to this task alone.
        unsafe { f32gemm::run_panels(simd, fb, x, m, k, &lin.bias, yp.get(), n, epi, p0, p1) }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elementwise::gelu;
    use crate::f32gemm::Lane16;
    use crate::synth::random_q4;

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
        assert!(matches!(lins[3].blocks, Blocks::F32(F32Blocks::Q4(_))));
    }
}
