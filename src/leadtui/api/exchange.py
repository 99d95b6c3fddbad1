"""`Exchange`: what one attempt at a request amounted to, for whoever keeps a record of them.

The transport reports every attempt (retries and failures included) to an optional observer.
An exchange holds no header and no body: nothing in it can carry the API key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from leadtui.api.errors import ApiError, LeadError, MalformedResponse, RequestTimeout


@dataclass(frozen=True)
class Exchange:
    """One attempt: `status` is None when no HTTP answer came (`outcome` says what happened)."""

    method: str
    path: str
    status: int | None
    seconds: float
    request_id: str | None
    idempotency_key: str | None
    outcome: str
    """"ok", the server's `error.code`, "timeout", "not HTTP" or "no answer"."""
    attempt: int = 1
    """1 for the first try, 2 for the first retry (same idempotency key)…"""


ExchangeObserver = Callable[[Exchange], None]


def failure_outcome(error: LeadError) -> tuple[int | None, str | None, str]:
    """(status, request id, outcome) of an attempt that ended in `error`."""
    if isinstance(error, ApiError):
        return error.status, error.request_id, error.code
    if isinstance(error, RequestTimeout):
        return None, None, "timeout"
    if isinstance(error, MalformedResponse):
        return None, None, "not HTTP"
    return None, None, "no answer"
