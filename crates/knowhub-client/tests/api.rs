//! The client against the real REST API (`knowhub_http::app` on a loopback port, SQLite in a
//! temp dir): every operation it offers, the API's errors as typed errors, and a hub that is down.

use std::sync::Arc;
use std::time::Duration;

use knowhub_ai::Embedder;
use knowhub_client::{Client, Error};
use knowhub_core::{Caller, FeedbackOutcome, Role, Status};
use knowhub_service::{
    ApproveRequest, AutoApprove, FeedbackRequest, Hub, HubOptions, PendingRequest, RejectRequest, SearchConfig,
    SearchRequest, SubmitRequest,
};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};

/// A hub with keys required where every agent submit waits for a reviewer, served on a loopback
/// port; its agent and reviewer keys.
async fn serve(dir: &std::path::Path) -> (Arc<Hub>, String, String, String) {
    let store = Arc::new(SqliteStore::open(dir, OpenOptions { vector_model: None, exclusive: true }).unwrap());
    let opts = HubOptions { auth: true, auto_approve: AutoApprove::Reviewers, ..Default::default() };
    let hub = Hub::with_options(store, Arc::new(Embedder::none()), SearchConfig::default(), opts);
    let local = Caller::local();
    let agent = hub.create_key(&local, "agent-1", Role::Agent).await.unwrap().key;
    let reviewer = hub.create_key(&local, "reviewer-1", Role::Reviewer).await.unwrap().key;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = knowhub_http::app(hub.clone());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (hub, url, agent, reviewer)
}

fn submit_request(task: &str, content: Option<&str>) -> SubmitRequest {
    SubmitRequest {
        task: Some(task.into()),
        resource: Some("pgbouncer pool_mode=transaction".into()),
        result: Some("timeouts gone, p99 40ms".into()),
        score: Some(4),
        content: content.map(str::to_string),
        ..Default::default()
    }
}

fn search_request(q: &str) -> SearchRequest {
    SearchRequest { q: Some(q.into()), min_score: Some("1".into()), ..Default::default() }
}

#[tokio::test]
async fn every_operation_against_the_real_api() {
    let d = tempfile::tempdir().unwrap();
    let (hub, url, agent_key, reviewer_key) = serve(d.path()).await;
    let agent = Client::new(&url, Some(agent_key), Duration::from_secs(10)).unwrap();
    let reviewer = Client::new(&format!("{url}/"), Some(reviewer_key), None).unwrap();
    assert_eq!(agent.url(), url);

    // submit: new records (201), waiting for a reviewer
    let a = agent.submit(&submit_request("Fix PostgreSQL connection timeouts", Some("pool_mode = transaction"))).await;
    let a = a.unwrap();
    assert!(a.created, "{a:?}");
    assert_eq!((a.status, a.duplicate_of.as_deref()), (Status::Pending, None));
    let b = agent.submit(&submit_request("Tune the Redis idle timeout", None)).await.unwrap();

    // pending: both wait for a reviewer, oldest first, with what the queue says of them
    let page = reviewer.pending(&PendingRequest { limit: Some("10".into()), ..Default::default() }).await.unwrap();
    let ids: Vec<&str> = page.items.iter().map(|i| i.experience.id.as_str()).collect();
    assert_eq!(ids, [a.id.as_str(), b.id.as_str()]);
    assert_eq!((page.count, page.total_pending, page.items[0].queue.as_str()), (2, 2, "pending"));
    let first = reviewer.pending(&PendingRequest { limit: Some("1".into()), ..Default::default() }).await.unwrap();
    assert_eq!(first.next_after.as_deref(), Some(a.id.as_str()));
    let rest = reviewer.pending(&PendingRequest { after: first.next_after, ..Default::default() }).await.unwrap();
    assert_eq!(rest.items.iter().map(|i| i.experience.id.as_str()).collect::<Vec<_>>(), [b.id.as_str()]);
    let disputed = PendingRequest { kind: Some("disputed".into()), ..Default::default() };
    assert_eq!(reviewer.pending(&disputed).await.unwrap().count, 0);

    // approve with a correction; reject with a reason
    let edits = ApproveRequest { score: Some(5), ..Default::default() };
    let approved = reviewer.approve(&a.id, &edits).await.unwrap();
    assert_eq!((approved.status, approved.score), (Status::Approved, 5));
    let rejected = reviewer.reject(&b.id, &RejectRequest { reason: Some("too vague".into()) }).await.unwrap();
    assert_eq!(rejected.status, Status::Rejected);
    assert_eq!(rejected.review.and_then(|r| r.note).as_deref(), Some("too vague"));
    assert_eq!(hub.experience(&Caller::local(), &b.id).await.unwrap().status, Status::Rejected);
    // the same text again, now that it is approved: a confirmation of it (200)
    let again = agent.submit(&submit_request("Fix PostgreSQL connection timeouts", None)).await.unwrap();
    assert!(!again.created, "{again:?}");
    assert_eq!((again.duplicate_of.as_deref(), again.status), (Some(a.id.as_str()), Status::Approved));

    // search finds the approved record, and only it
    let found = agent.search(&search_request("PostgreSQL timeouts")).await.unwrap();
    assert_eq!(found.count, found.results.len());
    assert_eq!(found.results.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), [a.id.as_str()]);
    assert!(found.results[0].has_content);
    let redis = agent.search(&search_request("Redis idle timeout")).await.unwrap();
    assert!(redis.results.iter().all(|h| h.id != b.id), "a rejected record is not searchable");

    // feedback, content, experience
    let fb = FeedbackRequest {
        id: Some(a.id.clone()),
        outcome: Some("helped".into()),
        note: Some("worked".into()),
        ..Default::default()
    };
    let voted = agent.feedback(&fb).await.unwrap();
    assert_eq!((voted.id.as_str(), voted.outcome, voted.feedback.helped), (a.id.as_str(), FeedbackOutcome::Helped, 1));
    assert_eq!(voted.voter, "agent-1", "with keys on, the vote is the key's");
    let content = agent.content(&a.id).await.unwrap();
    assert_eq!((content.experience_id.as_str(), content.content.as_str()), (a.id.as_str(), "pool_mode = transaction"));
    let e = agent.experience(&a.id).await.unwrap();
    assert_eq!((e.id.as_str(), e.status, e.feedback.helped), (a.id.as_str(), Status::Approved, 1));
}

