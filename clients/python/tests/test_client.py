"""Every method of the sync client against the real hub: what it sends reaches the hub, and what
the hub answers comes back in the documented shape."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest

import knowhub
from conftest import Hub


def submit(c: knowhub.Client, tag: str, **kw: object) -> str:
    fields: dict[str, object] = {
        "task": f"speed up {tag} builds",
        "resource": f"{tag}-cache --enable",
        "result": "build time fell from 9 to 2 minutes",
        "score": 5,
    }
    fields.update(kw)
    return c.submit(**fields)["id"]  # type: ignore[arg-type]


def test_health_with_and_without_a_key(hub: Hub, admin: knowhub.Client) -> None:
    h = admin.health()
    assert h["status"] == "ok"
    assert h["backend"] == "sqlite"
    assert h["embedder"] == "none"
    assert isinstance(h["records"], int)
    with knowhub.Client(hub.url) as anonymous:
        assert anonymous.health() == {"status": "ok"}


def test_submit_search_get_content_history(reviewer: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    when = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    res = reviewer.submit(
        task=f"fix {tag} connection timeouts",
        resource="pgbouncer pool_mode=transaction",
        result="timeouts gone, p99 from 3s to 40ms",
        score=5,
        outcome="success",
        resource_version="1.22",
        agent_id="main",
        timestamp=when,
        content="# steps\n1. set pool_mode",
        content_type="text/markdown",
    )
    assert res["status"] == "approved"
    assert res["confirmations"] == 1
    rid = res["id"]

    found = agent.search(tag, top_k=3, mode="fts", min_relevance=0)
    assert found["mode"] == "fts"
    assert [h["id"] for h in found["results"]] == [rid]
    hit = found["results"][0]
    assert hit["resource_version"] == "1.22"
    assert hit["has_content"] is True
    assert "submitted_by" not in hit  # agents never see who answers for a record

    exp = agent.get_experience(rid)
    assert exp["task"] == f"fix {tag} connection timeouts"
    assert exp["created_at"] == "2026-01-02T03:04:05Z"
    assert exp["status"] == "approved"

    content = agent.content(rid)
    assert content == {"experience_id": rid, "content": "# steps\n1. set pool_mode", "content_type": "text/markdown"}

    history = reviewer.history(rid)
    assert history["id"] == rid
    assert [e["kind"] for e in history["events"]][:1] == ["submitted"]


def test_a_repeat_is_a_confirmation(reviewer: knowhub.Client, admin: knowhub.Client, tag: str) -> None:
    first = submit(reviewer, tag)
    again = admin.submit(task=f"speed up {tag} builds", resource=f"{tag}-cache --enable",
                         result="build time fell from 9 to 2 minutes", score=5)
    assert again["duplicate_of"] == first
    assert again["confirmations"] == 2


def test_search_filters(reviewer: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    ok = submit(reviewer, tag, score=5, agent_id="alpha")
    low = submit(reviewer, tag, resource=f"{tag}-lowscore", result="it sort of helped", score=2, agent_id="alpha")
    bad = submit(reviewer, tag, resource=f"{tag}-legacy", result="made it worse: cache corrupted", score=1,
                 outcome="failure", agent_id="beta")
    q = tag

    every = [h["id"] for h in agent.search(q, min_score=1, min_relevance=0, top_k=10)["results"]]
    assert sorted(every) == sorted([ok, low, bad])
    # min_score leaves out weak successes but never a failure lesson.
    assert {h["id"] for h in agent.search(q, min_score=3, min_relevance=0)["results"]} == {ok, bad}
    assert [h["id"] for h in agent.search(q, outcome="failure", min_relevance=0)["results"]] == [bad]
    assert {h["id"] for h in agent.search(q, outcome="success", min_score=1, min_relevance=0)["results"]} == {ok, low}
    assert len(agent.search(q, top_k=1, min_score=1, min_relevance=0)["results"]) == 1
    by_alpha = reviewer.search(q, agent_id="reviewer-1/alpha", min_score=1, min_relevance=0)["results"]
    assert {h["id"] for h in by_alpha} == {ok, low}
    assert agent.search(q, scope="org", min_relevance=0)["count"] >= 1
    assert agent.search(q, scope="team/py", min_relevance=0)["count"] == 0
    nothing = agent.search("zzqx" + tag[::-1])
    assert nothing == {"count": 0, "mode": "fts", "results": []}


def test_feedback_counts_and_replaces(reviewer: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    rid = submit(reviewer, tag)
    first = agent.feedback(rid, "helped", note="worked on CI too")
    assert first["voter"] == "agent-1"
    assert first["feedback"]["helped"] == 1
    second = agent.feedback(rid, "failed")
    assert (second["feedback"]["helped"], second["feedback"]["failed"]) == (0, 1)
    assert second["disputed"] is False
    view = reviewer.view(rid)
    assert [v["outcome"] for v in view["votes"]] == ["failed"]
    assert view["experience"]["id"] == rid


def test_resources_and_resource_page(reviewer: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    name = f"{tag}tool"
    good = submit(reviewer, tag, resource=name, result="worked first time")
    bad = submit(reviewer, tag, resource=name, result="crashed on arm64", outcome="failure", score=1,
                 task=f"run {tag} on arm")
    listed = agent.resources(name)
    assert [r["resource"] for r in listed["resources"]] == [name]
    assert (listed["resources"][0]["successes"], listed["resources"][0]["failures"]) == (1, 1)
    page = agent.resource(name.upper())  # any spelling of the name
    assert [e["id"] for e in page["failures"]] == [bad]
    assert [e["id"] for e in page["top"]] == [good]
    assert agent.resources(name, limit=1)["count"] == 1


def test_review_queue_approve_with_edits_revert_reject_merge(
    reviewer: knowhub.Client, agent: knowhub.Client, tag: str
) -> None:
    pending = submit(agent, tag)  # agents' submits wait for review on this hub
    assert agent.submit(task=f"other {tag}", resource="r", result="x")["status"] == "pending"
    ids = set()
    after = None
    while True:
        page = reviewer.pending(limit=100, after=after)
        ids |= {i["id"] for i in page["items"]}
        after = page.get("next_after")
        if not after:
            break
    assert pending in ids
    with pytest.raises(knowhub.NotFoundError):
        agent.get_experience(pending)  # agents read approved records only

    approved = reviewer.approve(pending, result="build time fell to 2 minutes (edited)")
    assert (approved["status"], approved["result"]) == ("approved", "build time fell to 2 minutes (edited)")
    edit = [e for e in reviewer.history(pending)["events"] if e["kind"] == "edited"][-1]
    reverted = reviewer.revert(pending, edit["seq"])
    assert reverted["result"] == "build time fell from 9 to 2 minutes"

    with pytest.raises(knowhub.ConflictError) as e:
        reviewer.approve(pending)
    assert e.value.code == "conflict"

    to_reject = submit(agent, tag, resource=f"{tag}-bad", result="wrong")
    rejected = reviewer.reject(to_reject, reason="not reproducible")
    assert rejected["status"] == "rejected"
    assert rejected["review"]["note"] == "not reproducible"  # type: ignore[index]

    dup = submit(agent, tag, result="build got 4x faster")
    target = reviewer.merge(dup, into=pending)
    assert target["id"] == pending
    assert target["confirmations"] == 2


def test_scope_move_and_delete(admin: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    rid = submit(admin, tag)
    moved = admin.set_scope(rid, "team/py")
    assert moved["scope"] == "team/py"
    assert agent.search(tag, scope="team/py", min_relevance=0)["results"][0]["id"] == rid
    assert admin.delete_experience(rid) == {"deleted": rid}
    with pytest.raises(knowhub.NotFoundError):
        admin.get_experience(rid)
    assert [e["kind"] for e in admin.history(rid)["events"]] == ["deleted"]


def test_quarantine_and_lift(hub: Hub, admin: knowhub.Client, reviewer: knowhub.Client, tag: str) -> None:
    name = f"q-{tag}"
    key = admin.create_key(name, "agent")["key"]
    with knowhub.Client(hub.url, api_key=key) as writer:
        rid = submit(writer, tag)
    q = admin.quarantine(key=name)
    assert (q["kind"], q["value"], q["records"]) == ("key", name, 1)
    assert name in [x["value"] for x in reviewer.quarantines()["quarantines"]]
    held = reviewer.pending("quarantined", limit=100)["items"]
    assert rid in [i["id"] for i in held]
    released = admin.lift_quarantine(key=name, action="reject", reason="spam")
    assert (released["action"], released["records"]) == ("reject", 1)
    assert reviewer.get_experience(rid)["status"] == "rejected"
    with pytest.raises(knowhub.NotFoundError):
        admin.lift_quarantine(key=name)


def test_keys_create_list_revoke(hub: Hub, admin: knowhub.Client, tag: str) -> None:
    created = admin.create_key(f"k-{tag}", "agent", read="org,team/py", write="team/py")
    assert created["key"].startswith("kh_")
    assert (created["read_scopes"], created["write_scope"]) == (["org", "team/py"], "team/py")
    listed = {k["name"]: k for k in admin.keys()["keys"]}
    assert listed[f"k-{tag}"]["prefix"] == created["prefix"]
    assert "key" not in listed[f"k-{tag}"]
    with pytest.raises(knowhub.ConflictError):
        admin.create_key(f"k-{tag}", "agent")
    with knowhub.Client(hub.url, api_key=created["key"]) as k:
        assert k.search("anything at all")["count"] >= 0
        revoked = admin.revoke_key(f"k-{tag}", quarantine=True)
        assert revoked["revoked_at"]
        assert revoked["quarantine"]["value"] == f"k-{tag}"  # type: ignore[index]
        with pytest.raises(knowhub.AuthenticationError) as e:
            k.search("anything at all")
    assert e.value.code == "unauthorized"


def test_extract_runs_a_job_end_to_end(hub: Hub, agent: knowhub.Client, reviewer: knowhub.Client, tag: str) -> None:
    assert hub.llm is not None
    hub.llm.items = [
        {"task": f"Fix {tag} connection timeouts under load", "resource": "pgbouncer pool_mode=transaction",
         "result": "Timeouts gone after switching to transaction pooling", "outcome": "success",
         "score": 5, "confidence": 0.92, "messages": [0, 1]},
    ]
    messages = [
        {"role": "user", "content": f"{tag}: the app times out under load"},
        {"role": "assistant", "content": "Switching pgbouncer to pool_mode=transaction fixed it."},
    ]
    job = agent.extract(messages, session_key=f"s-{tag}", agent_id="main", wait=30)
    assert job["status"] == "done", job
    assert job["extracted_count"] == 1
    item = job["experiences"][0]
    assert item["status"] == "pending"
    assert item["resource"] == "pgbouncer pool_mode=transaction"
    assert job["job_id"]
    assert agent.job(job["job_id"])["experiences"][0]["id"] == item["id"]
    assert reviewer.get_experience(item["id"])["source"] == "extracted"
    # The same session again: nothing new to extract.
    assert agent.extract(messages, session_key=f"s-{tag}")["status"] == "nothing_new"


def test_dashboard_and_metrics(reviewer: knowhub.Client) -> None:
    d = reviewer.dashboard(weeks=2)
    assert len(d["weeks"]) == 2
    assert d["totals"]["records"] >= 0
    text = reviewer.metrics()
    assert "knowhub_http_requests_total" in text


def test_changes_page_and_long_poll(admin: knowhub.Client, hub: Hub, tag: str) -> None:
    head = admin.changes(limit=1000)
    cursor = head["cursor"]
    while head["more"]:
        head = admin.changes(cursor, limit=1000)
        cursor = head["cursor"]
    rid = submit(admin, tag)
    page = admin.changes(cursor)
    assert [(c["experience_id"], c["kind"]) for c in page["changes"]] == [(rid, "submitted")]
    assert page["changes"][0]["experience"]["task"] == f"speed up {tag} builds"  # type: ignore[index]

    # A long poll answers with the change made while it waited.
    result: dict[str, object] = {}

    def later() -> None:
        time.sleep(0.5)
        with hub.admin() as other:
            result["id"] = submit(other, tag, resource=f"{tag}-later")

    t = threading.Thread(target=later)
    t.start()
    waited = admin.changes(page["cursor"], wait=20)
    t.join()
    assert [c["experience_id"] for c in waited["changes"]] == [result["id"]]


def test_the_feed_iterator_follows_pages_and_resumes(admin: knowhub.Client, tag: str) -> None:
    feed = admin.iter_changes(limit=1000)
    for _ in feed:
        pass
    start = feed.cursor
    ids = [submit(admin, tag, resource=f"{tag}-{i}") for i in range(5)]

    feed = admin.iter_changes(start, limit=2)  # three pages
    seen = [next(feed)["experience_id"] for _ in range(3)]
    assert seen == ids[:3]
    # Stopped mid-page: the cursor is the end of the last whole page, so nothing is lost.
    resumed = [c["experience_id"] for c in admin.iter_changes(feed.cursor, limit=2)]
    assert resumed == ids[2:]
    end = admin.iter_changes(start, limit=2)
    assert [c["experience_id"] for c in end] == ids
    assert admin.changes(end.cursor)["changes"] == []


# Which client method covers each route of the hub's contract.
COVERED = {
    ("GET", "/healthz"): "health",
    ("GET", "/metrics"): "metrics",
    ("GET", "/api/search"): "search",
    ("POST", "/api/submit"): "submit",
    ("POST", "/api/feedback"): "feedback",
    ("GET", "/api/experiences/{id}"): "get_experience",
    ("DELETE", "/api/experiences/{id}"): "delete_experience",
    ("GET", "/api/experiences/{id}/history"): "history",
    ("POST", "/api/experiences/{id}/revert"): "revert",
    ("POST", "/api/experiences/{id}/scope"): "set_scope",
    ("GET", "/api/experiences/{id}/view"): "view",
    ("GET", "/api/content/{id}"): "content",
    ("GET", "/api/resources"): "resources",
    ("GET", "/api/resources/{name}"): "resource",
    ("GET", "/api/pending"): "pending",
    ("POST", "/api/approve/{id}"): "approve",
    ("POST", "/api/reject/{id}"): "reject",
    ("POST", "/api/merge/{id}"): "merge",
    ("POST", "/api/quarantine"): "quarantine",
    ("GET", "/api/quarantine"): "quarantines",
    ("DELETE", "/api/quarantine"): "lift_quarantine",
    ("POST", "/api/keys"): "create_key",
    ("GET", "/api/keys"): "keys",
    ("DELETE", "/api/keys/{id}"): "revoke_key",
    ("GET", "/api/changes"): "changes",
    ("POST", "/api/sync"): "sync",
    ("GET", "/api/playbooks/{resource}"): "playbook",
    ("POST", "/api/playbooks/{resource}/draft"): "draft_playbook",
    ("GET", "/api/playbooks/{resource}/draft"): "written_playbook",
    ("POST", "/api/playbooks/{resource}/review"): "review_playbook",
    ("POST", "/api/extract"): "extract",
    ("GET", "/api/extract/{id}"): "job",
    ("GET", "/api/dashboard"): "dashboard",
}


def test_every_route_of_the_contract_has_a_method(hub: Hub) -> None:
    import httpx

    spec = httpx.get(hub.url + "/openapi.json").json()
    routes = {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops}
    assert routes == set(COVERED)
    for name in COVERED.values():
        assert callable(getattr(knowhub.Client, name)) and callable(getattr(knowhub.AsyncClient, name))
    # And each method sends every query parameter the route takes.
    search_params = {p["name"] for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["in"] == "query"}
    assert search_params - {"q"} <= set(knowhub.Client.search.__code__.co_varnames)


def test_one_connection_serves_every_call(hub: Hub) -> None:
    import httpx

    ports: list[int] = []

    class Recording(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = super().handle_request(request)
            ports.append(response.extensions["network_stream"].get_extra_info("client_addr")[1])
            return response

    with knowhub.Client(hub.url, api_key=hub.agent_key, transport=Recording()) as c:
        for _ in range(5):
            c.search("connection reuse")
        c.health()
    assert len(ports) == 6 and len(set(ports)) == 1


def test_one_hub_pulls_another(hub: Hub, tight_hub: Hub, tag: str) -> None:
    rid = submit(hub.admin(), tag)
    with tight_hub.admin() as other:
        report = other.sync(hub.url, key=hub.reviewer_key)
        assert report["created"] >= 1 and report["cursor"].startswith(report["peer"] + ":")
        pulled = other.get_experience(rid)
        assert pulled["provenance"]["hub"] == report["peer"]
        again = other.sync(hub.url, key=hub.reviewer_key)
        assert again["created"] == 0
        with pytest.raises(knowhub.BadRequestError) as bad:
            other.sync(hub.url, key="kh_not_a_key")
        assert bad.value.field == "key"


def test_a_resource_has_a_playbook(reviewer: knowhub.Client, agent: knowhub.Client, tag: str) -> None:
    resource = f"{tag}ctl"
    for i in range(2):
        reviewer.submit(task=f"speed up {tag} builds, try {i}", resource=resource, result=f"cache {i} helped", score=4)
    reviewer.submit(
        task=f"speed up {tag} builds without cache", resource=resource, result="failed: stale lockfile", score=2,
        outcome="failure",
    )
    pb = agent.playbook(resource, budget=400)
    assert pb["lines"][0]["section"] == "failures" and "stale lockfile" in pb["text"]
    assert all(line["ids"] for line in pb["lines"])
    with pytest.raises(knowhub.NotFoundError):
        agent.playbook(f"{tag}-nothing-known")
    assert pb["kind"] == "distilled" and "written" not in pb


def test_a_written_playbook_reaches_agents_once_approved(
    hub: Hub, reviewer: knowhub.Client, agent: knowhub.Client, tag: str
) -> None:
    resource = f"{tag}-pb"
    ids = [
        reviewer.submit(task=f"warm the {tag} cache, try {i}", resource=resource, result=f"warm {i} helped", score=4)["id"]
        for i in range(2)
    ]
    with pytest.raises(knowhub.NotFoundError):
        reviewer.written_playbook(resource)
    assert hub.llm is not None
    saved = hub.llm.items
    hub.llm.items = [{"section": "works", "text": f"Warm the {tag} cache before the build", "ids": ids}]
    try:
        d = reviewer.draft_playbook(resource, budget=300)
        # The extraction items this hub's model answers otherwise are no playbook: 502, nothing stored.
        hub.llm.items = saved
        with pytest.raises(knowhub.APIError) as e:
            reviewer.draft_playbook(resource)
        assert (e.value.status_code, e.value.code) == (502, "upstream")
    finally:
        hub.llm.items = saved
    assert (d["status"], d["stale"], d["sources"], d["playbook"]["kind"]) == ("pending", False, 2, "written")
    assert agent.playbook(resource)["kind"] == "distilled"
    with pytest.raises(knowhub.PermissionDeniedError):
        agent.review_playbook(resource, "approve")
    assert reviewer.review_playbook(resource, "approve")["status"] == "approved"
    pb = agent.playbook(resource)
    assert pb["kind"] == "written" and f"Warm the {tag} cache before the build" in pb["text"]
    assert all(i in pb["text"] for i in ids)
    assert reviewer.written_playbook(resource)["reviewed_by"]
