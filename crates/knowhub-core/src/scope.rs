//! Scopes: which part of an organisation a record belongs to, and which parts a key may read and
//! write. A record is in exactly one scope: `org` (everyone's), `team/<name>`, `project/<name>` or
//! `private/<owner>` (one key's own). Keys carry the scopes they read; search, pages, exports and
//! evidence never reach past them.

use crate::error::{CoreError, Result};

/// The scope every record is in unless it says otherwise, and the one scope of a hub without keys.
pub const ORG: &str = "org";

/// The kinds of scope that take a name.
const KINDS: [&str; 3] = ["team", "project", "private"];

/// Longest name after the kind, in characters (a private scope's owner is a key name).
pub const MAX_SCOPE_NAME: usize = 100;

/// Checks and normalises a scope name (`org`, `team/x`, `project/x`, `private/x`), blaming `field`.
/// Names are case-sensitive; surrounding whitespace is dropped.
pub fn parse(field: &str, s: &str) -> Result<String> {
    let s = s.trim();
    if s == ORG {
        return Ok(ORG.to_string());
    }
    let bad = || {
        CoreError::invalid(
            field,
            format!(
                "{s:?} is not a scope: expected org, team/<name>, project/<name> or private/<owner> \
                 (a name of 1 to {MAX_SCOPE_NAME} characters without '/', ',', '*', spaces or control characters)"
            ),
        )
    };
    let (kind, name) = s.split_once('/').ok_or_else(bad)?;
    let name_ok = !name.is_empty()
        && name.chars().count() <= MAX_SCOPE_NAME
        && !name.chars().any(|c| c == '/' || c == ',' || c == '*' || c.is_whitespace() || c.is_control());
    if !KINDS.contains(&kind) || !name_ok {
        return Err(bad());
    }
    Ok(format!("{kind}/{name}"))
}

/// A key's own scope, which it always reads and writes.
pub fn private_of(key_name: &str) -> String {
    format!("private/{key_name}")
}

/// The scopes a key reads: every one, or a list (its own private scope comes on top).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadScopes {
    /// Every scope, present and future (stored and shown as `*`).
    All,
    Only(Vec<String>),
}

impl ReadScopes {
    /// The stored and displayed form: `["*"]`, or the scopes.
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            ReadScopes::All => vec!["*".into()],
            ReadScopes::Only(v) => v.clone(),
        }
    }

    /// The stored and displayed form joined by commas (`*` or `org,team/a`).
    pub fn to_list(&self) -> String {
        self.to_vec().join(",")
    }

    /// Reads the stored form back (`to_vec`), trusting it was checked when written.
    pub fn from_stored(v: Vec<String>) -> Self {
        if v.iter().any(|s| s == "*") {
            ReadScopes::All
        } else {
            ReadScopes::Only(v)
        }
    }

    /// Parses `*` or a comma-separated list of scopes (each checked), blaming `field`.
    pub fn parse_list(field: &str, s: &str) -> Result<Self> {
        let s = s.trim();
        if s == "*" {
            return Ok(ReadScopes::All);
        }
        let mut out: Vec<String> = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "*" {
                return Ok(ReadScopes::All);
            }
            let scope = parse(field, part)?;
            if !out.contains(&scope) {
                out.push(scope);
            }
        }
        Ok(ReadScopes::Only(out))
    }

    /// What a key of `role` reads when its creator names nothing: agents the org scope,
    /// reviewers and admins everything.
    pub fn default_for(role: crate::Role) -> Self {
        if role.allows(crate::Role::Reviewer) {
            ReadScopes::All
        } else {
            ReadScopes::Only(vec![ORG.to_string()])
        }
    }

    pub fn contains(&self, scope: &str) -> bool {
        match self {
            ReadScopes::All => true,
            ReadScopes::Only(v) => v.iter().any(|s| s == scope),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_names() {
        assert_eq!(parse("scope", " org ").unwrap(), "org");
        assert_eq!(parse("scope", "team/backend").unwrap(), "team/backend");
        assert_eq!(parse("scope", "private/ci-bot").unwrap(), "private/ci-bot");
        for bad in ["", "org/x", "team", "team/", "team/a/b", "group/x", "team/a b", "team/*", "team/a,b", "Org"] {
            let e = parse("scope", bad).unwrap_err();
            assert_eq!(e.field(), Some("scope"), "{bad}");
        }
    }

    #[test]
    fn read_lists() {
        assert_eq!(ReadScopes::parse_list("read", "*").unwrap(), ReadScopes::All);
        assert_eq!(ReadScopes::parse_list("read", "org, team/a,org").unwrap().to_list(), "org,team/a");
        assert_eq!(ReadScopes::parse_list("read", "org,*").unwrap(), ReadScopes::All);
        assert_eq!(ReadScopes::parse_list("read", "").unwrap(), ReadScopes::Only(vec![]));
        assert!(ReadScopes::parse_list("read", "org,team/").is_err());
        assert!(ReadScopes::default_for(crate::Role::Agent).contains("org"));
        assert!(!ReadScopes::default_for(crate::Role::Agent).contains("team/a"));
        assert!(ReadScopes::default_for(crate::Role::Reviewer).contains("team/a"));
    }
}
