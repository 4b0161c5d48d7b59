//! Bilingual text handling: normalisation for dedup, language tagging, and the segmentation that
//! both the SQLite FTS5 index and the PostgreSQL `tsvector` index use (one function, so every
//! backend tokenises identically).
//!
//! Why not FTS5's own tokenizers: `trigram` misses 2-character Chinese queries (超时, 数据) and
//! `unicode61` treats a whole run of Han characters as one token. So Han runs go through jieba's
//! search-mode cut, and identifier-like runs are split into their parts *and* kept whole:
//! `ERR_CONNECTION_REFUSED` is indexed as `err_connection_refused err connect refus`, so the exact
//! identifier matches with a high IDF and "connection refused" still matches the parts. English
//! words are Snowball-stemmed. Every emitted token consists of letters, digits and `_` only, which
//! is what the FTS5 `unicode61 tokenchars '_'` tokenizer keeps intact.

use std::collections::HashSet;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

fn jieba() -> &'static jieba_rs::Jieba {
    static J: OnceLock<jieba_rs::Jieba> = OnceLock::new();
    J.get_or_init(jieba_rs::Jieba::new)
}

fn stemmer() -> &'static rust_stemmers::Stemmer {
    static S: OnceLock<rust_stemmers::Stemmer> = OnceLock::new();
    S.get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
}

/// Loads jieba's dictionary now rather than on the first request.
pub fn warm_up() {
    let _ = tokenize("预热 warm up");
    let _ = glossary();
}

/// Collapses whitespace and lower-cases: the form used to detect duplicate submits.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Identity of an experience for dedup: task + resource + result after `normalize`, and the
/// resource's version when one is given (the same words about another version are another
/// experience; records without a version keep the hash they always had).
pub fn content_hash(task: &str, resource: &str, result: &str, version: Option<&str>) -> String {
    let mut h = Sha256::new();
    for (i, part) in [task, resource, result].iter().enumerate() {
        if i > 0 {
            h.update([0x1f]);
        }
        h.update(normalize(part).as_bytes());
    }
    if let Some(v) = version.map(normalize).filter(|v| !v.is_empty()) {
        h.update([0x1e]);
        h.update(v.as_bytes());
    }
    hex::encode(h.finalize())
}

/// Near-duplicate identity of an extracted experience: the same task done with the same
/// resource, whatever the wording of the result. Punctuation is ignored too, because LLM
/// extractions of one session differ in exactly such details.
pub fn task_resource_hash(task: &str, resource: &str) -> String {
    let loose = |s: &str| {
        let kept: String = s.chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect();
        normalize(&kept)
    };
    let mut h = Sha256::new();
    h.update(loose(task).as_bytes());
    h.update([0x1f]);
    h.update(loose(resource).as_bytes());
    hex::encode(h.finalize())
}

/// Which records use "the same resource", for near-duplicate merging and contests: the resource
/// and its version with whitespace removed, full-width forms folded and letters lower-cased,
/// except a letter right after `-` (a short option: `tar -C` and `tar -c` differ). A different
/// command, flag or version is a different key; spacing and the case of a name are not.
pub fn resource_key(resource: &str, version: Option<&str>) -> String {
    let mut out = String::with_capacity(resource.len() + 8);
    let fold = |s: &str, out: &mut String| {
        let mut prev = ' ';
        for c in crate::guard::normalise(s).chars().filter(|c| !c.is_whitespace()) {
            if prev == '-' && c.is_ascii_alphabetic() {
                out.push(c);
            } else {
                out.extend(c.to_lowercase());
            }
            prev = c;
        }
    };
    fold(resource, &mut out);
    if let Some(v) = version.map(str::trim).filter(|v| !v.is_empty()) {
        out.push('\u{1f}');
        fold(v, &mut out);
    }
    out
}

/// The specifics of a text: its tokens that hold a digit (versions, sizes, codes, counts).
/// Two accounts of one experience may differ in wording and in how much detail they give, but
/// not in their specifics: `node 18` vs `node 20`, `p99 40ms` vs `p99 2s`.
pub fn specifics(text: &str) -> std::collections::BTreeSet<String> {
    tokenize(text).into_iter().filter(|t| t.chars().any(|c| c.is_ascii_digit())).collect()
}

