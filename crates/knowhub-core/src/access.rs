//! API keys and roles. Only a SHA-256 of each key is stored; the key itself is shown once.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{CoreError, Result};
use crate::scope::{self, ReadScopes};

/// What a key may do. Each role includes everything of the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// search, submit, content, extract
    Agent,
    /// + pending, approve, reject
    Reviewer,
    /// + key management, delete
    Admin,
}

impl Role {
    pub fn parse(s: &str) -> Option<Role> {
        match s.trim().to_ascii_lowercase().as_str() {
            "agent" => Some(Role::Agent),
            "reviewer" => Some(Role::Reviewer),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Agent => "agent",
            Role::Reviewer => "reviewer",
            Role::Admin => "admin",
        }
    }

    /// Whether this role may do what `needed` allows.
    pub fn allows(self, needed: Role) -> bool {
        self >= needed
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who is calling, as every transport (HTTP, MCP, CLI) resolves it: the key's name and role, or the
/// local operator when auth is off. The service checks roles against this, never a transport type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub name: String,
    pub role: Role,
    /// Whether `name` is a verified key name (auth on) rather than the local operator.
    pub authenticated: bool,
    /// The network peer (an IP address) as the transport saw it, when it has one: what tells
    /// callers apart for rate limits when no key does.
    pub origin: Option<String>,
    /// The scopes this caller reads (its own private scope comes on top, see `can_read`).
    pub read: ReadScopes,
    /// Where its records go when a write names no scope.
    pub write_scope: String,
}

impl Caller {
    /// The operator of a hub without auth.
    pub fn local() -> Self {
        Caller {
            name: "local".into(),
            role: Role::Admin,
            authenticated: false,
            origin: None,
            read: ReadScopes::All,
            write_scope: scope::ORG.into(),
        }
    }

    /// The `agent_id` this caller's write is stored under. With auth on it is namespaced under
    /// the key, `key/agent` (or the key's name alone when none is given), so a key cannot write
    /// as another key's agents and an `agent_id` filter can trust what it matches. Without auth
    /// it is what the client gave.
    pub fn bound_agent_id(&self, given: &str) -> String {
        let given = given.trim();
        if !self.authenticated {
            return given.to_string();
        }
        let own = format!("{}/", self.name);
        if given.is_empty() || given == self.name {
            self.name.clone()
        } else if given.starts_with(&own) {
            given.to_string()
        } else {
            format!("{own}{given}")
        }
    }

    /// An `agent_id` search filter as this caller means it. With auth on, a bare name is one of
    /// the caller's own agents (`me/name`); a namespaced one (`key/name`) is taken as it is, and
    /// `key/` means the key's own records without an agent id. Without auth, as given.
    pub fn agent_filter(&self, given: &str) -> String {
        let given = given.trim();
        if !self.authenticated {
            given.to_string()
        } else if let Some(key) = given.strip_suffix('/') {
            key.to_string()
        } else if given.contains('/') {
            given.to_string()
        } else {
            format!("{}/{given}", self.name)
        }
    }

    /// A caller identified by an API key, reading and writing what a key of its role does by
    /// default (`ReadScopes::default_for`, writing to `org`).
    pub fn key(name: impl Into<String>, role: Role) -> Self {
        Caller {
            name: name.into(),
            role,
            authenticated: true,
            origin: None,
            read: ReadScopes::default_for(role),
            write_scope: scope::ORG.into(),
        }
    }

    /// The caller a stored key stands for.
    pub fn of_key(k: &ApiKey) -> Self {
        Caller {
            read: ReadScopes::from_stored(k.read_scopes.clone()),
            write_scope: k.write_scope.clone(),
            ..Caller::key(k.name.clone(), k.role)
        }
    }

    /// The same caller with other scopes.
    pub fn with_scopes(mut self, read: ReadScopes, write_scope: impl Into<String>) -> Self {
        self.read = read;
        self.write_scope = write_scope.into();
        self
    }

    /// Whether this caller may read records of `scope`: one its key lists, or its own private one.
    pub fn can_read(&self, scope: &str) -> bool {
        self.read.contains(scope) || (self.authenticated && scope == scope::private_of(&self.name))
    }

