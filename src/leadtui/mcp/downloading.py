"""`download_export`: save a ready export's archive under the download folder (where, as for
every surface: `config/download_folder.py`) and answer its path and size, never its bytes."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.api.guidance import WRITE_FAILED
from leadtui.config.download_folder import free_path
from leadtui.mcp.reading import ExportId
from leadtui.mcp.results import ToolFailure, answer
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import DownloadOut

# Writes a file on this machine; saving again makes a new file, never overwrites.
SAVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True)

Columns = Annotated[
    list[Annotated[str, Field(min_length=1)]] | None,
    Field(
        min_length=1,
        description="Authorized column names for a custom archive (CSV); omit for the whole "
        "export's archive.",
    ),
]


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    @server.tool(annotations=SAVE)
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
