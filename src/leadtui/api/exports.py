"""`/exports` and unlocking: spend credits on a search, follow the job, download the archive."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import BinaryIO, Literal

import httpx

from leadtui.api.downloads import OnProgress, copy_stream, save_stream
from leadtui.api.errors import LeadError
from leadtui.api.models import CustomDownloadRequest, Export, ExportRequest, Lead, Page
from leadtui.api.pagination import iterate
from leadtui.api.params import idempotency_key_for, list_params
from leadtui.api.parsing import parse_page, parse_record
from leadtui.api.transport import Transport
from leadtui.api.urls import segment

# Where an archive goes: a file (written atomically), or an open binary stream.
Target = str | os.PathLike[str] | BinaryIO


class Exports:
    """`client.exports`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def create(
        self,
        search_id: str,
        additional_results: int,
        idempotency_key: str | None = None,
        *,
        raw_body: bytes | None = None,
    ) -> Export:
        """Unlock `additional_results` results of a search: spends credits, queues an export.

        Every attempt carries one Idempotency-Key (made here if not given), so a retry never
        debits twice; the key is on the returned export and on any raised LeadError.
        `raw_body`: the body already encoded by the caller (the spend journal), sent as is.
        """
        body = ExportRequest(additional_results=additional_results).to_body()
        key = idempotency_key_for(idempotency_key)
        try:
            response = await self._transport.request(
                "POST",
                f"/searches/{segment(search_id)}/exports",
                json=body if raw_body is None else None,
                content=raw_body,
                idempotency_key=key,
            )
            return parse_record(response, Export, idempotency_key=key)
        except LeadError as exc:
            exc.idempotency_key = key
            raise

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Export]:
        """One page of export jobs, newest first as the server orders them."""
        response = await self._transport.request(
            "GET", "/exports", params=list_params(cursor, limit)
        )
        return parse_page(response, Export, limit)

    def iter_all(self, limit: int | None = None) -> AsyncIterator[Export]:
        """Every export job, page after page."""
        list_params(None, limit)
        return iterate(lambda cursor: self.list(cursor, limit))

    async def get(self, export_id: str) -> Export:
        """An export's status; `poll_after` says when to look again while it moves."""
        response = await self._transport.request("GET", f"/exports/{segment(export_id)}")
        return parse_record(response, Export)

    async def results(
        self, export_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of an export's leads; Conflict (`export_not_ready`) until it is ready."""
        response = await self._transport.request(
            "GET", f"/exports/{segment(export_id)}/results", params=list_params(cursor, limit)
        )
        return parse_page(response, Lead, limit)

    def iter_results(self, export_id: str, limit: int | None = None) -> AsyncIterator[Lead]:
        """Every lead of a ready export."""
        list_params(None, limit)
        return iterate(lambda cursor: self.results(export_id, cursor, limit))

    async def retry(self, export_id: str) -> Export:
        """Queue a failed export again (no credits); any other export comes back unchanged."""
        response = await self._transport.request("POST", f"/exports/{segment(export_id)}/retry")
        return parse_record(response, Export)

    async def download(
        self, export_id: str, path: Target, *, on_progress: OnProgress | None = None
    ) -> Path | None:
        """Save the ZIP archive of a ready export to `path` (atomically), or write it to an
        open binary stream (None then)."""
        async with self._transport.stream("GET", f"/exports/{segment(export_id)}/download") as r:
            return await _save(r, path, on_progress)

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
            return await _save(r, path, on_progress)


async def _save(
    response: httpx.Response, to: Target, on_progress: OnProgress | None
) -> Path | None:
    if isinstance(to, str | os.PathLike):
        return await save_stream(response, Path(to), on_progress)
    await copy_stream(response, to, on_progress)
    return None
