"""`leadtui exports list|get|results|retry|download|custom-download|wait`."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from leadtui.api.contract import ExportStatus
from leadtui.api.downloads import OnProgress
from leadtui.api.models import Export
from leadtui.cli.commands.verbs import list_verb, record_verb, results_verb, wait_verb
from leadtui.cli.failures import usage_failure
from leadtui.cli.files import save_archive
from leadtui.cli.output import Column, field, percent
from leadtui.cli.runtime import Context
from leadtui.cli.waiting import Goal

EXPORT_COLUMNS: list[Column] = [
    ("ID", field("exportId")),
    ("Status", field("status")),
    ("Progress", lambda item: percent(item.get("progress"))),
    ("Search", field("searchId")),
    ("Results", field("additional_results")),
    ("Created", field("created_at")),
]

EXPORT_GOAL = Goal(frozenset({ExportStatus.READY}), frozenset({ExportStatus.FAILED}))


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


def describe_export(export: Export) -> str:
    return f"{export.exportId}: {export.status} {percent(export.progress)}"


list_exports = list_verb("exports", EXPORT_COLUMNS)
get = record_verb("exports", "get", export_rows)
results = results_verb("exports")
# Queue a failed export again (no credits); any other comes back unchanged.
retry = record_verb("exports", "retry", export_rows)

# Exit 0 once ready, 3 if it failed, 4 on --timeout.
wait = wait_verb("exports", EXPORT_GOAL, describe_export, export_rows)


async def download(ctx: Context) -> int:
    client = ctx.client()
    export_id = ctx.ns.id

    async def fetch(to: Path | BinaryIO, progress: OnProgress) -> object:
        return await client.exports.download(export_id, to, on_progress=progress)

    await save_archive(ctx, export_id, f"{export_id}.zip", fetch)
    return 0


async def custom_download(ctx: Context) -> int:
    columns = [c.strip() for c in ctx.ns.columns.split(",") if c.strip()]
    if not columns:
        raise usage_failure("--columns names no column. Nothing was sent.")
    client = ctx.client()
    export_id, archive_format = ctx.ns.id, ctx.ns.archive_format

    async def fetch(to: Path | BinaryIO, progress: OnProgress) -> object:
        return await client.exports.custom_download(
            export_id, to, columns, archive_format, on_progress=progress
        )

    await save_archive(ctx, export_id, f"{export_id}-custom.zip", fetch)
    return 0
