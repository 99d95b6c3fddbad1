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
from leadtui.sandbox.auth import Principal, require
from leadtui.sandbox.domain.extractions import (
    insert_extraction,
    launch_draft,
    load_extraction,
    move,
    update_draft,
)
from leadtui.sandbox.domain.jobs import StoredState, poll_hint
from leadtui.sandbox.idempotency import Action, Hint, IdempotencyKeyHeader, once
from leadtui.sandbox.json_body import StrictJsonRoute
from leadtui.sandbox.leads import generate
from leadtui.sandbox.openapi.operations import Answer, op
from leadtui.sandbox.openapi.records import ExtractionPage, ExtractionResultsPage, OneExtraction
from leadtui.sandbox.pagination import DEFAULT_LIMIT, CursorParam, LimitParam, page
from leadtui.sandbox.records import extraction_json, extraction_source
from leadtui.sandbox.state import SandboxState, sandbox_of

router = APIRouter(prefix=API_PREFIX, tags=["extractions"], route_class=StrictJsonRoute)

Reader = Annotated[Principal, Depends(require(Scope.EXTRACTIONS_READ))]
Writer = Annotated[Principal, Depends(require(Scope.EXTRACTIONS_WRITE))]

_MOVES: Final = (ErrorCode.INVALID_TRANSITION, ErrorCode.IDEMPOTENCY_CONFLICT)
# What a new extraction's id leads to (OpenAPI links).
_BY_ID: Final = ("get_extraction", "extraction_results")
_DRAFT_LINKS: Final = tuple((op, "extractionId") for op in (*_BY_ID, "edit_draft", "launch"))
_LAUNCHED_LINKS: Final = tuple((op, "extractionId") for op in (*_BY_ID, "pause_or_resume", "stop"))
_LAUNCHED: Final = Answer(
    201,
    OneExtraction,
    "The extraction, queued.",
    "while_moving",
    replayable=True,
    links=_LAUNCHED_LINKS,
)


def _record(state: SandboxState, row: sqlite3.Row) -> dict[str, Any]:
    return extraction_json(row, state.now(), state.config.job_seconds)[0]


def _hint(state: SandboxState) -> Hint:
    """The polling hint of the extraction an answer carries, from its state now."""

    def hint(conn: sqlite3.Connection, record: dict[str, Any]) -> dict[str, str]:
        row = conn.execute(
            "SELECT * FROM extractions WHERE id = ?", (record["extractionId"],)
        ).fetchone()
        return poll_hint(extraction_json(row, state.now(), state.config.job_seconds)[1].job)

    return hint


def _once(request: Request, who: Principal, key: str, body: Any, act: Action) -> JSONResponse:
    state = sandbox_of(request)
    return once(state, request, who.account_id, key, body, act, _hint(state))


@router.post(
    "/extractions/drafts",
    **op(
        Scope.EXTRACTIONS_WRITE,
        "Create a draft (no launch consumed)",
        Answer(201, OneExtraction, "The draft, editable.", links=_DRAFT_LINKS),
        400,
    ),
)
async def create_draft(request: Request, who: Writer, body: ExtractionDraft) -> JSONResponse:
    state = sandbox_of(request)
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
    request: Request, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        records, next_cursor = state.pages.newest_first(
            conn, "extractions", who.account_id, cursor, limit, lambda row: _record(state, row)
        )
    return page(records, next_cursor)


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
    request: Request, who: Writer, body: ExtractionRequest, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    state = sandbox_of(request)

    def act(conn: sqlite3.Connection, now: float) -> tuple[int, dict[str, Any]]:
        row = insert_extraction(conn, who.account_id, body.to_body(), now, launched=True)
        return 201, {"data": _record(state, row)}

    return _once(request, who, idempotency_key, body.to_body(), act)


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
    request: Request, who: Writer, extractionId: str, body: ExtractionDraft
) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.transaction() as conn:
        row = load_extraction(conn, who.account_id, extractionId)
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
    request: Request, who: Writer, extractionId: str, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    state = sandbox_of(request)

    def act(conn: sqlite3.Connection, now: float) -> tuple[int, dict[str, Any]]:
        row = launch_draft(conn, load_extraction(conn, who.account_id, extractionId), now)
        return 201, {"data": _record(state, row)}

    return _once(request, who, idempotency_key, None, act)


@router.get(
    "/extractions/{extractionId}",
    **op(
        Scope.EXTRACTIONS_READ,
        "Extraction status",
        Answer(200, OneExtraction, "The extraction.", "while_moving"),
        404,
    ),
)
async def get_extraction(request: Request, who: Reader, extractionId: str) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        row = load_extraction(conn, who.account_id, extractionId)
    record, view = extraction_json(row, state.now(), state.config.job_seconds)
    return JSONResponse({"data": record}, headers=poll_hint(view.job))


def _move(
    request: Request, who: Principal, extraction_id: str, key: str, body: Any, target: StoredState
) -> JSONResponse:
    """Pause, resume or stop, replay-safe under the Idempotency-Key."""
    state = sandbox_of(request)

    def act(conn: sqlite3.Connection, now: float) -> tuple[int, dict[str, Any]]:
        row = load_extraction(conn, who.account_id, extraction_id)
        return 200, {"data": _record(state, move(conn, row, target, now, state.config.job_seconds))}

    return _once(request, who, key, body, act)


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
    who: Writer,
    extractionId: str,
    body: ExtractionAction,
    idempotency_key: IdempotencyKeyHeader,
) -> JSONResponse:
    target = StoredState.PAUSED if body.action == "pause" else StoredState.ACTIVE
    return _move(request, who, extractionId, idempotency_key, body.to_body(), target)


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
    request: Request, who: Writer, extractionId: str, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    return _move(request, who, extractionId, idempotency_key, None, StoredState.STOPPED)


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
    request: Request,
    who: Reader,
    extractionId: str,
    cursor: CursorParam = None,
    limit: LimitParam = DEFAULT_LIMIT,
) -> dict[str, Any]:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        row = load_extraction(conn, who.account_id, extractionId)
    record = _record(state, row)
    start, stop, next_cursor = state.pages.window(
        cursor, f"extraction-results:{extractionId}", limit, int(record["result_count"])
    )
    source = extraction_source(extractionId, json.loads(row["request_json"]))
    leads = generate(source, start, stop) if stop > start else []
    return page(leads, next_cursor, results_state=record["results_state"])
