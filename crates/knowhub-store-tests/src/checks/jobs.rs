//! Extraction sessions and the job queue.

use std::collections::HashSet;
use std::sync::Arc;

use knowhub_core::extract::{JobFinish, JobStatus, NewExtraction};
use knowhub_core::Store;

fn upload(session: &str, msgs: &[&str]) -> NewExtraction {
    NewExtraction {
        job_id: knowhub_core::new_id(),
        session_key: session.into(),
        agent_id: "agent".into(),
        submitted_by: "me".into(),
        caller: "key-bot".into(),
        require_approval: true,
        scope: "team/jobs".into(),
        key: "key-bot".into(),
        hashes: msgs.iter().map(|m| format!("h-{m}")).collect(),
        messages: msgs.iter().map(|m| serde_json::json!({"role": "user", "content": m}).to_string()).collect(),
    }
}

fn contents(job: &knowhub_core::ExtractJob) -> Vec<String> {
    let v: Vec<serde_json::Value> = serde_json::from_str(&job.messages).unwrap();
    v.iter().map(|m| m["content"].as_str().unwrap().to_string()).collect()
}

pub async fn extraction_overlap(s: Arc<dyn Store>) {
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c"])).await.unwrap();
    assert_eq!(e.skipped, 0);
    let j = e.job.unwrap();
    assert_eq!((j.first_index, j.message_count, j.status, j.attempts), (0, 3, JobStatus::Queued, 0));
    assert_eq!(contents(&j), vec!["a", "b", "c"]);
    assert!(j.require_approval);
    assert_eq!(j.caller, "key-bot");
    assert_eq!(j.scope, "team/jobs", "the scope its findings go to");
    assert_eq!(s.extraction(&j.id).await.unwrap(), Some(j.clone()));
    // The whole history again, longer: only the new messages.
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c", "d", "e"])).await.unwrap();
    assert_eq!(e.skipped, 3);
    let j2 = e.job.unwrap();
    assert_eq!((j2.first_index, j2.message_count), (3, 2));
    assert_eq!(contents(&j2), vec!["d", "e"]);
    // The same upload again: nothing new, no job.
    let e = s.enqueue_extraction(upload("s", &["a", "b", "c", "d", "e"])).await.unwrap();
    assert_eq!((e.skipped, e.job.is_none()), (5, true));
    // Only the new messages, repeating the last one.
    let e = s.enqueue_extraction(upload("s", &["e", "f"])).await.unwrap();
    assert_eq!(e.skipped, 1);
    let j3 = e.job.unwrap();
    assert_eq!((j3.first_index, contents(&j3)), (5, vec!["f".to_string()]));
    // Another session is independent.
    let e = s.enqueue_extraction(upload("other", &["a", "b"])).await.unwrap();
    assert_eq!((e.skipped, e.job.unwrap().first_index), (0, 0));
    // Concurrent identical uploads of one session: exactly one job.
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move { s.enqueue_extraction(upload("race", &["x", "y", "z"])).await.unwrap() }));
    }
    let mut jobs = 0;
    for t in tasks {
        jobs += t.await.unwrap().job.is_some() as usize;
    }
    assert_eq!(jobs, 1);
    assert!(s.extraction("no-such-job").await.unwrap().is_none());
}

/// A session keeps only its newest `MAX_MESSAGES` fingerprints; numbering and overlap go on.
pub async fn extraction_session_window(s: Arc<dyn Store>) {
    use knowhub_core::extract::MAX_MESSAGES;
    let names: Vec<String> = (0..MAX_MESSAGES + 30).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let j = s.enqueue_extraction(upload("long", &refs[..MAX_MESSAGES])).await.unwrap().job.unwrap();
    assert_eq!((j.first_index, j.message_count as usize), (0, MAX_MESSAGES));
    // 30 more, repeating the last 10 sent: numbering goes on past the window.
    let e = s.enqueue_extraction(upload("long", &refs[MAX_MESSAGES - 10..])).await.unwrap();
    let j = e.job.unwrap();
    assert_eq!((e.skipped, j.first_index as usize, j.message_count), (10, MAX_MESSAGES, 30));
    // The newest messages are still recognised ...
    let e = s.enqueue_extraction(upload("long", &refs[MAX_MESSAGES + 20..])).await.unwrap();
    assert_eq!((e.skipped, e.job.is_none()), (10, true));
    // ... and the oldest 30 are forgotten: sent alone again, they count as new, numbered after.
    let e = s.enqueue_extraction(upload("long", &refs[..1])).await.unwrap();
    assert_eq!((e.skipped, e.job.unwrap().first_index as usize), (0, MAX_MESSAGES + 30));
}

