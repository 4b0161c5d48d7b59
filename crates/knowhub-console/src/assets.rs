//! The console's stylesheet and script, compiled into the binary: no CDN, no Node at run time,
//! works offline.

use axum::http::header;
use axum::response::{IntoResponse, Response};

pub const CSS: &str = include_str!("../assets/console.css");
pub const JS: &str = include_str!("../assets/console.js");
pub const CSS_PATH: &str = "/ui/assets/console.css";
pub const JS_PATH: &str = "/ui/assets/console.js";

fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "public, max-age=3600")], body).into_response()
}

pub async fn css() -> Response {
    asset(CSS, "text/css; charset=utf-8")
}

pub async fn js() -> Response {
    asset(JS, "text/javascript; charset=utf-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn script_and_style_stay_small() {
        // The console's budget is 100 KB for all JS + CSS; keep far below it.
        assert!(super::CSS.len() + super::JS.len() < 100 * 1024);
    }
}
