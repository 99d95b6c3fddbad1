"""`/searches`: create and count a search, read it, list its unlocked results."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import Search, SearchRequest
from leadtui.api.resource import Collection


class Searches(Collection[Search]):
    path = "/searches"
    model = Search

    async def create(self, request: SearchRequest | dict[str, Any]) -> Search:
        """Create and count a search (`POST /searches`); consumes no credits."""
        body = SearchRequest.model_validate(request).to_body()
        return await self._record("POST", "/searches", Search, body)
