"""Exports: unlock (the credit-spending call), list, status, results, retry, downloads."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, ErrorCode, ExportStatus, Scope
from leadtui.api.models import CustomDownloadRequest, ExportRequest
from leadtui.sandbox.archive import build_zip
from leadtui.sandbox.auth import Principal, op, require
from leadtui.sandbox.clock import day_of
from leadtui.sandbox.idempotency import IdempotencyKeyHeader, fingerprint, remember, replay
from leadtui.sandbox.jobs import JobView, export_view, poll_hint
from leadtui.sandbox.leads import LEAD_COLUMNS, generate
from leadtui.sandbox.pagination import (
    DEFAULT_LIMIT,
    CursorParam,
    LimitParam,
    newest_first,
    page,
    window,
)
from leadtui.sandbox.problems import ApiProblem, invalid, not_found
from leadtui.sandbox.records import PRICE_PER_RESULT, export_json, search_source
from leadtui.sandbox.state import SandboxState, sandbox_of
from leadtui.sandbox.store import make_id, next_seq
from leadtui.sandbox.usage import count_usage

router = APIRouter(prefix=API_PREFIX, tags=["exports"])

Reader = Annotated[Principal, Depends(require(Scope.EXPORTS_READ))]
Writer = Annotated[Principal, Depends(require(Scope.EXPORTS_WRITE))]


def _view(state: SandboxState, row: sqlite3.Row) -> JobView:
    return export_view(row, state.now(), state.config.job_seconds)


@router.post(
    "/searches/{searchId}/exports",
    status_code=202,
    **op(Scope.EXPORTS_WRITE, 400, 404, 409, summary="Unlock results (spends credits)"),
)
async def create_export(
    request: Request,
    who: Writer,
    searchId: str,
    body: ExportRequest,
    idempotency_key: IdempotencyKeyHeader,
) -> JSONResponse:
    state = sandbox_of(request)
    fp = fingerprint("POST", request.url.path, body.to_body())
    wanted = body.additional_results
    with state.store.transaction() as conn:
        prior = replay(conn, who.account_id, idempotency_key, fp)
        if prior is not None:
            return prior
        now = state.now()
        row = unlock(conn, who.account_id, searchId, wanted, now)
        view = _view(state, row)
        result = {"data": export_json(row, view)}
        remember(conn, who.account_id, idempotency_key, fp, 202, result, now)
    return JSONResponse(result, status_code=202, headers=poll_hint(view))


def unlock(
    conn: sqlite3.Connection, account_id: str, search_id: str, wanted: int, now: float
) -> sqlite3.Row:
    """Debit, count in /usage, unlock and queue the export, or raise 404/409 (call inside a
    transaction, after the idempotency check); the demo data uses it too."""
    search = conn.execute(
        "SELECT * FROM searches WHERE id = ? AND account_id = ?", (search_id, account_id)
    ).fetchone()
    if search is None:
        raise not_found(f"Search '{search_id}'")
    locked = int(search["result_count"]) - int(search["unlocked_count"])
    if wanted > locked:
        raise ApiProblem(
            409,
            ErrorCode.INSUFFICIENT_RESULTS,
            f"Only {locked} results of this search are still locked; {wanted} were asked.",
        )
    cost = wanted * PRICE_PER_RESULT
    credits = int(
        conn.execute("SELECT credits FROM accounts WHERE id = ?", (account_id,)).fetchone()[0]
    )
    if cost > credits:
        raise ApiProblem(
            409,
            ErrorCode.INSUFFICIENT_CREDITS,
            f"Unlocking {wanted} results costs {cost} credits; the account has {credits}.",
        )
    conn.execute("UPDATE accounts SET credits = credits - ? WHERE id = ?", (cost, account_id))
    conn.execute(
        "UPDATE searches SET unlocked_count = unlocked_count + ? WHERE id = ?",
        (wanted, search_id),
    )
    count_usage(conn, account_id, day_of(now), credits_used=cost)
    seq = next_seq(conn, "export")
    conn.execute(
        "INSERT INTO exports (seq, id, account_id, search_id, first_index,"
        " additional_results, credits_debited, created_at, started_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            seq,
            make_id("exp", seq),
            account_id,
            search_id,
            int(search["unlocked_count"]),
            wanted,
            cost,
            now,
            now,
        ),
    )
    row: sqlite3.Row = conn.execute("SELECT * FROM exports WHERE seq = ?", (seq,)).fetchone()
    return row


@router.get("/exports", **op(Scope.EXPORTS_READ, 400, summary="List exports"))
async def list_exports(
    request: Request, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        rows, next_cursor = newest_first(conn, "exports", who.account_id, cursor, limit)
    return page([export_json(row, _view(state, row)) for row in rows], next_cursor)


def _load(state: SandboxState, who: Principal, export_id: str) -> sqlite3.Row:
    with state.store.reading() as conn:
        row: sqlite3.Row | None = conn.execute(
            "SELECT * FROM exports WHERE id = ? AND account_id = ?", (export_id, who.account_id)
        ).fetchone()
    if row is None:
        raise not_found(f"Export '{export_id}'")
    return row


@router.get("/exports/{exportId}", **op(Scope.EXPORTS_READ, 404, summary="Export status"))
async def get_export(request: Request, who: Reader, exportId: str) -> JSONResponse:
    state = sandbox_of(request)
    row = _load(state, who, exportId)
    view = _view(state, row)
    return JSONResponse({"data": export_json(row, view)}, headers=poll_hint(view))


def _ready_leads(state: SandboxState, who: Principal, export_id: str) -> tuple[Any, Any]:
    """The export row and its search row, or 409 while the export is not ready."""
    row = _load(state, who, export_id)
    view = _view(state, row)
    if view.status != ExportStatus.READY:
        raise ApiProblem(
            409,
            ErrorCode.EXPORT_NOT_READY,
            f"Export '{export_id}' is {view.status}; its results are readable once ready.",
            poll_hint(view),
        )
    with state.store.reading() as conn:
        search = conn.execute("SELECT * FROM searches WHERE id = ?", (row["search_id"],)).fetchone()
    return row, search


@router.get(
    "/exports/{exportId}/results",
    **op(Scope.EXPORTS_READ, 400, 404, 409, summary="Leads of a ready export"),
)
async def export_results(
    request: Request,
    who: Reader,
    exportId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    state = sandbox_of(request)
    row, search = _ready_leads(state, who, exportId)
    start, stop, next_cursor = window(
        cursor, f"export-results:{exportId}", limit, int(row["additional_results"])
    )
    first = int(row["first_index"])
    source = search_source(search["id"], json.loads(search["request_json"]))
    return page(generate(source, first + start, first + stop), next_cursor)


@router.post(
    "/exports/{exportId}/retry",
    status_code=202,
    **op(Scope.EXPORTS_WRITE, 404, summary="Queue a failed export again (no credits)"),
)
async def retry_export(request: Request, who: Writer, exportId: str) -> JSONResponse:
    state = sandbox_of(request)
    _load(state, who, exportId)
    with state.store.transaction() as conn:
        row = conn.execute("SELECT * FROM exports WHERE id = ?", (exportId,)).fetchone()
        view = _view(state, row)
        if view.status != ExportStatus.FAILED:
            return JSONResponse({"data": export_json(row, view)}, headers=poll_hint(view))
        conn.execute(
            "UPDATE exports SET failed_at = NULL, started_at = ?, retries = retries + 1"
            " WHERE id = ?",
            (state.now(), exportId),
        )
        row = conn.execute("SELECT * FROM exports WHERE id = ?", (exportId,)).fetchone()
    view = _view(state, row)
    return JSONResponse({"data": export_json(row, view)}, status_code=202, headers=poll_hint(view))


def _zip_response(export_id: str, content: bytes) -> Response:
    disposition = f'attachment; filename="{export_id}.zip"'
    return Response(
        content, media_type="application/zip", headers={"Content-Disposition": disposition}
    )


def _export_leads(state: SandboxState, who: Principal, export_id: str) -> list[dict[str, Any]]:
    row, search = _ready_leads(state, who, export_id)
    first = int(row["first_index"])
    source = search_source(search["id"], json.loads(search["request_json"]))
    return generate(source, first, first + int(row["additional_results"]))


# Plain `def`: building a large ZIP runs in the thread pool, not on the event loop.
@router.get(
    "/exports/{exportId}/download",
    **op(Scope.EXPORTS_READ, 404, 409, summary="ZIP of a ready export (leads.csv, leads.json)"),
    response_class=Response,
)
def download_export(request: Request, who: Reader, exportId: str) -> Response:
    leads = _export_leads(sandbox_of(request), who, exportId)
    return _zip_response(exportId, build_zip(leads, LEAD_COLUMNS, ("csv", "json")))


@router.post(
    "/exports/{exportId}/custom-download",
    **op(Scope.EXPORTS_READ, 400, 404, 409, summary="ZIP with selected authorized columns"),
    response_class=Response,
)
def custom_download(
    request: Request,
    who: Reader,
    exportId: str,
    body: CustomDownloadRequest,
) -> Response:
    for index, column in enumerate(body.columns):
        if column not in LEAD_COLUMNS:
            raise invalid(
                f"columns.{index}: '{column}' is not an authorized column"
                f" (authorized: {', '.join(LEAD_COLUMNS)})."
            )
    leads = _export_leads(sandbox_of(request), who, exportId)
    return _zip_response(exportId, build_zip(leads, body.columns, (body.format,)))
