"""`leadtui exports list|get|results|retry|download|custom-download|wait`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from leadtui.api.contract import ExportStatus
from leadtui.api.models import Export
from leadtui.cli.failures import usage_failure
from leadtui.cli.output import Column, field, percent
from leadtui.cli.records import show_pages, show_record
from leadtui.cli.runtime import Context
from leadtui.cli.saving import save_archive
from leadtui.cli.waiting import Goal, wait_for

EXPORT_COLUMNS: list[Column] = [
    ("ID", field("exportId")),
    ("Status", field("status")),
    ("Progress", lambda item: percent(item.get("progress"))),
    ("Search", field("searchId")),
    ("Results", field("additional_results")),
    ("Created", field("created_at")),
]

_GOAL = Goal(frozenset({ExportStatus.READY}), frozenset({ExportStatus.FAILED}))


def export_rows(doc: dict[str, Any]) -> Iterable[tuple[str, object]]:
    yield "ID", doc.get("exportId")
    yield "Status", doc.get("status")
    yield "Progress", percent(doc.get("progress"))
    yield "Search", doc.get("searchId")
    yield "Results", doc.get("additional_results")
    if "credits_debited" in doc:
        yield "Credits debited", doc.get("credits_debited")
    yield "Created", doc.get("created_at")
    yield "Updated", doc.get("updated_at")


def _describe(export: Export) -> str:
    return f"{export.exportId}: {export.status} {percent(export.progress)}"


async def list_exports(ctx: Context) -> int:
    client = ctx.client()
    await show_pages(ctx, lambda cursor, limit: client.exports.list(cursor, limit), EXPORT_COLUMNS)
    return 0


async def get(ctx: Context) -> int:
    show_record(ctx, await ctx.client().exports.get(ctx.ns.id), export_rows)
    return 0


async def results(ctx: Context) -> int:
    client = ctx.client()
    export_id = ctx.ns.id
    await show_pages(
        ctx, lambda cursor, limit: client.exports.results(export_id, cursor, limit), None
    )
    return 0


async def retry(ctx: Context) -> int:
    """Queue a failed export again (no credits); any other comes back unchanged."""
    show_record(ctx, await ctx.client().exports.retry(ctx.ns.id), export_rows)
    return 0


async def wait(ctx: Context) -> int:
    """Exit 0 once ready, 3 if it failed, 4 on --timeout; the last record on stdout."""
    client = ctx.client()
    export_id = ctx.ns.id
    export, code = await wait_for(
        ctx, lambda: client.exports.get(export_id), _GOAL, _describe, ctx.ns.timeout
    )
    show_record(ctx, export, export_rows)
    return int(code)


async def download(ctx: Context) -> int:
    client = ctx.client()
    export_id = ctx.ns.id

    async def fetch(path: Path, progress: Any) -> Path:
        return await client.exports.download(export_id, path, on_progress=progress)

    await save_archive(ctx, export_id, f"{export_id}.zip", fetch)
    return 0


async def custom_download(ctx: Context) -> int:
    columns = [c.strip() for c in ctx.ns.columns.split(",") if c.strip()]
    if not columns:
        raise usage_failure("--columns names no column. Nothing was sent.")
    client = ctx.client()
    export_id, archive_format = ctx.ns.id, ctx.ns.archive_format

    async def fetch(path: Path, progress: Any) -> Path:
        return await client.exports.custom_download(
            export_id, path, columns, archive_format, on_progress=progress
        )

    await save_archive(ctx, export_id, f"{export_id}-custom.zip", fetch)
    return 0
