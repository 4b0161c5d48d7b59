"""The async client against the real hub: the same calls, awaited, and the feed as an async
iterator. It is generated from the sync client, so the check that it is current runs here too."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

import knowhub
from conftest import HERE, Hub


def test_the_async_client_is_generated_from_the_current_sync_client() -> None:
    r = subprocess.run([sys.executable, str(HERE / "scripts" / "gen_async.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


async def test_round_trip(hub: Hub, tag: str) -> None:
    async with knowhub.AsyncClient(hub.url, api_key=hub.reviewer_key) as rev, knowhub.AsyncClient(
        hub.url, api_key=hub.agent_key
    ) as agent:
        assert (await agent.health())["status"] == "ok"
        sub = await rev.submit(task=f"{tag} deploy rollback", resource="kubectl rollout undo", result="back in 20s",
                               score=4, content="details")
        rid = sub["id"]
        assert sub["status"] == "approved"
        found = await agent.search(tag, min_relevance=0)
        assert [h["id"] for h in found["results"]] == [rid]
        fb = await agent.feedback(rid, "helped")
        assert fb["feedback"]["helped"] == 1
        assert (await agent.get_experience(rid))["resource"] == "kubectl rollout undo"
        assert (await agent.content(rid))["content"] == "details"
        assert (await rev.history(rid))["events"][0]["kind"] == "submitted"
        assert (await agent.resource("kubectl rollout undo"))["top"][0]["id"] == rid


async def test_calls_run_concurrently_on_one_client(hub: Hub, tag: str) -> None:
    async with knowhub.AsyncClient(hub.url, api_key=hub.reviewer_key) as c:
        subs = await asyncio.gather(
            *(c.submit(task=f"{tag} job {i}", resource=f"{tag}-tool{i}", result="ok") for i in range(8))
        )
        assert len({s["id"] for s in subs}) == 8
        found = await c.search(tag, top_k=20, min_relevance=0)
        assert {h["id"] for h in found["results"]} == {s["id"] for s in subs}


async def test_errors_carry_code_and_field(hub: Hub) -> None:
    async with knowhub.AsyncClient(hub.url, api_key=hub.agent_key) as c:
        with pytest.raises(knowhub.BadRequestError) as e:
            await c.submit(task="t", resource="r", result="x", score=0)
        assert (e.value.code, e.value.field) == ("invalid_field", "score")
        with pytest.raises(knowhub.PermissionDeniedError):
            await c.quarantines()
    async with knowhub.AsyncClient(hub.url) as anonymous:
        with pytest.raises(knowhub.AuthenticationError):
            await anonymous.search("x")


async def test_the_async_feed_follows_and_resumes(hub: Hub, tag: str) -> None:
    async with knowhub.AsyncClient(hub.url, api_key=hub.admin_key) as c:
        feed = c.iter_changes(limit=1000)
        async for _ in feed:
            pass
        start = feed.cursor
        ids = [(await c.submit(task=f"{tag} step {i}", resource=f"{tag}-r{i}", result="ok"))["id"] for i in range(3)]
        feed = c.iter_changes(start, limit=2)
        assert [ch["experience_id"] async for ch in feed] == ids
        assert (await c.changes(feed.cursor))["changes"] == []

        # Following: the iterator long-polls and yields a change made while it waits.
        follow = c.iter_changes(feed.cursor, wait=20, follow=True)

        async def later() -> str:
            await asyncio.sleep(0.3)
            async with knowhub.AsyncClient(hub.url, api_key=hub.admin_key) as other:
                return (await other.submit(task=f"{tag} later", resource=f"{tag}-late", result="ok"))["id"]

        made, got = await asyncio.gather(later(), follow.__anext__())
        assert got["experience_id"] == made
        assert got["kind"] == "submitted"
