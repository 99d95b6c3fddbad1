"""The spend core every surface (the TUI, the command line, an agent tool server) spends through.

A surface prices the spend with `Quote` (e.g. `Quote.unlock(search, 40, balance)`), builds a
`SpendRequest` from it (`SpendRequest.for_unlock(quote, search_id)`), asks the user when
`SpendGate.requires_confirmation` says so (the rule lives in `policy.needs_confirmation`), then
calls `await gate.execute(request, client, confirmed=True)`. Pending spends come from
`await gate.pending(client)` and go back through `await gate.resend(intent, client)`.
"""

from __future__ import annotations

from leadtui.spend.account import SpendAccount
from leadtui.spend.errors import (
    ConfirmationRequired,
    IntentClaimed,
    IntentMissing,
    IntentOfAnotherAccount,
    IntentSettled,
    InvalidIdempotencyKey,
    JournalError,
    ReadOnlyProfile,
    SpendBlocked,
    SpendOutcomeUnknown,
)
from leadtui.spend.gate import SpendGate, SpendResult, settles_spend
from leadtui.spend.journal import (
    SpendIntent,
    SpendJournal,
    SpendOperation,
    SpendOutcome,
    UnreadableIntent,
)
from leadtui.spend.origin import spend_origin
from leadtui.spend.policy import check_spend_allowed, needs_confirmation
from leadtui.spend.quote import (
    PriceSource,
    Quote,
    Unit,
    affordable_results,
    plural,
    stated_price,
    still_locked,
)
from leadtui.spend.request import SpendRequest

__all__ = [
    "ConfirmationRequired",
    "IntentClaimed",
    "IntentMissing",
    "IntentOfAnotherAccount",
    "IntentSettled",
    "InvalidIdempotencyKey",
    "JournalError",
    "PriceSource",
    "Quote",
    "ReadOnlyProfile",
    "SpendAccount",
    "SpendBlocked",
    "SpendGate",
    "SpendIntent",
    "SpendJournal",
    "SpendOperation",
    "SpendOutcome",
    "SpendOutcomeUnknown",
    "SpendRequest",
    "SpendResult",
    "Unit",
    "UnreadableIntent",
    "affordable_results",
    "check_spend_allowed",
    "needs_confirmation",
    "plural",
    "settles_spend",
    "spend_origin",
    "stated_price",
    "still_locked",
]
