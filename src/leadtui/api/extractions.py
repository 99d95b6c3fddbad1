"""`/extractions`: drafts, launches, pause/resume/stop, and live or archived results."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import (
    Extraction,
    ExtractionAction,
    ExtractionDraft,
    ExtractionRequest,
    Lead,
    Page,
)
from leadtui.api.resource import Resource
from leadtui.api.urls import segment


class Extractions(Resource):
    async def create_draft(self, draft: ExtractionDraft | dict[str, Any]) -> Extraction:
        """Save an editable draft; no launch is consumed."""
        body = ExtractionDraft.model_validate(draft).to_body()
        return await self._record("POST", "/extractions/drafts", Extraction, body)

    async def update_draft(
        self, extraction_id: str, draft: ExtractionDraft | dict[str, Any]
    ) -> Extraction:
        """Change a draft that is still editable (Conflict `draft_not_editable` otherwise)."""
        body = ExtractionDraft.model_validate(draft).to_body()
        path = f"/extractions/{segment(extraction_id)}/draft"
        return await self._record("PATCH", path, Extraction, body)

    async def create(
        self,
        request: ExtractionRequest | dict[str, Any],
        idempotency_key: str | None = None,
        *,
        raw_body: bytes | None = None,
    ) -> Extraction:
        """Create and start an extraction (consumes a launch; see `Resource._keyed` for the
        key and `raw_body`)."""
        body = ExtractionRequest.model_validate(request).to_body()
        return await self._keyed(
            "POST", "/extractions", Extraction, idempotency_key, body, raw_body
        )

    async def launch(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Launch a draft (consumes a launch)."""
        path = f"/extractions/{segment(extraction_id)}/launch"
        return await self._keyed("POST", path, Extraction, idempotency_key)

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Extraction]:
        """Extraction jobs. The spec lists no query parameters: cursor/limit go only if given."""
        return await self._page("/extractions", Extraction, cursor, limit)

    async def get(self, extraction_id: str) -> Extraction:
        """An extraction's status; `poll_after` says when to look again while it moves."""
        return await self._record("GET", f"/extractions/{segment(extraction_id)}", Extraction)

    async def _act(self, extraction_id: str, action: str, key: str | None) -> Extraction:
        body = ExtractionAction.model_validate({"action": action}).to_body()
        path = f"/extractions/{segment(extraction_id)}"
        return await self._keyed("PATCH", path, Extraction, key, body)

    async def pause(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        return await self._act(extraction_id, "pause", idempotency_key)

    async def resume(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        return await self._act(extraction_id, "resume", idempotency_key)

    async def stop(self, extraction_id: str, idempotency_key: str | None = None) -> Extraction:
        """Stop an extraction for good."""
        path = f"/extractions/{segment(extraction_id)}/stop"
        return await self._keyed("POST", path, Extraction, idempotency_key)

    async def results(
        self, extraction_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of an extraction's live or archived results."""
        path = f"/extractions/{segment(extraction_id)}/results"
        return await self._page(path, Lead, cursor, limit)
