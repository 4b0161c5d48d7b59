"""The synchronous client."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, cast

import httpx

from . import _base as b
from .errors import transport_error
from .types import (
    ChangesPage,
    Change,
    Content,
    CreatedKey,
    Dashboard,
    Deleted,
    Experience,
    ExperienceView,
    FeedbackOutcome,
    FeedbackResponse,
    Health,
    HistoryPage,
    Job,
    KeyList,
    Outcome,
    PendingKind,
    PendingPage,
    Quarantine,
    QuarantineList,
    Released,
    ResourceList,
    ResourcePage,
    Revoked,
    Role,
    SearchMode,
    SearchResponse,
    Playbook,
    SubmitResponse,
    SyncReport,
    WrittenPlaybook,
)


class Client:
    """A KnowHub hub over HTTP.

    >>> with Client("http://127.0.0.1:8000", api_key="kh_...") as hub:
    ...     hub.search("pgbouncer connection timeouts")

    One connection pool serves every call; close it with `close()` or a `with` block. Every
    error is a `knowhub.KnowHubError`: `APIError` subclasses for the hub's error answers
    (with `code`, `message`, `field`), `TransportError` when the hub could not be reached.
    """

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000",
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = b.DEFAULT_TIMEOUT,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self._timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self._http = httpx.Client(
            base_url=self.url,
            headers=b.headers(api_key, headers),
            timeout=self._timeout,
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _call(self, req: b.Request) -> Any:
        try:
            response = self._http.request(req.method, req.path, **b.request_kwargs(req, self._timeout))
        except httpx.TransportError as exc:
            raise transport_error(exc, self.url + req.path) from exc
        return b.read(req, response)

    def iter_changes(
        self,
        since: str | None = None,
        *,
        limit: int | None = None,
        wait: int = 0,
        follow: bool = False,
    ) -> ChangeFeed:
        """The change feed as an iterator of changes, following the cursor from page to page.

        Without `follow` it ends when the hub has nothing newer; with `follow` it long-polls
        (`wait` seconds per request, 30 when 0) and never ends. `feed.cursor` is where to
        resume: it moves once every change of a page has been yielded, so a reader that stops
        mid-page and resumes from it sees the rest of that page again (drop repeats by `seq`).
        """
        return ChangeFeed(self, since, limit=limit, wait=wait, follow=follow)

    # --- endpoints (the async client's are generated from these: scripts/gen_async.py) ---

    def health(self) -> Health:
        """`GET /healthz`: status, version, backend and counts (only `status` without a valid key
        when keys are required)."""
        return cast(Health, self._call(b.Request("GET", "/healthz")))

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        min_score: int | None = None,
        agent_id: str | None = None,
        outcome: Outcome | None = None,
        mode: SearchMode | None = None,
        min_relevance: float | None = None,
        scope: str | None = None,
    ) -> SearchResponse:
        """`GET /api/search`: approved experiences relevant to `query`. `count: 0` is an answer:
        the hub knows nothing relevant."""
        p = b.params(
            q=query,
            top_k=top_k,
            min_score=min_score,
            agent_id=agent_id,
            outcome=outcome,
            mode=mode,
            min_relevance=min_relevance,
            scope=scope,
        )
        return cast(SearchResponse, self._call(b.Request("GET", "/api/search", p)))

    def submit(
        self,
        *,
        task: str,
        resource: str,
        result: str,
        score: int | None = None,
        outcome: Outcome | None = None,
        resource_version: str | None = None,
        agent_id: str | None = None,
        submitted_by: str | None = None,
        session_key: str | None = None,
        timestamp: str | _dt.datetime | None = None,
        content: str | None = None,
        content_type: str | None = None,
        scope: str | None = None,
        expires_at: str | _dt.datetime | None = None,
        ttl_days: int | None = None,
    ) -> SubmitResponse:
        """`POST /api/submit`: one experience (201 new, 200 the same as a stored one:
        `duplicate_of`). `score` 1..5 is how well the resource served the task."""
        data = b.body(
            task=task,
            resource=resource,
            result=result,
            score=score,
            outcome=outcome,
            resource_version=resource_version,
            agent_id=agent_id,
            submitted_by=submitted_by,
            session_key=session_key,
            timestamp=timestamp,
            content=content,
            content_type=content_type,
            scope=scope,
            expires_at=expires_at,
            ttl_days=ttl_days,
        )
        return cast(SubmitResponse, self._call(b.Request("POST", "/api/submit", body=data)))

    def feedback(
        self,
        id: str,
        outcome: FeedbackOutcome,
        *,
        note: str | None = None,
        agent_id: str | None = None,
    ) -> FeedbackResponse:
        """`POST /api/feedback`: how an experience worked out (helped | failed | irrelevant).
        One vote per caller; a second replaces the first."""
        data = b.body(id=id, outcome=outcome, note=note, agent_id=agent_id)
        return cast(FeedbackResponse, self._call(b.Request("POST", "/api/feedback", body=data)))

    def get_experience(self, id: str) -> Experience:
        """`GET /api/experiences/{id}`: the full record."""
        return cast(Experience, self._call(b.Request("GET", f"/api/experiences/{b.seg(id)}")))

    def content(self, id: str) -> Content:
        """`GET /api/content/{id}`: an experience's long content."""
        return cast(Content, self._call(b.Request("GET", f"/api/content/{b.seg(id)}")))

    def history(self, id: str) -> HistoryPage:
        """`GET /api/experiences/{id}/history`: every event of a record, oldest first."""
        return cast(HistoryPage, self._call(b.Request("GET", f"/api/experiences/{b.seg(id)}/history")))

    def view(self, id: str) -> ExperienceView:
        """`GET /api/experiences/{id}/view` (reviewer): everything about one record."""
        return cast(ExperienceView, self._call(b.Request("GET", f"/api/experiences/{b.seg(id)}/view")))

    def revert(self, id: str, event: int) -> Experience:
        """`POST /api/experiences/{id}/revert` (reviewer): undo one `edited` event."""
        path = f"/api/experiences/{b.seg(id)}/revert"
        return cast(Experience, self._call(b.Request("POST", path, body={"event": event})))

    def set_scope(self, id: str, scope: str) -> Experience:
        """`POST /api/experiences/{id}/scope` (reviewer): move a record to another scope."""
        path = f"/api/experiences/{b.seg(id)}/scope"
        return cast(Experience, self._call(b.Request("POST", path, body={"scope": scope})))

    def delete_experience(self, id: str) -> Deleted:
        """`DELETE /api/experiences/{id}` (admin): remove a record, its content and vectors."""
        return cast(Deleted, self._call(b.Request("DELETE", f"/api/experiences/{b.seg(id)}")))

    def resources(self, q: str | None = None, *, limit: int | None = None) -> ResourceList:
        """`GET /api/resources`: tools and libraries named in approved records, most used first."""
        p = b.params(q=q, limit=limit)
        return cast(ResourceList, self._call(b.Request("GET", "/api/resources", p)))

    def resource(self, name: str) -> ResourcePage:
        """`GET /api/resources/{name}`: one resource's track record, failures first."""
        return cast(ResourcePage, self._call(b.Request("GET", f"/api/resources/{b.seg(name)}")))

    def playbook(self, resource: str, *, budget: int | None = None, scope: str | None = None) -> Playbook:
        """`GET /api/playbooks/{resource}`: what the hub knows about a resource, distilled
        (failures first, cited ids), within `budget` tokens; `text` is ready for a prompt."""
        p = b.params(budget=budget, scope=scope)
        return cast(Playbook, self._call(b.Request("GET", f"/api/playbooks/{b.seg(resource)}", p)))

    def draft_playbook(
        self, resource: str, *, budget: int | None = None, scope: str | None = None
    ) -> WrittenPlaybook:
        """`POST /api/playbooks/{resource}/draft` (reviewer; the hub needs an LLM): the model
        rewrites the resource's playbook; the draft waits for review."""
        data = b.body(budget=budget, scope=scope)
        path = f"/api/playbooks/{b.seg(resource)}/draft"
        return cast(WrittenPlaybook, self._call(b.Request("POST", path, body=data)))

    def written_playbook(self, resource: str) -> WrittenPlaybook:
        """`GET /api/playbooks/{resource}/draft` (reviewer): the written playbook, any status."""
        path = f"/api/playbooks/{b.seg(resource)}/draft"
        return cast(WrittenPlaybook, self._call(b.Request("GET", path)))

    def review_playbook(self, resource: str, action: Literal["approve", "reject"]) -> WrittenPlaybook:
        """`POST /api/playbooks/{resource}/review` (reviewer): approve (409 when stale) or reject."""
        path = f"/api/playbooks/{b.seg(resource)}/review"
        return cast(WrittenPlaybook, self._call(b.Request("POST", path, body=b.body(action=action))))

    def pending(
        self,
        kind: PendingKind | None = None,
        *,
        after: str | None = None,
        limit: int | None = None,
    ) -> PendingPage:
        """`GET /api/pending` (reviewer): the review queue (`next_after` pages on)."""
        p = b.params(kind=kind, after=after, limit=limit)
        return cast(PendingPage, self._call(b.Request("GET", "/api/pending", p)))

    def approve(
        self,
        id: str,
        *,
        task: str | None = None,
        resource: str | None = None,
        result: str | None = None,
        score: int | None = None,
        outcome: Outcome | None = None,
    ) -> Experience:
        """`POST /api/approve/{id}` (reviewer), optionally correcting fields on the way."""
        edits = b.body(task=task, resource=resource, result=result, score=score, outcome=outcome)
        req = b.Request("POST", f"/api/approve/{b.seg(id)}", body=edits or None)
        return cast(Experience, self._call(req))

    def reject(self, id: str, *, reason: str | None = None) -> Experience:
        """`POST /api/reject/{id}` (reviewer)."""
        req = b.Request("POST", f"/api/reject/{b.seg(id)}", body=b.body(reason=reason) or None)
        return cast(Experience, self._call(req))

    def merge(self, id: str, into: str) -> Experience:
        """`POST /api/merge/{id}` (reviewer): a pending record becomes a confirmation of `into`."""
        req = b.Request("POST", f"/api/merge/{b.seg(id)}", body={"into": into})
        return cast(Experience, self._call(req))

    def quarantine(self, *, key: str | None = None, agent_id: str | None = None) -> Quarantine:
        """`POST /api/quarantine` (admin): hold everything one key or agent wrote."""
        req = b.Request("POST", "/api/quarantine", body=b.body(key=key, agent_id=agent_id))
        return cast(Quarantine, self._call(req))

    def sync(
        self,
        from_url: str,
        *,
        key: str | None = None,
        scope: str | None = None,
        into: str | None = None,
    ) -> SyncReport:
        """`POST /api/sync` (admin): this hub pulls the hub at `from_url` (with `key`, a key of
        that hub) until caught up; `scope` keeps one of its scopes, `into` stores them here."""
        data = b.body(key=key, scope=scope, into=into)
        data["from"] = from_url
        return cast(SyncReport, self._call(b.Request("POST", "/api/sync", body=data)))

    def quarantines(self) -> QuarantineList:
        """`GET /api/quarantine` (reviewer): the active quarantines."""
        return cast(QuarantineList, self._call(b.Request("GET", "/api/quarantine")))

    def lift_quarantine(
        self,
        *,
        key: str | None = None,
        agent_id: str | None = None,
        action: str | None = None,
        reason: str | None = None,
    ) -> Released:
        """`DELETE /api/quarantine` (admin): `action` restore (default) or reject (with `reason`)."""
        data = b.body(key=key, agent_id=agent_id, action=action, reason=reason)
        return cast(Released, self._call(b.Request("DELETE", "/api/quarantine", body=data)))

    def create_key(
        self,
        name: str,
        role: Role,
        *,
        read: str | None = None,
        write: str | None = None,
    ) -> CreatedKey:
        """`POST /api/keys` (admin): the key itself is in this answer only."""
        data = b.body(name=name, role=role, read=read, write=write)
        return cast(CreatedKey, self._call(b.Request("POST", "/api/keys", body=data)))

    def keys(self) -> KeyList:
        """`GET /api/keys` (admin): keys without the secrets."""
        return cast(KeyList, self._call(b.Request("GET", "/api/keys")))

    def revoke_key(self, id_or_name: str, *, quarantine: bool | None = None) -> Revoked:
        """`DELETE /api/keys/{id-or-name}` (admin), with `quarantine=True` also holding what it wrote."""
        p = b.params(quarantine=quarantine)
        return cast(Revoked, self._call(b.Request("DELETE", f"/api/keys/{b.seg(id_or_name)}", p)))

    def changes(
        self,
        since: str | None = None,
        *,
        limit: int | None = None,
        wait: int | None = None,
        scope: str | None = None,
        peer: str | None = None,
    ) -> ChangesPage:
        """`GET /api/changes`: one page of the change feed after `since` (a previous `cursor`).
        `wait` (0..60 s) long-polls when nothing is new; `scope` keeps one scope's records;
        `peer` (a hub id) adds what a sync merge needs."""
        p = b.params(since=since, limit=limit, wait=wait, scope=scope, peer=peer)
        return cast(ChangesPage, self._call(b.Request("GET", "/api/changes", p, hold=float(wait or 0))))

    def extract(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        agent_id: str | None = None,
        submitted_by: str | None = None,
        session_key: str | None = None,
        session_id: str | None = None,
        require_approval: bool | None = None,
        privacy_mode: str | None = None,
        source: str | None = None,
        scope: str | None = None,
        wait: int | None = None,
    ) -> Job:
        """`POST /api/extract`: upload (part of) a conversation for the hub's LLM to extract
        experiences from. Answers at once with the queued job unless `wait` (0..120 s)."""
        data = b.body(
            messages=b.as_messages(messages),
            agent_id=agent_id,
            submitted_by=submitted_by,
            session_key=session_key,
            session_id=session_id,
            require_approval=require_approval,
            privacy_mode=privacy_mode,
            source=source,
            scope=scope,
        )
        req = b.Request("POST", "/api/extract", b.params(wait=wait), body=data, hold=float(wait or 0))
        return cast(Job, self._call(req))

    def job(self, job_id: str) -> Job:
        """`GET /api/extract/{job_id}`: an extraction job's state and what it found."""
        return cast(Job, self._call(b.Request("GET", f"/api/extract/{b.seg(job_id)}")))

    def dashboard(self, *, weeks: int | None = None) -> Dashboard:
        """`GET /api/dashboard` (reviewer): whether the hub is used and whether it helps."""
        return cast(Dashboard, self._call(b.Request("GET", "/api/dashboard", b.params(weeks=weeks))))

    def metrics(self) -> str:
        """`GET /metrics`: Prometheus text."""
        return cast(str, self._call(b.Request("GET", "/metrics", text=True)))

    # --- end of endpoints ---


class ChangeFeed(Iterator[Change]):
    """Iterates the change feed page by page; `cursor` is where a new reader should resume."""

    def __init__(
        self,
        client: Client,
        since: str | None,
        *,
        limit: int | None,
        wait: int,
        follow: bool,
    ) -> None:
        self._client = client
        self.cursor = since
        self._limit = limit
        self._wait = wait if wait or not follow else 30
        self._follow = follow
        self._page: list[Change] = []
        self._page_cursor: str | None = since
        self._done = False

    def __iter__(self) -> ChangeFeed:
        return self

    def __next__(self) -> Change:
        while not self._page:
            self.cursor = self._page_cursor
            if self._done:
                raise StopIteration
            page = self._client.changes(self.cursor, limit=self._limit, wait=self._wait or None)
            self._page = list(page["changes"])
            self._page_cursor = page["cursor"]
            if not page["more"] and not self._follow:
                self._done = True
        change = self._page.pop(0)
        if not self._page:
            self.cursor = self._page_cursor
        return change
