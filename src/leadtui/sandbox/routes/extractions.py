"""Custom extractions: drafts (free), create/launch (one launch from the account's quota),
pause/resume, stop, and results that grow while running (live, then archived)."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from leadtui.api.contract import API_PREFIX, ErrorCode, Scope
from leadtui.api.models import ExtractionAction, ExtractionDraft, ExtractionRequest
from leadtui.sandbox.accounts import DemoKey
from leadtui.sandbox.auth import require
from leadtui.sandbox.domain.answers import Outcome
from leadtui.sandbox.domain.extractions import insert_extraction, launch_draft, move, update_draft
from leadtui.sandbox.domain.jobs import StoredState, poll_hint
from leadtui.sandbox.idempotency import IdempotencyKeyHeader, once
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.openapi.operations import Answer, links, op
from leadtui.sandbox.openapi.records import ExtractionPage, ExtractionResultsPage, OneExtraction
from leadtui.sandbox.pagination import DEFAULT_LIMIT, CursorParam, LimitParam
from leadtui.sandbox.records import extraction_json, extraction_source
from leadtui.sandbox.state import Sandbox, SandboxState
from leadtui.sandbox.store import load_row

router = APIRouter(prefix=API_PREFIX, tags=["extractions"], route_class=StrictJsonRoute)

Reader = Annotated[DemoKey, Depends(require(Scope.EXTRACTIONS_READ))]
Writer = Annotated[DemoKey, Depends(require(Scope.EXTRACTIONS_WRITE))]

_MOVES: Final = (ErrorCode.INVALID_TRANSITION, ErrorCode.IDEMPOTENCY_CONFLICT)
# What a new extraction's id leads to (OpenAPI links).
_BY_ID: Final = ("get_extraction", "extraction_results")
_DRAFT_LINKS: Final = links("extractionId", *_BY_ID, "edit_draft", "launch")
_LAUNCHED_LINKS: Final = links("extractionId", *_BY_ID, "pause_or_resume", "stop")
_LAUNCHED: Final = Answer(
    201, OneExtraction, "The extraction, queued.", "while_moving", True, _LAUNCHED_LINKS
)


def _record(state: SandboxState, row: sqlite3.Row) -> dict[str, Any]:
    return extraction_json(row, state.now(), state.config.job_seconds)[0]


def _hint(state: SandboxState, conn: sqlite3.Connection, record: dict[str, Any]) -> dict[str, str]:
    """The polling hint of the extraction an answer carries, from its state now."""
    row = load_row(conn, "extractions", record["extractionId"])
    return poll_hint(extraction_json(row, state.now(), state.config.job_seconds)[1].job)


@router.post(
    "/extractions/drafts",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Create a draft (no launch consumed)",
        Answer(201, OneExtraction, "The draft, editable.", links=_DRAFT_LINKS),
        400,
    ),
)
async def create_draft(state: Sandbox, who: Writer, body: ExtractionDraft) -> JSONResponse:
    with state.store.transaction() as conn:
        row = insert_extraction(conn, who.account_id, body.to_body(), state.now(), launched=False)
    return JSONResponse({"data": _record(state, row)}, status_code=201)


@router.get(
    "/extractions",
    **op(
        Scope.EXTRACTIONS_READ,
        "List extractions",
        Answer(200, ExtractionPage, "Newest first."),
        400,
        description="`cursor` and `limit` are this server's extension: the spec lists no "
        "parameters here. Without them the first page holds up to 25 extractions; a page ends "
        "early, with its `next_cursor`, once its records reach 1 MiB of JSON.",
    ),
)
async def list_extractions(
    state: Sandbox, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    return state.pages.newest_first(
        "extractions", who.account_id, cursor, limit, lambda row: _record(state, row)
    )


@router.post(
    "/extractions",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Create and launch (one launch of quota)",
        _LAUNCHED,
        400,
        conflicts=(ErrorCode.EXTRACTION_UNAVAILABLE, ErrorCode.IDEMPOTENCY_CONFLICT),
    ),
)
async def create_extraction(
    request: Request,
    state: Sandbox,
    who: Writer,
    body: ExtractionRequest,
    key: IdempotencyKeyHeader,
) -> JSONResponse:
    def act(conn: sqlite3.Connection, now: float) -> Outcome:
        row = insert_extraction(conn, who.account_id, body.to_body(), now, launched=True)
        return 201, {"data": _record(state, row)}

    return once(state, request, who.account_id, key, body.to_body(), act, _hint)


@router.patch(
    "/extractions/{extractionId}/draft",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Update a draft",
        Answer(200, OneExtraction, "The draft with the members sent replaced."),
        400,
        404,
        conflicts=(ErrorCode.DRAFT_NOT_EDITABLE,),
    ),
)
async def edit_draft(
    state: Sandbox, who: Writer, extractionId: str, body: ExtractionDraft
) -> JSONResponse:
    with state.store.transaction() as conn:
        row = load_row(conn, "extractions", extractionId, who.account_id)
        row = update_draft(conn, row, body.to_body(), state.now())
    return JSONResponse({"data": _record(state, row)})


@router.post(
    "/extractions/{extractionId}/launch",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Launch a draft (one launch of quota)",
        _LAUNCHED,
        400,
        404,
        invalid=(
            "The draft is incomplete (the message names the missing field), or the "
            "Idempotency-Key is invalid. Nothing was launched."
        ),
        conflicts=(ErrorCode.EXTRACTION_UNAVAILABLE, *_MOVES),
    ),
)
async def launch(
    request: Request, state: Sandbox, who: Writer, extractionId: str, key: IdempotencyKeyHeader
) -> JSONResponse:
    def act(conn: sqlite3.Connection, now: float) -> Outcome:
        row = launch_draft(conn, load_row(conn, "extractions", extractionId, who.account_id), now)
        return 201, {"data": _record(state, row)}

    return once(state, request, who.account_id, key, None, act, _hint)


@router.get(
    "/extractions/{extractionId}",
    **op(
        Scope.EXTRACTIONS_READ,
        "Extraction status",
        Answer(200, OneExtraction, "The extraction.", "while_moving"),
        404,
    ),
)
async def get_extraction(state: Sandbox, who: Reader, extractionId: str) -> JSONResponse:
    with state.store.reading() as conn:
        row = load_row(conn, "extractions", extractionId, who.account_id)
    record, view = extraction_json(row, state.now(), state.config.job_seconds)
    return JSONResponse({"data": record}, headers=poll_hint(view.job))


def _move(
    request: Request, state: SandboxState, who: DemoKey, key: str, body: Any, target: StoredState
) -> JSONResponse:
    """Pause, resume or stop the extraction the request names, replay-safe under `key`."""
    extraction_id = request.path_params["extractionId"]

    def act(conn: sqlite3.Connection, now: float) -> Outcome:
        row = load_row(conn, "extractions", extraction_id, who.account_id)
        return 200, {"data": _record(state, move(conn, row, target, now, state.config.job_seconds))}

    return once(state, request, who.account_id, key, body, act, _hint)


@router.patch(
    "/extractions/{extractionId}",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Pause or resume",
        Answer(200, OneExtraction, "The extraction, paused or resumed.", "while_moving", True),
        400,
        404,
        conflicts=_MOVES,
    ),
)
async def pause_or_resume(
    request: Request,
    state: Sandbox,
    who: Writer,
    extractionId: str,
    body: ExtractionAction,
    key: IdempotencyKeyHeader,
) -> JSONResponse:
    target = StoredState.PAUSED if body.action == "pause" else StoredState.ACTIVE
    return _move(request, state, who, key, body.to_body(), target)


@router.post(
    "/extractions/{extractionId}/stop",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Stop (results are archived)",
        Answer(200, OneExtraction, "The extraction, stopped.", replayable=True),
        400,
        404,
        conflicts=_MOVES,
    ),
)
async def stop(
    request: Request, state: Sandbox, who: Writer, extractionId: str, key: IdempotencyKeyHeader
) -> JSONResponse:
    return _move(request, state, who, key, None, StoredState.STOPPED)


@router.get(
    "/extractions/{extractionId}/results",
    **op(
        Scope.EXTRACTIONS_READ,
        "Live or archived results",
        Answer(200, ExtractionResultsPage, "Results found so far (live) or final (archived)."),
        400,
        404,
    ),
)
async def extraction_results(
    state: Sandbox,
    who: Reader,
    extractionId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    with state.store.reading() as conn:
        row = load_row(conn, "extractions", extractionId, who.account_id)
    record = _record(state, row)
    source = extraction_source(extractionId, json.loads(row["request_json"]))
    indexes = range(int(record["result_count"]))
    leads = state.pages.leads(cursor, f"extraction-results:{extractionId}", limit, source, indexes)
    return {**leads, "results_state": record["results_state"]}
