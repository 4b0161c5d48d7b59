"""The async client: several searches at once, then follow the hub's change feed and print each
change as it happens (long-polling; the cursor is saved so a restart resumes where it stopped).

    KNOWHUB_URL=http://127.0.0.1:8000 KNOWHUB_API_KEY=kh_... python examples/async_feed.py [--once]
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import knowhub

CURSOR_FILE = Path(os.environ.get("KNOWHUB_CURSOR_FILE", ".knowhub-cursor"))


async def main(once: bool) -> None:
    url = os.environ.get("KNOWHUB_URL", "http://127.0.0.1:8000")
    async with knowhub.AsyncClient(url, api_key=os.environ.get("KNOWHUB_API_KEY")) as hub:
        queries = ["postgres connection timeouts", "flaky tests", "docker build cache"]
        answers = await asyncio.gather(*(hub.search(q, min_score=1) for q in queries))
        for q, a in zip(queries, answers):
            print(f"{q!r}: {a['count']} experience(s)")

        since = CURSOR_FILE.read_text().strip() if CURSOR_FILE.exists() else None
        feed = hub.iter_changes(since, wait=0 if once else 30, follow=not once)
        try:
            async for change in feed:
                exp = change.get("experience")
                task = exp["task"] if exp else "(deleted)"
                print(f"#{change['seq']} {change['kind']:<10} {change['experience_id']} {task}")
                if feed.cursor:
                    CURSOR_FILE.write_text(feed.cursor)
        finally:
            if feed.cursor:
                CURSOR_FILE.write_text(feed.cursor)


if __name__ == "__main__":
    asyncio.run(main(once="--once" in sys.argv[1:]))
