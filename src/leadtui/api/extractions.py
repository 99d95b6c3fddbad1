"""`/extractions`: drafts, launches, pause/resume/stop, and live or archived results."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import Extraction, ExtractionAction, ExtractionDraft, ExtractionRequest
from leadtui.api.resource import Collection
from leadtui.api.urls import segment


# The spec lists no query parameters for `GET /extractions`: cursor and limit go only if given.
class Extractions(Collection[Extraction]):
    path = "/extractions"
    model = Extraction

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
