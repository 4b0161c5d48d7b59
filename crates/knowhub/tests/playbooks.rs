//! `knowhub playbook` and `knowhub export --format ...` against the real binary and a running hub:
//! a re-export leaves hand-written text byte-identical, `--check` tells current from stale from
//! edited by hand, and paths outside the working directory are refused.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

mod common;

use common::{Server, BIN};

fn run(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).current_dir(cwd).env_remove("KNOWHUB_CONFIG").output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

async fn submit(url: &str, body: Value) -> String {
    let r = reqwest::Client::new().post(format!("{url}/api/submit")).json(&body).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 201);
    r.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn playbook_and_host_exports_round_trip() {
    let data = tempfile::tempdir().unwrap();
    let s = Server::start(data.path());
    let failed = submit(&s.url, json!({"task": "Prepared statements through the pooler", "resource": "pgbouncer",
        "result": "failed: prepared statement does not exist; fixed with max_prepared_statements 100", "score": 2, "outcome": "failure"})).await;
    let works = submit(
        &s.url,
        json!({"task": "Pool 2000 short clients", "resource": "pgbouncer",
        "result": "pool_mode transaction with default_pool_size 20", "score": 5}),
    )
    .await;
    submit(
        &s.url,
        json!({"task": "Dump a big database", "resource": "pg_dump", "result": "pg_dump -Fc -j 8", "score": 4}),
    )
    .await;

    let repo = tempfile::tempdir().unwrap();
    let cwd = repo.path();
    let (code, out, err) = run(&["playbook", "pgbouncer", "--url", &s.url], cwd);
    assert_eq!(code, 0, "{err}");
    assert!(out.find(&failed).unwrap() < out.find(&works).unwrap(), "failures first: {out}");
    assert!(out.starts_with("<knowhub-playbook resource=\"pgbouncer\">"), "{out}");
    let (code, _, err) = run(&["playbook", "no-such-tool", "--url", &s.url], cwd);
    assert_ne!(code, 0);
    assert!(err.contains("404"), "{err}");

    // Hand-written text around the block survives re-exports byte for byte.
    let head = "# Our repo\r\n\nHand-written rules.\t\n\n";
    let tail = "\n\n## More hand-written notes\nunchanged\n";
    std::fs::write(cwd.join("CLAUDE.md"), head).unwrap();
    let export = |extra: &[&str]| {
        let mut args = vec!["export", "--format", "claude-md", "--url", s.url.as_str()];
        args.extend_from_slice(extra);
        run(&args, cwd)
    };
    let (code, _, err) = export(&[]);
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(cwd.join("CLAUDE.md")).unwrap();
    assert!(first.starts_with(head) && first.contains(&failed) && first.contains("### pg_dump"), "{first}");
    std::fs::write(cwd.join("CLAUDE.md"), format!("{first}{tail}")).unwrap();
    assert_eq!(export(&["--check"]).0, 0, "current");

    let newer = submit(
        &s.url,
        json!({"task": "Cap server connections", "resource": "pgbouncer",
        "result": "max_db_connections 50", "score": 4}),
    )
    .await;
    let (code, _, err) = export(&["--check"]);
    assert_eq!(code, 1);
    assert!(err.contains("stale"), "{err}");
    assert_eq!(export(&[]).0, 0);
    let second = std::fs::read_to_string(cwd.join("CLAUDE.md")).unwrap();
    assert!(second.starts_with(head) && second.ends_with(tail) && second.contains(&newer), "{second}");
    let begin = second.find("<!-- knowhub:begin").unwrap();
    let end = second.find("<!-- knowhub:end -->").unwrap() + "<!-- knowhub:end -->".len();
    assert_eq!(format!("{}{}", &second[..begin], &second[end..]), format!("{head}\n{tail}"), "only the block changed");

    // A block edited by hand: --check says so, a plain export refuses, --force replaces it.
    std::fs::write(cwd.join("CLAUDE.md"), second.replace("### pg_dump", "### pg_dump (our note)")).unwrap();
    let (code, _, err) = export(&["--check"]);
    assert_eq!(code, 1);
    assert!(err.contains("edited by hand"), "{err}");
    let (code, _, err) = export(&[]);
    assert_ne!(code, 0);
    assert!(err.contains("edited by hand"), "{err}");
    assert!(std::fs::read_to_string(cwd.join("CLAUDE.md")).unwrap().contains("(our note)"), "not overwritten");
    assert_eq!(export(&["--force"]).0, 0);
    assert_eq!(std::fs::read_to_string(cwd.join("CLAUDE.md")).unwrap(), second);

    // Paths outside the working directory need --force.
    let (code, _, err) = export(&["--out", "../outside.md"]);
    assert_ne!(code, 0);
    assert!(err.contains("outside the working directory"), "{err}");

    // A skill is a folder with SKILL.md; a cursor rule an .mdc file; --resource narrows.
    let (code, _, err) = run(&["export", "--format", "skill", "--resource", "pgbouncer", "--url", &s.url], cwd);
    assert_eq!(code, 0, "{err}");
    let skill = std::fs::read_to_string(cwd.join(".claude/skills/knowhub-playbooks/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: knowhub-playbooks\ndescription: "), "{skill}");
    assert!(skill.contains("### pgbouncer") && !skill.contains("### pg_dump"), "{skill}");
    let (code, _, err) = run(&["export", "--format", "cursor-rules", "--url", &s.url], cwd);
    assert_eq!(code, 0, "{err}");
    let rule = std::fs::read_to_string(cwd.join(".cursor/rules/knowhub-playbooks.mdc")).unwrap();
    assert!(rule.starts_with("---\ndescription:") && rule.contains(&failed), "{rule}");
    let (code, _, err) = run(&["export", "--format", "word-doc", "--url", &s.url], cwd);
    assert_ne!(code, 0);
    assert!(err.contains("--format"), "{err}");
}
