"""Every way a command can fail, as one error document: `{"error": {code, message, request_id,
status, hint}}` and an exit code. `error.code` is the server's, or one of ours (below)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    DownloadNotSaved,
    LeadError,
    RequestTimeout,
    TransportError,
)
from leadtui.api.guidance import (
    INVALID_REQUEST,
    NETWORK,
    UNEXPECTED,
    WRITE_FAILED,
    SurfaceWords,
)
from leadtui.api.guidance import next_step as next_step_in
from leadtui.cli.exit_codes import Exit
from leadtui.spend.errors import Code

# Our own codes, for what the server never said (and those every surface uses, from
# api/guidance.py).
CONFIRMATION_REQUIRED: Final = Code.CONFIRMATION_REQUIRED.value
OVER_CEILING: Final = Code.OVER_CEILING.value
OUTCOME_UNKNOWN: Final = Code.OUTCOME_UNKNOWN.value
READ_ONLY: Final = Code.READ_ONLY.value
JOURNAL_UNAVAILABLE: Final = Code.JOURNAL_UNAVAILABLE.value
LIST_INCOMPLETE: Final = "list_incomplete"
WILL_NOT_SETTLE: Final = "will_not_settle"
NOT_FOUND: Final = ErrorCode.NOT_FOUND.value
INTENT_SETTLED: Final = Code.INTENT_SETTLED.value
INTENT_CLAIMED: Final = Code.INTENT_CLAIMED.value
INTENT_UNREADABLE: Final = Code.INTENT_UNREADABLE.value
ANOTHER_ACCOUNT: Final = Code.ANOTHER_ACCOUNT.value

_BY_STATUS: Final = {400: Exit.USAGE, 401: Exit.AUTH, 403: Exit.AUTH, 404: Exit.NOT_FOUND}

# How the command line says the actions a next step names (the guidance: api/guidance.py).
CLI_WORDS: Final = SurfaceWords(
    sign_in="Run `leadtui login` with a working key, or set LEADTUI_API_KEY.",
    retry="run the command again",
    wait_for_export="`leadtui exports wait ID`",
    see_search="`leadtui searches get ID` shows how many",
    sign_in_with_scope="`leadtui login` with it",
)


def next_step(code: str) -> str | None:
    """What to do next after the server's `code`, in the command line's words."""
    return next_step_in(code, CLI_WORDS)


@dataclass
class CliFailure(Exception):
    """A failure to report and exit with; `details` are extra members of the error object."""

    code: str
    message: str
    exit: Exit
    hint: str | None = None
    status: int | None = None
    request_id: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def document(self) -> dict[str, Any]:
        error: dict[str, Any] = {
            "code": self.code,
            "message": self.message,
            "request_id": self.request_id,
            "status": self.status,
            "hint": self.hint,
        }
        return {"error": error | self.details}


def usage_failure(message: str, hint: str | None = None) -> CliFailure:
    """Bad input caught here, before anything was sent."""
    return CliFailure(INVALID_REQUEST, message, Exit.USAGE, hint=hint)


def write_failure(where: object, error: OSError, then: str = "") -> CliFailure:
    """A file of the user's could not be written (exit 1); `then` says what was left."""
    reason = error.strerror or str(error)
    return CliFailure(WRITE_FAILED, f"Cannot write {where}: {reason}.{then}", Exit.UNEXPECTED)


def exit_for_status(status: int) -> Exit:
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status == 409:
        return Exit.CONFLICT
    if status == 429 or status >= 500:
        return Exit.UNAVAILABLE
    return Exit.UNEXPECTED


def from_lead_error(error: LeadError) -> CliFailure:
    """The client's typed error as the command line reports it; branches on type and code."""
    if isinstance(error, ApiError):
        exit_code = exit_for_status(error.status)
        if error.code == ErrorCode.BAD_RESPONSE and error.status < 400:
            exit_code = Exit.UNEXPECTED
        return CliFailure(
            error.code,
            error.message,
            exit_code,
            hint=next_step(error.code),
            status=error.status,
            request_id=error.request_id,
        )
    if isinstance(error, TransportError):
        what = "timed out" if isinstance(error, RequestTimeout) else "was unreachable"
        return CliFailure(
            NETWORK,
            error.message,
            Exit.UNAVAILABLE,
            hint=f"The server {what} after retries; check the URL and the network, then rerun.",
        )
    if isinstance(error, ConfigurationError):
        return usage_failure(error.message)
    if isinstance(error, DownloadNotSaved):
        return CliFailure(WRITE_FAILED, error.message, Exit.UNEXPECTED)
    return CliFailure(UNEXPECTED, error.message, Exit.UNEXPECTED)
