"""`leadtui account` and `leadtui usage`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leadtui.cli.runtime import Context


def _account_rows(doc: dict[str, Any], key_masked: str) -> Iterable[tuple[str, object]]:
    account = doc.get("account") or {}
    launches = doc.get("extraction_launches") or {}
    yield "Account", account.get("name") or account.get("id")
    yield "Credits", doc.get("credits")
    yield "Subscription", (doc.get("subscription") or {}).get("status")
    if doc.get("access"):
        yield "Access", doc["access"].get("status")
    yield "Key", key_masked
    yield "Scopes", " ".join(doc.get("scopes") or [])
    if launches:
        yield "Launches left", launches.get("remaining")


async def show(ctx: Context) -> int:
    """`leadtui account`: GET /me."""
    client = ctx.client()
    identity = await client.me()
    ctx.out.record(identity, lambda doc: _account_rows(doc, client.key_masked))
    return 0


async def usage(ctx: Context) -> int:
    """`leadtui usage`: GET /usage, totals then one line per day."""
    record = await ctx.client().usage()
    totals = [
        ("Window", f"{record.window_days} days"),
        ("Requests", record.totals.requests),
        ("Credits used", record.totals.credits_used),
        ("Credits left", record.credits),
    ]
    ctx.out.record(record, lambda _: totals)
    if ctx.out.machine:
        return 0
    ctx.out.line()
    rows = [[d.date, f"{d.requests:,}", f"{d.credits_used:,}"] for d in record.daily]
    ctx.out.table(["Date", "Requests", "Credits used"], rows)
    return 0
