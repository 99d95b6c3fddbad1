"""The spend journal as History lists it: every spend of this profile on the app's server and
account, who asked for it (the app, the command line, an agent, or a process that asked the
running app) and who approved it, newest first. Textual-free."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from leadtui.spend.approval_parties import SpendParties
from leadtui.spend.intent import SpendIntent

# Who asked and approved before the spend's words, and its key last: at 80 columns the spend
# and the key are cut at the edge, never who asked or approved (`D` describes the whole row).
SPEND_COLUMNS: Final = (
    "Journaled",
    "Credits",
    "Outcome",
    "Asked by",
    "Approved by",
    "Spend",
    "Key",
)


@dataclass(frozen=True)
class SpendRow:
    intent: SpendIntent
    parties: SpendParties

    @property
    def key(self) -> str:
        return self.intent.idempotency_key

    def cells(self) -> tuple[str, ...]:
        """The row under `SPEND_COLUMNS`."""
        intent = self.intent
        params = intent.params
        target = params.get("search_id") or params.get("extraction_id") or "new extraction"
        what = f"{intent.operation.value} {target}"
        if intent.amount is None:
            credits = "—"
        elif intent.debited is not None and intent.debited != intent.amount:
            credits = f"{intent.debited:,} (quoted {intent.amount:,})"
        else:
            credits = f"{intent.amount:,}"
        outcome = intent.outcome.value if intent.outcome is not None else "pending"
        when = intent.created_at.strftime("%m-%d %H:%M")
        parties = self.parties
        return when, credits, outcome, parties.asked_by, parties.approved_by, what, intent.short_key

    def record(self) -> dict[str, Any]:
        """The whole journal row as JSON (describe): never the API key, only its masked form."""
        intent = self.intent
        return {
            "idempotency_key": intent.idempotency_key,
            "operation": intent.operation.value,
            "params": dict(intent.params),
            "amount": intent.amount,
            "debited": intent.debited,
            "surface": intent.surface or None,
            "authorized_by": intent.authorized_by,
            **self.parties.to_json(),
            "server": intent.origin,
            "account": intent.account.label,
            "created_at": intent.created_at.isoformat(),
            "outcome": intent.outcome.value if intent.outcome else None,
            "outcome_detail": dict(intent.outcome_detail),
        }
