//! BERT uncased WordPiece tokenizer for all-MiniLM-L6-v2, driven by the model's `vocab.txt`
//! (line number = token id). Written from the published algorithm (BERT's
//! `BasicTokenizer` + `WordpieceTokenizer`, as configured in the model's `tokenizer.json`:
//! `BertNormalizer{clean_text, handle_chinese_chars, lowercase}`, `BertPreTokenizer`,
//! `WordPiece{unk: [UNK], prefix: ##, max_input_chars_per_word: 100}`):
//!
//! 1. clean: drop NUL, U+FFFD and other control/format characters; every whitespace becomes a
//!    space;
//! 2. CJK ideographs get a space on each side (each becomes its own word);
//! 3. accents stripped (NFD, then non-spacing marks dropped), then lowercased;
//! 4. split on whitespace, and every punctuation character is a word of its own;
//! 5. each word: greedy longest-match-first over the vocabulary, continuation pieces carry
//!    `##`; a word with any unmatched remainder, or longer than 100 characters, is `[UNK]`.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

const MAX_WORD_CHARS: usize = 100;

pub struct WordPiece {
    vocab: HashMap<String, u32>,
    pub cls: u32,
    pub sep: u32,
    unk: u32,
}

impl WordPiece {
    /// Parse `vocab.txt`: one token per line, the line index is its id.
    pub fn from_vocab(text: &str) -> Result<Self, String> {
        let vocab: HashMap<String, u32> =
            text.lines().enumerate().map(|(i, l)| (l.trim_end_matches('\r').to_string(), i as u32)).collect();
        let id = |t: &str| vocab.get(t).copied().ok_or_else(|| format!("vocabulary has no {t}"));
        let (cls, sep, unk) = (id("[CLS]")?, id("[SEP]")?, id("[UNK]")?);
        if vocab.len() < 1000 {
            return Err(format!("vocabulary has only {} tokens", vocab.len()));
        }
        Ok(WordPiece { vocab, cls, sep, unk })
    }

    pub fn len(&self) -> usize {
        self.vocab.len()
    }

    /// Appends the ids of `text` (without `[CLS]`/`[SEP]`) to `out`, stopping once `out`
    /// holds `limit` ids.
    pub fn encode(&self, text: &str, out: &mut Vec<u32>, limit: usize) {
        let normalized = normalize(text);
        let mut piece = String::new();
        for word in split_words(&normalized) {
            if out.len() >= limit {
                break;
            }
            self.word(word, &mut piece, out);
        }
        out.truncate(limit);
    }

    fn word(&self, word: &str, piece: &mut String, out: &mut Vec<u32>) {
        if word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unk);
            return;
        }
        let mark = out.len();
        let mut start = 0;
        while start < word.len() {
            // Longest vocabulary piece starting at `start`, trying ends from the right.
            let mut end = word.len();
            let mut found = None;
            while end > start {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.vocab.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                end = prev_boundary(word, end);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.push(self.unk);
                    return;
                }
            }
        }
    }
}

fn prev_boundary(s: &str, mut i: usize) -> usize {
    i -= 1;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r')
        && matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::Surrogate
                | GeneralCategory::PrivateUse
                | GeneralCategory::Unassigned
        )
}

fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(
            c.general_category(),
            GeneralCategory::ConnectorPunctuation
                | GeneralCategory::DashPunctuation
                | GeneralCategory::OpenPunctuation
                | GeneralCategory::ClosePunctuation
                | GeneralCategory::InitialPunctuation
                | GeneralCategory::FinalPunctuation
                | GeneralCategory::OtherPunctuation
        )
}

/// Steps 1-3: clean, space out CJK ideographs, strip accents, lowercase.
fn normalize(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if c.is_whitespace() {
            cleaned.push(' ');
        } else if is_cjk(c) {
            cleaned.push(' ');
            cleaned.push(c);
            cleaned.push(' ');
        } else {
            cleaned.push(c);
        }
    }
    let mut out = String::with_capacity(cleaned.len());
    for c in cleaned.nfd() {
        if c.general_category() == GeneralCategory::NonspacingMark {
            continue;
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// Step 4: whitespace-separated words, with each punctuation character split off.
fn split_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(' ').filter(|w| !w.is_empty()).flat_map(|w| {
        let mut parts = Vec::new();
        let mut start = 0;
        for (i, c) in w.char_indices() {
            if is_punctuation(c) {
                if start < i {
                    parts.push(&w[start..i]);
                }
                parts.push(&w[i..i + c.len_utf8()]);
                start = i + c.len_utf8();
            }
        }
        if start < w.len() {
            parts.push(&w[start..]);
        }
        parts
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> WordPiece {
        let mut v: Vec<String> =
            ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "play", "##ing", ".", "é", "e", "数"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        v.extend((0..1000).map(|i| format!("filler{i}")));
        WordPiece::from_vocab(&v.join("\n")).unwrap()
    }

    #[test]
    fn greedy_longest_match_with_continuations() {
        let t = tiny();
        let mut out = Vec::new();
        t.encode("Unaffable playing.", &mut out, 100);
        assert_eq!(out, vec![4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn unknown_remainder_makes_the_whole_word_unk() {
        let t = tiny();
        let mut out = Vec::new();
        t.encode("unaffablex play", &mut out, 100);
        assert_eq!(out, vec![1, 7]);
    }

    #[test]
    fn accents_stripped_cjk_split_controls_dropped() {
        let t = tiny();
        let mut out = Vec::new();
        t.encode("É\u{0}数数\u{200b}", &mut out, 100);
        // É -> e (accent stripped, lowercased); each ideograph is its own word.
        assert_eq!(out, vec![11, 12, 12]);
        assert_eq!(normalize("Ａb\tC"), "ａb c");
    }

    #[test]
    fn limit_truncates() {
        let t = tiny();
        let mut out = Vec::new();
        t.encode("play play play play", &mut out, 3);
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn punctuation_split() {
        let w: Vec<&str> = split_words("a.b(c)  d—e,").collect();
        assert_eq!(w, vec!["a", ".", "b", "(", "c", ")", "d", "—", "e", ","]);
    }
}
