"""Writes src/knowhub/_async.py from src/knowhub/_sync.py, so the two clients cannot drift.

Run `python scripts/gen_async.py` after editing _sync.py; `--check` exits 1 when the file on
disk is stale (the tests run it). Every rewrite must match at least once, so a change to
_sync.py that breaks one fails loudly instead of leaving a sync call in the async client.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYNC = ROOT / "src" / "knowhub" / "_sync.py"
ASYNC = ROOT / "src" / "knowhub" / "_async.py"

# (pattern, replacement) applied to the whole file, in order.
WHOLE = [
    (r'^"""The synchronous client\."""',
     '"""The asynchronous client. Generated from _sync.py by scripts/gen_async.py: edit that file,\n'
     'then regenerate."""'),
    (r"from collections\.abc import Iterator,", "from collections.abc import AsyncIterator,"),
    (r"\bclass Client:", "class AsyncClient:"),
    (r">>> with Client\(", ">>> async with AsyncClient("),
    (r"\.\.\.     hub\.search", "...     await hub.search"),
    (r"close it with `close\(\)` or a `with` block", "close it with `aclose()` or an `async with` block"),
    (r"httpx\.BaseTransport", "httpx.AsyncBaseTransport"),
    (r"httpx\.Client\(", "httpx.AsyncClient("),
    (r"    def close\(self\) -> None:\n        self\._http\.close\(\)",
     "    async def aclose(self) -> None:\n        await self._http.aclose()"),
    (r"    def __enter__\(self\) -> Client:", "    async def __aenter__(self) -> AsyncClient:"),
    (r"    def __exit__\(", "    async def __aexit__("),
    (r"        self\.close\(\)", "        await self.aclose()"),
    (r"    def _call\(", "    async def _call("),
    (r"response = self\._http\.request\(", "response = await self._http.request("),
    (r"\bChangeFeed\b", "AsyncChangeFeed"),
    (r"client: Client\b", "client: AsyncClient"),
    (r"Iterator\[Change\]", "AsyncIterator[Change]"),
    (r"def __iter__\(self\)", "def __aiter__(self)"),
    (r"    def __next__\(self\)", "    async def __anext__(self)"),
    (r"raise StopIteration\b", "raise StopAsyncIteration"),
    (r"page = self\._client\.changes\(", "page = await self._client.changes("),
]

# Applied inside the endpoints block only.
ENDPOINTS = [
    (r"\n    def ", "\n    async def "),
    (r"self\._call\(", "await self._call("),
]

START = "    # --- endpoints"
END = "    # --- end of endpoints ---"


def sub_all(text: str, rules: list[tuple[str, str]]) -> str:
    for pattern, replacement in rules:
        text, n = re.subn(pattern, replacement, text, flags=re.M)
        if n == 0:
            raise SystemExit(f"gen_async: {pattern!r} matched nothing in _sync.py")
    return text


def generate() -> str:
    text = SYNC.read_text(encoding="utf-8")
    start, end = text.index(START), text.index(END)
    block = sub_all(text[start:end], ENDPOINTS)
    text = text[:start] + block + text[end:]
    return sub_all(text, WHOLE)


def main() -> None:
    out = generate()
    if "--check" in sys.argv[1:]:
        if not ASYNC.exists() or ASYNC.read_text(encoding="utf-8") != out:
            print("src/knowhub/_async.py is stale: run python scripts/gen_async.py", file=sys.stderr)
            raise SystemExit(1)
        return
    ASYNC.write_text(out, encoding="utf-8")


if __name__ == "__main__":
    main()
