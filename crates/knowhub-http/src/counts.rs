//! Request counting: a middleware on the whole app (the API and the adapters' routes) that tallies
//! each answered request, read back by `/metrics`. Kept apart from the routes so the router that
//! installs it and the console API that reports it both depend on it, not on each other.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;

/// Requests answered, by route template, method and status (templates, never raw paths, so ids
/// cannot blow up the number of series).
#[derive(Default)]
pub struct RequestCounts(Mutex<BTreeMap<(String, String, u16), u64>>);

impl RequestCounts {
    fn add(&self, route: String, method: String, status: u16) {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *m.entry((route, method, status)).or_default() += 1;
    }

    /// A copy of the counts, ordered by route, method and status.
    pub fn snapshot(&self) -> BTreeMap<(String, String, u16), u64> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// Counts every request that passes through the app.
pub async fn count_requests(State(counts): State<Arc<RequestCounts>>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map_or("unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().to_string();
    let res = next.run(req).await;
    counts.add(route, method, res.status().as_u16());
    res
}
