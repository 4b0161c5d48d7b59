//! Writes `conformance_tests!` with one test per check, so a check runs on every backend as soon
//! as it exists: a check is a `pub async fn` in a file of `src/checks/`, and nothing else lists
//! it. Written here rather than kept by hand because a hand-kept list let a new check go unrun.

use std::fmt::Write as _;
use std::path::Path;

const DIR: &str = "src/checks";

fn main() {
    println!("cargo:rerun-if-changed={DIR}");
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("read {DIR}: {e}"))
        .map(|e| e.expect("read_dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    // (module path under `checks`, check name)
    let mut checks: Vec<(String, String)> = Vec::new();
    for f in &files {
        let stem = f.file_stem().and_then(|s| s.to_str()).expect("file name").to_string();
        let module = if stem == "mod" { String::new() } else { format!("{stem}::") };
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("read {}: {e}", f.display()));
        for (i, line) in src.lines().enumerate() {
            let t = line.trim_start();
            if !(t.starts_with("pub") && t.contains("async fn")) {
                continue;
            }
            // Anything else that looks like a public async fn would be skipped silently: refuse it.
            let name: String = t
                .strip_prefix("pub async fn ")
                .map(|r| r.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect())
                .unwrap_or_default();
            if name.is_empty() {
                panic!(
                    "{}:{}: checks are written `pub async fn name(s: Arc<dyn Store>)` on one line, helpers \
                     without `pub`; found {t:?}",
                    f.display(),
                    i + 1
                );
            }
            if let Some((m, _)) = checks.iter().find(|(_, n)| *n == name) {
                panic!("{}:{}: check {name} also in checks::{m}; test names must be unique", f.display(), i + 1);
            }
            checks.push((module.clone(), name));
        }
    }
    assert!(!checks.is_empty(), "no checks found in {DIR}");

    let mut out = String::new();
    out.push_str("/// Every check, as `module::name` under [`checks`](crate::checks).\n");
    out.push_str("pub const CHECKS: &[&str] = &[\n");
    for (m, n) in &checks {
        writeln!(out, "    \"{m}{n}\",").unwrap();
    }
    out.push_str("];\n\n");
    out.push_str(
        "/// Generates one `#[tokio::test]` per check in [`checks`](crate::checks), each on a fresh store\n\
         /// from `$make`.\n#[macro_export]\nmacro_rules! conformance_tests {\n    ($make:path) => {\n",
    );
    for (m, n) in &checks {
        writeln!(
            out,
            "        #[tokio::test(flavor = \"multi_thread\", worker_threads = 4)]\n        async fn {n}() {{\n            \
             if let Some(h) = $make().await {{\n                $crate::checks::{m}{n}(h.store.clone()).await;\n                \
             drop(h);\n            }}\n        }}"
        )
        .unwrap();
    }
    out.push_str("    };\n}\n");
    let dst = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("conformance.rs");
    std::fs::write(&dst, out).unwrap_or_else(|e| panic!("write {}: {e}", dst.display()));
}
