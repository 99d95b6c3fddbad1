"""`/exports` and unlocking: spend credits on a search, follow the job, download the archive."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from leadtui.api.downloads import OnProgress, Target, save
from leadtui.api.models import CustomDownloadRequest, Export, ExportRequest
from leadtui.api.resource import Collection
from leadtui.api.urls import segment


class Exports(Collection[Export]):
    path = "/exports"
    model = Export

    async def create(
        self,
        search_id: str,
        additional_results: int,
        idempotency_key: str | None = None,
        *,
        raw_body: bytes | None = None,
    ) -> Export:
        """Unlock `additional_results` results of a search: spends credits, queues an export
        (see `Resource._keyed` for the key and `raw_body`)."""
        body = ExportRequest(additional_results=additional_results).to_body()
        path = f"/searches/{segment(search_id)}/exports"
        return await self._keyed("POST", path, Export, idempotency_key, body, raw_body)

    async def retry(self, export_id: str) -> Export:
        """Queue a failed export again (no credits); any other export comes back unchanged."""
        return await self._record("POST", f"/exports/{segment(export_id)}/retry", Export)

    async def download(
        self, export_id: str, path: Target, *, on_progress: OnProgress | None = None
    ) -> Path | None:
        """Save the ZIP archive of a ready export to `path` (atomically), or write it to an
        open binary stream (None then)."""
        async with self._transport.stream("GET", f"/exports/{segment(export_id)}/download") as r:
            return await save(r, path, on_progress)

    async def custom_download(
        self,
        export_id: str,
        path: Target,
        columns: Sequence[str],
        format: Literal["csv", "json"] = "csv",
        *,
        on_progress: OnProgress | None = None,
    ) -> Path | None:
        """Save an archive of the selected authorized columns to `path` (atomically), or
        write it to an open binary stream (None then)."""
        body = CustomDownloadRequest(columns=[*columns], format=format).to_body()
        async with self._transport.stream(
            "POST", f"/exports/{segment(export_id)}/custom-download", json=body
        ) as r:
            return await save(r, path, on_progress)
