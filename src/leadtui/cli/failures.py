"""Every way a command can fail, as one error document: `{"error": {code, message, request_id,
status, hint}}` and an exit code. `error.code` is the server's, or one of ours (below)."""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from typing import Any, Final

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import (
    ApiError,
    ConfigurationError,
    DownloadNotSaved,
    LeadError,
    TransportError,
    lost_answer,
)
from leadtui.api.guidance import (
    INVALID_REQUEST,
    NETWORK,
    NOT_SIGNED_IN,
    TIMEOUT,
    UNEXPECTED,
    WRITE_FAILED,
    SurfaceWords,
    code_of,
)
from leadtui.api.guidance import next_step as next_step_in
from leadtui.cli.exit_codes import Exit
from leadtui.spend.errors import Code

# Our own codes, for what neither the server nor the spend core (`spend/errors.py`) names.
LIST_INCOMPLETE: Final = "list_incomplete"
WILL_NOT_SETTLE: Final = "will_not_settle"
JOB_FAILED: Final = "job_failed"

# What the system says when the user named a target nothing can be written to (a missing
# folder, a folder, a link, a FIFO): their input, exit 2. Any other reason (a full disk, no
# permission) is a failure to write what was asked: `write_failed`, exit 11.
_REFUSED_TARGET: Final = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EEXIST})

_BY_STATUS: Final = {400: Exit.USAGE, 401: Exit.AUTH, 403: Exit.AUTH, 404: Exit.NOT_FOUND}

# How the command line says the actions a next step names (the guidance: api/guidance.py).
CLI_WORDS: Final = SurfaceWords(
    sign_in="Run `leadtui login` with a working key, or set LEADTUI_API_KEY.",
    retry="run the command again",
    wait_for_export="`leadtui exports wait ID`",
    see_search="`leadtui searches get ID` shows how many",
    sign_in_with_scope="`leadtui login` with it",
)


# The next step of each code the shared guidance (`api/guidance.py`) leaves without one, in
# the command line's words. A failure made with a hint of its own (naming the quote, the key,
# the option) keeps it; any other gets its code's step when reported.
_LISTS = "`leadtui searches list`, `leadtui exports list` and `leadtui extractions list`"

_STEPS: Final[dict[str, str]] = {
    INVALID_REQUEST: "Correct what the message names, then run it again; "
    "`leadtui COMMAND --help` shows the options and a request's members.",
    ErrorCode.NOT_FOUND: f"Check the id and the profile: {_LISTS} show this account's.",
    ErrorCode.INTERNAL_ERROR: "The server failed, even after retries: run the command again "
    "later, and quote the request id if it persists.",
    ErrorCode.BAD_RESPONSE: "Check that --base-url (or LEADTUI_BASE_URL) is the Lead Data API, "
    "then run the command again.",
    ErrorCode.EXTRACTION_UNAVAILABLE: "`leadtui account` shows the launches left; more come "
    "with the subscription, on the service's account page.",
    ErrorCode.DRAFT_NOT_EDITABLE: "Save a new draft: `leadtui extractions draft --file FILE`.",
    ErrorCode.INVALID_TRANSITION: "`leadtui extractions get ID` shows its state: pause a "
    "running job, resume a paused one.",
    Code.NO_LAUNCHES_LEFT: "The extraction quota is used up: `leadtui account` shows it; more "
    "launches come with the subscription, on the service's account page.",
    Code.OVER_CEILING: "Rerun with a --max-credits (or --max-launches) that covers the quote, "
    "or ask for fewer.",
    Code.OVER_BUDGET: "Rerun with --max-credits C to authorize it, or at a terminal to be asked.",
    Code.CONFIRMATION_REQUIRED: "Rerun with --max-credits C (--max-launches N for a launch), "
    "or at a terminal to be asked.",
    Code.PRICE_UNKNOWN: "Run it at a terminal to confirm the estimate.",
    Code.QUOTE_CHANGED: "Run it again to be quoted the new price (at a terminal to be asked).",
    Code.PENDING_SAME_SPEND: "`leadtui pending list` shows it: resend it with its key, or "
    "discard it.",
    Code.READ_ONLY: "Spending is off for this profile: set read_only = false to spend.",
    NOT_SIGNED_IN: CLI_WORDS.sign_in,
    NETWORK: "Check the URL and the network, then run the command again.",
    TIMEOUT: "The server did not answer within the deadline: run the command again later.",
    WRITE_FAILED: "Free some space or choose a place you may write to, then run it again.",
    UNEXPECTED: "Run the command again; if it happens again, report it with this message.",
    Code.OUTCOME_UNKNOWN: "`leadtui pending list` shows it: resend it with its key (never a "
    "second debit).",
    Code.JOURNAL_UNAVAILABLE: "Make the state folder writable (see the message), then run it "
    "again: a spend is only sent once it is written down.",
    LIST_INCOMPLETE: "Run it again later; --cursor resumes at next_cursor.",
    WILL_NOT_SETTLE: "Launch the draft, or resume the paused job, then wait.",
    Code.INTENT_CLAIMED: "Another window or process is sending it: wait, then "
    "`leadtui pending list`.",
    Code.INTENT_UNREADABLE: "Check the account's exports or extractions for it on the server.",
    Code.ANOTHER_ACCOUNT: "Use the profile and key it was made with (`leadtui pending list` "
    "names them).",
    JOB_FAILED: "Queue a failed export again (no credits): `leadtui exports retry ID`.",
    Code.INTERRUPTED: "Run the command again; `leadtui pending list` shows a spend left pending.",
    Code.APPROVAL_TIMEOUT: "Is leadtui running for this profile? Open it (A shows Approvals) "
    "and run the command again, or wait longer with --approval-timeout SECONDS.",
    Code.APPROVAL_MISMATCH: "The request changed while it waited; run the command again to "
    "ask anew (an approval counts only for the spend it names).",
    Code.DENIED_IN_APP: "Run the command again to ask the app again.",
}


