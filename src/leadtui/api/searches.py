"""`/searches`: create and count a search, read it, list its unlocked results."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from leadtui.api.models import Lead, Page, Search, SearchRequest
from leadtui.api.pagination import iterate
from leadtui.api.params import list_params
from leadtui.api.parsing import parse_page, parse_record
from leadtui.api.transport import Transport
from leadtui.api.urls import segment


class Searches:
    """`client.searches`."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    async def list(self, cursor: str | None = None, limit: int | None = None) -> Page[Search]:
        """One page of the account's searches (`GET /searches`)."""
        response = await self._transport.request(
            "GET", "/searches", params=list_params(cursor, limit)
        )
        return parse_page(response, Search, limit)

    def iter_all(self, limit: int | None = None) -> AsyncIterator[Search]:
        """Every search, page after page."""
        list_params(None, limit)  # checked now, not at the first `async for` step
        return iterate(lambda cursor: self.list(cursor, limit))

    async def create(self, request: SearchRequest | dict[str, Any]) -> Search:
        """Create and count a search (`POST /searches`); consumes no credits."""
        body = SearchRequest.model_validate(request).to_body()
        response = await self._transport.request("POST", "/searches", json=body)
        return parse_record(response, Search)

    async def get(self, search_id: str) -> Search:
        """A search with its current result count."""
        response = await self._transport.request("GET", f"/searches/{segment(search_id)}")
        return parse_record(response, Search)

    async def results(
        self, search_id: str, cursor: str | None = None, limit: int | None = None
    ) -> Page[Lead]:
        """One page of the results already unlocked with credits."""
        response = await self._transport.request(
            "GET",
            f"/searches/{segment(search_id)}/results",
            params=list_params(cursor, limit),
        )
        return parse_page(response, Lead, limit)

    def iter_results(self, search_id: str, limit: int | None = None) -> AsyncIterator[Lead]:
        """Every unlocked result of a search."""
        list_params(None, limit)
        return iterate(lambda cursor: self.results(search_id, cursor, limit))