/// Whether two texts can tell the same experience: one's specifics contain the other's.
pub fn specifics_agree(a: &str, b: &str) -> bool {
    let (x, y) = (specifics(a), specifics(b));
    x.is_subset(&y) || y.is_subset(&x)
}

/// Han ideographs (CJK Unified + Extension A + Compatibility).
pub fn is_han(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// `zh`, `en`, `mixed` or `other`, from the share of Han characters among letters.
pub fn detect_language(s: &str) -> &'static str {
    let (mut han, mut latin, mut other) = (0usize, 0usize, 0usize);
    for c in s.chars() {
        if is_han(c) {
            han += 1;
        } else if c.is_ascii_alphabetic() {
            latin += 1;
        } else if c.is_alphabetic() {
            other += 1;
        }
    }
    let letters = han + latin + other;
    if letters == 0 {
        return "other";
    }
    // A Chinese sentence usually carries a few Latin identifiers; Han characters are denser in
    // meaning than Latin letters, hence the asymmetric thresholds.
    if han * 3 >= letters {
        if latin * 2 > letters {
            "mixed"
        } else {
            "zh"
        }
    } else if han > 0 {
        "mixed"
    } else if latin >= other {
        "en"
    } else {
        "other"
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_han(c)
}

fn is_connector(c: char) -> bool {
    matches!(c, '_' | '.' | '-' | '/' | ':' | '#' | '@' | '+')
}

/// Splits `useEffect` -> `use`, `Effect`; `HTTPServer` -> `HTTP`, `Server`; digits stay attached.
fn camel_parts(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (pos, c) = chars[i];
        let prev = chars[i - 1].1;
        let next_lower = chars.get(i + 1).is_some_and(|&(_, n)| n.is_lowercase());
        let boundary =
            (prev.is_lowercase() && c.is_uppercase()) || (prev.is_uppercase() && c.is_uppercase() && next_lower);
        if boundary {
            parts.push(&word[start..pos]);
            start = pos;
        }
    }
    parts.push(&word[start..]);
    parts
}

fn stem(word: &str) -> String {
    if word.chars().all(|c| c.is_ascii_alphabetic()) && word.len() > 3 {
        stemmer().stem(word).into_owned()
    } else {
        word.to_string()
    }
}

/// Emits tokens for one identifier-like run (letters/digits joined by connectors).
fn push_identifier(run: &str, out: &mut Vec<String>) {
    let pieces: Vec<&str> = run.split(is_connector).filter(|p| !p.is_empty()).collect();
    if pieces.is_empty() {
        return;
    }
    if pieces.len() > 1 {
        out.push(pieces.iter().map(|p| p.to_lowercase()).collect::<Vec<_>>().join("_"));
    }
    for piece in pieces {
        let camel = camel_parts(piece);
        if camel.len() > 1 {
            // Keep the whole word unstemmed (exact identifier) and its stemmed parts.
            out.push(piece.to_lowercase());
            for c in camel {
                out.push(stem(&c.to_lowercase()));
            }
        } else {
            out.push(stem(&piece.to_lowercase()));
        }
    }
}

/// Segments mixed Chinese/English/code text into index tokens (see the module docs).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if is_han(c) {
            let mut end = start;
            while let Some(&(i, c)) = chars.peek() {
                if !is_han(c) {
                    break;
                }
                end = i + c.len_utf8();
                chars.next();
            }
            for w in jieba().cut_for_search(&text[start..end], true) {
                let w = w.word.trim();
                if !w.is_empty() {
                    out.push(w.to_string());
                }
            }
        } else if is_word_char(c) {
            // A run of word characters, possibly joined by connectors (pg_dump, React.useEffect,
            // 1.2.3, user@example.com). A connector only joins if a word character follows it.
            let mut end = start;
            while let Some(&(i, c)) = chars.peek() {
                if is_word_char(c) {
                    end = i + c.len_utf8();
                    chars.next();
                } else if is_connector(c) {
                    let mut look = chars.clone();
                    look.next();
                    match look.peek() {
                        Some(&(_, n)) if is_word_char(n) => {
                            chars.next();
                        }
                        _ => break,
                    }
                } else {
                    break;
                }
            }
            push_identifier(&text[start..end], &mut out);
        } else if let Some(p) =
            (c == '[').then(|| crate::redact::PLACEHOLDERS.iter().find(|p| text[start..].starts_with(**p))).flatten()
        {
            // What redaction left is not what the record is about.
            while chars.peek().is_some_and(|&(i, _)| i < start + p.len()) {
                chars.next();
            }
        } else {
            chars.next();
        }
    }
    out
}