def next_step(code: str) -> str | None:
    """What to do next after `code`, in the command line's words; None when nothing can."""
    return next_step_in(code, CLI_WORDS) or _STEPS.get(code)


# The members of every error document, in its order.
_DOCUMENTED: Final = ("code", "message", "request_id", "status", "hint")


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
        error = {name: getattr(self, name) for name in _DOCUMENTED}
        return {"error": error | self.details}


def nothing_sent(message: str) -> str:
    """`message`, saying once that nothing was sent."""
    said = message.rstrip().rstrip(".")
    return message if said.lower().endswith("nothing was sent") else f"{said}. Nothing was sent."


def usage_failure(message: str, hint: str | None = None) -> CliFailure:
    """Bad input caught here, before anything was sent."""
    return CliFailure(INVALID_REQUEST, message, Exit.USAGE, hint=hint)


def write_failure(where: object, error: OSError, then: str = "") -> CliFailure:
    """A file of the user's could not be written; `then` says what was left. A target the
    user named wrongly is their input (exit 2); anything else is `write_failed` (exit 11)."""
    return _not_written(f"Cannot write {where}: {error.strerror or error}.{then}", error.errno)


def _not_written(message: str, number: int | None) -> CliFailure:
    if number in _REFUSED_TARGET:
        return usage_failure(message, hint="Name a regular file, or a folder that exists.")
    return CliFailure(WRITE_FAILED, message, Exit.WRITE_FAILED)


def exit_for_status(status: int) -> Exit:
    if status == 429 or status >= 500:
        return Exit.UNAVAILABLE
    return Exit.CONFLICT if status == 409 else _BY_STATUS.get(status, Exit.UNEXPECTED)


def from_lead_error(error: LeadError) -> CliFailure:
    """The client's typed error as the command line reports it; branches on type and code.

    A write that is not idempotent may have gone through when its answer was lost: running the
    command again may do it twice, so its hint says how to look first, never to rerun."""
    collection = lost_answer(error)
    lost = None
    if collection is not None:
        lost = (
            f"It may have gone through: `leadtui {collection} list` shows whether it did. "
            "Running the command again may do it twice."
        )
    if isinstance(error, ApiError):
        return CliFailure(
            error.code,
            error.message,
            exit_for_status(error.status),
            hint=lost or next_step(error.code),
            status=error.status,
            request_id=error.request_id,
        )
    if lost is not None:
        return CliFailure(Code.OUTCOME_UNKNOWN, error.message, Exit.UNAVAILABLE, hint=lost)
    if isinstance(error, TransportError):
        code = code_of(error)
        what = "did not answer within its deadline" if code == TIMEOUT else "was unreachable"
        return CliFailure(
            code,
            error.message,
            Exit.UNAVAILABLE,
            hint=f"The server {what} after retries; check the URL and the network, then rerun.",
        )
    if isinstance(error, ConfigurationError):
        return usage_failure(error.message)
    if isinstance(error, DownloadNotSaved):
        return _not_written(error.message, error.errno)
    return CliFailure(UNEXPECTED, error.message, Exit.UNEXPECTED)
