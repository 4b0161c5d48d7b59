"""KnowHub client: search, submit and review shared agent experiences over the hub's HTTP API.

    import knowhub

    with knowhub.Client("http://127.0.0.1:8000", api_key="kh_...") as hub:
        found = hub.search("pgbouncer timeouts", outcome="success")
        hub.submit(task="...", resource="...", result="...", score=4)

`AsyncClient` has the same methods, awaited. Errors are `KnowHubError` subclasses (see
`knowhub.errors`); the request and response shapes are in `knowhub.types`. The LangChain tools
are in `knowhub.langchain` (`pip install knowhub[langchain]`).
"""

from ._async import AsyncChangeFeed, AsyncClient
from ._base import __version__
from ._sync import ChangeFeed, Client
from .errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ClientError,
    ConflictError,
    ConnectError,
    DecodeError,
    KnowHubError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    TransportError,
    TransportTimeoutError,
    UnavailableError,
)

__all__ = [
    "APIError",
    "AsyncChangeFeed",
    "AsyncClient",
    "AuthenticationError",
    "BadRequestError",
    "ChangeFeed",
    "Client",
    "ClientError",
    "ConflictError",
    "ConnectError",
    "DecodeError",
    "KnowHubError",
    "NotFoundError",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "TransportError",
    "TransportTimeoutError",
    "UnavailableError",
    "__version__",
]
