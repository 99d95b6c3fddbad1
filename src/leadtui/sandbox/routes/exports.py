"""Exports: unlock (the credit-spending call), list, status, results, retry, downloads."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, LEAD_COLUMNS, ErrorCode, Scope
from leadtui.api.models import CustomDownloadRequest, ExportRequest
from leadtui.sandbox.accounts import DemoKey
from leadtui.sandbox.archive import build_zip
from leadtui.sandbox.auth import require
from leadtui.sandbox.domain.answers import Outcome
from leadtui.sandbox.domain.exports import require_ready, retry, unlock
from leadtui.sandbox.domain.jobs import JobView, export_view, poll_hint
from leadtui.sandbox.idempotency import IdempotencyKeyHeader, once
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.leads import LeadSource, generate
from leadtui.sandbox.openapi.operations import Answer, links, op
from leadtui.sandbox.openapi.records import ExportPage, LeadPage, OneExport
from leadtui.sandbox.pagination import DEFAULT_LIMIT, CursorParam, LimitParam
from leadtui.sandbox.problems import invalid
from leadtui.sandbox.records import export_json, search_source
from leadtui.sandbox.state import Sandbox, SandboxState
from leadtui.sandbox.store import load_row

router = APIRouter(prefix=API_PREFIX, tags=["exports"], route_class=StrictJsonRoute)

Reader = Annotated[DemoKey, Depends(require(Scope.EXPORTS_READ))]
Writer = Annotated[DemoKey, Depends(require(Scope.EXPORTS_WRITE))]

_NOT_READY = (ErrorCode.EXPORT_NOT_READY,)
# What a new export's id leads to (OpenAPI links).
_BY_EXPORT_ID: Final = links(
    "exportId", "get_export", "export_results", "retry_export", "download_export", "custom_download"
)


def _view(state: SandboxState, row: sqlite3.Row) -> JobView:
    return export_view(row, state.now(), state.config.job_seconds)


def _hint(state: SandboxState, conn: sqlite3.Connection, record: dict[str, Any]) -> dict[str, str]:
    """The 202's polling hint, from the export's state now (first answer or replay)."""
    return poll_hint(_view(state, load_row(conn, "exports", record["exportId"])), accepted=True)


@router.post(
    "/searches/{searchId}/exports",
    **op(
        Scope.EXPORTS_WRITE,
        "Unlock results (spends credits)",
        Answer(
            202, OneExport, "The export, queued.", "always", replayable=True, links=_BY_EXPORT_ID
        ),
        400,
        404,
        conflicts=(
            ErrorCode.INSUFFICIENT_CREDITS,
            ErrorCode.INSUFFICIENT_RESULTS,
            ErrorCode.IDEMPOTENCY_CONFLICT,
        ),
    ),
)
async def create_export(
    request: Request,
    state: Sandbox,
    who: Writer,
    searchId: str,
    body: ExportRequest,
    key: IdempotencyKeyHeader,
) -> JSONResponse:
    def act(conn: sqlite3.Connection, now: float) -> Outcome:
        row = unlock(
            conn, who.account_id, searchId, body.additional_results, now, state.pricing.charged
        )
        return 202, {"data": state.pricing.debit_on(export_json(row, _view(state, row)))}

    return once(state, request, who.account_id, key, body.to_body(), act, _hint)


@router.get(
    "/exports",
    **op(Scope.EXPORTS_READ, "List exports", Answer(200, ExportPage, "Newest first."), 400),
)
async def list_exports(
    state: Sandbox, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    return state.pages.newest_first(
        "exports", who.account_id, cursor, limit, lambda row: export_json(row, _view(state, row))
    )


@router.get(
    "/exports/{exportId}",
    **op(
        Scope.EXPORTS_READ,
        "Export status",
        Answer(200, OneExport, "The export.", hint="while_moving"),
        404,
    ),
)
async def get_export(state: Sandbox, who: Reader, exportId: str) -> JSONResponse:
    with state.store.reading() as conn:
        row = load_row(conn, "exports", exportId, who.account_id)
    view = _view(state, row)
    return JSONResponse({"data": export_json(row, view)}, headers=poll_hint(view))


def _ready_leads(state: SandboxState, who: DemoKey, export_id: str) -> tuple[LeadSource, range]:
    """Where a ready export's leads come from and their indexes there; 409 while not ready."""
    with state.store.reading() as conn:
        row = load_row(conn, "exports", export_id, who.account_id)
        search = load_row(conn, "searches", row["search_id"])
    require_ready(row, _view(state, row))
    first = int(row["first_index"])
    source = search_source(search["id"], json.loads(search["request_json"]))
    return source, range(first, first + int(row["additional_results"]))