const STOPWORDS: &[&str] = &[
    // English function words: they dominate posting lists and carry no topic.
    "a",
    "an",
    "the",
    "to",
    "of",
    "in",
    "on",
    "for",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "it",
    "its",
    "and",
    "or",
    "with",
    "by",
    "from",
    "as",
    "at",
    "this",
    "that",
    "these",
    "those",
    "do",
    "doe",
    "does",
    "did",
    "how",
    "what",
    "which",
    "i",
    "you",
    "we",
    "my",
    "me",
    "can",
    "if",
    "into",
    "than",
    "then",
    "there",
    "so",
    "not",
    // Chinese particles and question words.
    "的",
    "了",
    "吗",
    "呢",
    "吧",
    "啊",
    "是",
    "在",
    "我",
    "你",
    "他",
    "她",
    "它",
    "我们",
    "怎么",
    "怎样",
    "如何",
    "什么",
    "为什么",
    "和",
    "与",
    "或",
    "就",
    "都",
    "也",
    "还",
    "要",
    "会",
    "能",
    "可以",
    "一个",
    "这个",
    "那个",
    "有",
    "没有",
    "不",
];

fn stopwords() -> &'static HashSet<&'static str> {
    static S: OnceLock<HashSet<&'static str>> = OnceLock::new();
    S.get_or_init(|| STOPWORDS.iter().copied().collect())
}

/// Tokens for a query: the index tokens, de-duplicated, with stopwords removed unless the query is
/// nothing but stopwords (then they are all it has).
pub fn query_tokens(q: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let all: Vec<String> = tokenize(q).into_iter().filter(|t| seen.insert(t.clone())).collect();
    let content: Vec<String> = all.iter().filter(|t| !stopwords().contains(t.as_str())).cloned().collect();
    if content.is_empty() {
        all
    } else {
        content
    }
}

/// Share of the query's tokens (`query_tokens`) that the text holds, in [0, 1]: an absolute
/// full-text signal (BM25 is relative to the corpus and differs between backends). A token also
/// counts as held when the text holds its translation in the software glossary (`glossary`):
/// a Chinese question about `超时` and an English record about a `timeout` share that word, as
/// an English question and a Chinese record do. Without it a cross-lingual answer shares only
/// the names it spells alike (`GitLab`, `pgbouncer`), as a record about another problem with the
/// same tool does.
pub fn coverage(query_tokens: &[String], text: &str) -> f64 {
    if query_tokens.is_empty() {
        return 0.0;
    }
    let have: HashSet<String> = tokenize(text).into_iter().collect();
    let g = glossary();
    let held = |t: &String| {
        have.contains(t)
            || g.to_en.get(t).is_some_and(|alts| alts.iter().any(|a| a.iter().all(|w| have.contains(w))))
            || g.to_zh.get(t).is_some_and(|zh| zh.iter().any(|w| have.contains(w)))
    };
    let direct: Vec<bool> = query_tokens.iter().map(held).collect();
    // Segmenting for search also emits a word's parts (`数据库`: `数据`, `数据库`); a part of a held
    // word is held, as it is in the text itself when the text is Chinese.
    let part_of_held = |t: &String| {
        t.chars().all(is_han)
            && query_tokens.iter().zip(&direct).any(|(w, h)| *h && w.len() > t.len() && w.contains(t.as_str()))
    };
    let n = query_tokens.iter().zip(&direct).filter(|(t, h)| **h || part_of_held(t)).count();
    n as f64 / query_tokens.len() as f64
}

/// The Chinese-English software vocabulary of `data/glossary_zh_en.tsv`, as tokens.
struct Glossary {
    /// A Chinese word -> its English alternatives, each as the tokens `tokenize` makes of it.
    to_en: std::collections::HashMap<String, Vec<Vec<String>>>,
    /// An English token -> the Chinese words it translates as a one-word alternative.
    to_zh: std::collections::HashMap<String, Vec<String>>,
}