    /// Whether this caller may put records in `scope`: its write scope and its private one, and
    /// for reviewers and admins any scope they read. Without keys there is one scope, `org`.
    pub fn can_write(&self, scope: &str) -> bool {
        if !self.authenticated {
            return scope == scope::ORG;
        }
        scope == self.write_scope
            || scope == scope::private_of(&self.name)
            || (self.role.allows(Role::Reviewer) && self.can_read(scope))
    }

    /// The scope a write goes to: `given` when the caller may write there (`Forbidden`, naming the
    /// field, when not), else the caller's write scope.
    pub fn write_target(&self, field: &str, given: Option<&str>) -> Result<String> {
        let Some(given) = given.map(str::trim).filter(|g| !g.is_empty()) else {
            return Ok(self.write_scope.clone());
        };
        let s = scope::parse(field, given)?;
        if !self.authenticated && s != scope::ORG {
            return Err(CoreError::invalid(field, "this hub has no keys, so every record is in the org scope"));
        }
        if !self.can_write(&s) {
            return Err(CoreError::Forbidden(format!("{field}: key {:?} may not write to scope {s:?}", self.name)));
        }
        Ok(s)
    }

    /// The scope filter of a read: `given` when the caller may read it (`Forbidden`, naming the
    /// field, when not: never a silent empty answer), else every scope it reads (`None`: all).
    pub fn read_filter(&self, field: &str, given: Option<&str>) -> Result<Option<Vec<String>>> {
        if let Some(given) = given.map(str::trim).filter(|g| !g.is_empty()) {
            let s = scope::parse(field, given)?;
            if !self.can_read(&s) {
                return Err(CoreError::Forbidden(format!("{field}: key {:?} may not read scope {s:?}", self.name)));
            }
            return Ok(Some(vec![s]));
        }
        Ok(self.readable())
    }

    /// Every scope this caller reads, as a store filter (`None`: all of them).
    pub fn readable(&self) -> Option<Vec<String>> {
        match &self.read {
            ReadScopes::All => None,
            ReadScopes::Only(v) => {
                let mut v = v.clone();
                if self.authenticated {
                    let own = scope::private_of(&self.name);
                    if !v.contains(&own) {
                        v.push(own);
                    }
                }
                Some(v)
            }
        }
    }

    /// The same caller, seen from network peer `origin`.
    pub fn with_origin(mut self, origin: Option<String>) -> Self {
        self.origin = origin;
        self
    }

    /// Whether this caller reads everything (pending and rejected records, every extraction
    /// job): reviewers and admins, and the operator of a hub without keys. Agent keys read only
    /// approved records and their own jobs.
    pub fn reads_everything(&self) -> bool {
        !self.authenticated || self.role.allows(Role::Reviewer)
    }

    /// Who a per-caller budget (rate limits) belongs to: the key when there is one, else the peer
    /// address, else the one local operator.
    pub fn budget_id(&self) -> String {
        match (&self.origin, self.authenticated) {
            (_, true) => format!("key:{}", self.name),
            (Some(o), false) => format!("addr:{o}"),
            (None, false) => "local".to_string(),
        }
    }

