//! Which `Host` headers a hub answers, against DNS rebinding: a web page on another name that
//! resolves to 127.0.0.1 must not reach a loopback hub through a visitor's browser. Pure logic;
//! each transport applies it in its own middleware (the REST API and console) or passes the list
//! on (`/mcp`, whose SDK checks it).

use std::net::SocketAddr;

/// Which `Host` headers a hub accepts.
///
/// `configured` wins when given. Otherwise: loopback names plus the bound address; and on a
/// non-loopback bind with keys required, any host, because clients reach such a hub by names we
/// cannot know, and rebinding gains an attacker nothing without a key. Empty means any host.
pub fn allowed_hosts(bind: SocketAddr, auth: bool, configured: &[String]) -> Vec<String> {
    let configured: Vec<String> = configured.iter().map(|h| h.trim().to_string()).filter(|h| !h.is_empty()).collect();
    if !configured.is_empty() {
        return configured;
    }
    if auth && !bind.ip().is_loopback() {
        return Vec::new();
    }
    let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec();
    let ip = bind.ip().to_string();
    if !hosts.contains(&ip) && !bind.ip().is_unspecified() {
        hosts.push(ip);
    }
    hosts
}

/// The host name of a `Host` header value, without port or IPv6 brackets.
pub fn host_name(value: &str) -> &str {
    let v = value.trim();
    if let Some(rest) = v.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match v.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h,
        _ => v,
    }
}

/// `Err` with the message to answer (403 `forbidden_host`) when `host` is not one of `allowed`;
/// an empty list allows any host, and a request without a host passes.
pub fn check(allowed: &[String], host: Option<&str>) -> Result<(), String> {
    let Some(h) = host else { return Ok(()) };
    if allowed.is_empty() {
        return Ok(());
    }
    let name = host_name(h);
    if allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) {
        return Ok(());
    }
    Err(format!("host {name:?} is not served here (allowed: {}); see --allowed-hosts", allowed.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn hosts_follow_the_bind_address_and_auth() {
        let lo = ["localhost", "127.0.0.1", "::1"];
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), false, &[]), lo);
        assert_eq!(allowed_hosts(addr("127.0.0.2:8000"), false, &[]), ["localhost", "127.0.0.1", "::1", "127.0.0.2"]);
        assert_eq!(allowed_hosts(addr("10.1.2.3:8000"), true, &[]), Vec::<String>::new(), "any host, keys guard it");
        assert_eq!(allowed_hosts(addr("0.0.0.0:8000"), true, &[]), Vec::<String>::new());
        let mine = vec!["kb.example.com".to_string()];
        assert_eq!(allowed_hosts(addr("0.0.0.0:8000"), true, &mine), mine);
        let blank = vec![String::new(), " ".to_string()];
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), false, &blank), lo, "an empty setting is no setting");
        assert_eq!(allowed_hosts(addr("127.0.0.1:8000"), true, &[]), lo, "loopback keeps the check, auth or not");
    }

    #[test]
    fn host_names_lose_port_and_brackets() {
        assert_eq!(host_name("localhost:8000"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:8000"), "::1");
        assert_eq!(host_name("evil.example:80"), "evil.example");
    }

    #[test]
    fn only_listed_hosts_pass() {
        let lo = allowed_hosts(addr("127.0.0.1:8000"), false, &[]);
        assert!(check(&lo, Some("LOCALHOST:8000")).is_ok());
        assert!(check(&lo, None).is_ok());
        assert!(check(&[], Some("anything.example")).is_ok());
        let e = check(&lo, Some("evil.example:80")).unwrap_err();
        assert!(e.starts_with("host \"evil.example\" is not served here"), "{e}");
    }
}
