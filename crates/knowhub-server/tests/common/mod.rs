//! Helpers shared by the server's integration tests.

use knowhub_core::validate::SubmitRequest;

/// A submit with the three required fields and a rating of 4.
pub fn req(task: &str, resource: &str, result: &str) -> SubmitRequest {
    SubmitRequest {
        task: Some(task.into()),
        resource: Some(resource.into()),
        result: Some(result.into()),
        score: Some(4),
        ..Default::default()
    }
}
