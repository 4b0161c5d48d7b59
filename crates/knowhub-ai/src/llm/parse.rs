//! Reading a JSON array out of a model's answer. Models wrap JSON in ```json fences, add a
//! sentence before or after, or return `{"experiences": [...]}` instead of a bare array; all of
//! that is tolerated. What is never tolerated is partial data: a truncated answer, one bad item or
//! two competing arrays is an error, so extraction either gets every item or none.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// Keys under which a wrapper object may hold the array.
const WRAPPER_KEYS: &[&str] = &["experiences", "items", "results", "data", "output"];

/// Why no array could be read. Messages are meant for logs and for a retry prompt to the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("the answer is empty")]
    Empty,
    #[error("no JSON array found in the answer (starts with {preview:?})")]
    NoArray { preview: String },
    #[error("the JSON starting at byte {at} of the answer is cut off (output limit reached?)")]
    Truncated { at: usize },
    #[error("the answer holds {count} JSON arrays that fit; expected exactly one")]
    Ambiguous { count: usize },
    #[error("item {index} of {len}: {message}")]
    Item { index: usize, len: usize, message: String },
}

/// Parses the one JSON array in `text` (optionally inside ```json fences, with prose around it,
/// or as the array field of an object like `{"experiences": [...]}`) into `Vec<T>`.
/// Every item must deserialize; otherwise the whole answer is rejected.
pub fn parse_json_array<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, ParseError> {
    let text = match text.rfind("</think>") {
        Some(i) => &text[i + "</think>".len()..],
        None => text,
    };
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    // Fenced blocks first: prose outside them may contain brackets of its own.
    let mut found = Vec::new();
    for block in fenced_blocks(text) {
        found.extend(scan(text, block)?);
    }
    if found.is_empty() {
        found = scan(text, (0, text.len()))?;
    }
    if found.is_empty() {
        let preview: String = text.trim().chars().take(80).collect();
        return Err(ParseError::NoArray { preview });
    }
    let mut ok = Vec::new();
    let mut first_err = None;
    for items in found {
        match convert::<T>(items) {
            Ok(v) => ok.push(v),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    match ok.len() {
        1 => Ok(ok.pop().unwrap_or_default()),
        0 => Err(first_err.unwrap_or(ParseError::NoArray { preview: String::new() })),
        count => Err(ParseError::Ambiguous { count }),
    }
}

fn convert<T: DeserializeOwned>(items: Vec<Value>) -> Result<Vec<T>, ParseError> {
    let len = items.len();
    items
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            serde_json::from_value::<T>(v).map_err(|e| ParseError::Item { index: i + 1, len, message: e.to_string() })
        })
        .collect()
}

