"""`leadtui extractions list|get|draft|update|create|launch|pause|resume|stop|results|wait`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leadtui.api.contract import ExtractionStatus
from leadtui.api.models import Extraction, ExtractionDraft, ExtractionRequest
from leadtui.cli import spending
from leadtui.cli.output import Column, field, percent
from leadtui.cli.records import show_pages, show_record
from leadtui.cli.request_files import checked
from leadtui.cli.runtime import Context
from leadtui.cli.waiting import Goal, wait_for

EXTRACTION_COLUMNS: list[Column] = [
    ("ID", field("extractionId")),
    ("Status", field("status")),
    ("Progress", lambda item: percent(item.get("progress"))),
    ("Results", field("result_count")),
    ("Categories", field("categories")),
    ("Created", field("created_at")),
]

_GOAL = Goal(
    frozenset({ExtractionStatus.COMPLETED}),
    frozenset({ExtractionStatus.FAILED, ExtractionStatus.STOPPED}),
)


def extraction_rows(doc: dict[str, Any]) -> Iterable[tuple[str, object]]:
    yield "ID", doc.get("extractionId")
    yield "Status", doc.get("status")
    if "progress" in doc:
        yield "Progress", percent(doc.get("progress"))
    for name in ("result_count", "categories", "countries", "localisations", "enrichment_sources"):
        if name in doc:
            yield name.replace("_", " ").capitalize(), doc.get(name)
    yield "Created", doc.get("created_at")
    yield "Updated", doc.get("updated_at")


def _describe(extraction: Extraction) -> str:
    progress = percent(extraction.extra("progress"))
    return f"{extraction.extractionId}: {extraction.status} {progress}"


async def list_extractions(ctx: Context) -> int:
    client = ctx.client()
    await show_pages(
        ctx, lambda cursor, limit: client.extractions.list(cursor, limit), EXTRACTION_COLUMNS
    )
    return 0


async def get(ctx: Context) -> int:
    show_record(ctx, await ctx.client().extractions.get(ctx.ns.id), extraction_rows)
    return 0


async def draft(ctx: Context) -> int:
    """Save an editable draft: no launch is consumed."""
    body = checked(ExtractionDraft, ctx.ns.file, ctx.deps.stdin)
    show_record(ctx, await ctx.client().extractions.create_draft(body), extraction_rows)
    return 0


async def update(ctx: Context) -> int:
    body = checked(ExtractionDraft, ctx.ns.file, ctx.deps.stdin)
    show_record(ctx, await ctx.client().extractions.update_draft(ctx.ns.id, body), extraction_rows)
    return 0


async def create(ctx: Context) -> int:
    """Create and launch: consumes a launch, so it needs the prompt or --yes."""
    body = checked(ExtractionRequest, ctx.ns.file, ctx.deps.stdin)
    spend = await spending.create_extraction_spend(ctx.client(), body)
    if ctx.ns.dry_run:
        return spending.show_dry_run(ctx, spend)
    show_record(ctx, await spending.execute(ctx, spend), extraction_rows)
    return 0


async def launch(ctx: Context) -> int:
    spend = await spending.launch_extraction_spend(ctx.client(), ctx.ns.id)
    if ctx.ns.dry_run:
        return spending.show_dry_run(ctx, spend)
    show_record(ctx, await spending.execute(ctx, spend), extraction_rows)
    return 0


async def pause(ctx: Context) -> int:
    show_record(ctx, await ctx.client().extractions.pause(ctx.ns.id), extraction_rows)
    return 0


async def resume(ctx: Context) -> int:
    show_record(ctx, await ctx.client().extractions.resume(ctx.ns.id), extraction_rows)
    return 0


async def stop(ctx: Context) -> int:
    show_record(ctx, await ctx.client().extractions.stop(ctx.ns.id), extraction_rows)
    return 0


async def results(ctx: Context) -> int:
    client = ctx.client()
    extraction_id = ctx.ns.id
    await show_pages(
        ctx, lambda cursor, limit: client.extractions.results(extraction_id, cursor, limit), None
    )
    return 0


async def wait(ctx: Context) -> int:
    """Exit 0 once completed, 3 if it failed or was stopped, 4 on --timeout."""
    client = ctx.client()
    extraction_id = ctx.ns.id
    extraction, code = await wait_for(
        ctx, lambda: client.extractions.get(extraction_id), _GOAL, _describe, ctx.ns.timeout
    )
    show_record(ctx, extraction, extraction_rows)
    return int(code)
