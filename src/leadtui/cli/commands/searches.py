"""`leadtui searches list|get|create|results`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leadtui.api.models import SearchRequest
from leadtui.cli.output import Column, field
from leadtui.cli.records import show_pages, show_record
from leadtui.cli.request_files import checked
from leadtui.cli.runtime import Context

SEARCH_COLUMNS: list[Column] = [
    ("ID", field("searchId")),
    ("Results", field("result_count")),
    ("Unlocked", field("unlocked_count")),
    ("Created", field("created_at")),
    ("Summary", field("summary")),
]


def search_rows(doc: dict[str, Any]) -> Iterable[tuple[str, object]]:
    yield "ID", doc.get("searchId")
    yield "Summary", doc.get("summary")
    yield "Results", doc.get("result_count")
    yield "Unlocked", doc.get("unlocked_count")
    if "price_per_result" in doc:
        yield "Price per result", doc.get("price_per_result")
    yield "Created", doc.get("created_at")


async def list_searches(ctx: Context) -> int:
    client = ctx.client()
    await show_pages(ctx, lambda cursor, limit: client.searches.list(cursor, limit), SEARCH_COLUMNS)
    return 0


async def get(ctx: Context) -> int:
    show_record(ctx, await ctx.client().searches.get(ctx.ns.id), search_rows)
    return 0


async def create(ctx: Context) -> int:
    """Checked against every schema limit first: a bad request is refused, nothing sent."""
    request = checked(SearchRequest, ctx.ns.file, ctx.deps.stdin)
    search = await ctx.client().searches.create(request)
    show_record(ctx, search, search_rows)
    ctx.out.info(f"Unlock results with: leadtui unlock {search.searchId} --results N")
    return 0


async def results(ctx: Context) -> int:
    """Unlocked leads, page by page; `--all --format csv` streams in constant memory."""
    client = ctx.client()
    search_id = ctx.ns.id
    await show_pages(
        ctx, lambda cursor, limit: client.searches.results(search_id, cursor, limit), None
    )
    return 0
