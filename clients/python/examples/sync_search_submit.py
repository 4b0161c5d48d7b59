"""Search before a task, then record how it went, and vote on the experience that helped.

    KNOWHUB_URL=http://127.0.0.1:8000 KNOWHUB_API_KEY=kh_... python examples/sync_search_submit.py
"""

from __future__ import annotations

import os

import knowhub


def main() -> None:
    url = os.environ.get("KNOWHUB_URL", "http://127.0.0.1:8000")
    with knowhub.Client(url, api_key=os.environ.get("KNOWHUB_API_KEY")) as hub:
        task = "Speed up a slow pytest suite on CI"
        found = hub.search(task, top_k=3)
        if found["count"] == 0:
            print("KnowHub has nothing on this yet.")
        for hit in found["results"]:
            mark = "FAILED before" if hit["outcome"] == "failure" else f"{hit['score']}/5"
            print(f"[{mark}] {hit['resource']}: {hit['result']} (relevance {hit['relevance']:.2f}, id {hit['id']})")

        # ... do the task, then share what happened, whether it worked or not.
        try:
            res = hub.submit(
                task=task,
                resource="pytest-xdist -n auto",
                result="suite went from 14 to 4 minutes on 4 cores; two tests needed tmp_path instead of a shared dir",
                score=4,
                resource_version="3.6",
                agent_id="example",
            )
        except knowhub.BadRequestError as e:
            print(f"refused: {e.code} on {e.field}: {e.message}")
            return
        if res.get("duplicate_of"):
            print(f"already known as {res['duplicate_of']}; confirmations now {res['confirmations']}")
        else:
            print(f"stored {res['id']} ({res['status']})")

        if found["results"]:
            vote = hub.feedback(found["results"][0]["id"], "helped", agent_id="example")
            print(f"voted: {vote['feedback']['helped']} helped so far")


if __name__ == "__main__":
    main()
