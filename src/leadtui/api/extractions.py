"""`/extractions`: drafts, launches, pause/resume/stop, and live or archived results."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from leadtui.api.errors import LeadError
from leadtui.api.models import (
    Extraction,
    ExtractionAction,
    ExtractionDraft,
    ExtractionRequest,
    Lead,
    Page,
)
from leadtui.api.pagination import iterate
from leadtui.api.params import idempotency_key_for, list_params
from leadtui.api.parsing import parse_page, parse_record
from leadtui.api.transport import Transport
from leadtui.api.urls import segment


class Extractions:
    """`client.extractions`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def _keyed(
        self,
        method: str,
        path: str,
        key: str | None,
        body: dict[str, Any] | None = None,
        raw_body: bytes | None = None,
    ) -> Extraction:
        """An IK-marked call: one key for every attempt, exposed on the result or the error."""
        used = idempotency_key_for(key)
        try:
            response = await self._transport.request(
                method,
                path,
                json=body if raw_body is None else None,
                content=raw_body,
                idempotency_key=used,
            )
            return parse_record(response, Extraction, idempotency_key=used)
        except LeadError as exc:
            exc.idempotency_key = used
            raise

    async def create_draft(self, draft: ExtractionDraft | dict[str, Any]) -> Extraction:
        """Save an editable draft; no launch is consumed."""
        body = ExtractionDraft.model_validate(draft).to_body()
        response = await self._transport.request("POST", "/extractions/drafts", json=body)
        return parse_record(response, Extraction)

    async def update_draft(
        self, extraction_id: str, draft: ExtractionDraft | dict[str, Any]
    ) -> Extraction:
        """Change a draft that is still editable (Conflict `draft_not_editable` otherwise)."""
        body = ExtractionDraft.model_validate(draft).to_body()
        response = await self._transport.request(
            "PATCH", f"/extractions/{segment(extraction_id)}/draft", json=body
        )
        return parse_record(response, Extraction)

    async def create(
        self,
        request: ExtractionRequest | dict[str, Any],
        idempotency_key: str | None = None,
        *,
        raw_body: bytes | None = None,
    ) -> Extraction:
        """Create and start an extraction (consumes a launch). `raw_body`: the body already
        encoded by the caller (the spend journal), sent as is."""
        body = ExtractionRequest.model_validate(request).to_body()
        return await self._keyed("POST", "/extractions", idempotency_key, body, raw_body)

    async def launch(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Launch a draft (consumes a launch)."""
        return await self._keyed(
            "POST", f"/extractions/{segment(extraction_id)}/launch", idempotency_key
        )

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Extraction]:
        """Extraction jobs. The spec lists no query parameters: cursor/limit go only if given."""
        response = await self._transport.request(
            "GET", "/extractions", params=list_params(cursor, limit)
        )
        return parse_page(response, Extraction, limit)

    def iter_all(self, limit: int | None = None) -> AsyncIterator[Extraction]:
        """Every extraction job, page after page."""
        list_params(None, limit)
        return iterate(lambda cursor: self.list(cursor, limit))

    async def get(self, extraction_id: str) -> Extraction:
        """An extraction's status; `poll_after` says when to look again while it moves."""
        response = await self._transport.request("GET", f"/extractions/{segment(extraction_id)}")
        return parse_record(response, Extraction)

    async def _act(self, extraction_id: str, action: str, key: str | None) -> Extraction:
        body = ExtractionAction.model_validate({"action": action}).to_body()
        return await self._keyed("PATCH", f"/extractions/{segment(extraction_id)}", key, body)

    async def pause(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Pause a running extraction."""
        return await self._act(extraction_id, "pause", idempotency_key)

    async def resume(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Resume a paused extraction."""
        return await self._act(extraction_id, "resume", idempotency_key)

    async def stop(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Stop an extraction for good."""
        return await self._keyed(
            "POST", f"/extractions/{segment(extraction_id)}/stop", idempotency_key
        )

    async def results(
        self, extraction_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of an extraction's live or archived results."""
        response = await self._transport.request(
            "GET",
            f"/extractions/{segment(extraction_id)}/results",
            params=list_params(cursor, limit),
        )
        return parse_page(response, Lead, limit)

    def iter_results(self, extraction_id: str, limit: int | None = None) -> AsyncIterator[Lead]:
        """Every result of an extraction."""
        list_params(None, limit)
        return iterate(lambda cursor: self.results(extraction_id, cursor, limit))