/// Byte ranges of the contents of ``` fenced blocks (any info string). An unclosed fence runs to
/// the end of the text.
fn fenced_blocks(text: &str) -> Vec<(usize, usize)> {
    let mut blocks = Vec::new();
    let mut rest = 0;
    while let Some(open) = text[rest..].find("```") {
        let open = rest + open + 3;
        // Skip the info string (json, JSON, jsonc, ...); the JSON may follow on the same line.
        let body = open
            + text[open..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_+-".contains(c)))
                .unwrap_or(text.len() - open);
        match text[body..].find("```") {
            Some(close) => {
                blocks.push((body, body + close));
                rest = body + close + 3;
            }
            None => {
                blocks.push((body, text.len()));
                break;
            }
        }
    }
    blocks
}

/// Top-level JSON arrays (or wrapper objects) that start at a `[` or `{` inside `range`, scanning
/// left to right and skipping over whatever parsed. A value that runs off the end means the
/// answer was cut off: that is reported rather than falling back to some inner fragment.
fn scan(text: &str, (from, to): (usize, usize)) -> Result<Vec<Vec<Value>>, ParseError> {
    let slice = &text[from..to];
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = slice[i..].find(['[', '{']) {
        let at = i + off;
        let mut stream = serde_json::Deserializer::from_str(&slice[at..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                let end = at + stream.byte_offset();
                if let Some(items) = array_of(value) {
                    out.push(items);
                }
                i = end;
            }
            Some(Err(e)) if e.is_eof() => return Err(ParseError::Truncated { at: from + at }),
            _ => i = at + 1,
        }
    }
    Ok(out)
}

/// The array itself, or the array field of a wrapper object.
fn array_of(value: Value) -> Option<Vec<Value>> {
    match value {
        Value::Array(items) => Some(items),
        Value::Object(mut map) => {
            if map.len() == 1 {
                return match map.into_iter().next() {
                    Some((_, Value::Array(items))) => Some(items),
                    _ => None,
                };
            }
            WRAPPER_KEYS.iter().find_map(|k| match map.remove(*k) {
                Some(Value::Array(items)) => Some(items),
                _ => None,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Exp {
        task: String,
        score: u8,
    }

    fn exps(text: &str) -> Result<Vec<Exp>, ParseError> {
        parse_json_array::<Exp>(text)
    }

    fn e(task: &str, score: u8) -> Exp {
        Exp { task: task.into(), score }
    }

    #[test]
    fn bare_array() {
        assert_eq!(exps(r#"[{"task":"a","score":5}]"#).unwrap(), vec![e("a", 5)]);
        assert_eq!(exps("[]").unwrap(), vec![]);
        assert_eq!(exps("  \n[ ]\n").unwrap(), vec![]);
    }

    #[test]
    fn fenced_with_prose() {
        let t = "Here are the experiences I found:\n```json\n[{\"task\":\"修复超时\",\"score\":4},\n {\"task\":\"b\",\"score\":2}]\n```\nLet me know [if] you need more.";
        assert_eq!(exps(t).unwrap(), vec![e("修复超时", 4), e("b", 2)]);
        let t = "```\n[{\"task\":\"a\",\"score\":1}]\n```";
        assert_eq!(exps(t).unwrap(), vec![e("a", 1)]);
        let t = "```JSON [{\"task\":\"a\",\"score\":1}]```";
        assert_eq!(exps(t).unwrap(), vec![e("a", 1)]);
        // Unclosed fence.
        let t = "```json\n[{\"task\":\"a\",\"score\":1}]";
        assert_eq!(exps(t).unwrap(), vec![e("a", 1)]);
    }

    #[test]
    fn prose_without_fences() {
        let t = "Sure! [{\"task\":\"a\",\"score\":3}] That is all.";
        assert_eq!(exps(t).unwrap(), vec![e("a", 3)]);
        // Bracketed prose that is not JSON, or JSON of the wrong shape, does not count.
        let t = "Note [1]: see {docs}. [{\"task\":\"a\",\"score\":3}]";
        assert_eq!(exps(t).unwrap(), vec![e("a", 3)]);
    }

    #[test]
    fn wrapper_objects() {
        assert_eq!(exps(r#"{"experiences":[{"task":"a","score":5}]}"#).unwrap(), vec![e("a", 5)]);
        assert_eq!(exps(r#"{"whatever":[{"task":"a","score":5}]}"#).unwrap(), vec![e("a", 5)]);
        assert_eq!(exps(r#"{"count":1,"items":[{"task":"a","score":5}]}"#).unwrap(), vec![e("a", 5)]);
        assert_eq!(exps(r#"{"experiences":[]}"#).unwrap(), vec![]);
        // An object that is neither: a single experience is not silently accepted.
        let err = exps(r#"{"task":"a","score":5}"#).unwrap_err();
        assert!(matches!(err, ParseError::NoArray { .. }), "{err}");
    }

    #[test]
    fn truncated_output_is_rejected_not_half_parsed() {
        let t = r#"[{"task":"a","score":5},{"task":"b","sc"#;
        assert!(matches!(exps(t), Err(ParseError::Truncated { .. })), "{:?}", exps(t));
        let t = "```json\n{\"experiences\": [{\"task\":\"a\",\"score\":5},";
        assert!(matches!(exps(t), Err(ParseError::Truncated { .. })));
        assert!(exps(t).unwrap_err().to_string().contains("cut off"));
    }

    #[test]
    fn one_bad_item_rejects_all_with_a_precise_message() {
        let t = r#"[{"task":"a","score":5},{"task":"b"},{"task":"c","score":1}]"#;
        let err = exps(t).unwrap_err();
        assert_eq!(err, ParseError::Item { index: 2, len: 3, message: "missing field `score`".into() });
        assert_eq!(err.to_string(), "item 2 of 3: missing field `score`");
        let err = exps(r#"[{"task":"a","score":"five"}]"#).unwrap_err();
        assert!(err.to_string().starts_with("item 1 of 1: invalid type: string \"five\""), "{err}");
    }

    #[test]
    fn two_arrays_are_ambiguous() {
        let t = r#"[{"task":"a","score":5}] or maybe [{"task":"b","score":4}]"#;
        assert_eq!(exps(t).unwrap_err(), ParseError::Ambiguous { count: 2 });
        // ...unless only one sits in a fence.
        let t = "first draft [{\"task\":\"a\",\"score\":5}]\n```json\n[{\"task\":\"b\",\"score\":4}]\n```";
        assert_eq!(exps(t).unwrap(), vec![e("b", 4)]);
    }

    #[test]
    fn empty_and_no_json() {
        assert_eq!(exps("").unwrap_err(), ParseError::Empty);
        assert_eq!(exps("  \n ").unwrap_err(), ParseError::Empty);
        let err = exps("I could not find any experiences.").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no JSON array found in the answer (starts with \"I could not find any experiences.\")"
        );
        assert!(matches!(exps("use {braces} and [brackets] freely"), Err(ParseError::NoArray { .. })));
    }

    #[test]
    fn think_blocks_and_other_types() {
        let t = "<think>maybe [1,2]?</think>[{\"task\":\"a\",\"score\":5}]";
        assert_eq!(exps(t).unwrap(), vec![e("a", 5)]);
        assert_eq!(parse_json_array::<String>(r#"["x","y"]"#).unwrap(), vec!["x", "y"]);
        assert_eq!(parse_json_array::<Value>("[1, {\"a\": [2]}]").unwrap().len(), 2);
    }
}
