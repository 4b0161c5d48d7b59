"""KnowHub's MCP server against the official MCP Python SDK (PyPI `mcp` 2.3.0), on both transports.

Run by scripts/mcp-conformance.sh, which installs the SDK and starts the hubs:

    python scripts/mcp_conformance.py BIN HUB_URL AGENT_KEY ADMIN_KEY DOWN_URL

HUB_URL is a hub with auth on. For each transport (stdio: `BIN mcp` as a client of HUB_URL; HTTP:
HUB_URL/mcp) and each lifecycle the SDK speaks (`initialize`, 2025-11-25; `server/discover`,
2026-07-28) it lists tools/resources, calls every tool, and checks the error paths. Prints one
line per check and `mcp-conformance: N passed, M failed`; exits 1 on any failure.
"""

import asyncio
import json
import sys
import urllib.parse
import uuid

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

BIN, HUB, AGENT_KEY, ADMIN_KEY, DOWN = sys.argv[1:6]
RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'} {name}" + ("" if ok else f" -- {detail}"), flush=True)


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def expect_mcp_error(coro):
    try:
        await coro
    except MCPError as e:
        return e.error
    return None


def rest(method, path, key, **kw):
    headers = {"authorization": f"Bearer {key}"} if key else {}
    return httpx2.request(method, f"{HUB}{path}", headers=headers, timeout=10, **kw)


async def walk(s: ClientSession, label: str, lifecycle: str, agent_id: str):
    t = f"[{label}/{lifecycle}]"
    info = await (s.initialize() if lifecycle == "legacy" else s.discover())
    d = info.model_dump(by_alias=True, mode="json")
    name = (d.get("serverInfo") or d.get("_meta", {}).get("io.modelcontextprotocol/serverInfo") or {}).get("name")
    check(f"{t} handshake names the server", name == "knowhub", d)
    instr = info.instructions or ""
    check(f"{t} instructions say when to search and submit", "kb_search" in instr and "kb_submit" in instr, instr[:200])

    tools = {x.name: x for x in (await s.list_tools()).tools}
    check(f"{t} tools/list", sorted(tools) == ["kb_content", "kb_feedback", "kb_playbook", "kb_search", "kb_submit"], sorted(tools))
    for name, tool in tools.items():
        ok = (
            tool.input_schema.get("additionalProperties") is False
            and tool.output_schema is not None
            and tool.annotations is not None
            and tool.annotations.read_only_hint == (name not in ("kb_submit", "kb_feedback"))
            and tool.annotations.destructive_hint is False
            and tool.annotations.open_world_hint is False
        )
        check(f"{t} {name}: closed schema, output schema, hints", ok, tool.model_dump(exclude_none=True))
    res = await s.list_resources()
    check(f"{t} resources/list (none listed by design)", res.resources == [], res)
    tmpl = await s.list_resource_templates()
    check(
        f"{t} resources/templates/list",
        [x.uri_template for x in tmpl.resource_templates] == ["knowhub://experience/{id}", "knowhub://playbook/{resource}"],
        tmpl,
    )

    marker = f"zq{uuid.uuid4().hex[:10]}"
    r = await s.call_tool(
        "kb_submit",
        {
            "task": f"Speed up {marker} builds",
            "resource": f"{marker}ctl build --cache <dir>",
            "result": "build 4m -> 40s; cache dir must be on local disk",
            "score": 5,
            "content": "1. run `ctl build --cache /var/cache` & check <logs>",
        },
    )
    sid = (r.structured_content or {}).get("id")
    check(f"{t} kb_submit creates a record", not r.is_error and r.structured_content.get("created") is True, text_of(r))
    rec = rest("GET", f"/api/experiences/{sid}", ADMIN_KEY).json()
    # With auth on the hub stores an agent id under the key that wrote it (the key is sdk-agent).
    stored = f"sdk-agent/{agent_id}"
    check(f"{t} the hub recorded the agent id {stored!r}", rec.get("agent_id") == stored, rec)

    r = await s.call_tool("kb_search", {"query": f"{marker} builds", "top_k": 3, "min_score": 1})
    txt = text_of(r)
    check(
        f"{t} kb_search finds it, wrapped as untrusted and escaped",
        not r.is_error
        and txt.startswith("<knowhub-experiences>\n")
        and "untrusted historical data" in txt
        and f"resource: {marker}ctl build --cache &lt;dir&gt;" in txt
        and r.structured_content["results"][0]["id"] == sid,
        txt[:600],
    )
    r = await s.call_tool("kb_search", {"query": "qqzzxxyy nonexistent topic"})
    check(
        f"{t} kb_search with nothing relevant says so",
        "KnowHub has no relevant experience for this; proceed without it." in text_of(r)
        and r.structured_content["count"] == 0,
        text_of(r),
    )
    r = await s.call_tool("kb_content", {"experience_id": sid})
    check(
        f"{t} kb_content wraps and escapes the details",
        not r.is_error and "<knowhub-content" in text_of(r) and "&amp; check &lt;logs&gt;" in text_of(r),
        text_of(r)[:400],
    )
    for _ in range(2):
        r = await s.call_tool("kb_feedback", {"id": sid, "outcome": "helped", "note": "worked on CI"})
    fb = r.structured_content or {}
    check(
        f"{t} kb_feedback records one vote per caller",
        not r.is_error and fb.get("feedback", {}).get("helped") == 1 and fb.get("outcome") == "helped",
        text_of(r),
    )
    r = await s.call_tool("kb_feedback", {"id": sid, "outcome": "great"})
    check(f"{t} kb_feedback with a bad outcome -> tool error naming it", r.is_error and text_of(r).startswith("kb_feedback: outcome:"), text_of(r))
    rr = await s.read_resource(f"knowhub://experience/{sid}")
    body = rr.contents[0].text
    check(f"{t} resources/read returns the record wrapped", body.startswith(f'<knowhub-experience id="{sid}">'), body[:200])
    res_name = f"{marker}ctl build --cache <dir>"
    rr = await s.read_resource(f"knowhub://playbook/{urllib.parse.quote(res_name, safe='')}")
    body = rr.contents[0].text
    check(
        f"{t} resources/read of a playbook: framed, escaped, citing the record",
        body.startswith(f'<knowhub-playbook resource="{marker}ctl build --cache &lt;dir&gt;">') and f"[{sid}]" in body,
        body[:400],
    )
    r = await s.call_tool("kb_playbook", {"resource": res_name})
    check(f"{t} kb_playbook returns the same playbook", not r.is_error and text_of(r) == body, text_of(r)[:400])
    err = await expect_mcp_error(s.read_resource("knowhub://playbook/no-such-tool-qqzz"))
    check(f"{t} unknown playbook -> MCP error", err is not None and "not found" in err.message, err)

    for args, want in [
        ({"query": "x", "top_k": 99}, "kb_search: top_k: must be an integer from 1 to 50, got 99"),
        ({"query": "x", "limit": 3}, "kb_search: limit: unknown argument"),
        ({}, "kb_search: query: is required"),
        ({"query": 42}, "kb_search: query: must be a string"),
    ]:
        r = await s.call_tool("kb_search", args)
        check(f"{t} bad arguments {args} -> tool error naming it", r.is_error and text_of(r).startswith(want), text_of(r))
    err = await expect_mcp_error(s.call_tool("kb_approve", {"id": sid}))
    check(f"{t} unknown tool -> MCP error naming it", err is not None and "kb_approve" in err.message, err)
    r = await s.call_tool("kb_content", {"experience_id": "01a1fd05-6e78-7508-9e0b-04e85860f468"})
    check(f"{t} unknown id -> tool error", r.is_error and "not found" in text_of(r), text_of(r))
    err = await expect_mcp_error(s.read_resource("knowhub://experience/01a1fd05-6e78-7508-9e0b-04e85860f468"))
    check(f"{t} unknown resource id -> MCP error", err is not None and "not found" in err.message, err)


