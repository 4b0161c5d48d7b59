//! The REST API, `/mcp` and the console answer each core error with the same status: the console
//! and MCP keep their own small mapping (they do not depend on the HTTP crate), held equal to the
//! API's here, where all three are at hand.

use knowhub_core::CoreError;

#[test]
fn every_adapter_gives_each_core_error_the_apis_status() {
    let all = [
        CoreError::invalid("f", "bad"),
        CoreError::NotFound("x".into()),
        CoreError::Conflict("x".into()),
        CoreError::Unauthorized("x".into()),
        CoreError::Forbidden("x".into()),
        CoreError::NotConfigured("x".into()),
        CoreError::RateLimited { message: "x".into(), retry_after_secs: 1 },
        CoreError::Unavailable("x".into()),
        CoreError::Internal("x".into()),
    ];
    for e in &all {
        let api = knowhub_http::error::status_of(e);
        assert_eq!(knowhub_console::status_of(e), api, "{} in the console", e.code());
        assert_eq!(knowhub_mcp::http::status_of(e), api, "{} on /mcp", e.code());
    }
    let codes: std::collections::BTreeSet<&str> = all.iter().map(CoreError::code).collect();
    assert_eq!(codes.len(), all.len(), "each error has its own code");
}
