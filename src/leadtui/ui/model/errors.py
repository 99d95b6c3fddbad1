"""The one way the app explains an error: any exception → an `ErrorReport` (title + text).

Branches on `error.code` and the error's type, never on the server's message. Screens show a
report with `LeadScreen.show_error` (inline `ErrorPanel`) or `LeadApp.notify_error` (toast).
"""

from __future__ import annotations

from typing import NamedTuple

from leadtui.api.contract import GATEWAY_STATUSES, ErrorCode, Scope
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    ConnectionFailed,
    Forbidden,
    LeadError,
    RateLimited,
    RequestTimeout,
    ServerError,
    TransportError,
    Unauthorized,
    lost_answer,
)
from leadtui.api.guidance import GUIDANCE, SurfaceWords, guidance_for
from leadtui.api.keys import api_key_problem

# Which screens or actions stop working without each scope, in the words of the UI.
SCOPE_DISABLES: dict[Scope, str] = {
    Scope.USAGE_READ: "Account, credits",
    Scope.SEARCHES_READ: "Searches",
    Scope.SEARCHES_WRITE: "New search",
    Scope.EXPORTS_READ: "Jobs, downloads",
    Scope.EXPORTS_WRITE: "Unlock, Retry",
    Scope.EXTRACTIONS_READ: "Jobs: extractions",
    Scope.EXTRACTIONS_WRITE: "Launch, Pause, Stop",
}

# How the app says the actions a next step names (the guidance is in api/guidance.py).
APP_WORDS = SurfaceWords(
    sign_in="Press i to sign in with another key, or set LEADTUI_API_KEY.",
    retry="press r to try again",
    wait_for_export="it is shown on Jobs as ready",
    see_search="the search's detail shows how many",
    sign_in_with_scope="sign in with it (i)",
)


# A NamedTuple: defined on the first frame's path, where a dataclass costs ~0.5 ms more.
class ErrorReport(NamedTuple):
    title: str
    text: str
    code: str | None = None
    request_id: str | None = None
    status: int | None = None
    # True when the failure usually goes away by itself: the UI retries after a countdown.
    transient: bool = False
    # Seconds the server asked us to wait (Retry-After), if any.
    retry_after: float | None = None
    # True when the key itself was rejected: offer to sign in again.
    sign_in: bool = False
    # The idempotency key of a spend left pending by this error: the report goes once it is
    # resent and settled, or discarded.
    pending_spend: str | None = None

    @property
    def meta(self) -> str:
        """`HTTP 403 · code …`, then `request id …` on its own line (kept whole to select)."""
        parts = []
        if self.status is not None:
            parts.append(f"HTTP {self.status}")
        if self.code:
            parts.append(f"code {self.code}")
        line = " · ".join(parts)
        if self.request_id:
            line += f"\nrequest id {self.request_id}"
        return line.strip()


def retold(
    said: ApiError | ErrorReport, title: str, text: str, *, pending_spend: str | None = None
) -> ErrorReport:
    """What `said` failed on, in the app's own words: its code, request id and status kept (to
    quote to support), nothing of how it recovers (no retry countdown, no sign-in offer)."""
    code, request_id, status = said.code, said.request_id, said.status
    return ErrorReport(title, text, code, request_id, status, pending_spend=pending_spend)


# Where the app shows what a write that is not idempotent may have done (its answer lost).
_WHERE_TO_LOOK = {"searches": "Searches (2)", "exports": "Jobs (4)", "extractions": "Jobs (4)"}


def describe(error: BaseException) -> ErrorReport:
    """Turn any exception into words for the screen. Never a traceback."""
    if isinstance(error, TransportError) and (collection := lost_answer(error)) is not None:
        # Never "try again": the request may have been done, and again may do it twice.
        where = _WHERE_TO_LOOK.get(collection, "the screen that lists it")
        return ErrorReport(
            "Answer lost",
            f"{error.message} {where} shows whether it did; doing it again may do it twice.",
        )
    if isinstance(error, ApiError):
        return _describe_api(error)
    if isinstance(error, ConnectionFailed):
        return ErrorReport(
            "Cannot reach the server",
            "The connection failed: the network or the server is down.",
            transient=True,
        )
    if isinstance(error, RequestTimeout):
        return ErrorReport("Timed out", "The server did not answer in time.", transient=True)
    if isinstance(error, TransportError):
        return ErrorReport(error.title, error.message, transient=True)
    if isinstance(error, ConfigurationError):
        return ErrorReport("Configuration", error.message)
    if isinstance(error, LeadError):
        return ErrorReport(error.title, error.message)
    # Errors of the layers below that carry their own short title (e.g. each reason spending
    # is switched off) are shown with it and their message.
    title = getattr(error, "title", None)
    if isinstance(title, str) and title:
        code = getattr(error, "code", None)
        return ErrorReport(title, str(error), code=code if isinstance(code, str) else None)
    return ErrorReport(
        "Unexpected error",
        f"{type(error).__name__}: something went wrong inside the app. "
        "Try again; if it persists, report it with what you were doing.",
    )


def _report(
    error: ApiError, title: str, text: str, *, transient: bool = False, sign_in: bool = False
) -> ErrorReport:
    return ErrorReport(
        title,
        text,
        code=error.code,
        request_id=error.request_id,
        status=error.status,
        # A gateway status is passing whatever the body said (a proxy's HTML 502 included).
        transient=transient or error.status in GATEWAY_STATUSES,
        retry_after=error.retry_after,
        sign_in=sign_in,
    )


def _describe_api(error: ApiError) -> ErrorReport:
    if isinstance(error, Unauthorized):
        said = GUIDANCE[ErrorCode.UNAUTHORIZED]
        return _report(error, said.title, said.text_for(APP_WORDS), sign_in=True)
    if isinstance(error, RateLimited):
        # The app waits and retries by itself (the panel counts down): no step for the user.
        text = "Too many requests; waiting as the server asked before trying again."
        return _report(error, "Rate limited", text, transient=True)
    guidance = guidance_for(error.code)
    if guidance is not None:
        text = guidance.text_for(APP_WORDS)
        if error.code == ErrorCode.INSUFFICIENT_SCOPE:
            # The server names the scope; showing its words is fine, branching on them is not.
            text = f"{text} Server said: {error.message}"
        elif error.code == ErrorCode.BAD_RESPONSE and error.request_id:
            text = f"{text} If this persists, report the request id."
        return _report(error, guidance.title, text)
    if isinstance(error, ServerError):
        text = "The server failed to answer this request."
        if error.status in GATEWAY_STATUSES:  # transient: `_report` says so
            text += " It usually recovers by itself."
        return _report(error, "Server error", text)
    if isinstance(error, Forbidden):
        return _report(error, "Access denied", error.message)
    return _report(error, error.title, error.message)


def missing_scope(scope: Scope, doing: str) -> ErrorReport:
    """The key's scopes forbid `doing` (e.g. "unlock results"): say so before any request."""
    return ErrorReport(
        f"Your key lacks {scope.value}",
        f"Without {scope.value} this key cannot {doing}. "
        "Create a key with that scope on the service's account page, then sign in with it (i).",
        code=ErrorCode.INSUFFICIENT_SCOPE.value,
    )


def key_refusal(key: str) -> str | None:
    """Why the typed or configured API key cannot be sent, in a sentence (never the key);
    None when it can."""
    problem = api_key_problem(key)
    if problem is None:
        return None
    return (
        f"The API key cannot be used: {problem}. A paste may have turned a quote or a dash "
        "into a typographic one."
    )
