"""What a settled unlock really debited, to compare with its quote.

The server's answer says it when it carries `credits_debited` as a non-negative integer (the
spec shows no unlock body, so it is read tolerantly); that statement is used as it is.
Otherwise the debit is measured from the balance: read just before deciding, and again once
the spend settled. Other spends of the same account may have moved the balance in between
(another window, the command line, an agent): what the journal knows they took is taken off,
and a fall they may explain is not measured at all, so it neither reports an overcharge nor
becomes the observed price. Only what they cannot explain is.
"""

from __future__ import annotations

from dataclasses import dataclass

from leadtui.api.models import Export, Extraction


def stated_debit(record: Export | Extraction) -> int | None:
    """Credits the server says this spend debited; None when its answer does not say."""
    value = record.extra("credits_debited")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


@dataclass(frozen=True)
class Meanwhile:
    """What other spends of the account may have taken while one spend was out."""

    credits: int
    """What they debited when known, else what they were quoted."""
    exact: bool
    """Every one of them has a known debit (and none is still being sent)."""


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
