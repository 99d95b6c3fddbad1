"""`leadtui extractions list|get|draft|update|create|launch|pause|resume|stop|results|wait`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from leadtui.api.contract import ExtractionStatus
from leadtui.api.models import Extraction, ExtractionDraft, ExtractionRequest
from leadtui.cli import approving, spending
from leadtui.cli.commands.verbs import list_verb, record_verb, results_verb, wait_verb
from leadtui.cli.output import Column, field, percent
from leadtui.cli.request_files import checked
from leadtui.cli.runtime import Context
from leadtui.cli.waiting import Goal

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
    {
        ExtractionStatus.DRAFT: "Launch it first: leadtui extractions launch ID.",
        ExtractionStatus.PAUSED: "Resume it first: leadtui extractions resume ID.",
    },
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


list_extractions = list_verb("extractions", EXTRACTION_COLUMNS)
get = record_verb("extractions", "get", extraction_rows)
pause = record_verb("extractions", "pause", extraction_rows)
resume = record_verb("extractions", "resume", extraction_rows)
stop = record_verb("extractions", "stop", extraction_rows)
results = results_verb("extractions")


async def draft(ctx: Context) -> int:
    """Save an editable draft: no launch is consumed."""
    body = checked(ExtractionDraft, ctx.ns.file, ctx.deps.stdin)
    ctx.out.record(await ctx.client().extractions.create_draft(body), extraction_rows)
    return 0


async def update(ctx: Context) -> int:
    body = checked(ExtractionDraft, ctx.ns.file, ctx.deps.stdin)
    ctx.out.record(await ctx.client().extractions.update_draft(ctx.ns.id, body), extraction_rows)
    return 0


async def _consume_launch(ctx: Context, spend: spending.Spend) -> int:
    """A launch of the quota is consumed only with the prompt's yes, --yes or --max-launches."""
    if ctx.ns.dry_run:
        return await spending.show_dry_run(ctx, spend)
    approving.check_options(ctx)
    spending.show_spent(ctx, await spending.execute(ctx, spend), extraction_rows)
    return 0


async def create(ctx: Context) -> int:
    body = checked(ExtractionRequest, ctx.ns.file, ctx.deps.stdin)
    return await _consume_launch(ctx, await spending.create_extraction_spend(ctx, body))


async def launch(ctx: Context) -> int:
    return await _consume_launch(ctx, await spending.launch_extraction_spend(ctx, ctx.ns.id))


# Exit 0 once completed, 3 if it failed or was stopped, 4 on --timeout.
wait = wait_verb("extractions", _GOAL, _describe, extraction_rows)
