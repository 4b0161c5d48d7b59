"""A real `knowhub serve` for the tests: auth on, a fresh data dir, a free port on 127.0.0.1, and
a scripted OpenAI-compatible LLM so extraction runs end to end.

The binary comes from KNOWHUB_BIN (default ../../target/debug/knowhub, what `cargo build` makes).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import knowhub

HERE = Path(__file__).resolve().parent.parent
REPO = HERE.parent.parent


def knowhub_bin() -> Path:
    path = Path(os.environ.get("KNOWHUB_BIN") or HERE / "../../target/debug/knowhub").resolve()
    if not path.is_file():
        pytest.exit(
            f"knowhub binary not found at {path}: build it (cargo build -p knowhub) or set KNOWHUB_BIN",
            returncode=2,
        )
    return path


class FakeLlm:
    """Answers `POST /v1/chat/completions` with the items it is given (a JSON array as text)."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.requests: list[dict[str, Any]] = []
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                n = int(self.headers.get("content-length", "0"))
                llm.requests.append(json.loads(self.rfile.read(n) or b"{}"))
                text = json.dumps(llm.items)
                body = json.dumps(
                    {
                        "model": "scripted",
                        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


@dataclass
class Hub:
    url: str
    admin_key: str
    reviewer_key: str
    agent_key: str
    llm: FakeLlm | None
    process: subprocess.Popen[str]

    def admin(self) -> knowhub.Client:
        return knowhub.Client(self.url, api_key=self.admin_key)

    def reviewer(self) -> knowhub.Client:
        return knowhub.Client(self.url, api_key=self.reviewer_key)

    def agent(self) -> knowhub.Client:
        return knowhub.Client(self.url, api_key=self.agent_key)


def start_hub(tmp: Path, config: str, llm: FakeLlm | None) -> Hub:
    binary = knowhub_bin()
    data = tmp / "data"
    cfg = tmp / "knowhub.toml"
    cfg.write_text(f'data_dir = "{data}"\nauth = true\n[embedder]\nkind = "none"\n{config}', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWHUB_")}
    env["KNOWHUB_CONFIG"] = str(cfg)
    if llm is not None:
        env.update(KNOWHUB_LLM_BASE_URL=llm.url, KNOWHUB_LLM_MODEL="scripted", KNOWHUB_LLM_API_KEY="test")
    created = subprocess.run(
        [str(binary), "keys", "create", "--role", "admin", "--name", "root"],
        env=env, capture_output=True, text=True, check=True,
    )
    admin_key = created.stdout.strip().splitlines()[-1]
    log = open(tmp / "serve.log", "w")  # noqa: SIM115 - lives as long as the server
    proc = subprocess.Popen(
        [str(binary), "serve", "--bind", "127.0.0.1:0"],
        env=env, stdout=subprocess.PIPE, stderr=log, text=True,
    )
    assert proc.stdout is not None
    url = None
    for line in proc.stdout:
        if "listening on " in line:
            url = line.split("listening on ", 1)[1].strip()
            break
    if url is None:
        proc.kill()
        raise RuntimeError(f"knowhub serve did not start:\n{(tmp / 'serve.log').read_text()}")
    # Keep draining stdout so the server never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stdout or []], daemon=True).start()
    with knowhub.Client(url, api_key=admin_key) as admin:
        reviewer = admin.create_key("reviewer-1", "reviewer")["key"]
        agent = admin.create_key("agent-1", "agent", read="org,team/py")["key"]
    return Hub(url, admin_key, reviewer, agent, llm, proc)


def stop_hub(hub: Hub) -> None:
    hub.process.terminate()
    try:
        hub.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        hub.process.kill()


@pytest.fixture(scope="session")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """The hub most tests share. Agents' submits wait for review (`auto_approve = "reviewers"`),
    so the review queue has something in it; reviewers' and admins' are approved at once."""
    llm = FakeLlm()
    h = start_hub(
        tmp_path_factory.mktemp("hub"),
        '[review]\nauto_approve = "reviewers"\n[limits]\nrecord_burst = 0\nrecords_per_hour = 0\n',
        llm,
    )
    yield h
    stop_hub(h)
    llm.close()


@pytest.fixture(scope="session")
def tight_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """A hub with a write budget of 2 a minute, to meet 429."""
    h = start_hub(tmp_path_factory.mktemp("tight"), "[limits]\nwrites_per_minute = 2\n", None)
    yield h
    stop_hub(h)


@pytest.fixture
def admin(hub: Hub) -> Iterator[knowhub.Client]:
    with hub.admin() as c:
        yield c


@pytest.fixture
def reviewer(hub: Hub) -> Iterator[knowhub.Client]:
    with hub.reviewer() as c:
        yield c


@pytest.fixture
def agent(hub: Hub) -> Iterator[knowhub.Client]:
    with hub.agent() as c:
        yield c


@pytest.fixture
def tag() -> str:
    """A word no other test uses, so each test finds only its own records."""
    # Letters only: the full-text index splits letters from digits, and a digit run shared with
    # another test's tag would match its records.
    return "kh" + "".join(chr(ord("a") + int(c, 16) % 26) for c in uuid.uuid4().hex[:12])
