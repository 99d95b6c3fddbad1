"""Why the spend core refused to send, or could not tell what happened: one type per cause.

Every refusal is a `SpendBlocked` and means "nothing was sent". Each cause has a `title` (short:
a dialog heading or a command-line error line) and a message saying what to do. Surfaces branch
on the type, never on the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from leadtui.api.errors import LeadError

if TYPE_CHECKING:
    from leadtui.spend.journal import SpendIntent


class JournalError(Exception):
    """The journal could not be read or written; a spend that needs it is not sent."""

    title: ClassVar[str] = "Spend journal unavailable"


class SpendBlocked(Exception):
    """The spend core refused: nothing was sent."""

    title: ClassVar[str] = "Spend refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ReadOnlyProfile(SpendBlocked):
    """Spending is switched off for this profile (read_only in the settings)."""

    title = "Spending is switched off"


class ConfirmationRequired(SpendBlocked):
    """The amount is over the budget (or unknown, or a launch) and was not confirmed."""

    title = "Confirmation required"


class InvalidIdempotencyKey(SpendBlocked):
    """The idempotency key cannot be sent (not printable ASCII, or not 1 to 128 characters)."""

    title = "Invalid idempotency key"


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
