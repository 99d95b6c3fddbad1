"""`leadtui pending list|resend|discard`: spends journaled with no known outcome."""

from __future__ import annotations

from leadtui.api.models import Export
from leadtui.cli import approving, spending
from leadtui.cli.commands.exports import export_rows
from leadtui.cli.commands.extractions import extraction_rows
from leadtui.cli.runtime import Context
from leadtui.spend.intent import SpendIntent


def shown(text: str) -> str:
    """Journal text as a terminal may show it: a control character is written as its escape
    (`\\x1b`), never sent to the terminal, whatever a row holds."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def _details(intent: SpendIntent) -> str:
    return " ".join(f"{k}={v}" for k, v in intent.params.items() if k != "request")


async def list_pending(ctx: Context) -> int:
    """Every pending spend (the list is never paged: `--all` changes nothing), and the
    journal's entries that cannot be read, as such."""
    intents = await spending.pending_intents(ctx)
    unreadable = await spending.unreadable_intents(ctx)
    spoiled = [{"idempotency_key": u.idempotency_key, "unreadable": u.reason} for u in unreadable]
    who = approving.who_asked(ctx)
    data = [spending.intent_json(i) | who(i) for i in intents]
    if ctx.out.fmt == "jsonl":
        for doc in [*data, *spoiled]:
            ctx.out.document(doc)
        return 0
    if ctx.out.machine:
        ctx.out.document({"data": data, "unreadable": spoiled, "next_cursor": None})
        return 0
    if not intents and not unreadable:
        ctx.out.info(f"No pending spends for profile '{ctx.profile}'.")
        return 0
    rows = [
        [
            shown(i.idempotency_key),
            i.operation.value,
            shown(_details(i)),
            "—" if i.amount is None else f"{i.amount:,}",
            i.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            shown(i.account.label),
            shown(i.surface or "—"),
        ]
        for i in intents
    ]
    rows += [
        [shown(u.idempotency_key), "unreadable", shown(u.reason), "—", "—", "—", "—"]
        for u in unreadable
    ]
    ctx.out.table(["Key", "Operation", "Details", "Credits", "Journaled", "Account", "By"], rows)
    if intents:
        ctx.out.info("Resend with the same key (never a second debit): leadtui pending resend KEY")
    if unreadable:
        ctx.out.info("An unreadable entry is never sent; look for it on the server.")
    return 0


async def resend(ctx: Context) -> int:
    result = await spending.resend(ctx, ctx.ns.id)
    rows = export_rows if isinstance(result.record, Export) else extraction_rows
    spending.show_spent(ctx, result, rows)
    return 0


async def discard(ctx: Context) -> int:
    intent = await spending.discard(ctx, ctx.ns.id)
    if ctx.out.machine:
        ctx.out.document(spending.intent_json(intent))
    else:
        ctx.out.line(f"Discarded {intent.idempotency_key}: it will not be offered again.")
    return 0
