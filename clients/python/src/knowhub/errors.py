"""Exceptions: every failure a client call can have, as one hierarchy.

`APIError` carries the hub's one error shape (`{"error": {"code", "message", "field"}}`); its
subclasses follow the HTTP status so a caller can catch a family (`ClientError`, `ServerError`)
or one case (`NotFoundError`). A request that never got an answer is a `TransportError`.
"""

from __future__ import annotations

from typing import Any

import httpx


class KnowHubError(Exception):
    """Base of every exception this package raises."""


class TransportError(KnowHubError):
    """No answer from the hub: it could not be reached, or the connection broke."""

    def __init__(self, message: str, *, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.__cause__ = cause


class ConnectError(TransportError):
    """The hub could not be reached (refused, unknown host, TLS failure)."""


class TransportTimeoutError(TransportError):
    """The hub did not answer within the client's timeout."""


class DecodeError(KnowHubError):
    """The hub answered 2xx with a body that is not the JSON expected."""


class APIError(KnowHubError):
    """The hub answered with an error status.

    `code` (`invalid_field`, `not_found`, ...), `message` and `field` (the input at fault, or
    None) come from the hub's JSON error body; a body that is not that shape (a proxy's page)
    gives `code` `http_<status>` and the start of the body as `message`.
    """

    status_code: int
    code: str
    message: str
    field: str | None

    def __init__(
        self,
        status_code: int,
        code: str,
        message: str,
        field: str | None = None,
        *,
        response: httpx.Response | None = None,
    ) -> None:
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.field = field
        self.response = response


class ClientError(APIError):
    """4xx: the request was wrong, or not allowed."""


class BadRequestError(ClientError):
    """400: bad JSON, a field that fails validation, a bad query parameter or cursor."""


class AuthenticationError(ClientError):
    """401: missing, unknown or revoked API key."""


class PermissionDeniedError(ClientError):
    """403: the key's role or scopes do not allow this (or the Host header is refused)."""


class NotFoundError(ClientError):
    """404: unknown route, or an experience / content the key cannot read."""


class ConflictError(ClientError):
    """409: state conflict, e.g. approving a record that is not pending, or a duplicate key name."""


class PayloadTooLargeError(ClientError):
    """413: the body is over the hub's 1 MiB limit."""


class RateLimitError(ClientError):
    """429: the caller spent its budget; `retry_after` is the seconds the hub asks to wait."""

    retry_after: float | None

    def __init__(self, *args: Any, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry_after = retry_after


class ServerError(APIError):
    """5xx: the hub failed, or a dependency of it is down."""


class UnavailableError(ServerError):
    """503: a dependency is down (`unavailable`), or a feature is off (`not_configured`)."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: PayloadTooLargeError,
    429: RateLimitError,
    503: UnavailableError,
}


def error_from_response(response: httpx.Response) -> APIError:
    """The exception for an error answer, read from the hub's JSON error shape when it has one."""
    status = response.status_code
    code, message, field = f"http_{status}", response.text[:500], None
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        err = body["error"]
        if isinstance(err.get("code"), str):
            code = err["code"]
        if isinstance(err.get("message"), str):
            message = err["message"]
        if isinstance(err.get("field"), str):
            field = err["field"]
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else ClientError)
    if cls is RateLimitError:
        retry_after: float | None = None
        try:
            retry_after = float(response.headers.get("retry-after", ""))
        except ValueError:
            pass
        return RateLimitError(status, code, message, field, response=response, retry_after=retry_after)
    return cls(status, code, message, field, response=response)


def transport_error(exc: httpx.TransportError, url: str) -> TransportError:
    """Wraps httpx's network failures so callers need not import httpx to catch them."""
    if isinstance(exc, httpx.TimeoutException):
        return TransportTimeoutError(f"timed out talking to {url}: {exc}", cause=exc)
    if isinstance(exc, httpx.ConnectError):
        return ConnectError(f"cannot reach {url}: {exc}", cause=exc)
    return TransportError(f"request to {url} failed: {exc}", cause=exc)
