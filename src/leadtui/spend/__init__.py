"""The spend core every surface (the TUI, the command line, an agent tool server) spends through.

A surface prices the spend with `Quote` (e.g. `Quote.unlock(search, 40, balance)`), builds a
`SpendRequest` from it (`SpendRequest.for_unlock(quote, search_id, idempotency_key=None)`), and
asks the one decision: `await gate.decide(request, client, Authorization(surface, ...))` →
`Decision` (send / ask / refuse, a code, the quote re-priced against a fresh balance). It
renders the decision; when it asks, it collects the person's yes and calls
`await gate.spend(request, client, Authorization(surface, confirmed=True))`, which decides
again, journals and sends, or raises `SpendRefused` carrying the decision. Pending spends come
from `await gate.pending(client)` and go back through `await gate.resend(intent, client)`.
"""

from __future__ import annotations

from leadtui.spend.account import SpendAccount
from leadtui.spend.decision import (
    Allowance,
    Authorization,
    AuthorizedBy,
    Budget,
    Code,
    Decision,
    Surface,
    Verdict,
)
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
    SpendRefused,
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
    "Allowance",
    "Authorization",
    "AuthorizedBy",
    "Budget",
    "Code",
    "ConfirmationRequired",
    "Decision",
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
    "SpendRefused",
    "SpendRequest",
    "SpendResult",
    "Surface",
    "Unit",
    "UnreadableIntent",
    "Verdict",
    "affordable_results",
    "check_spend_allowed",
    "needs_confirmation",
    "plural",
    "settles_spend",
    "spend_origin",
    "stated_price",
    "still_locked",
]
