//! The real `knowhub` binary as a test server, shared by the binary-level test files.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_knowhub");

/// `knowhub [extra] serve --bind 127.0.0.1:0 --embedder none --data-dir DIR`, killed on drop.
pub struct Server {
    pub child: Child,
    pub url: String,
}

impl Server {
    #[allow(dead_code)] // not every test file uses every constructor
    pub fn start(dir: &Path) -> Server {
        Self::start_with(dir, &[], &[])
    }

    /// With extra arguments (before `serve`'s own, e.g. `--config FILE`) and environment.
    pub fn start_with(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(BIN)
            .args(extra)
            .args(["serve", "--bind", "127.0.0.1:0", "--embedder", "none"])
            .arg("--data-dir")
            .arg(dir)
            .env_remove("KNOWHUB_CONFIG")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn knowhub");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("knowhub listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, url }
    }

    /// SIGKILL: no graceful shutdown, no flush beyond what was already acknowledged.
    #[allow(dead_code)]
    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
