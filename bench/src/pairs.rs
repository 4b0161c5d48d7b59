//! bench/data/dedup_pairs.jsonl: hand-written pairs of experiences, the same one in other words
//! or look-alikes that differ (another command, version, outcome, task or tool). Read by
//! `dedup`, `feedback` and `abstain --experiences`.

use std::path::Path;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct Exp {
    pub task: String,
    pub resource: String,
    pub result: String,
    pub outcome: String,
    #[serde(default)]
    pub resource_version: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Pair {
    /// `same`, `other_command`, `other_version`, `opposite_outcome`, `same_tool_other_task`,
    /// `same_task_other_tool`.
    pub kind: String,
    pub a: Exp,
    pub b: Exp,
}

pub fn load(path: &Path) -> anyhow::Result<Vec<Pair>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?)
}
