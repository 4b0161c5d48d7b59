"""What the sync and async clients share: building each request and reading each answer.

Every API call is first described as a `Request` (method, path, query, JSON body) by one
function here, so `Client` and `AsyncClient` differ only in how they send it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from .errors import DecodeError, error_from_response

__version__ = "0.1.0"

DEFAULT_TIMEOUT = 30.0
USER_AGENT = f"knowhub-python/{__version__}"

# Query parameters and bodies: values the hub reads as text; None means "leave it out".
Params = dict[str, str]


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    params: Params = field(default_factory=dict)
    body: Any = None
    # Seconds the server may hold the request on purpose (long-poll, `?wait=`), added to the
    # client's timeout so a wait the caller asked for is not cut short.
    hold: float = 0.0
    # The answer is text (`/metrics`), not JSON.
    text: bool = False


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _dt.datetime):
        return time_text(value)
    return str(value)


def params(**values: Any) -> Params:
    """Query parameters with the unset (None) ones left out."""
    return {k: _text(v) for k, v in values.items() if v is not None}


def body(**values: Any) -> dict[str, Any]:
    """A JSON body with the unset (None) fields left out; datetimes become RFC 3339 text."""
    return {k: (time_text(v) if isinstance(v, _dt.datetime) else v) for k, v in values.items() if v is not None}


def time_text(value: _dt.datetime) -> str:
    """RFC 3339 in UTC; a naive datetime is taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=_dt.timezone.utc)
    return value.astimezone(_dt.timezone.utc).isoformat().replace("+00:00", "Z")


def seg(value: str) -> str:
    """One path segment: an id or a resource name, percent-encoded whole (`/` included)."""
    return quote(value, safe="")


def headers(api_key: str | None, extra: Mapping[str, str] | None) -> dict[str, str]:
    out = {"user-agent": USER_AGENT, "accept": "application/json"}
    if api_key:
        out["authorization"] = f"Bearer {api_key}"
    if extra:
        out.update(extra)
    return out


def request_kwargs(req: Request, timeout: httpx.Timeout) -> dict[str, Any]:
    """Arguments for `httpx.Client.request`. Every POST and DELETE carries
    `content-type: application/json`, with or without a body: the hub refuses one without it
    (415), which is what keeps a web page from sending such a request cross-site."""
    kwargs: dict[str, Any] = {"params": req.params or None}
    if req.method in ("POST", "DELETE", "PUT", "PATCH"):
        kwargs["headers"] = {"content-type": "application/json"}
        if req.body is not None:
            import json

            kwargs["content"] = json.dumps(req.body, ensure_ascii=False).encode("utf-8")
    if req.hold:
        kwargs["timeout"] = httpx.Timeout(
            connect=timeout.connect,
            read=(timeout.read or DEFAULT_TIMEOUT) + req.hold,
            write=timeout.write,
            pool=timeout.pool,
        )
    return kwargs


def read(req: Request, response: httpx.Response) -> Any:
    """The decoded answer, or the matching `APIError` for an error status."""
    if response.status_code >= 400:
        raise error_from_response(response)
    if req.text:
        return response.text
    try:
        return response.json()
    except ValueError as exc:
        raise DecodeError(
            f"{req.method} {req.path}: answer {response.status_code} is not JSON: {response.text[:200]!r}"
        ) from exc


def as_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [dict(m) for m in messages]
