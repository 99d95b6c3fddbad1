"""The one way the app explains an error: any exception → an `ErrorReport` (title + text).

Branches on `error.code` and the error's type, never on the server's message. Screens show a
report with `LeadScreen.show_error` (inline `ErrorPanel`) or `LeadApp.notify_error` (toast).
"""

from __future__ import annotations

from dataclasses import dataclass

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
)
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

_SIGN_IN_HINT = "Press i to sign in with another key, or set LEADTUI_API_KEY."

# Texts by error.code; the status only picks the fallback.
_BY_CODE: dict[str, tuple[str, str]] = {
    ErrorCode.SUBSCRIPTION_INACTIVE: (
        "Subscription inactive",
        "The account's subscription is not active, so the API refuses data access. "
        "Renew it on the service's account page, then press r to try again.",
    ),
    ErrorCode.DATA_ACCESS_SUSPENDED: (
        "Data access suspended",
        "Data access for this account is suspended. Contact the service's support; "
        "nothing in this app can lift it. Your credits are not affected.",
    ),
    ErrorCode.INSUFFICIENT_SCOPE: (
        "Missing scope",
        "This key lacks the scope this action needs. Create a key with that scope on the "
        "service's account page, then sign in with it (i).",
    ),
    ErrorCode.INSUFFICIENT_CREDITS: (
        "Not enough credits",
        "The account does not have enough credits for this. Nothing was charged.",
    ),
    ErrorCode.INSUFFICIENT_RESULTS: (
        "Not enough results",
        "The search has fewer results left to unlock than asked. Nothing was charged.",
    ),
    ErrorCode.IDEMPOTENCY_CONFLICT: (
        "Request conflict",
        "This idempotency key was already used with a different request. Nothing was charged.",
    ),
    ErrorCode.EXPORT_NOT_READY: (
        "Export not ready",
        "The export is still being prepared; its results can be read once it is ready.",
    ),
    ErrorCode.EXTRACTION_UNAVAILABLE: (
        "Extraction unavailable",
        "The account's extraction launches are used up, or extractions are not available "
        "for this account. Nothing was launched.",
    ),
    ErrorCode.NOT_FOUND: (
        "Not found",
        "It does not exist, or it belongs to another account.",
    ),
    ErrorCode.DRAFT_NOT_EDITABLE: ("Draft not editable", "This draft can no longer be edited."),
    ErrorCode.INVALID_TRANSITION: (
        "Not possible now",
        "The job is not in a state that allows this.",
    ),
    ErrorCode.BAD_RESPONSE: ("Unexpected answer", "The server's answer could not be read."),
}


@dataclass(frozen=True)
class ErrorReport:
    """What the user reads about one error."""

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


def describe(error: BaseException) -> ErrorReport:
    """Turn any exception into words for the screen. Never a traceback."""
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
        text = f"The key is missing, expired or revoked. {_SIGN_IN_HINT}"
        return _report(error, "Key rejected", text, sign_in=True)
    if error.code in _BY_CODE:
        title, text = _BY_CODE[error.code]
        if error.code == ErrorCode.INSUFFICIENT_SCOPE:
            # The server names the scope; showing its words is fine, branching on them is not.
            text = f"{text} Server said: {error.message}"
        elif error.code == ErrorCode.BAD_RESPONSE and error.request_id:
            text = f"{text} If this persists, report the request id."
        return _report(error, title, text)
    if isinstance(error, RateLimited):
        text = "Too many requests; waiting as the server asked before trying again."
        return _report(error, "Rate limited", text, transient=True)
    if isinstance(error, ServerError):
        transient = error.status in GATEWAY_STATUSES
        text = "The server failed to answer this request."
        if transient:
            text += " It usually recovers by itself."
        return _report(error, "Server error", text, transient=transient)
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