#[tokio::test]
async fn the_apis_errors_come_back_typed() {
    let d = tempfile::tempdir().unwrap();
    let (_hub, url, agent_key, _) = serve(d.path()).await;
    let agent = Client::new(&url, Some(agent_key), Duration::from_secs(10)).unwrap();

    // 400, naming the field: a query parameter, and a body field
    let bad = SearchRequest { top_k: Some("99".into()), ..search_request("x") };
    match agent.search(&bad).await.unwrap_err() {
        Error::Api { status, code, field, message } => {
            assert_eq!((status, code.as_str(), field.as_deref()), (400, "invalid_query", Some("top_k")));
            assert_eq!(message, "top_k: must be an integer from 1 to 50, got \"99\"");
        }
        e => panic!("{e:?}"),
    }
    let e = agent.submit(&SubmitRequest { score: Some(9), ..submit_request("t", None) }).await.unwrap_err();
    assert!(matches!(&e, Error::Api { status: 400, field: Some(f), .. } if f == "score"), "{e:?}");
    assert!(e.to_string().starts_with("hub answered 400: "), "{e}");

    // 401 without a key, or with a wrong one; 403 for a role the key lacks
    for key in [None, Some("kh_wrong".to_string())] {
        let anonymous = Client::new(&url, key, None).unwrap();
        let e = anonymous.search(&search_request("x")).await.unwrap_err();
        assert!(matches!(&e, Error::Api { status: 401, code, .. } if code == "unauthorized"), "{e:?}");
    }
    let e = agent.pending(&PendingRequest::default()).await.unwrap_err();
    assert!(matches!(&e, Error::Api { status: 403, code, .. } if code == "forbidden"), "{e:?}");

    // 404 from the hub for an unknown id; an id that could leave its route never leaves the client
    let e = agent.content("01a1fd05-6e78-7508-9e0b-04e85860f468").await.unwrap_err();
    assert!(matches!(&e, Error::Api { status: 404, code, .. } if code == "not_found"), "{e:?}");
    let e = agent.experience("../api/keys").await.unwrap_err();
    assert!(matches!(&e, Error::Api { status: 404, code, .. } if code == "not_found"), "{e:?}");
}

#[tokio::test]
async fn a_hub_that_is_down_is_unreachable() {
    // A port nothing listens on: bind one, then drop it.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}");
    let c = Client::new(&url, None, Duration::from_secs(2)).unwrap();
    let want = Error::Unreachable { url: url.clone(), reason: "connection refused or no route".into() };
    assert_eq!(c.search(&search_request("x")).await.unwrap_err(), want);
    assert_eq!(c.submit(&submit_request("t", None)).await.unwrap_err(), want);
    assert_eq!(c.approve("abc", &ApproveRequest::default()).await.unwrap_err(), want);
    assert_eq!(want.to_string(), format!("cannot reach the hub at {url} (connection refused or no route)"));
}

#[tokio::test]
async fn an_answer_that_is_not_the_apis_is_said_to_be_so() {
    // Something else on the port: a proxy's error page, and a page that is not the API's JSON.
    let app = axum::Router::new().route("/api/search", axum::routing::get(|| async { "<html>hello</html>" })).route(
        "/api/submit",
        axum::routing::post(|| async { (axum::http::StatusCode::BAD_GATEWAY, "<html>bad gateway</html>") }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let c = Client::new(&url, None, Duration::from_secs(5)).unwrap();
    let e = c.search(&search_request("x")).await.unwrap_err();
    assert!(matches!(&e, Error::Api { status: 200, code, .. } if code == "bad_response"), "{e:?}");
    let e = c.submit(&submit_request("t", None)).await.unwrap_err();
    match e {
        Error::Api { status, code, message, field } => {
            assert_eq!((status, code.as_str(), field), (502, "http_502", None));
            assert!(message.contains("is this a KnowHub URL?"), "{message}");
        }
        e => panic!("{e:?}"),
    }
}
