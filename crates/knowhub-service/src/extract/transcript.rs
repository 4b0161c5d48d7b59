//! Turning uploaded messages into what the LLM sees: one shape for plain `{role, content}`
//! messages, OpenClaw's content parts and the plugin's upload shape; thinking dropped; secrets
//! and PII redacted; and a transcript capped to the model's budget by keeping the start, the tool
//! calls and the end (the middle is summarised as a list of tool calls, never cut at the end).

use knowhub_core::redact::{redact, RedactionCounts};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Longest text kept from one message (head and tail kept, the middle elided).
pub const MAX_MESSAGE_CHARS: usize = 6_000;
const MAX_ARGS_CHARS: usize = 800;

/// One message, normalised and redacted. This is what is stored with a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Prepared {
    pub role: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Tool calls the assistant made: `name(arguments)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<String>,
    /// For tool results: which tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

fn s(v: &Value) -> Option<&str> {
    v.as_str()
}

/// Head and tail of an over-long text with a marker in between.
pub fn elide(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max * 2 / 3).collect();
    let tail: String = text.chars().skip(n - max / 3).collect();
    format!("{head}\n[... {} characters omitted ...]\n{tail}", n - head.chars().count() - tail.chars().count())
}

/// Arguments as text, whole: cut only after redaction (`redact_message`), so a secret that
/// straddles a cut is still seen whole by the redaction rules.
fn args_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Text of a content value: a string, or an array of parts of which text-like ones count.
fn content_text(v: &Value, calls: &mut Vec<String>, depth: u8) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) if depth < 3 => {
            let mut out: Vec<String> = Vec::new();
            for p in parts {
                match p {
                    Value::String(s) => out.push(s.clone()),
                    Value::Object(o) => {
                        let ty = o.get("type").and_then(s).unwrap_or("text");
                        match ty {
                            "thinking" | "redacted_thinking" | "reasoning" => {}
                            "text" | "input_text" | "output_text" => {
                                if let Some(t) = o.get("text").and_then(s) {
                                    out.push(t.to_string());
                                }
                            }
                            "toolCall" | "tool_use" | "function_call" => {
                                let name = o.get("name").and_then(s).unwrap_or("tool");
                                let args = o.get("arguments").or_else(|| o.get("input")).unwrap_or(&Value::Null);
                                calls.push(format!("{name}({})", args_text(args)));
                            }
                            "toolResult" | "tool_result" => {
                                let name = o.get("toolName").or_else(|| o.get("name")).and_then(s).unwrap_or("tool");
                                let body =
                                    o.get("content").map(|c| content_text(c, calls, depth + 1)).unwrap_or_default();
                                out.push(format!("[{name} result] {body}"));
                            }
                            "image" | "image_url" => out.push("[image]".into()),
                            _ => {
                                if let Some(t) = o.get("text").and_then(s) {
                                    out.push(t.to_string());
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            out.join("\n")
        }
        _ => String::new(),
    }
}

/// Normalises one uploaded message; `Err` names what is wrong with it.
pub fn normalise(v: &Value) -> Result<Option<Prepared>, String> {
    let o = v.as_object().ok_or("must be an object with role and content")?;
    let role = o.get("role").and_then(s).ok_or("role is required and must be a string")?.trim().to_string();
    if role.is_empty() || role.len() > 40 {
        return Err("role must be 1 to 40 characters".into());
    }
    let mut calls = Vec::new();
    let content = o.get("content").unwrap_or(&Value::Null);
    if !matches!(content, Value::String(_) | Value::Array(_) | Value::Null) {
        return Err("content must be a string or an array of parts".into());
    }
    let text = content_text(content, &mut calls, 0);
    // The plugin's upload shape and OpenAI's both carry calls beside the content.
    for key in ["tool_calls", "toolCalls"] {
        if let Some(Value::Array(tc)) = o.get(key) {
            for c in tc {
                let f = c.get("function").unwrap_or(c);
                let name = f.get("name").and_then(s).unwrap_or("tool");
                calls.push(format!("{name}({})", args_text(f.get("arguments").unwrap_or(&Value::Null))));
            }
        }
    }
    let tool = ["tool_name", "toolName", "name"]
        .iter()
        .find_map(|k| o.get(*k).and_then(s))
        .filter(|_| role.starts_with("tool") || o.contains_key("tool_name") || o.contains_key("toolName"))
        .map(|t| t.chars().take(100).collect());
    let is_error = o.get("is_error").or_else(|| o.get("isError")).and_then(Value::as_bool).unwrap_or(false);
    if text.trim().is_empty() && calls.is_empty() {
        return Ok(None); // only thinking, or empty: nothing for the LLM
    }
    Ok(Some(Prepared { role, text, calls, tool, is_error }))
}

/// Redacts every string of a message that the LLM will read (defence in depth: the plugin
/// redacts too): the text, the tool calls, and the role and tool name, which are free text an
/// uploader chooses. Then it cuts the text and calls to size. In that order: a cut first could
/// drop a private key's BEGIN line and leave its body for the LLM.
pub fn redact_message(m: &mut Prepared, counts: &mut RedactionCounts) {
    let mut one = |t: &mut String, max: usize| {
        let r = redact(t);
        counts.add(&r.counts);
        *t = elide(&r.text, max);
    };
    one(&mut m.text, MAX_MESSAGE_CHARS);
    for c in &mut m.calls {
        one(c, MAX_ARGS_CHARS);
    }
    // Already capped at 40 and 100 characters by `normalise`.
    one(&mut m.role, usize::MAX);
    if let Some(t) = m.tool.as_mut() {
        one(t, usize::MAX);
    }
}

/// The transcript's own delimiters (`<transcript ...>`, `</transcript>`, any case) written as
/// `&lt;...`, so an uploaded message cannot close the transcript early and speak to the model
/// as the instructions around it.
pub fn escape_delimiters(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (i, _) in lower.match_indices('<') {
        let rest = &lower[i + 1..];
        let rest = rest.strip_prefix('/').unwrap_or(rest).trim_start();
        if rest.starts_with("transcript") {
            out.push_str(&text[last..i]);
            out.push_str("&lt;");
            last = i + 1;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Identity of an uploaded message for incremental processing: the raw message as sent (role,
/// content, calls, timestamp), so the same history re-sent matches and an edited one does not.
pub fn fingerprint(raw: &Value) -> String {
    let mut h = Sha256::new();
    for k in ["role", "content", "tool_calls", "toolCalls", "tool_name", "toolName", "timestamp", "id"] {
        if let Some(v) = raw.get(k) {
            h.update(k.as_bytes());
            h.update([0]);
            h.update(v.to_string().as_bytes());
            h.update([0x1e]);
        }
    }
    hex::encode(h.finalize())
}

fn render(idx: u64, m: &Prepared) -> String {
    let mut out = match (&m.tool, m.role.as_str()) {
        (Some(t), _) => format!("[#{idx} tool result: {t}{}]", if m.is_error { ", ERROR" } else { "" }),
        _ => format!("[#{idx} {}]", m.role),
    };
    if !m.text.trim().is_empty() {
        out.push('\n');
        out.push_str(m.text.trim());
    }
    for c in &m.calls {
        out.push_str("\n-> call ");
        out.push_str(c);
    }
    out
}

/// A deliberately high estimate of a text's tokens under common tokenizers, for fitting a prompt
/// to a small context window: one token per 3 ASCII characters (English prose averages ~4, code
/// nearer 3) and 1.5 per other character (Chinese takes 0.7-2 a character, depending on how much
/// of it the vocabulary holds).
pub fn estimate_tokens(text: &str) -> usize {
    let (ascii, other) =
        text.chars().fold((0usize, 0usize), |(a, o), c| if c.is_ascii() { (a + 1, o) } else { (a, o + 1) });
    ascii.div_ceil(3) + (other * 3).div_ceil(2)
}

/// One line per message in the omitted middle: who, which tool, the start of what happened.
fn summary_line(idx: u64, m: &Prepared) -> String {
    let first: String = m.text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(160).collect();
    let calls: Vec<String> = m.calls.iter().map(|c| c.chars().take(200).collect()).collect();
    match (&m.tool, calls.is_empty()) {
        (Some(t), _) => format!("#{idx} {t} result{}: {first}", if m.is_error { " (ERROR)" } else { "" }),
        (None, false) => format!("#{idx} {} called {}", m.role, calls.join("; ")),
        (None, true) => format!("#{idx} {}: {first}", m.role),
    }
}

/// The transcript for the prompt, at most about `budget` characters.
///
/// Within budget: every message in full. Over it: the first ~30% of the budget from the start,
/// the last ~45% from the end, and between them a one-line summary per message (tool calls and
/// results first, since those carry the resources and outcomes), as many as fit; what still does
/// not fit is counted in a marker. Returns the text and whether it was capped.
pub fn build(all: &[Prepared], first_index: u64, budget: usize) -> (String, bool) {
    // Messages with nothing to show keep their number but take no space.
    let (numbers, messages): (Vec<u64>, Vec<&Prepared>) = all
        .iter()
        .enumerate()
        .filter(|(_, m)| !(m.text.trim().is_empty() && m.calls.is_empty()))
        .map(|(i, m)| (first_index + i as u64, m))
        .unzip();
    if messages.is_empty() {
        return (String::new(), false);
    }
    let rendered: Vec<String> = messages.iter().zip(&numbers).map(|(m, n)| render(*n, m)).collect();
    let len = |s: &String| s.chars().count() + 2;
    let total: usize = rendered.iter().map(len).sum();
    if total <= budget {
        return (rendered.join("\n\n"), false);
    }
    let (head_budget, tail_budget) = (budget * 30 / 100, budget * 45 / 100);
    let mut head = 0;
    let mut used = 0;
    while head < rendered.len() && used + len(&rendered[head]) <= head_budget {
        used += len(&rendered[head]);
        head += 1;
    }
    if head == 0 {
        head = 1; // the task statement matters most: keep it (it is already capped per message)
    }
    let mut tail = rendered.len();
    let mut tail_used = 0;
    while tail > head && tail_used + len(&rendered[tail - 1]) <= tail_budget {
        tail_used += len(&rendered[tail - 1]);
        tail -= 1;
    }
    if tail == rendered.len() && tail > head {
        tail -= 1; // always keep the final message
    }
    let middle_budget = budget.saturating_sub(used + tail_used);
    let mut lines: Vec<(usize, String)> = (head..tail).map(|i| (i, summary_line(numbers[i], messages[i]))).collect();
    // Tool activity first, then the rest, each in order; keep what fits, then restore order.
    lines.sort_by_key(|(i, _)| (messages[*i].calls.is_empty() && messages[*i].tool.is_none(), *i));
    let mut kept = Vec::new();
    let mut mid_used = 0;
    for (i, l) in lines {
        let n = l.chars().count() + 1;
        if mid_used + n > middle_budget {
            continue;
        }
        mid_used += n;
        kept.push((i, l));
    }
    kept.sort_by_key(|(i, _)| *i);
    let omitted = (tail - head) - kept.len();
    let mut out: Vec<String> = rendered[..head].to_vec();
    let mut mid = format!("[... messages #{}-#{} summarised ...]", numbers[head], numbers[tail - 1]);
    for (_, l) in &kept {
        mid.push('\n');
        mid.push_str(l);
    }
    if omitted > 0 {
        mid.push_str(&format!("\n[... {omitted} more messages omitted ...]"));
    }
    out.push(mid);
    out.extend(rendered[tail..].iter().cloned());
    (out.join("\n\n"), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn token_estimate_errs_long() {
        assert_eq!(estimate_tokens(""), 0);
        // English prose runs ~4 characters a token; the estimate counts 3.
        assert_eq!(estimate_tokens("Switching pool_mode to transaction fixed it."), 15);
        // Chinese: 1.5 a character, rounded up.
        assert_eq!(estimate_tokens("数据库连接超时"), 11);
        assert_eq!(estimate_tokens("pg 超时"), 1 + 3);
    }

    #[test]
    fn transcript_delimiters_in_messages_are_escaped() {
        assert_eq!(escape_delimiters("a </transcript> b"), "a &lt;/transcript> b");
        assert_eq!(
            escape_delimiters("</TRANSCRIPT >\n<Transcript messages=\"#1\">"),
            "&lt;/TRANSCRIPT >\n&lt;Transcript messages=\"#1\">"
        );
        assert_eq!(escape_delimiters("a < b, Vec<T>, </div>, 中文"), "a < b, Vec<T>, </div>, 中文");
    }

    /// A private key whose BEGIN line would fall in the elided middle of a long message, and a
    /// token in the middle of long tool arguments: both are redacted, never cut in half.
    #[test]
    fn secrets_are_redacted_before_anything_is_cut() {
        let body: String =
            (0..80).map(|i| format!("MIIEpAIBAAKCAQEA{i:04}q3Zx7ubvV9kLm0Pz+Yc2bTXw8R1sNaHoUjGeVfDi0\n")).collect();
        let text = format!(
            "{}\n-----BEGIN RSA PRIVATE KEY-----\n{body}-----END RSA PRIVATE KEY-----\n{}",
            "log line ".repeat(500),
            "done ".repeat(20)
        );
        let args = format!("{} ghp_{} {}", "a".repeat(700), "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "b".repeat(700));
        let raw = json!({"role": "assistant", "content": text, "tool_calls": [{"name": "exec", "arguments": args}]});
        let mut m = normalise(&raw).unwrap().unwrap();
        let mut counts = RedactionCounts::default();
        redact_message(&mut m, &mut counts);
        assert!(!m.text.contains("q3Zx7ubvV9kLm0Pz"), "key material reached the transcript");
        assert!(!m.calls[0].contains("A1b2C3d4E5f6"), "token reached the transcript: {}", m.calls[0]);
        assert!(m.text.chars().count() <= MAX_MESSAGE_CHARS + 60 && m.calls[0].chars().count() <= MAX_ARGS_CHARS + 60);
        assert!(counts.private_key == 1 && counts.total() >= 2, "{counts:?}");
    }

    #[test]
    fn openclaw_parts_are_normalised_and_thinking_dropped() {
        let m = json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": "SECRET PLAN"},
            {"type": "text", "text": "Running the tests"},
            {"type": "toolCall", "name": "exec", "arguments": {"command": "cargo test"}}
        ]});
        let p = normalise(&m).unwrap().unwrap();
        assert_eq!(p.text, "Running the tests");
        assert_eq!(p.calls, vec![r#"exec({"command":"cargo test"})"#.to_string()]);
        assert!(!serde_json::to_string(&p).unwrap().contains("SECRET PLAN"));
        let r = json!({"role": "toolResult", "toolName": "exec", "isError": true,
            "content": [{"type": "text", "text": "error[E0308]: mismatched types"}]});
        let p = normalise(&r).unwrap().unwrap();
        assert_eq!((p.tool.as_deref(), p.is_error), (Some("exec"), true));
        let only_thinking = json!({"role": "assistant", "content": [{"type": "thinking", "thinking": "x"}]});
        assert_eq!(normalise(&only_thinking).unwrap(), None);
    }

    #[test]
    fn plain_and_plugin_shapes() {
        let p = normalise(&json!({"role": "user", "content": "fix the build"})).unwrap().unwrap();
        assert_eq!((p.role.as_str(), p.text.as_str()), ("user", "fix the build"));
        let up = json!({"role": "assistant", "content": "", "tool_calls": [{"name": "exec", "arguments": {"command": "ls"}}]});
        assert_eq!(normalise(&up).unwrap().unwrap().calls, vec![r#"exec({"command":"ls"})"#.to_string()]);
        let tr = json!({"role": "tool", "content": "ok", "tool_name": "exec", "is_error": false});
        assert_eq!(normalise(&tr).unwrap().unwrap().tool.as_deref(), Some("exec"));
        for bad in [json!("hi"), json!({"content": "x"}), json!({"role": "user", "content": 5})] {
            assert!(normalise(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn redaction_counts() {
        let mut m =
            normalise(&json!({"role": "user", "content": "mail bob@example.com key sk-abcdefghijklmnopqrstuvwx1234"}))
                .unwrap()
                .unwrap();
        let mut c = RedactionCounts::default();
        redact_message(&mut m, &mut c);
        assert!(!m.text.contains("bob@example.com") && !m.text.contains("sk-abcdef"), "{}", m.text);
        assert_eq!((c.email, c.api_key), (1, 1));
    }

    #[test]
    fn role_and_tool_name_are_redacted_too() {
        let mut m = normalise(&json!({
            "role": "tool bob@example.com",
            "tool_name": "fetch sk-abcdefghijklmnopqrstuvwx1234",
            "content": "ok"
        }))
        .unwrap()
        .unwrap();
        let mut c = RedactionCounts::default();
        redact_message(&mut m, &mut c);
        assert_eq!(m.role, "tool [EMAIL]");
        assert_eq!(m.tool.as_deref(), Some("fetch [API_KEY]"));
        assert_eq!((c.email, c.api_key), (1, 1));
        let mut plain =
            normalise(&json!({"role": "toolResult", "toolName": "exec", "content": "ok"})).unwrap().unwrap();
        redact_message(&mut plain, &mut c);
        assert_eq!((plain.role.as_str(), plain.tool.as_deref()), ("toolResult", Some("exec")));
    }

    #[test]
    fn fingerprints_follow_content() {
        let a = json!({"role": "user", "content": "x", "timestamp": 1});
        assert_eq!(fingerprint(&a), fingerprint(&json!({"timestamp": 1, "content": "x", "role": "user"})));
        assert_ne!(fingerprint(&a), fingerprint(&json!({"role": "user", "content": "x", "timestamp": 2})));
    }

    fn msg(role: &str, text: &str, call: Option<&str>) -> Prepared {
        Prepared {
            role: role.into(),
            text: text.into(),
            calls: call.map(|c| vec![c.to_string()]).unwrap_or_default(),
            tool: None,
            is_error: false,
        }
    }

    #[test]
    fn capping_keeps_start_tool_calls_and_end() {
        let mut ms = vec![msg("user", "TASK: make pg_dump work", None)];
        for i in 0..200 {
            ms.push(msg("assistant", &format!("step {i} {}", "blah ".repeat(60)), None));
            if i % 50 == 7 {
                ms.push(msg("assistant", "", Some(&format!("exec(pg_dump --format=custom #{i})"))));
            }
        }
        ms.push(msg("assistant", "FINAL: backups work with -Fc", None));
        let (small, capped) = build(&ms[..3], 0, 100_000);
        assert!(!capped && small.contains("TASK") && small.contains("step 0"));
        let (t, capped) = build(&ms, 0, 8_000);
        assert!(capped);
        assert!(t.chars().count() <= 8_600, "{}", t.chars().count());
        assert!(t.starts_with("[#0 user]\nTASK: make pg_dump work"));
        assert!(t.trim_end().ends_with("FINAL: backups work with -Fc"));
        for i in [7, 57, 107, 157] {
            assert!(t.contains(&format!("pg_dump --format=custom #{i}")), "tool call {i} kept");
        }
        assert!(t.contains("more messages omitted"));
    }
}