/// Loaded once. Alternatives made only of stop words (`how to`, `not`) are left out: they would
/// make any English text hold `怎么` or `不`.
fn glossary() -> &'static Glossary {
    static G: OnceLock<Glossary> = OnceLock::new();
    G.get_or_init(|| {
        let mut g = Glossary { to_en: Default::default(), to_zh: Default::default() };
        for line in include_str!("../data/glossary_zh_en.tsv").lines() {
            let Some((zh, en)) = line.split_once('\t').filter(|_| !line.starts_with('#')) else { continue };
            let zh = zh.trim().to_string();
            for alt in en.split('|') {
                let words = tokenize(alt);
                if words.is_empty() || words.iter().all(|w| stopwords().contains(w.as_str())) {
                    continue;
                }
                if let [w] = words.as_slice() {
                    let back = g.to_zh.entry(w.clone()).or_default();
                    if !back.contains(&zh) {
                        back.push(zh.clone());
                    }
                }
                g.to_en.entry(zh.clone()).or_default().push(words);
            }
        }
        g
    })
}

/// Token set used by MMR's Jaccard similarity.
pub fn token_set(text: &str) -> HashSet<String> {
    tokenize(text).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(tokens: &[String], t: &str) -> bool {
        tokens.iter().any(|x| x == t)
    }

    #[test]
    fn redaction_placeholders_are_not_words() {
        let t = tokenize("called the API with [API_KEY] as [EMAIL]; [ERROR] stays");
        assert!(has(&t, "api") && has(&t, "error"), "{t:?}");
        assert!(!has(&t, "key") && !has(&t, "email"), "{t:?}");
        assert_eq!(tokenize("[REDACTED]"), Vec::<String>::new());
    }

    #[test]
    fn coverage_counts_query_tokens_found() {
        let q = query_tokens("数据库 连接超时 pgbouncer");
        assert_eq!(coverage(&q, "PgBouncer 解决数据库连接超时"), 1.0);
        let half = coverage(&query_tokens("docker build cache"), "Speed up docker builds in CI");
        assert!((half - 2.0 / 3.0).abs() < 1e-9, "{half}");
        assert_eq!(coverage(&query_tokens("banana bread"), "Speed up docker builds"), 0.0);
        assert_eq!(coverage(&[], "anything"), 0.0);
    }

    #[test]
    fn coverage_reads_the_glossary_across_languages() {
        // Chinese question, English record: the technical words count through their translation.
        let zh = query_tokens("数据库 连接 超时");
        assert_eq!(coverage(&zh, "Fix Postgres database connection timeouts under load"), 1.0);
        assert_eq!(coverage(&zh, "Speed up docker builds in CI"), 0.0);
        // English question, Chinese record.
        let en = query_tokens("database connection timeout");
        assert_eq!(coverage(&en, "PgBouncer 解决数据库连接超时"), 1.0);
        // A word only one side names is not held.
        let half = coverage(&query_tokens("镜像 超时"), "the registry returned a timeout");
        assert!((half - 0.5).abs() < 1e-9, "{half}");
        // Stop-word alternatives do not make any English text hold a Chinese function word.
        assert!(glossary().to_en.values().flatten().all(|a| !a.iter().all(|w| stopwords().contains(w.as_str()))));
    }

    #[test]
    fn specifics_must_not_conflict() {
        assert!(specifics_agree("upgrade to node 18", "move to node 18 LTS"));
        assert!(!specifics_agree("upgrade to node 18", "upgrade to node 20"));
        assert!(!specifics_agree("p99 从 3s 降到 40ms", "p99 3s -> 2s"));
        assert!(specifics_agree("raised pool size", "default_pool_size=50 fixed it"), "less detail is no conflict");
        assert!(!specifics_agree("unique task 17", "unique task 42"));
        assert!(specifics_agree("修复超时", "超时问题修好了"));
    }

    #[test]
    fn resource_keys() {
        let k = |r: &str| resource_key(r, None);
        assert_eq!(k("pgbouncer pool_mode=transaction"), k("PgBouncer  pool_mode = transaction"));
        assert_eq!(k("ＰｇＢｏｕｎｃｅｒ"), k("pgbouncer"), "full-width folded");
        assert_ne!(k("kubectl rollout undo"), k("kubectl rollout restart"));
        assert_ne!(k("tar -C /tmp"), k("tar -c /tmp"), "short options keep their case");
        assert_ne!(k("pg_dump -Fc"), k("pg_dump -Fp"));
        assert_eq!(k("pg_dump -Fc"), k("PG_DUMP -Fc"));
        assert_ne!(resource_key("vitest", Some("3.2")), resource_key("vitest", Some("2.1")));
        assert_ne!(resource_key("vitest", Some("3.2")), k("vitest"));
        assert_eq!(resource_key("vitest", Some(" ")), k("vitest"));
        assert_ne!(k("vitest 3.2"), k("vitest 2.1"));
    }

    #[test]
    fn two_character_chinese_words_are_tokens() {
        let t = tokenize("修复 PostgreSQL 连接超时，数据库重启");
        for w in ["超时", "连接", "数据", "数据库", "修复", "postgresql"] {
            assert!(has(&t, w), "{w} missing from {t:?}");
        }
        let q = query_tokens("超时");
        assert_eq!(q, vec!["超时"]);
    }

    #[test]
    fn identifiers_keep_whole_and_parts() {
        let t = tokenize("pg_dump failed: ERR_CONNECTION_REFUSED in React.useEffect; kubectl apply");
        for w in [
            "pg_dump",
            "pg",
            "dump",
            "err_connection_refused",
            "err",
            "connect",
            "refus",
            "react_useeffect",
            "useeffect",
            "use",
            "effect",
            "kubectl",
            "appli",
        ] {
            assert!(has(&t, w), "{w} missing from {t:?}");
        }
        // Every token survives FTS5's `unicode61 tokenchars '_'` tokenizer unchanged.
        for tok in &t {
            assert!(tok.chars().all(|c| c.is_alphanumeric() || c == '_'), "{tok}");
        }
    }

    #[test]
    fn query_and_document_agree() {
        let doc = tokenize("Fixed connection timeouts with pgbouncer");
        for q in query_tokens("connection timeout") {
            assert!(has(&doc, &q), "{q} not in {doc:?}");
        }
    }

    #[test]
    fn stopwords_dropped_unless_alone() {
        assert_eq!(query_tokens("how to use the kubectl"), vec!["use", "kubectl"]);
        assert_eq!(query_tokens("how to"), vec!["how", "to"]);
        assert!(!query_tokens("如何解决数据库超时").iter().any(|t| t == "如何"));
    }

    #[test]
    fn camel_case_splits() {
        assert_eq!(camel_parts("useEffect"), vec!["use", "Effect"]);
        assert_eq!(camel_parts("HTTPServer"), vec!["HTTP", "Server"]);
        assert_eq!(camel_parts("kubectl"), vec!["kubectl"]);
    }

    #[test]
    fn trailing_punctuation_is_not_glued() {
        let t = tokenize("see docs. then run make-install.");
        assert!(has(&t, "doc"), "{t:?}");
        assert!(has(&t, "make_install"), "{t:?}");
        assert!(!t.iter().any(|x| x.ends_with('_')));
    }

    #[test]
    fn normalisation_and_hash() {
        assert_eq!(normalize("  Fix   the\tBUG \n"), "fix the bug");
        assert_eq!(content_hash("A  b", "C", "d", None), content_hash("a b", " c ", "D", Some(" ")));
        assert_ne!(content_hash("ab", "c", "d", None), content_hash("a", "bc", "d", None));
        assert_ne!(content_hash("a", "vitest", "d", Some("3.2")), content_hash("a", "vitest", "d", Some("2.1")));
        assert_ne!(content_hash("a", "vitest", "d", Some("3.2")), content_hash("a", "vitest", "d", None));
    }

    #[test]
    fn languages() {
        assert_eq!(detect_language("修复数据库连接超时问题"), "zh");
        assert_eq!(detect_language("fix the connection timeout"), "en");
        assert_eq!(detect_language("修复 PostgreSQL 连接超时 with pgbouncer transaction pooling"), "mixed");
        assert_eq!(detect_language("12345 !!"), "other");
    }
}
