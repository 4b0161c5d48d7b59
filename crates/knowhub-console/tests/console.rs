//! The console in-process (`oneshot`) over a real SQLite hub with keys required: sign-in and its
//! refusals, the CSRF gate, review actions with their stale-form answer, escaping of stored
//! markup, headers, languages, and a revoked key ending its session. The browser-driven test
//! (scripts/console-e2e.sh) covers the same flows in headless Chromium, keyboard included.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use knowhub_core::{Caller, Role};
use knowhub_service::{AutoApprove, Hub, HubOptions, SearchConfig};
use knowhub_store_sqlite::{OpenOptions, SqliteStore};
use tower::ServiceExt;

struct T {
    app: axum::Router,
    hub: Arc<Hub>,
    _dir: tempfile::TempDir,
}

struct Resp {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    body: String,
}

impl T {
    async fn new() -> T {
        T::with_llm(None).await
    }

    /// With `llm` (an OpenAI-compatible base URL), the hub can draft written playbooks.
    async fn with_llm(llm: Option<String>) -> T {
        let dir = tempfile::tempdir().unwrap();
        let store =
            Arc::new(SqliteStore::open(dir.path(), OpenOptions { vector_model: None, exclusive: true }).unwrap());
        let extractor = llm.map(|base| {
            let mut ls = knowhub_ai::LlmSettings::new(knowhub_ai::LlmProvider::OpenAi, "echo-model");
            ls.base_url = base;
            ls.max_retries = 0;
            knowhub_service::Extractor::new(knowhub_ai::LlmClient::new(ls).unwrap(), Default::default())
        });
        let opts = HubOptions {
            auth: true,
            auto_approve: AutoApprove::None,
            require_approval: true,
            extractor,
            ..Default::default()
        };
        let hub = Hub::with_options(store, Arc::new(knowhub_ai::Embedder::none()), SearchConfig::default(), opts);
        let console = knowhub_console::Console::new(hub.clone(), Some("a test secret of some length"));
        T { app: knowhub_console::router(console), hub, _dir: dir }
    }

    async fn key(&self, name: &str, role: Role) -> String {
        let local = Caller::local();
        self.hub.create_key(&local, name, role).await.unwrap().key
    }

    async fn send(&self, req: Request<Body>) -> Resp {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let body = String::from_utf8(res.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        Resp { status, headers, body }
    }

    async fn get(&self, path: &str, cookie: Option<&str>) -> Resp {
        let mut b = Request::get(path).header(header::HOST, "127.0.0.1:8000");
        if let Some(c) = cookie {
            b = b.header(header::COOKIE, c);
        }
        self.send(b.body(Body::empty()).unwrap()).await
    }

    async fn post(&self, path: &str, cookie: Option<&str>, form: &str) -> Resp {
        let mut b = Request::post(path)
            .header(header::HOST, "127.0.0.1:8000")
            .header(header::ORIGIN, "http://127.0.0.1:8000")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            b = b.header(header::COOKIE, c);
        }
        self.send(b.body(Body::from(form.to_string())).unwrap()).await
    }

    /// Signs in and returns the `Cookie` header value.
    async fn sign_in(&self, key: &str) -> String {
        let r = self.post("/ui/login", None, &format!("key={key}")).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        let set = r.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap().to_string();
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Strict"), "{set}");
        set.split(';').next().unwrap().to_string()
    }

    async fn submit(&self, agent_key: &str, task: &str, resource: &str, result: &str) -> String {
        let caller = self.hub.authenticate(Some(&format!("Bearer {agent_key}")), Role::Agent).await.unwrap();
        let req = knowhub_core::validate::SubmitRequest {
            task: Some(task.into()),
            resource: Some(resource.into()),
            result: Some(result.into()),
            score: Some(4),
            agent_id: Some("bot".into()),
            ..Default::default()
        };
        self.hub.submit(&caller, req).await.unwrap().id
    }
}