def stdio_params(url, key, agent_id):
    env = {"KNOWHUB_URL": url, "KNOWHUB_AGENT_ID": agent_id, "PATH": "/usr/bin:/bin"}
    if key:
        env["KNOWHUB_API_KEY"] = key
    return StdioServerParameters(command=BIN, args=["mcp", "--timeout", "5"], env=env)


async def over_stdio(lifecycle):
    async with stdio_client(stdio_params(HUB, AGENT_KEY, "sdk-stdio")) as (read, write):
        async with ClientSession(read, write) as s:
            await walk(s, "stdio", lifecycle, "sdk-stdio")


async def over_http(lifecycle):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {AGENT_KEY}"})
    async with http:
        async with streamable_http_client(f"{HUB}/mcp?agent_id=sdk-http", http_client=http) as (read, write):
            async with ClientSession(read, write) as s:
                await walk(s, "http", lifecycle, "sdk-http")


async def stdio_failures():
    for label, url, key, want in [
        ("hub down", DOWN, AGENT_KEY, f"kb_search: the KnowHub hub at {DOWN} is unreachable"),
        ("wrong key", HUB, "kh_wrong", "kb_search: invalid or revoked API key"),
    ]:
        async with stdio_client(stdio_params(url, key, "sdk-stdio")) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                r = await s.call_tool("kb_search", {"query": "anything"})
                r2 = await s.call_tool("kb_submit", {"task": "t", "resource": "r", "result": "x"})
                check(
                    f"[stdio] {label} -> tool error, the session goes on",
                    r.is_error and text_of(r).startswith(want) and r2.is_error,
                    text_of(r),
                )


def http_auth():
    init = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    hdr = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    for label, key in [("without a key", None), ("with a wrong key", "kh_wrong")]:
        h = dict(hdr, **({"authorization": f"Bearer {key}"} if key else {}))
        r = httpx2.post(f"{HUB}/mcp", headers=h, content=json.dumps(init), timeout=10)
        ok = r.status_code == 401 and r.headers.get("www-authenticate") == "Bearer" and r.json()["error"]["code"] == "unauthorized"
        check(f"[http] /mcp {label} -> 401 Bearer with the API's error shape", ok, f"{r.status_code} {r.text}")
    r = rest("GET", "/api/pending", AGENT_KEY)
    check("[http] the agent key may not use the review queue (403)", r.status_code == 403, r.status_code)


async def main():
    for lifecycle in ["legacy", "modern"]:
        await over_stdio(lifecycle)
        await over_http(lifecycle)
    await stdio_failures()
    http_auth()
    passed, failed = RESULTS.count(True), RESULTS.count(False)
    print(f"mcp-conformance: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    asyncio.run(main())