@router.get(
    "/exports/{exportId}/results",
    **op(
        Scope.EXPORTS_READ,
        "Leads of a ready export",
        Answer(200, LeadPage, "The export's leads, in unlock order."),
        400,
        404,
        conflicts=_NOT_READY,
        conflict_hint=True,
    ),
)
async def export_results(
    state: Sandbox,
    who: Reader,
    exportId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    source, indexes = _ready_leads(state, who, exportId)
    return state.pages.leads(cursor, f"export-results:{exportId}", limit, source, indexes)


@router.post(
    "/exports/{exportId}/retry",
    **op(
        Scope.EXPORTS_WRITE,
        "Queue a failed export again (no credits)",
        Answer(202, OneExport, "The failed export, queued again.", hint="always"),
        404,
        also=Answer(
            200, OneExport, "The export was not failed; it is returned unchanged.", "while_moving"
        ),
    ),
)
async def retry_export(state: Sandbox, who: Writer, exportId: str) -> JSONResponse:
    with state.store.transaction() as conn:
        row = load_row(conn, "exports", exportId, who.account_id)
        queued = retry(conn, row, state.now(), state.config.job_seconds)
        row = load_row(conn, "exports", exportId)
    view = _view(state, row)
    return JSONResponse(
        {"data": export_json(row, view)},
        status_code=202 if queued else 200,
        headers=poll_hint(view, accepted=queued),
    )


def _zip(
    state: SandboxState,
    who: DemoKey,
    export_id: str,
    columns: Sequence[str],
    formats: Sequence[str],
) -> Response:
    source, indexes = _ready_leads(state, who, export_id)
    content = build_zip(generate(source, indexes.start, indexes.stop), columns, formats)
    disposition = f'attachment; filename="{export_id}.zip"'
    return Response(
        content, media_type="application/zip", headers={"Content-Disposition": disposition}
    )


# Plain `def`: building a large ZIP runs in the thread pool, not on the event loop.
@router.get(
    "/exports/{exportId}/download",
    **op(
        Scope.EXPORTS_READ,
        "ZIP of a ready export (leads.csv, leads.json)",
        Answer(200, None, "A ZIP archive with leads.csv and leads.json."),
        404,
        conflicts=_NOT_READY,
        conflict_hint=True,
    ),
)
def download_export(state: Sandbox, who: Reader, exportId: str) -> Response:
    return _zip(state, who, exportId, LEAD_COLUMNS, ("csv", "json"))


@router.post(
    "/exports/{exportId}/custom-download",
    **op(
        Scope.EXPORTS_READ,
        "ZIP with selected authorized columns",
        Answer(200, None, "A ZIP archive with leads.csv or leads.json, the columns asked."),
        400,
        404,
        conflicts=_NOT_READY,
        conflict_hint=True,
        description="Authorized columns: " + ", ".join(LEAD_COLUMNS) + ".",
    ),
)
def custom_download(
    state: Sandbox, who: Reader, exportId: str, body: CustomDownloadRequest
) -> Response:
    for index, column in enumerate(body.columns):
        if column not in LEAD_COLUMNS:
            raise invalid(
                f"columns.{index}: '{column}' is not an authorized column"
                f" (authorized: {', '.join(LEAD_COLUMNS)})."
            )
    return _zip(state, who, exportId, body.columns, (body.format,))
