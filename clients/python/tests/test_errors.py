"""Every error answer becomes the exception of its status, carrying the hub's code, message and
field; failures to reach the hub are TransportErrors."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

import knowhub
from conftest import Hub


def test_invalid_field_names_the_field(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.submit(task="t", resource="r", result="x", score=9)
    err = e.value
    assert (err.status_code, err.code, err.field) == (400, "invalid_field", "score")
    assert "1 to 5" in err.message
    assert isinstance(err, knowhub.ClientError) and isinstance(err, knowhub.APIError)


def test_missing_required_text(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.submit(task="   ", resource="r", result="x")
    assert (e.value.code, e.value.field) == ("invalid_field", "task")


def test_invalid_query_parameter(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.search("x", top_k=99)
    assert (e.value.code, e.value.field) == ("invalid_query", "top_k")
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.search("x", min_relevance=2)
    assert e.value.field == "min_relevance"


def test_a_bad_cursor_names_since(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.changes("not-a-cursor")
    assert (e.value.code, e.value.field) == ("invalid_query", "since")


def test_a_cursor_from_another_hub_is_refused(agent: knowhub.Client, tight_hub: Hub) -> None:
    with tight_hub.admin() as other:
        foreign = other.changes()["cursor"]
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.changes(foreign)
    assert e.value.field == "since"


def test_feedback_with_a_bad_outcome(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.BadRequestError) as e:
        agent.feedback("01a1fd05-6e78-7508-9e0b-04e85860f468", "great")  # type: ignore[arg-type]
    assert e.value.field == "outcome"


def test_no_key_and_a_wrong_key(hub: Hub) -> None:
    for key in (None, "kh_" + "0" * 64):
        with knowhub.Client(hub.url, api_key=key) as c, pytest.raises(knowhub.AuthenticationError) as e:
            c.search("anything")
        assert (e.value.status_code, e.value.code) == (401, "unauthorized")


def test_a_role_that_may_not(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.PermissionDeniedError) as e:
        agent.pending()
    assert (e.value.status_code, e.value.code) == (403, "forbidden")
    assert "reviewer" in e.value.message
    with pytest.raises(knowhub.PermissionDeniedError) as e:
        agent.create_key("x", "agent")
    assert "admin" in e.value.message


def test_a_scope_the_key_may_not_read(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.PermissionDeniedError) as e:
        agent.search("anything", scope="team/secret")
    assert "scope" in e.value.message
    with pytest.raises(knowhub.BadRequestError) as bad:
        agent.search("anything", scope="nonsense kind/x")
    assert bad.value.field == "scope"


def test_not_found_and_ids_that_need_escaping(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.NotFoundError) as e:
        agent.get_experience("01a1fd05-6e78-7508-9e0b-04e85860f468")
    assert e.value.code == "not_found"
    # A slash stays inside the one path segment: the experience route answers, not another route.
    with pytest.raises(knowhub.NotFoundError) as e:
        agent.get_experience("a/../../healthz")
    assert "experience" in e.value.message
    with pytest.raises(knowhub.BadRequestError) as bad:
        agent.content("nul\x00id")
    assert bad.value.code == "invalid_path"


def test_conflict(admin: knowhub.Client, tag: str) -> None:
    rid = admin.submit(task=f"{tag} task", resource="r", result="x")["id"]
    with pytest.raises(knowhub.ConflictError) as e:
        admin.reject(rid)
    assert (e.value.status_code, e.value.code) == (409, "conflict")


def test_payload_too_large(agent: knowhub.Client) -> None:
    with pytest.raises(knowhub.PayloadTooLargeError) as e:
        agent.submit(task="t", resource="r", result="x", content="x" * (1024 * 1024 + 10))
    assert (e.value.status_code, e.value.code) == (413, "payload_too_large")


def test_rate_limited_with_retry_after(tight_hub: Hub, tag: str) -> None:
    with tight_hub.admin() as c:
        with pytest.raises(knowhub.RateLimitError) as e:
            for i in range(5):
                c.submit(task=f"{tag} {i}", resource="r", result="x")
    assert (e.value.status_code, e.value.code) == (429, "rate_limited")
    assert e.value.retry_after is not None and e.value.retry_after > 0


def test_not_configured_is_a_server_error(tight_hub: Hub) -> None:
    with tight_hub.admin() as c, pytest.raises(knowhub.UnavailableError) as e:
        c.extract([{"role": "user", "content": "hi"}])
    assert (e.value.status_code, e.value.code) == (503, "not_configured")
    assert isinstance(e.value, knowhub.ServerError)


def test_an_unreachable_hub_is_a_connect_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the call: nothing listens there
    with knowhub.Client(f"http://127.0.0.1:{port}") as c, pytest.raises(knowhub.ConnectError) as e:
        c.health()
    assert isinstance(e.value, knowhub.TransportError)
    assert str(port) in str(e.value)


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections and never answers."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        srv.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.getsockname()[1]}"
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


def test_no_answer_is_a_timeout(silent_server: str) -> None:
    with knowhub.Client(silent_server, timeout=0.3) as c, pytest.raises(knowhub.TransportTimeoutError):
        c.health()


def test_a_non_json_error_body_still_maps() -> None:
    import httpx

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="<html>bad gateway</html>")

    with knowhub.Client("http://hub.test", transport=httpx.MockTransport(handler)) as c:
        with pytest.raises(knowhub.ServerError) as e:
            c.health()
    assert (e.value.status_code, e.value.code, e.value.field) == (502, "http_502", None)
    assert "bad gateway" in e.value.message
