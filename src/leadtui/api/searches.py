"""`/searches`: create and count a search, read it, list its unlocked results."""

from __future__ import annotations

from typing import Any

from leadtui.api.models import Lead, Page, Search, SearchRequest
from leadtui.api.resource import Resource
from leadtui.api.urls import segment


class Searches(Resource):
    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Search]:
        """One page of the account's searches (`GET /searches`)."""
        return await self._page("/searches", Search, cursor, limit)

    async def create(self, request: SearchRequest | dict[str, Any]) -> Search:
        """Create and count a search (`POST /searches`); consumes no credits."""
        body = SearchRequest.model_validate(request).to_body()
        return await self._record("POST", "/searches", Search, body)

    async def get(self, search_id: str) -> Search:
        """A search with its current result count."""
        return await self._record("GET", f"/searches/{segment(search_id)}", Search)

    async def results(
        self, search_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of the results already unlocked with credits."""
        return await self._page(f"/searches/{segment(search_id)}/results", Lead, cursor, limit)