/// The CSRF token the page's forms carry.
fn csrf(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a form with a csrf field");
    let rest = &html[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[tokio::test]
async fn sign_in_refuses_wrong_and_agent_keys_and_pages_need_a_session() {
    let t = T::new().await;
    let agent = t.key("bot", Role::Agent).await;
    let r = t.get("/ui/pending", None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.headers.get(header::LOCATION).unwrap(), "/ui/login");
    let r = t.post("/ui/login", None, "key=kh_wrong").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert!(r.body.contains("invalid or revoked API key"), "{}", r.body);
    let r = t.post("/ui/login", None, &format!("key={agent}")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.body.contains("agent key"), "{}", r.body);
    let r = t.post("/ui/login", None, "").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // A forged cookie is no session.
    let r = t.get("/ui/pending", Some("knowhub_session=abc.1999999999.00.00")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    // Every answer carries the CSP, the sign-in page included.
    let r = t.get("/ui/login", None).await;
    let csp = r.headers.get(header::CONTENT_SECURITY_POLICY).unwrap().to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
}

#[tokio::test]
async fn review_actions_need_the_token_and_stale_forms_name_the_reviewer() {
    let t = T::new().await;
    let agent = t.key("bot", Role::Agent).await;
    let rev = t.key("alice", Role::Reviewer).await;
    let cookie = t.sign_in(&rev).await;
    let id = t.submit(&agent, "restore a dump", "pg_restore", "<script>alert(1)</script> use -j 4").await;
    let page = t.get("/ui/pending", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains(&format!("data-id=\"{id}\"")));
    assert!(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "stored markup is escaped");
    assert!(!page.body.contains("<script>alert(1)"));
    let token = csrf(&page.body);

    let path = format!("/ui/pending/{id}/approve");
    let r = t.post(&path, Some(&cookie), "kind=pending").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "no token");
    let r = t.post(&path, Some(&cookie), "csrf=0000&kind=pending").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "wrong token");
    let cross = Request::post(&path)
        .header(header::HOST, "127.0.0.1:8000")
        .header(header::ORIGIN, "http://evil.example")
        .header(header::COOKIE, &cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("csrf={token}")))
        .unwrap();
    assert_eq!(t.send(cross).await.status, StatusCode::FORBIDDEN, "cross-site");
    assert_eq!(t.hub.store().get(&id).await.unwrap().unwrap().status, knowhub_core::Status::Pending);

    let r = t.post(&path, Some(&cookie), &format!("csrf={token}&kind=pending")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(t.hub.store().get(&id).await.unwrap().unwrap().status, knowhub_core::Status::Approved);
    // The same form again: someone (here, alice) already reviewed it.
    let r = t.post(&format!("/ui/pending/{id}/reject"), Some(&cookie), &format!("csrf={token}&reason=dup")).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.body.contains("approved by alice"), "{}", r.body);
}

