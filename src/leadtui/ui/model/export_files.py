"""Files the jobs screen writes: the visible rows as CSV (a free name in the folder, as every
download), and the columns a custom download may ask for."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path

from leadtui.api.client import LeadClient
from leadtui.config.download_folder import free_path
from leadtui.durable import NewFile


def stamp(now: float) -> str:
    return datetime.fromtimestamp(now).strftime("%Y%m%d-%H%M%S")


def write_rows_csv(folder: Path, name: str, rows: list[list[str]]) -> Path:
    """Write rows (header first) as CSV to a free name in `folder`, as every download is
    written (see `NewFile`). Blocking."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    new = NewFile(free_path(folder, name))
    try:
        new.binary.write(buffer.getvalue().encode())
    except BaseException:
        new.abandon()
        raise
    return new.commit()


async def authorized_columns(client: LeadClient, export_id: str) -> list[str]:
    """The columns a custom download may ask for: those of the export's lead records.

    The spec names no endpoint listing them; a ready export's first lead carries exactly the
    authorized columns, in the server's order.
    """
    page = await client.exports.results(export_id, limit=1)
    if not page.items:
        return []
    return list(page.items[0].model_dump().keys())
