"""What a settled unlock really debited, and what a spend's result says of it.

A debit is measured, not believed: the larger of what the server states (`credits_debited`) and
the balance's fall around the POST, less what the account's other journaled spends took
meanwhile (a fall they may explain is not measured). Above the quote, it is an overcharge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadtui.api.models import Export, Extraction
from leadtui.spend.intent import SpendIntent
from leadtui.spend.quote import plural

if TYPE_CHECKING:
    from leadtui.spend.decision import Decision


def stated_debit(record: Export | Extraction) -> int | None:
    """Credits the server says this spend debited; None when its answer does not say."""
    value = record.extra("credits_debited")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


@dataclass(frozen=True)
class Meanwhile:
    """What other spends of the account may have taken while one spend was out: `credits`
    (their debits when known, else their quotes), `exact` (every debit known, none out)."""

    credits: int
    exact: bool


def measured_debit(before: int, after: int, others: Meanwhile, quoted: int) -> int | None:
    """The debit from the balance `before` and `after` the spend, or None when it cannot be
    told apart from other spends' (or credits were added meanwhile)."""
    fell = before - after
    if fell < 0:
        return None
    unexplained = fell - others.credits
    if others.exact or unexplained > quoted:
        return max(0, unexplained)
    return None


@dataclass(frozen=True)
class SpendResult:
    intent: SpendIntent
    record: Export | Extraction
    decision: Decision | None = None
    """The decision that let it out (None: a resend of a pending spend)."""
    debited: int | None = None
    """Credits it debited, measured (see above; None: not known)."""
    replayed: bool = False
    """The caller's key named a spend already journaled: this is its outcome."""
    sent_now: bool = False
    """The balance fell by the debit while this call sent it (a resend that made the debit)."""

    @property
    def overcharge(self) -> int:
        """Credits debited above the quote (0: none, or not measured)."""
        quoted = self.intent.amount
        if self.debited is None or quoted is None:
            return 0
        return max(0, self.debited - quoted)

    def overcharge_json(self) -> dict[str, Any] | None:
        """The overcharge as machine-readable answers carry it (None: none)."""
        if not self.overcharge:
            return None
        return {
            "quoted": self.intent.amount,
            "debited": self.debited,
            "request_id": self.record.request_id,
        }

    def overcharge_text(self) -> str | None:
        """What every surface reports when the server took more than it quoted."""
        if not self.overcharge:
            return None
        request_id = self.record.request_id or "unknown"
        return (
            f"Overcharged: the server debited {plural(self.debited or 0, 'credit')} for a spend "
            f"quoted at {plural(self.intent.amount or 0, 'credit')} ({self.overcharge:,} more; "
            f"request {request_id}, idempotency key {self.intent.idempotency_key}). It is "
            "recorded, counts in full against every limit it was sent under, and this "
            "account's observed price is what it was really debited."
        )

    def debit_text(self) -> str | None:
        """What a replay or resend says of its debit: whether this call made it."""
        if not self.replayed or self.debited is None:
            return None
        if self.sent_now:
            return f"Sent now: {plural(self.debited, 'credit')}."
        return f"Debited {plural(self.debited, 'credit')} by its first send; nothing again."
