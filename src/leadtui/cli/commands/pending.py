"""`leadtui pending list|resend|discard`: spends journaled with no known outcome."""

from __future__ import annotations

from leadtui.api.models import Export
from leadtui.cli import approving, spending
from leadtui.cli.commands.exports import export_rows
from leadtui.cli.commands.extractions import extraction_rows
from leadtui.cli.output import table_lines
from leadtui.cli.records import show_record
from leadtui.cli.runtime import Context


async def list_pending(ctx: Context) -> int:
    intents = await spending.pending_intents(ctx)
    if ctx.out.machine:
        who = approving.who_asked(ctx)
        data = [spending.intent_json(i) | who(i.idempotency_key) for i in intents]
        ctx.out.document({"data": data, "next_cursor": None})
        return 0
    if not intents:
        ctx.out.info(f"No pending spends for profile '{ctx.profile}'.")
        return 0
    rows = [
        [
            i.idempotency_key,
            i.operation.value,
            " ".join(f"{k}={v}" for k, v in i.params.items() if k != "request"),
            "—" if i.amount is None else f"{i.amount:,}",
            i.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            i.account.label,
        ]
        for i in intents
    ]
    lines = table_lines(["Key", "Operation", "Details", "Credits", "Journaled", "Account"], rows)
    ctx.out.line(ctx.out.bold(lines[0]))
    for text in lines[1:]:
        ctx.out.line(text)
    ctx.out.info("Resend with the same key (never a second debit): leadtui pending resend KEY")
    return 0


async def resend(ctx: Context) -> int:
    record = await spending.resend(ctx, ctx.ns.id)
    show_record(ctx, record, export_rows if isinstance(record, Export) else extraction_rows)
    return 0


async def discard(ctx: Context) -> int:
    intent = await spending.discard(ctx, ctx.ns.id)
    if ctx.out.machine:
        ctx.out.document(spending.intent_json(intent))
    else:
        ctx.out.line(f"Discarded {intent.idempotency_key}: it will not be offered again.")
    return 0
