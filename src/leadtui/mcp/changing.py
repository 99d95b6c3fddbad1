"""The tools that change something but spend nothing (`readOnlyHint: false`): create a search,
retry an export, draft and edit extractions, pause, resume and stop them; save a ready
export's archive under the download folder (where, as for every surface:
`config/download_folder.py`), answering its path and size, never its bytes."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import AfterValidator, Field

from leadtui.api.guidance import WRITE_FAILED
from leadtui.api.models import ExtractionDraft, SearchRequest
from leadtui.config.download_folder import free_path
from leadtui.mcp.reading import ExportId, ExtractionId, job_answer, record_answer
from leadtui.mcp.results import ToolFailure, answer
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import DownloadOut, ExportOut, ExtractionOut, SearchOut, bounded

CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True)
# Stopping cannot be undone.
FOR_GOOD = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=True)

SearchBody = Annotated[
    SearchRequest,
    AfterValidator(bounded),
    Field(
        description="The spec's SearchRequest: activities, countries and localisations (1 to "
        "100 items each; an item's name at most 160 characters, queryNames at most 30, "
        "localisationIdentifiers at most 200), and an optional result_filter."
    ),
]
DraftBody = Annotated[
    ExtractionDraft,
    AfterValidator(bounded),
    Field(description="Any fields of an ExtractionRequest (all optional in a draft)."),
]
Columns = Annotated[
    list[Annotated[str, Field(min_length=1)]] | None,
    Field(
        min_length=1,
        description="Authorized column names for a custom archive (CSV); omit for the whole "
        "export's archive.",
    ),
]


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    @server.tool(annotations=CHANGE)
    async def create_search(request: SearchBody) -> Annotated[CallToolResult, SearchOut]:
        """Create and count a search. Costs no credits; its results are unlocked (with
        credits) by unlock_results. Checked against every limit of the spec before sending."""
        search = await runtime.client().searches.create(request)
        return record_answer(
            search,
            f"Search {search.searchId} created: {search.result_count} results, "
            f"{search.price_per_result} credit(s) per result to unlock.",
        )

    @server.tool(annotations=CHANGE)
    async def retry_export(export_id: ExportId) -> Annotated[CallToolResult, ExportOut]:
        """Queue a failed export again. Costs no credits; an export that did not fail comes
        back unchanged."""
        return job_answer(await runtime.client().exports.retry(export_id))

    @server.tool(annotations=CHANGE)
    async def draft_extraction(request: DraftBody) -> Annotated[CallToolResult, ExtractionOut]:
        """Save an editable extraction draft. Consumes no launch; launch_extraction does."""
        draft = await runtime.client().extractions.create_draft(request)
        return record_answer(draft, f"Draft {draft.extractionId} saved.")

    @server.tool(annotations=CHANGE)
    async def update_extraction_draft(
        extraction_id: ExtractionId, changes: DraftBody
    ) -> Annotated[CallToolResult, ExtractionOut]:
        """Change fields of a draft that is still editable (error draft_not_editable
        otherwise). Consumes no launch."""
        draft = await runtime.client().extractions.update_draft(extraction_id, changes)
        return record_answer(draft, f"Draft {draft.extractionId} updated.")

    @server.tool(annotations=CHANGE)
    async def pause_extraction(
        extraction_id: ExtractionId,
    ) -> Annotated[CallToolResult, ExtractionOut]:
        """Pause a running extraction (resume_extraction carries on). Costs nothing."""
        extraction = await runtime.client().extractions.pause(extraction_id)
        return record_answer(extraction, f"Extraction {extraction.extractionId}: paused.")

    @server.tool(annotations=CHANGE)
    async def resume_extraction(
        extraction_id: ExtractionId,
    ) -> Annotated[CallToolResult, ExtractionOut]:
        """Resume a paused extraction. Costs nothing."""
        return job_answer(await runtime.client().extractions.resume(extraction_id))

    @server.tool(annotations=FOR_GOOD)
    async def stop_extraction(
        extraction_id: ExtractionId,
    ) -> Annotated[CallToolResult, ExtractionOut]:
        """Stop an extraction for good (it cannot be resumed). Costs nothing."""
        return job_answer(await runtime.client().extractions.stop(extraction_id))

    # Writes a file on this machine; saving again makes a new file, never overwrites.
    @server.tool(annotations=CHANGE)
    async def download_export(
        export_id: ExportId, columns: Columns = None
    ) -> Annotated[CallToolResult, DownloadOut]:
        """Save a ready export's ZIP archive (or, with columns, a custom archive of those
        columns) under the user's download folder. Answers the saved file's path and size,
        never its contents. Costs no credits."""
        client = runtime.client()
        folder = runtime.resolved.download_dir
        name = export_id + ("-custom.zip" if columns else ".zip")
        try:
            # A name made from an id stays directly in the folder, whatever the id holds.
            target = await asyncio.to_thread(free_path, folder, name)
        except OSError as exc:
            raise ToolFailure(
                WRITE_FAILED, f"Cannot save in {folder}: {exc.strerror or exc}."
            ) from None
        if columns:
            await client.exports.custom_download(export_id, target, columns)
        else:
            await client.exports.download(export_id, target)
        size = (await asyncio.to_thread(target.stat)).st_size
        doc = {
            "export_id": export_id,
            "exportId": export_id,
            "path": str(target),
            "bytes": size,
            "columns": columns,
        }
        return answer(doc, f"Saved {size:,} bytes to {target}.")
