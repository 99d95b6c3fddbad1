"""Every code the spend core answers with, and one type per cause of a refusal.

Every refusal is a `SpendBlocked`: nothing was sent. Each has a `title` (a dialog heading or an
error line), a `code`, and a message saying what to do; surfaces branch on the type or the
code, never on the text. The refusals that carry a decision are beside it, in `decision.py`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from leadtui.api.contract import ErrorCode
from leadtui.api.errors import LeadError

if TYPE_CHECKING:
    from leadtui.spend.intent import SpendIntent


class Code(StrEnum):
    """Every code of ours a spend can end with, spelled here once for every surface."""

    READ_ONLY = "read_only"
    INSUFFICIENT_CREDITS = ErrorCode.INSUFFICIENT_CREDITS.value
    NO_LAUNCHES_LEFT = "no_launches_left"
    OVER_CEILING = "over_ceiling"
    OVER_BUDGET = "over_budget"
    PRICE_UNKNOWN = "price_unknown"
    QUOTE_CHANGED = "quote_changed"
    """The price or the total rose above what was authorized, after it was authorized."""
    PENDING_SAME_SPEND = "pending_same_spend"
    IDEMPOTENCY_CONFLICT = ErrorCode.IDEMPOTENCY_CONFLICT.value
    CONFIRMATION_REQUIRED = "confirmation_required"
    """Nothing the user set in advance (budget, ceiling, allowance) covers it."""
    OUTCOME_UNKNOWN = "outcome_unknown"
    JOURNAL_UNAVAILABLE = "journal_unavailable"
    INTENT_SETTLED = "intent_settled"
    INTENT_CLAIMED = "intent_claimed"
    INTENT_UNREADABLE = "intent_unreadable"
    ANOTHER_ACCOUNT = "another_account"
    DENIED_IN_APP = "denied_in_app"
    APPROVAL_TIMEOUT = "approval_timeout"
    APPROVAL_MISMATCH = "approval_mismatch"
    INTERRUPTED = "interrupted"
    """Ctrl-C or SIGTERM before anything was sent (or while waiting for the app's answer)."""


class JournalError(Exception):
    """The journal could not be read or written; a spend that needs it is not sent."""

    title: ClassVar[str] = "Spend journal unavailable"
    code: ClassVar[str] = Code.JOURNAL_UNAVAILABLE


class SpendBlocked(Exception):
    """The spend core refused: nothing was sent."""

    title: ClassVar[str] = "Spend refused"
    code: ClassVar[str] = Code.CONFIRMATION_REQUIRED

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IntentMissing(SpendBlocked):
    title = "Spend not in the journal"
    code = ErrorCode.NOT_FOUND.value


class IntentSettled(SpendBlocked):
    title = "Spend already settled"
    code = Code.INTENT_SETTLED


class IntentOfAnotherAccount(SpendBlocked):
    """The intent was made under another profile, server or account than the one signed in."""

    title = "Another account's spend"
    code = Code.ANOTHER_ACCOUNT


class IntentClaimed(SpendBlocked):
    title = "Spend being sent elsewhere"
    code = Code.INTENT_CLAIMED


class SpendOutcomeUnknown(LeadError):
    """The spend may have been sent and no definitive answer came back: the intent stays
    pending. `error` is the last failure (its status, code and request id are shown)."""

    title = "Outcome unknown"

    def __init__(self, intent: SpendIntent, error: LeadError) -> None:
        super().__init__(
            f"Whether the spend went through is unknown ({error.title}: {error.message}); it "
            "stays in the journal as pending, to resend with the same key or discard.",
            idempotency_key=intent.idempotency_key,
        )
        self.intent = intent
        self.error = error
