"""The spend journal as History lists it: every spend of this profile, whoever made it (the
app, the command line or an agent), newest first. Textual-free."""

from __future__ import annotations

from typing import Any, Final

from leadtui.spend.intent import SpendIntent

SPEND_COLUMNS: Final = ("Journaled", "Spend", "Credits", "Outcome", "By", "Key")

# How History names each surface ("" is a spend an earlier version journaled).
_BY: Final = {"app": "app", "cli": "command line", "agent": "agent", "": "—"}


def spend_cells(intent: SpendIntent) -> tuple[str, str, str, str, str, str]:
    """The row under `SPEND_COLUMNS`."""
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
    by = _BY.get(intent.surface, intent.surface)
    when = intent.created_at.strftime("%Y-%m-%d %H:%M")
    return when, what, credits, outcome, by, intent.short_key


def spend_record(intent: SpendIntent) -> dict[str, Any]:
    """The whole journal row as JSON (describe): never the API key, only its masked form."""
    return {
        "idempotency_key": intent.idempotency_key,
        "operation": intent.operation.value,
        "params": dict(intent.params),
        "amount": intent.amount,
        "debited": intent.debited,
        "surface": intent.surface or None,
        "authorized_by": intent.authorized_by,
        "account": intent.account.label,
        "created_at": intent.created_at.isoformat(),
        "outcome": intent.outcome.value if intent.outcome else None,
        "outcome_detail": dict(intent.outcome_detail),
    }
