"""`/exports` and unlocking: spend credits on a search, follow the job, download the archive."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from leadtui.api.downloads import OnProgress, Target, save
from leadtui.api.models import CustomDownloadRequest, Export, ExportRequest, Lead, Page
from leadtui.api.resource import Resource
from leadtui.api.urls import segment


class Exports(Resource):
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

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Export]:
        """One page of export jobs, newest first as the server orders them."""
        return await self._page("/exports", Export, cursor, limit)

    async def get(self, export_id: str) -> Export:
        """An export's status; `poll_after` says when to look again while it moves."""
        return await self._record("GET", f"/exports/{segment(export_id)}", Export)

    async def results(
        self, export_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of an export's leads; Conflict (`export_not_ready`) until it is ready."""
        return await self._page(f"/exports/{segment(export_id)}/results", Lead, cursor, limit)

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
