//! Stored text is untrusted on a terminal too: escape codes in a record could clear the screen,
//! hide a line from a reviewer or rewrite what `knowhub review` shows. Every stored string the CLI
//! prints goes through [`safe`].

use std::borrow::Cow;
use std::fmt::Write;

/// Control characters (C0, DEL, C1: escape sequences, carriage returns, newlines) and bidi
/// overrides shown as visible `\u{..}`-style escapes; everything else unchanged.
pub fn safe(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_a_terminal_would_act_on() {
        assert_eq!(safe("plain 文本 ok"), "plain 文本 ok");
        assert!(matches!(safe("plain"), Cow::Borrowed(_)));
        assert_eq!(safe("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(safe("line\rFAKE"), "line\\rFAKE");
        assert_eq!(safe("x\nresult:   fine"), "x\\nresult:   fine");
        assert_eq!(safe("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(safe("abc\u{202E}fed"), "abc\\u{202e}fed");
        assert_eq!(safe("\u{7f}"), "\\u{7f}");
    }
}