#[tokio::test]
async fn edit_merge_and_reject_change_the_records() {
    let t = T::new().await;
    let agent = t.key("bot", Role::Agent).await;
    let rev = t.key("bob", Role::Reviewer).await;
    let cookie = t.sign_in(&rev).await;
    let target = t.submit(&agent, "dump a big database", "pg_dump", "use -Fc -j 8 for parallel dumps").await;
    t.hub.approve(&Caller::local(), &target, None).await.unwrap();
    let dup = t.submit(&agent, "dump a large database quickly", "pg_dump", "parallel dump with -Fc -j 8").await;
    let edit = t.submit(&agent, "restor a dump", "pg_restore", "use -j").await;
    let bad = t.submit(&agent, "list files", "ls", "it prints files").await;
    let page = t.get("/ui/pending", Some(&cookie)).await;
    let token = csrf(&page.body);
    assert!(page.body.contains("class=\"edit-form\""), "edit form rendered");
    // The duplicate's nearest approved record is the target, offered for merging.
    assert!(page.body.contains(&format!("name=\"into\" value=\"{target}\"")), "merge offered");

    let r = t
        .post(
            &format!("/ui/pending/{edit}/approve"),
            Some(&cookie),
            &format!(
                "csrf={token}&edited=1&task=restore+a+dump&resource=pg_restore&result=use+-j+4&score=5&outcome=success"
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let e = t.hub.store().get(&edit).await.unwrap().unwrap();
    assert_eq!((e.task.as_str(), e.score, e.status), ("restore a dump", 5, knowhub_core::Status::Approved));

    let before = t.hub.store().get(&target).await.unwrap().unwrap().confirmations;
    let r = t.post(&format!("/ui/pending/{dup}/merge"), Some(&cookie), &format!("csrf={token}&into={target}")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(r.headers.get(header::LOCATION).unwrap().to_str().unwrap().contains("done=merged"));
    assert_eq!(t.hub.store().get(&target).await.unwrap().unwrap().confirmations, before + 1);
    let d = t.hub.store().get(&dup).await.unwrap().unwrap();
    assert_eq!(d.status, knowhub_core::Status::Rejected);
    assert!(d.review.unwrap().note.unwrap().contains(&target));

    let r =
        t.post(&format!("/ui/pending/{bad}/reject"), Some(&cookie), &format!("csrf={token}&reason=too+vague")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let b = t.hub.store().get(&bad).await.unwrap().unwrap();
    assert_eq!((b.status, b.review.unwrap().note.as_deref()), (knowhub_core::Status::Rejected, Some("too vague")));

    // The experience page tells the story, the resource page the track record.
    let r = t.get(&format!("/ui/experiences/{target}"), Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("submitted") && r.body.contains("confirmed") && r.body.contains("approved"), "{}", r.body);
    let r = t.get("/ui/resources/pg_dump", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("data-stat=\"successes\""));
    assert!(r.body.contains("id=\"playbook\"") && r.body.contains("data-section=\"works\""), "{}", r.body);
    assert_eq!(t.get("/ui/resources/no-such-tool", Some(&cookie)).await.status, StatusCode::NOT_FOUND);
    assert_eq!(t.get("/ui/experiences/nope", Some(&cookie)).await.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn keys_are_for_admins_and_revoking_ends_sessions() {
    let t = T::new().await;
    let admin = t.key("root", Role::Admin).await;
    let rev = t.key("carol", Role::Reviewer).await;
    let rc = t.sign_in(&rev).await;
    assert_eq!(t.get("/ui/keys", Some(&rc)).await.status, StatusCode::FORBIDDEN);
    let ac = t.sign_in(&admin).await;
    let page = t.get("/ui/keys", Some(&ac)).await;
    assert_eq!(page.status, StatusCode::OK);
    let token = csrf(&page.body);
    let r = t.post("/ui/keys", Some(&ac), &format!("csrf={token}&name=ci-bot&role=agent")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("class=\"card new-key\"") && r.body.contains("kh_"), "the new key is shown once");
    let again = t.get("/ui/keys", Some(&ac)).await;
    assert!(!again.body.contains("new-key"), "and only once");
    let carol = t.hub.list_keys(&Caller::local()).await.unwrap().into_iter().find(|k| k.name == "carol").unwrap();
    let r = t.post(&format!("/ui/keys/{}/revoke", carol.id), Some(&ac), &format!("csrf={token}")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = t.get("/ui/pending", Some(&rc)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.headers.get(header::LOCATION).unwrap(), "/ui/login?ended=1");
    let r = t.post("/ui/login", None, &format!("key={rev}")).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "a revoked key cannot sign in");
}

#[tokio::test]
async fn language_follows_the_browser_and_the_switch() {
    let t = T::new().await;
    let rev = t.key("dan", Role::Reviewer).await;
    let cookie = t.sign_in(&rev).await;
    let zh = Request::get("/ui/pending")
        .header(header::COOKIE, &cookie)
        .header(header::ACCEPT_LANGUAGE, "zh-CN,zh;q=0.9")
        .body(Body::empty())
        .unwrap();
    let r = t.send(zh).await;
    assert!(r.body.contains("<html lang=\"zh\">") && r.body.contains("待审核"), "{}", &r.body[..200]);
    let r = t.get("/ui/pending?lang=en", Some(&cookie)).await;
    assert!(r.body.contains("<html lang=\"en\">"));
    let set = r.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap();
    assert!(set.starts_with("knowhub_lang=en"), "{set}");
    let r = t.get("/ui/pending", Some(&format!("{cookie}; knowhub_lang=zh"))).await;
    assert!(r.body.contains("<html lang=\"zh\">"));
    // Bad input is a clear 4xx page, never a 500.
    assert_eq!(t.get("/ui/pending?after=%00", Some(&cookie)).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(t.get("/ui/experiences/%FF%FE", Some(&cookie)).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(t.get("/ui/nothing-here", Some(&cookie)).await.status, StatusCode::NOT_FOUND);
}

/// The keys page quarantines what a key wrote, lists the quarantine, and lifts it; revoking can
/// quarantine at once; the queue lists quarantined records on their own tab.
#[tokio::test]
async fn quarantine_from_the_keys_page() {
    let t = T::new().await;
    let admin = t.key("root", Role::Admin).await;
    let bot = t.key("mallory", Role::Agent).await;
    let ids = [
        t.submit(&bot, "rotate the deploy key", "vault", "rotated").await,
        t.submit(&bot, "rotate the backup key", "vault", "rotated").await,
    ];
    let ac = t.sign_in(&admin).await;
    let token = csrf(&t.get("/ui/keys", Some(&ac)).await.body);
    let r = t.post("/ui/quarantine", Some(&ac), &format!("csrf={token}&kind=key&value=mallory")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get("/ui/keys?done=quarantined", Some(&ac)).await;
    assert!(page.body.contains("class=\"quarantine\" data-value=\"mallory\""), "{}", page.body);
    let queue = t.get("/ui/pending?kind=quarantined", Some(&ac)).await;
    assert!(ids.iter().all(|id| queue.body.contains(id.as_str())), "{}", queue.body);
    let e = t.hub.experience(&Caller::local(), &ids[0]).await.unwrap();
    assert!(e.quarantined);
    // A form without its token changes nothing.
    let r = t.post("/ui/quarantine/lift", Some(&ac), "kind=key&value=mallory&action=restore").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = t
        .post(
            "/ui/quarantine/lift",
            Some(&ac),
            &format!("csrf={token}&kind=key&value=mallory&action=reject&reason=poison"),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let e = t.hub.experience(&Caller::local(), &ids[1]).await.unwrap();
    assert_eq!((e.status, e.quarantined), (knowhub_core::Status::Rejected, false));
    let page = t.get("/ui/keys", Some(&ac)).await;
    assert!(!page.body.contains("class=\"quarantine\""), "lifted");
    // Revoking with the box ticked quarantines what the key wrote.
    let k = t.hub.list_keys(&Caller::local()).await.unwrap().into_iter().find(|k| k.name == "mallory").unwrap();
    let r = t.post(&format!("/ui/keys/{}/revoke", k.id), Some(&ac), &format!("csrf={token}&quarantine=true")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let qs = t.hub.quarantines(&Caller::local()).await.unwrap().quarantines;
    assert_eq!(qs.iter().map(|q| (q.kind.as_str(), q.value.as_str())).collect::<Vec<_>>(), vec![("key", "mallory")]);
    let r = t.post("/ui/quarantine", Some(&ac), &format!("csrf={token}&kind=key&value=")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
}

#[tokio::test]
async fn the_dashboard_shows_webhooks_and_pulls_from_other_hubs() {
    let t = T::new().await;
    let admin = t.key("root", Role::Admin).await;
    let ac = t.sign_in(&admin).await;
    let page = t.get("/ui/", Some(&ac)).await;
    assert!(!page.body.contains("id=\"webhooks\"") && !page.body.contains("id=\"sync\""), "none configured");
    t.hub.metrics().webhook("chat", 503);
    t.hub.metrics().webhook("chat", 0);
    t.hub.metrics().webhook("ops", 200);
    t.hub.metrics().sync_pull("http://10.0.0.5:8000", Err("cannot reach the hub <down>".into()));
    let page = t.get("/ui/", Some(&ac)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("data-hook=\"chat\" data-ok=\"false\""), "{}", page.body);
    assert!(page.body.contains("data-hook=\"ops\" data-ok=\"true\""), "{}", page.body);
    assert!(page.body.contains("data-from=\"http://10.0.0.5:8000\" data-ok=\"false\""), "{}", page.body);
    assert!(page.body.contains("cannot reach the hub &lt;down&gt;"), "escaped: {}", page.body);
}

/// A model on 127.0.0.1 that writes one line per lesson it is given ("Advice: " and the lesson's
/// section), citing the ids the lesson cites: enough to drive a written playbook through review.
async fn echo_llm() -> String {
    let router = axum::Router::new().fallback(|body: axum::body::Bytes| async move {
        let req: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let prompt = req["messages"].as_array().unwrap().last().unwrap()["content"].as_str().unwrap().to_string();
        let lines: Vec<serde_json::Value> = prompt
            .lines()
            .filter_map(|l| {
                let section = l.strip_prefix('[')?.split(']').next()?.to_string();
                let ids = &l[l.rfind('[')? + 1..l.rfind(']')?];
                let ids: Vec<&str> = ids.split(", ").collect();
                Some(serde_json::json!({"section": section, "text": format!("Advice: {section}"), "ids": ids}))
            })
            .collect();
        let text = serde_json::to_string(&lines).unwrap();
        axum::Json(serde_json::json!({"model": "echo", "choices": [{"message": {"role": "assistant", "content": text},
            "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 10}}))
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

#[tokio::test]
async fn a_reviewer_drafts_approves_and_rejects_a_written_playbook_on_the_resource_page() {
    let t = T::with_llm(Some(echo_llm().await)).await;
    let agent = t.key("bot", Role::Agent).await;
    let rev = t.key("alice", Role::Reviewer).await;
    let local = Caller::local();
    for (task, result) in
        [("pool clients", "transaction pooling held 2000 clients"), ("cap servers", "max_db_connections 50")]
    {
        let id = t.submit(&agent, task, "pgbouncer", result).await;
        t.hub.approve(&local, &id, Default::default()).await.unwrap();
    }
    let cookie = t.sign_in(&rev).await;
    let page = t.get("/ui/resources/pgbouncer", Some(&cookie)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.body.contains("id=\"written-playbook\"") && page.body.contains("data-action=\"draft\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains("data-action=\"approve\""), "nothing to approve yet");
    let token = csrf(&page.body);

    let r = t.post("/ui/resources/pgbouncer/playbook", Some(&cookie), "action=draft").await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "no token");
    let r = t.post("/ui/resources/pgbouncer/playbook", Some(&cookie), &format!("csrf={token}&action=draft")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = t.get("/ui/resources/pgbouncer", Some(&cookie)).await;
    assert!(page.body.contains("data-status=\"pending\"") && page.body.contains("Advice: works"), "{}", page.body);
    assert!(page.body.contains("data-action=\"approve\""), "{}", page.body);

    let r = t.post("/ui/resources/pgbouncer/playbook", Some(&cookie), &format!("csrf={token}&action=approve")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let p = t.hub.playbook(&local, "pgbouncer", &Default::default()).await.unwrap();
    assert_eq!(p.kind, knowhub_service::PlaybookKind::Written, "{p:?}");
    let page = t.get("/ui/resources/pgbouncer", Some(&cookie)).await;
    assert!(
        page.body.contains("data-status=\"approved\"") && !page.body.contains("data-action=\"approve\""),
        "{}",
        page.body
    );

    let r = t.post("/ui/resources/pgbouncer/playbook", Some(&cookie), &format!("csrf={token}&action=reject")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let p = t.hub.playbook(&local, "pgbouncer", &Default::default()).await.unwrap();
    assert_eq!(p.kind, knowhub_service::PlaybookKind::Distilled);
    let r = t.post("/ui/resources/pgbouncer/playbook", Some(&cookie), &format!("csrf={token}&action=maybe")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);

    // An agent's session sees no review section (agents cannot sign in to the console at all).
    let page = t.get("/ui/resources/pgbouncer", None).await;
    assert_ne!(page.status, StatusCode::OK);
}
