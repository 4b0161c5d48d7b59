"""The examples that need no LLM run against the real hub and print what they promise."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import HERE, Hub


def run(example: str, hub: Hub, key: str, *args: str, cwd: Path) -> str:
    env = dict(os.environ, KNOWHUB_URL=hub.url, KNOWHUB_API_KEY=key)
    r = subprocess.run([sys.executable, str(HERE / "examples" / example), *args], env=env, cwd=cwd,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_sync_example_searches_and_submits(hub: Hub, tmp_path: Path) -> None:
    first = run("sync_search_submit.py", hub, hub.admin_key, cwd=tmp_path)
    assert "stored " in first and "(approved)" in first
    again = run("sync_search_submit.py", hub, hub.reviewer_key, cwd=tmp_path)
    assert "already known as" in again and "confirmations now 2" in again
    assert "[4/5] pytest-xdist -n auto" in again
    assert re.search(r"voted: [1-9][0-9]* helped so far", again)


def test_async_example_reads_the_feed_and_saves_the_cursor(hub: Hub, tmp_path: Path) -> None:
    out = run("async_feed.py", hub, hub.admin_key, "--once", cwd=tmp_path)
    assert "'flaky tests':" in out
    assert " submitted " in out
    cursor = (tmp_path / ".knowhub-cursor").read_text()
    assert ":" in cursor
    # Resuming from the saved cursor prints nothing old.
    assert " submitted " not in run("async_feed.py", hub, hub.admin_key, "--once", cwd=tmp_path)
