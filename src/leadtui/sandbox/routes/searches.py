"""Searches: create and count, list, get, and the leads already unlocked with credits."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, Scope
from leadtui.api.models import SearchRequest
from leadtui.sandbox.accounts import DemoKey
from leadtui.sandbox.auth import require
from leadtui.sandbox.domain.searches import insert_search
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.openapi.operations import Answer, links, op
from leadtui.sandbox.openapi.records import LeadPage, OneSearch, SearchPage
from leadtui.sandbox.pagination import DEFAULT_LIMIT, CursorParam, LimitParam
from leadtui.sandbox.records import search_json, search_source
from leadtui.sandbox.state import Sandbox, SandboxState
from leadtui.sandbox.store import load_row

router = APIRouter(prefix=API_PREFIX, tags=["searches"], route_class=StrictJsonRoute)

Reader = Annotated[DemoKey, Depends(require(Scope.SEARCHES_READ))]
Writer = Annotated[DemoKey, Depends(require(Scope.SEARCHES_WRITE))]

# What a new search's id leads to (OpenAPI links, for clients and stateful fuzzers).
_BY_SEARCH_ID: Final = links("searchId", "get_search", "search_results", "create_export")


def _record(state: SandboxState, row: sqlite3.Row) -> dict[str, Any]:
    """The search as this server states it (with its price, or none)."""
    return state.pricing.state_on(search_json(row))


@router.get(
    "/searches",
    **op(Scope.SEARCHES_READ, "List searches", Answer(200, SearchPage, "Newest first."), 400),
)
async def list_searches(
    state: Sandbox, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    return state.pages.newest_first(
        "searches", who.account_id, cursor, limit, lambda row: _record(state, row)
    )


@router.post(
    "/searches",
    **op(
        Scope.SEARCHES_WRITE,
        "Create and count",
        Answer(201, OneSearch, "The search, created and counted.", links=_BY_SEARCH_ID),
        400,
    ),
)
async def create_search(state: Sandbox, who: Writer, body: SearchRequest) -> JSONResponse:
    with state.store.transaction() as conn:
        row = insert_search(conn, who.account_id, body, state.now())
    return JSONResponse({"data": _record(state, row)}, status_code=201)


@router.get(
    "/searches/{searchId}",
    **op(
        Scope.SEARCHES_READ,
        "Get a search",
        Answer(200, OneSearch, "The search with its current result count."),
        404,
    ),
)
async def get_search(state: Sandbox, who: Reader, searchId: str) -> dict[str, Any]:
    with state.store.reading() as conn:
        return {"data": _record(state, load_row(conn, "searches", searchId, who.account_id))}


@router.get(
    "/searches/{searchId}/results",
    **op(
        Scope.SEARCHES_READ,
        "Unlocked leads of a search",
        Answer(200, LeadPage, "Only results already unlocked with credits, oldest first."),
        400,
        404,
    ),
)
async def search_results(
    state: Sandbox,
    who: Reader,
    searchId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    with state.store.reading() as conn:
        row = load_row(conn, "searches", searchId, who.account_id)
    source = search_source(searchId, json.loads(row["request_json"]))
    indexes = range(int(row["unlocked_count"]))
    return state.pages.leads(cursor, f"search-results:{searchId}", limit, source, indexes)
