"""`download_export`: save a ready export's archive under the download folder and answer its
path and size, never its bytes. The download is the client's (`NAME.part`, then an atomic
rename); where it goes is `config/download_folder.py`'s, as for the app and the command line."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Annotated, Any, Final

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from leadtui.config.download_folder import free_path
from leadtui.mcp.reading import ExportId
from leadtui.mcp.results import WRITE_FAILED, ToolFailure, answer
from leadtui.mcp.runtime import Runtime
from leadtui.mcp.schemas import DownloadOut

# Writes a file on this machine; saving again makes a new file, never overwrites.
SAVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=True)

# What an id may keep in a file name; anything else becomes `_`.
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_NAME_MAX: Final = 100

Columns = Annotated[
    list[Annotated[str, Field(min_length=1)]] | None,
    Field(
        min_length=1,
        description="Authorized column names for a custom archive (CSV); omit for the whole "
        "export's archive.",
    ),
]


def file_name(export_id: str, suffix: str) -> str:
    """A file name made from an id that stays one plain name: no separator, no leading dot."""
    stem = _UNSAFE.sub("_", export_id)[:_NAME_MAX].lstrip(".") or "export"
    return stem + suffix


def _target(folder: Path, name: str) -> Path:
    """A free path for `name` inside `folder` (`~` expanded), checked to be inside it once
    resolved. Blocking."""
    folder = folder.expanduser()
    target = free_path(folder, name)
    if target.resolve().parent != folder.resolve():
        raise ToolFailure(WRITE_FAILED, f"{name} would not be saved inside {folder}.")
    return target


def register(server: MCPServer[Any], runtime: Runtime) -> None:
    """Add `download_export` to `server`."""

    @server.tool(annotations=SAVE)
    async def download_export(
        export_id: ExportId, columns: Columns = None
    ) -> Annotated[CallToolResult, DownloadOut]:
        """Save a ready export's ZIP archive (or, with columns, a custom archive of those
        columns) under the user's download folder. Answers the saved file's path and size,
        never its contents. Costs no credits."""
        client = runtime.client()
        folder = runtime.settings.download_dir
        name = file_name(export_id, "-custom.zip" if columns else ".zip")
        try:
            target = await asyncio.to_thread(_target, folder, name)
        except OSError as exc:
            raise ToolFailure(
                WRITE_FAILED, f"Cannot save in {folder}: {exc.strerror or exc}."
            ) from None
        if columns:
            await client.exports.custom_download(export_id, target, columns)
        else:
            await client.exports.download(export_id, target)
        size = (await asyncio.to_thread(target.stat)).st_size
        doc = {"exportId": export_id, "path": str(target), "bytes": size, "columns": columns}
        return answer(doc, f"Saved {size:,} bytes to {target}.")
