"""What each `error.code` means and what to do next: written once, for every surface.

The app shows a code's title, meaning and next step (`ui/model/errors.py`); the command line
puts the next step in its error document's `hint` (`cli/failures.py`). Where the way to act
differs by surface (how to sign in again, how to retry), the step names it with a placeholder
that each surface fills from its own `SurfaceWords`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Final

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    DownloadNotSaved,
    LeadError,
    RequestTimeout,
    TransportError,
)

# The codes this client reports for what the server never said, the same on every surface.
INVALID_REQUEST: Final = ErrorCode.INVALID_REQUEST.value
NOT_SIGNED_IN: Final = "not_signed_in"
NETWORK: Final = "network"
TIMEOUT: Final = "timeout"
WRITE_FAILED: Final = "write_failed"
UNEXPECTED: Final = "unexpected"


def code_of(error: LeadError) -> str:
    """The `error.code` a surface reports for a client error: the server's, else ours."""
    if isinstance(error, ApiError):
        return error.code
    if isinstance(error, ConfigurationError):
        return INVALID_REQUEST
    if isinstance(error, DownloadNotSaved):
        return WRITE_FAILED
    if isinstance(error, RequestTimeout):
        return TIMEOUT
    if isinstance(error, TransportError):
        return NETWORK
    return UNEXPECTED


@dataclass(frozen=True)
class SurfaceWords:
    """How a surface says the actions a next step may name."""

    sign_in: str
    """Sign in again with a working key, as a sentence."""
    retry: str
    """Try the same thing again, as the end of a sentence ("press r to try again")."""
    wait_for_export: str
    """Wait until an export is ready, as the end of a sentence."""
    see_search: str
    """Where a search's counts are seen, as the end of a sentence."""
    sign_in_with_scope: str
    """Sign in with a key holding another scope, as the end of a sentence."""


@dataclass(frozen=True)
class Guidance:
    """One error code, in words."""

    title: str
    meaning: str
    next_step: str
    """With a `SurfaceWords` field's name in braces (`{sign_in}`) where a surface's own words
    go; "" when there is nothing to do."""

    def next_step_for(self, words: SurfaceWords) -> str:
        return self.next_step.format_map(asdict(words))

    def text_for(self, words: SurfaceWords) -> str:
        """The meaning, then the next step."""
        step = self.next_step_for(words)
        return f"{self.meaning} {step}" if step else self.meaning


GUIDANCE: Final[dict[str, Guidance]] = {
    ErrorCode.UNAUTHORIZED: Guidance(
        "Key rejected", "The key is missing, expired or revoked.", "{sign_in}"
    ),
    ErrorCode.SUBSCRIPTION_INACTIVE: Guidance(
        "Subscription inactive",
        "The account's subscription is not active, so the API refuses data access.",
        "Renew it on the service's account page, then {retry}.",
    ),
    ErrorCode.DATA_ACCESS_SUSPENDED: Guidance(
        "Data access suspended",
        "Data access for this account is suspended.",
        "Contact the service's support; nothing in leadtui can lift it. Your credits are not "
        "affected.",
    ),
    ErrorCode.INSUFFICIENT_SCOPE: Guidance(
        "Missing scope",
        "This key lacks the scope this action needs.",
        "Create a key with that scope on the service's account page, then {sign_in_with_scope}.",
    ),
    ErrorCode.INSUFFICIENT_CREDITS: Guidance(
        "Not enough credits",
        "The account does not have enough credits for this. Nothing was charged.",
        "Buy credits on the service's account page, or unlock fewer results.",
    ),
    ErrorCode.INSUFFICIENT_RESULTS: Guidance(
        "Not enough results",
        "The search has fewer results left to unlock than asked. Nothing was charged.",
        "Unlock at most what is left: {see_search}.",
    ),
    ErrorCode.IDEMPOTENCY_CONFLICT: Guidance(
        "Request conflict",
        "This idempotency key was already used with a different request. Nothing was charged.",
        "Send the new request under a key of its own.",
    ),
    ErrorCode.EXPORT_NOT_READY: Guidance(
        "Export not ready",
        "The export is still being prepared; its results can be read once it is ready.",
        "Wait for it: {wait_for_export}.",
    ),
    ErrorCode.EXTRACTION_UNAVAILABLE: Guidance(
        "Extraction unavailable",
        "The account's extraction launches are used up, or extractions are not available "
        "for this account. Nothing was launched.",
        "",
    ),
    ErrorCode.NOT_FOUND: Guidance(
        "Not found", "It does not exist, or it belongs to another account.", ""
    ),
    ErrorCode.DRAFT_NOT_EDITABLE: Guidance(
        "Draft not editable", "This draft can no longer be edited.", ""
    ),
    ErrorCode.INVALID_TRANSITION: Guidance(
        "Not possible now", "The job is not in a state that allows this.", ""
    ),
    ErrorCode.RATE_LIMITED: Guidance(
        "Rate limited", "Too many requests.", "Wait as the server asked, then {retry}."
    ),
    ErrorCode.BAD_RESPONSE: Guidance(
        "Unexpected answer", "The server's answer could not be read.", ""
    ),
}
"""By the server's (or the client's) error.code; a code not here is explained by its status."""


def guidance_for(code: str | None) -> Guidance | None:
    return GUIDANCE.get(code) if code else None


def next_step(code: str | None, words: SurfaceWords) -> str | None:
    """What to do next after `code`, in a surface's `words`; None when there is nothing."""
    guidance = guidance_for(code)
    return (guidance.next_step_for(words) if guidance is not None else "") or None
