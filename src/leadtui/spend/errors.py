"""Why the spend core refused to send, or could not tell what happened: one type per cause.

Every refusal is a `SpendBlocked` and means "nothing was sent". Each cause has a `title` (short:
a dialog heading or a command-line error line) and a message saying what to do. Surfaces branch
on the type, never on the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from leadtui.api.errors import InvalidIdempotencyKey, LeadError

if TYPE_CHECKING:
    from leadtui.spend.decision import Decision
    from leadtui.spend.journal import SpendIntent

__all__ = [
    "ConfirmationRequired",
    "IntentClaimed",
    "IntentMissing",
    "IntentOfAnotherAccount",
    "IntentSettled",
    "InvalidIdempotencyKey",
    "JournalError",
    "ReadOnlyProfile",
    "SpendBlocked",
    "SpendOutcomeUnknown",
    "SpendRefused",
    "refusal",
]


class JournalError(Exception):
    """The journal could not be read or written; a spend that needs it is not sent."""

    title: ClassVar[str] = "Spend journal unavailable"


class SpendBlocked(Exception):
    """The spend core refused: nothing was sent."""

    title: ClassVar[str] = "Spend refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SpendRefused(SpendBlocked):
    """The spend decision was not "send": `decision` (when the refusal came from one) says why,
    with its code and quote, in the words every surface shows. Nothing was sent."""

    title = "Not sent"

    def __init__(self, message: str, decision: Decision | None = None) -> None:
        super().__init__(message)
        self.decision = decision


class ReadOnlyProfile(SpendRefused):
    """Spending is switched off for this profile (read_only in the settings)."""

    title = "Spending is switched off"


class ConfirmationRequired(SpendRefused):
    """Nothing set in advance covers the spend (over the budget, price unknown, a launch) and
    nobody confirmed it."""

    title = "Confirmation required"


def refusal(decision: Decision) -> SpendRefused:
    """The exception for a decision that is not "send" (its kind follows its code)."""
    from leadtui.spend.decision import ASK_CODES, Code

    if decision.code is Code.READ_ONLY:
        return ReadOnlyProfile(decision.message, decision)
    if decision.code in ASK_CODES:
        return ConfirmationRequired(decision.message, decision)
    return SpendRefused(decision.message, decision)


class IntentMissing(SpendBlocked):
    """The intent is not in the journal (any more)."""

    title = "Spend not in the journal"


class IntentSettled(SpendBlocked):
    """The intent already has an outcome (succeeded, rejected or discarded)."""

    title = "Spend already settled"


class IntentOfAnotherAccount(SpendBlocked):
    """The intent was made under another profile, server or account than the one signed in."""

    title = "Another account's spend"


class IntentClaimed(SpendBlocked):
    """Another window or process is sending this intent right now."""

    title = "Spend being sent elsewhere"


class SpendOutcomeUnknown(LeadError):
    """The spend was sent (or may have been) and no definitive answer came back: the intent
    stays pending, to resend with its same key or discard. `error` is the last failure (its
    status, code and request id are what to show); `intent` is the journal's record."""

    title = "Outcome unknown"

    def __init__(self, intent: SpendIntent, error: LeadError) -> None:
        super().__init__(
            f"Whether the spend went through is unknown ({error.title}: {error.message}); it "
            "stays in the journal as pending, to resend with the same key or discard.",
            idempotency_key=intent.idempotency_key,
        )
        self.intent = intent
        self.error = error
