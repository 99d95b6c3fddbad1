"""`leadtui searches list|get|create|results`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leadtui.api.models import SearchRequest
from leadtui.cli.commands.verbs import list_verb, record_verb, results_verb
from leadtui.cli.output import Column, field
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


list_searches = list_verb("searches", SEARCH_COLUMNS)
get = record_verb("searches", "get", search_rows)
# The results already unlocked; `--all --format csv` streams them in constant memory.
results = results_verb("searches")


async def create(ctx: Context) -> int:
    """Checked against every schema limit first: a bad request is refused, nothing sent."""
    request = checked(SearchRequest, ctx.ns.file, ctx.deps.stdin)
    search = await ctx.client().searches.create(request)
    ctx.out.record(search, search_rows)
    ctx.out.info(f"Unlock results with: leadtui unlock {search.searchId} --results N")
    return 0
