"""Searches: create and count, list, get, and the leads already unlocked with credits."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, Scope
from leadtui.api.models import SearchRequest
from leadtui.sandbox.auth import Principal, op, require
from leadtui.sandbox.leads import generate
from leadtui.sandbox.pagination import (
    DEFAULT_LIMIT,
    CursorParam,
    LimitParam,
    newest_first,
    page,
    window,
)
from leadtui.sandbox.problems import not_found
from leadtui.sandbox.records import count_results, search_json, search_source
from leadtui.sandbox.state import sandbox_of
from leadtui.sandbox.store import make_id, next_seq

router = APIRouter(prefix=API_PREFIX, tags=["searches"])

Reader = Annotated[Principal, Depends(require(Scope.SEARCHES_READ))]
Writer = Annotated[Principal, Depends(require(Scope.SEARCHES_WRITE))]


@router.get("/searches", **op(Scope.SEARCHES_READ, 400, summary="List searches"))
async def list_searches(
    request: Request, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        rows, next_cursor = newest_first(conn, "searches", who.account_id, cursor, limit)
    return page([search_json(row) for row in rows], next_cursor)


@router.post(
    "/searches", status_code=201, **op(Scope.SEARCHES_WRITE, 400, summary="Create and count")
)
async def create_search(request: Request, who: Writer, body: SearchRequest) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.transaction() as conn:
        row = insert_search(conn, who.account_id, body, state.now())
    return JSONResponse({"data": search_json(row)}, status_code=201)


def insert_search(
    conn: sqlite3.Connection, account_id: str, body: SearchRequest, now: float
) -> sqlite3.Row:
    """A new, counted search (call inside a transaction); the demo data uses it too."""
    seq = next_seq(conn, "search")
    conn.execute(
        "INSERT INTO searches (seq, id, account_id, request_json, result_count, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            seq,
            make_id("srch", seq),
            account_id,
            json.dumps(body.to_body()),
            count_results(body),
            now,
        ),
    )
    row: sqlite3.Row = conn.execute("SELECT * FROM searches WHERE seq = ?", (seq,)).fetchone()
    return row


def load_search(request: Request, who: Principal, search_id: str) -> Any:
    with sandbox_of(request).store.reading() as conn:
        row = conn.execute(
            "SELECT * FROM searches WHERE id = ? AND account_id = ?", (search_id, who.account_id)
        ).fetchone()
    if row is None:
        raise not_found(f"Search '{search_id}'")
    return row


@router.get("/searches/{searchId}", **op(Scope.SEARCHES_READ, 404, summary="Get a search"))
async def get_search(request: Request, who: Reader, searchId: str) -> dict[str, Any]:
    return {"data": search_json(load_search(request, who, searchId))}


@router.get(
    "/searches/{searchId}/results",
    **op(Scope.SEARCHES_READ, 400, 404, summary="Unlocked leads of a search"),
)
async def search_results(
    request: Request,
    who: Reader,
    searchId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    row = load_search(request, who, searchId)
    start, stop, next_cursor = window(
        cursor, f"search-results:{searchId}", limit, int(row["unlocked_count"])
    )
    leads = generate(search_source(searchId, json.loads(row["request_json"])), start, stop)
    return page(leads, next_cursor)
