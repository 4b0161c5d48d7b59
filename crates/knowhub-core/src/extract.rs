//! Extraction jobs as stores keep them, and how an upload is matched against what a session
//! already sent (so re-uploading a longer history only processes what is new).

use serde::{Deserialize, Serialize};

/// Where an extraction job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Done => "done",
            JobStatus::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "queued" => Some(JobStatus::Queued),
            "running" => Some(JobStatus::Running),
            "done" => Some(JobStatus::Done),
            "failed" => Some(JobStatus::Failed),
            _ => None,
        }
    }
}

/// An upload, already redacted and reduced to what the LLM may see.
#[derive(Debug, Clone, PartialEq)]
pub struct NewExtraction {
    pub job_id: String,
    pub session_key: String,
    pub agent_id: String,
    pub submitted_by: String,
    /// Who uploaded it (see `Vote::voter`): the confirmer of what the job finds.
    pub caller: String,
    pub require_approval: bool,
    /// The scope what the job finds is stored in.
    pub scope: String,
    /// The API key that uploaded it (empty without keys): the provenance of what it finds.
    pub key: String,
    /// One fingerprint per uploaded message, in order (see [`overlap`]).
    pub hashes: Vec<String>,
    /// The prepared messages, parallel to `hashes`, each serialised as JSON.
    pub messages: Vec<String>,
}

/// What the store made of an upload.
#[derive(Debug, Clone, PartialEq)]
pub struct Enqueued {
    /// Leading messages of the upload the session had already sent.
    pub skipped: usize,
    /// The job for the new messages; `None` when nothing was new.
    pub job: Option<ExtractJob>,
}

/// A stored extraction job.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractJob {
    pub id: String,
    pub session_key: String,
    pub agent_id: String,
    pub submitted_by: String,
    pub caller: String,
    pub require_approval: bool,
    pub scope: String,
    pub key: String,
    pub status: JobStatus,
    /// Index, within the session, of the job's first message.
    pub first_index: u64,
    pub message_count: u32,
    /// JSON array of the job's messages; emptied once the job ends (the transcript is not kept).
    pub messages: String,
    pub attempts: u32,
    pub error: Option<String>,
    /// JSON of the finished job's result.
    pub result: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// How a job ended (or why it goes back to the queue).
#[derive(Debug, Clone, PartialEq)]
pub enum JobFinish {
    Done {
        result: String,
    },
    /// A transient failure: run again after this many seconds. `result` is JSON of the LLM
    /// tokens spent so far, which the next attempt adds to.
    Retry {
        error: String,
        after_secs: u64,
        result: Option<String>,
    },
    /// For good. `result` is JSON of what the job got before it failed (the LLM tokens its
    /// answers used), so the job's view and the operator's bill agree.
    Failed {
        error: String,
        result: Option<String>,
    },
}

/// The most messages one upload may hold. It is also how many message fingerprints a store keeps
/// per session (the newest): enough to recognise any upload that repeats what came before, while a
/// session that runs for months keeps a bounded record.
pub const MAX_MESSAGES: usize = 5_000;

/// How many leading messages of `upload` the session has already sent.
///
/// Clients either re-send the whole history (then `stored` is a prefix of `upload`) or only what
/// is new, possibly repeating a few of the last messages (then a suffix of `stored` is a prefix of
/// `upload`). Both are handled; an upload unrelated to the stored sequence is all new.
pub fn overlap(stored: &[String], upload: &[String]) -> usize {
    if stored.is_empty() || upload.is_empty() {
        return 0;
    }
    if upload.len() >= stored.len() && upload[..stored.len()] == *stored {
        return stored.len();
    }
    if upload.len() < stored.len() && stored[..upload.len()] == *upload {
        return upload.len(); // an older, shorter copy of the history
    }
    let longest = stored.len().min(upload.len());
    (1..=longest).rev().find(|&k| stored[stored.len() - k..] == upload[..k]).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.chars().map(|c| c.to_string()).collect()
    }

    #[test]
    fn overlap_cases() {
        assert_eq!(overlap(&v(""), &v("abc")), 0, "first upload");
        assert_eq!(overlap(&v("abc"), &v("abcde")), 3, "whole history again, longer");
        assert_eq!(overlap(&v("abc"), &v("abc")), 3, "same upload twice");
        assert_eq!(overlap(&v("abc"), &v("de")), 0, "only the new messages");
        assert_eq!(overlap(&v("abc"), &v("cde")), 1, "new messages with one repeated");
        assert_eq!(overlap(&v("abcab"), &v("abx")), 2, "longest suffix wins");
        assert_eq!(overlap(&v("abc"), &v("xyz")), 0, "unrelated");
        assert_eq!(overlap(&v("abc"), &v("ab")), 2, "an older, shorter copy of the history");
    }
}