pub async fn extraction_claim_is_exclusive(s: Arc<dyn Store>) {
    let mut queued = HashSet::new();
    for i in 0..12 {
        let e = s.enqueue_extraction(upload(&format!("s{i}"), &["m"])).await.unwrap();
        queued.insert(e.job.unwrap().id);
    }
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(j) = s.claim_extraction(300).await.unwrap() {
                assert_eq!((j.status, j.attempts), (JobStatus::Running, 1));
                got.push(j.id);
            }
            got
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    assert_eq!(all.len(), 12, "every job handed out exactly once: {all:?}");
    assert_eq!(all.iter().cloned().collect::<HashSet<_>>(), queued);
    assert!(s.claim_extraction(300).await.unwrap().is_none(), "running jobs with a live lease are not handed out");
}

pub async fn extraction_retry_and_finish(s: Arc<dyn Store>) {
    let first = s.enqueue_extraction(upload("s", &["a"])).await.unwrap().job.unwrap();
    let second = s.enqueue_extraction(upload("t", &["b"])).await.unwrap().job.unwrap();
    let j = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!(j.id, first.id, "oldest first");
    // Retry later: not runnable before its time.
    s.finish_extraction(&j.id, JobFinish::Retry { error: "rate limited".into(), after_secs: 3600, result: None })
        .await
        .unwrap();
    let r = s.extraction(&j.id).await.unwrap().unwrap();
    assert_eq!((r.status, r.error.as_deref(), r.attempts), (JobStatus::Queued, Some("rate limited"), 1));
    assert_eq!(contents(&r), vec!["a"], "messages kept for the retry");
    let next = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!(next.id, second.id, "the delayed job is skipped");
    assert!(s.claim_extraction(300).await.unwrap().is_none());
    // Retry with no delay: claimable again, attempts counted.
    let spent = "{\"input_tokens\":120,\"output_tokens\":20}";
    let retry = JobFinish::Retry { error: "timeout".into(), after_secs: 0, result: Some(spent.into()) };
    s.finish_extraction(&next.id, retry).await.unwrap();
    let again = s.claim_extraction(300).await.unwrap().unwrap();
    assert_eq!((again.id.as_str(), again.attempts), (next.id.as_str(), 2));
    assert_eq!(again.result.as_deref(), Some(spent), "the next attempt sees what the last one spent");
    // A lease that expired (the worker died) makes the job claimable again.
    s.finish_extraction(&again.id, JobFinish::Retry { error: "x".into(), after_secs: 0, result: None }).await.unwrap();
    let short = s.claim_extraction(1).await.unwrap().unwrap();
    assert_eq!(short.id, next.id);
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let stolen = s.claim_extraction(300).await.unwrap().expect("expired lease is claimable");
    assert_eq!((stolen.id.as_str(), stolen.attempts), (next.id.as_str(), 4));
    // Done and Failed clear the transcript.
    s.finish_extraction(&stolen.id, JobFinish::Done { result: "{\"created\":2}".into() }).await.unwrap();
    let d = s.extraction(&stolen.id).await.unwrap().unwrap();
    assert_eq!((d.status, d.messages.as_str(), d.result.as_deref()), (JobStatus::Done, "", Some("{\"created\":2}")));
    let spent = "{\"input_tokens\":200}";
    s.finish_extraction(&first.id, JobFinish::Failed { error: "bad output".into(), result: Some(spent.into()) })
        .await
        .unwrap();
    let f = s.extraction(&first.id).await.unwrap().unwrap();
    assert_eq!(
        (f.status, f.messages.as_str(), f.error.as_deref(), f.result.as_deref()),
        (JobStatus::Failed, "", Some("bad output"), Some(spent))
    );
    assert!(s.claim_extraction(300).await.unwrap().is_none(), "finished jobs are never claimed");
}
