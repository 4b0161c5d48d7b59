"""The shapes of KnowHub's HTTP API (docs/api.md, `/openapi.json`) as TypedDicts.

Responses stay plain dicts, as decoded from JSON, so a field the server adds later is kept
rather than dropped; these types tell a type checker which keys are there. A key marked
`NotRequired` is omitted by the server when it is not set.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Outcome = Literal["success", "failure", "partial"]
FeedbackOutcome = Literal["helped", "failed", "irrelevant"]
Status = Literal["approved", "pending", "rejected"]
SearchMode = Literal["hybrid", "fts", "vector"]
Role = Literal["agent", "reviewer", "admin"]
PendingKind = Literal["pending", "disputed", "quarantined", "expired"]


class ErrorDetail(TypedDict):
    code: str
    message: str
    field: NotRequired[str | None]


class ErrorBody(TypedDict):
    error: ErrorDetail


class HitFeedback(TypedDict):
    helped: int
    failed: int


class FeedbackCounts(TypedDict):
    helped: int
    failed: int
    irrelevant: int
    reviewed_failed: NotRequired[int]


class SearchHit(TypedDict):
    id: str
    task: str
    resource: str
    result: str
    score: int
    outcome: Outcome
    relevance: float
    agent_id: str
    created_at: str
    last_confirmed_at: str
    confirmations: int
    feedback: HitFeedback
    has_content: bool
    submitted_by: NotRequired[str]
    resource_version: NotRequired[str | None]
    scope: NotRequired[str]
    flags: NotRequired[list[str]]
    contested_with: NotRequired[list[str]]


class SearchResponse(TypedDict):
    count: int
    mode: SearchMode
    results: list[SearchHit]


class RedactionCounts(TypedDict):
    address: NotRequired[int]
    api_key: int
    bearer_token: int
    email: int
    encoded_secret: int
    home_path: int
    ip: int
    jwt: int
    national_id: int
    payment_card: int
    phone: int
    private_key: int
    secret: int


class SubmitResponse(TypedDict):
    id: str
    status: Status
    confirmations: int
    duplicate_of: NotRequired[str | None]
    contested_with: NotRequired[list[str]]
    content_proposal: NotRequired[str | None]
    note: NotRequired[str | None]
    flags: NotRequired[list[str]]
    redactions: NotRequired[RedactionCounts]


class FeedbackResponse(TypedDict):
    id: str
    outcome: FeedbackOutcome
    voter: str
    feedback: FeedbackCounts
    disputed: bool
    redactions: NotRequired[RedactionCounts]


# `from` is a Python keyword, so this one is declared functionally.
MessageRange = TypedDict("MessageRange", {"from": int, "to": int})


class Provenance(TypedDict, total=False):
    key: str
    job_id: str | None
    hub: str


class ReviewMark(TypedDict):
    by: str
    at: str
    note: NotRequired[str | None]


class Experience(TypedDict):
    id: str
    task: str
    resource: str
    result: str
    score: int
    outcome: Outcome
    agent_id: str
    source: Literal["manual", "extracted", "imported"]
    status: Status
    language: str
    content_hash: str
    confirmations: int
    created_at: str
    updated_at: str
    has_content: bool
    last_confirmed_at: NotRequired[str]
    submitted_by: NotRequired[str]
    session_key: NotRequired[str | None]
    confidence: NotRequired[float | None]
    feedback: NotRequired[FeedbackCounts]
    resource_version: NotRequired[str | None]
    contested_with: NotRequired[list[str]]
    flags: NotRequired[list[str]]
    review: NotRequired[ReviewMark | None]
    source_range: NotRequired[MessageRange | None]
    scope: NotRequired[str]
    provenance: NotRequired[Provenance]
    quarantined: NotRequired[bool]
    expired: NotRequired[bool]
    expires_at: NotRequired[str | None]
    ttl_secs: NotRequired[int | None]


class Content(TypedDict):
    experience_id: str
    content: str
    content_type: str


class Event(TypedDict):
    seq: int
    experience_id: str
    kind: str
    by: str
    at: str
    detail: NotRequired[dict[str, Any] | None]


class HistoryPage(TypedDict):
    id: str
    events: list[Event]


class Change(Event):
    """One event of the change feed with the record as it is now (`None` once deleted)."""

    experience: NotRequired[Experience | None]


class ChangesPage(TypedDict):
    changes: list[Change]
    cursor: str
    more: bool


class PlaybookEvidence(TypedDict):
    confirmations: int
    helped: int
    failed: int
    score: int


class PlaybookLine(TypedDict):
    section: str
    text: str
    ids: list[str]
    evidence: PlaybookEvidence


class WrittenState(TypedDict):
    status: Literal["pending", "approved", "rejected"]
    stale: bool
    drafted_at: str


class Playbook(TypedDict):
    resource: str
    key: str
    experiences: int
    skipped: int
    lines: list[PlaybookLine]
    omitted: int
    budget_tokens: int
    tokens: int
    text: str
    kind: Literal["distilled", "written"]
    written: NotRequired[WrittenState]


class WrittenPlaybook(TypedDict):
    status: Literal["pending", "approved", "rejected"]
    stale: bool
    scope: str | None
    dropped: int
    sources: int
    model: str
    drafted_by: str
    drafted_at: str
    reviewed_by: str | None
    reviewed_at: str | None
    playbook: Playbook


class SyncReport(TypedDict):
    peer: str
    read: int
    created: int
    updated: int
    deleted: int
    conflicts: int
    unchanged: int
    cursor: str


class Confirmation(TypedDict):
    by: str
    at: str


class Vote(TypedDict):
    voter: str
    outcome: FeedbackOutcome
    at: str
    note: NotRequired[str | None]


class HistoryEntry(TypedDict):
    at: str
    what: str
    by: str
    note: NotRequired[str | None]


class ExperienceView(TypedDict):
    experience: Experience
    confirmed_by: list[Confirmation]
    votes: list[Vote]
    contested: list[Experience]
    history: list[HistoryEntry]
    redactions: int
    content: NotRequired[Content | None]
    source_messages: NotRequired[str | None]


class Deleted(TypedDict):
    deleted: str


class ResourceSummary(TypedDict):
    key: str
    resource: str
    records: int
    successes: int
    failures: int
    partials: int
    helped: int
    failed_votes: int
    last_seen_at: str
    last_success_at: NotRequired[str | None]


class ResourceList(TypedDict):
    count: int
    resources: list[ResourceSummary]


class ResourcePage(TypedDict):
    key: str
    resource: str
    records: int
    successes: int
    # On a resource page `failures` is the list of failure records, not the count of the summary.
    failures: list[Experience]
    partials: int
    helped: int
    failed_votes: int
    last_seen_at: str
    top: list[Experience]
    last_success_at: NotRequired[str | None]
    last_success: NotRequired[Experience | None]


class PendingItem(Experience):
    queue: str
    nearest: list[SearchHit]
    redactions: int
    source_messages: NotRequired[str | None]
    votes: NotRequired[list[Vote]]


class PendingPage(TypedDict):
    count: int
    total_pending: int
    total_disputed: int
    items: list[PendingItem]
    next_after: NotRequired[str | None]


class Quarantine(TypedDict):
    kind: str
    value: str
    by: str
    at: str
    records: int


class QuarantineList(TypedDict):
    quarantines: list[Quarantine]


class Released(TypedDict):
    kind: str
    value: str
    action: str
    records: int


class ApiKey(TypedDict):
    id: str
    name: str
    role: Role
    prefix: str
    read_scopes: list[str]
    write_scope: str
    created_at: str
    revoked_at: NotRequired[str | None]


class CreatedKey(ApiKey):
    key: str


class Revoked(ApiKey):
    quarantine: NotRequired[Quarantine | None]


class KeyList(TypedDict):
    keys: list[ApiKey]


class ExtractedItem(TypedDict):
    id: str
    task: str
    resource: str
    result: str
    outcome: Outcome
    score: int
    confidence: float
    status: Status
    source_range: MessageRange
    duplicate_of: NotRequired[str | None]
    flags: NotRequired[list[str]]


class Job(TypedDict):
    """An upload's answer, and `GET /api/extract/{id}`: `status` is queued | running | done |
    failed | nothing_new."""

    status: str
    session_key: str
    attempts: int
    extracted_count: int
    experiences: list[ExtractedItem]
    job_id: NotRequired[str | None]
    message_range: NotRequired[MessageRange | None]
    skipped_messages: NotRequired[int | None]
    redactions: NotRequired[RedactionCounts | None]
    status_url: NotRequired[str | None]
    error: NotRequired[str | None]
    input_tokens: NotRequired[int]
    output_tokens: NotRequired[int]
    capped: NotRequired[bool | None]
    dropped_low_confidence: NotRequired[int | None]
    dropped_invalid: NotRequired[list[str]]


class LlmHealth(TypedDict):
    model: str
    answer_tokens: int
    calls: int
    requests: int
    retries: int
    failures: int
    input_tokens: int
    output_tokens: int
    context_tokens: NotRequired[int | None]


class Health(TypedDict):
    status: str
    version: NotRequired[str]
    backend: NotRequired[str]
    records: NotRequired[int]
    embedder: NotRequired[str]
    vectors: NotRequired[int]
    pending: NotRequired[int]
    llm: NotRequired[LlmHealth | None]


class Dashboard(TypedDict):
    since: str
    totals: dict[str, int]
    weeks: list[dict[str, Any]]
    days: list[dict[str, Any]]
    top_resources: list[ResourceSummary]
    agents: list[dict[str, Any]]


class Message(TypedDict, total=False):
    """A conversation message for `extract`: `{"role": "user", "content": "text"}` at least; the
    server also reads OpenClaw's and OpenAI's shapes (docs/api.md)."""

    role: str
    content: Any