    /// `Forbidden` unless this caller's role allows `need`.
    pub fn require(&self, need: Role) -> Result<()> {
        if self.role.allows(need) {
            Ok(())
        } else {
            Err(CoreError::Forbidden(format!(
                "this operation needs the {need} role; key {:?} has the {} role",
                self.name, self.role
            )))
        }
    }
}

/// A stored key, without its secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiKey {
    pub id: String,
    pub name: String,
    pub role: Role,
    /// First characters of the key, so a person can tell keys apart in `keys list`.
    pub prefix: String,
    /// The scopes it reads (`["*"]`: every one); its own `private/<name>` comes on top.
    pub read_scopes: Vec<String>,
    /// Where its records go when a write names no scope.
    pub write_scope: String,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

/// A key about to be stored: its hash, never the key.
#[derive(Debug, Clone, PartialEq)]
pub struct NewApiKey {
    pub id: String,
    pub name: String,
    pub role: Role,
    pub prefix: String,
    pub hash: String,
    pub read_scopes: Vec<String>,
    pub write_scope: String,
}

const KEY_PREFIX: &str = "kh_";

/// Mints a new key (256 random bits) and what to store about it.
/// Longest key name, in characters.
pub const MAX_KEY_NAME: usize = 100;

pub fn generate_key(name: &str, role: Role) -> Result<(String, NewApiKey)> {
    generate_scoped_key(name, role, ReadScopes::default_for(role), scope::ORG)
}

/// Mints a key that reads `read` and writes to `write` by default. A key reads what it writes:
/// `write` joins `read` when missing.
pub fn generate_scoped_key(name: &str, role: Role, read: ReadScopes, write: &str) -> Result<(String, NewApiKey)> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_KEY_NAME {
        return Err(CoreError::invalid("name", format!("must be 1 to {MAX_KEY_NAME} characters")));
    }
    // Names show up in terminals, logs and session keys.
    if name.chars().any(char::is_control) {
        return Err(CoreError::invalid("name", "must not contain control characters"));
    }
    // `/` separates a key from its agents in a bound `agent_id` (`Caller::bound_agent_id`).
    if name.contains('/') {
        return Err(CoreError::invalid("name", "must not contain '/'"));
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| CoreError::Internal(format!("random source: {e}")))?;
    let key = format!("{KEY_PREFIX}{}", hex::encode(bytes));
    let write = scope::parse("write", write)?;
    let own = scope::private_of(name);
    if write.starts_with("private/") && write != own {
        return Err(CoreError::invalid("write", format!("a key's private scope is {own:?}, not {write:?}")));
    }
    let read = match read {
        ReadScopes::Only(mut v) if write != own && !v.contains(&write) => {
            v.push(write.clone());
            ReadScopes::Only(v)
        }
        r => r,
    };
    let stored = NewApiKey {
        id: crate::model::new_id(),
        name: name.to_string(),
        role,
        prefix: key[..KEY_PREFIX.len() + 6].to_string(),
        hash: hash_key(&key),
        read_scopes: read.to_vec(),
        write_scope: write,
    };
    Ok((key, stored))
}

/// The stored form of a key. A fast hash is right here: keys are 256-bit random, not passwords.
pub fn hash_key(key: &str) -> String {
    hex::encode(Sha256::digest(key.trim().as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_ordered() {
        assert!(Role::Admin.allows(Role::Reviewer));
        assert!(Role::Reviewer.allows(Role::Agent));
        assert!(!Role::Agent.allows(Role::Reviewer));
        assert!(!Role::Reviewer.allows(Role::Admin));
        assert_eq!(Role::parse(" Reviewer "), Some(Role::Reviewer));
        assert_eq!(Role::parse("root"), None);
    }

    #[test]
    fn keys_are_random_and_only_hashed() {
        let (k1, s1) = generate_key("alice", Role::Reviewer).unwrap();
        let (k2, s2) = generate_key("alice", Role::Reviewer).unwrap();
        assert_ne!(k1, k2);
        assert!(k1.starts_with("kh_") && k1.len() == 67, "{k1}");
        assert_eq!(s1.hash, hash_key(&k1));
        assert_ne!(s1.hash, s2.hash);
        assert!(!s1.hash.contains(&k1[3..]));
        assert!(k1.starts_with(&s1.prefix));
        assert!(generate_key("  ", Role::Agent).is_err());
    }

    #[test]
    fn agent_ids_are_bound_to_keys() {
        let alice = Caller::key("alice", Role::Agent);
        assert_eq!(alice.bound_agent_id("bot"), "alice/bot");
        assert_eq!(alice.bound_agent_id(" alice/bot "), "alice/bot", "already hers");
        assert_eq!(alice.bound_agent_id("mallory/bot"), "alice/mallory/bot", "cannot pose as another key");
        assert_eq!(alice.bound_agent_id(""), "alice");
        assert_eq!(alice.bound_agent_id("alice"), "alice");
        assert_eq!(Caller::local().bound_agent_id(" bot "), "bot", "no auth: as given");
        assert_eq!(alice.agent_filter("bot"), "alice/bot");
        assert_eq!(alice.agent_filter("bob/bot"), "bob/bot");
        assert_eq!(alice.agent_filter("bob/"), "bob");
        assert_eq!(Caller::local().agent_filter("bot"), "bot");
        assert!(generate_key("team/a", Role::Agent).is_err());
    }
}
