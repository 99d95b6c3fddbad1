"""Custom extractions: drafts (free), create/launch (one launch from the account's quota),
pause/resume, stop, and results that grow while running (live, then archived)."""

from __future__ import annotations

import json
import sqlite3
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from leadtui.api.contract import API_PREFIX, ErrorCode, ExtractionStatus, Scope
from leadtui.api.models import ExtractionAction, ExtractionDraft, ExtractionRequest
from leadtui.sandbox.auth import Principal, op, require
from leadtui.sandbox.idempotency import IdempotencyKeyHeader, fingerprint, remember, replay
from leadtui.sandbox.jobs import extraction_run_seconds, poll_hint
from leadtui.sandbox.leads import generate
from leadtui.sandbox.pagination import (
    DEFAULT_LIMIT,
    CursorParam,
    LimitParam,
    newest_first,
    page,
    window,
)
from leadtui.sandbox.problems import ApiProblem, describe_validation, invalid, not_found
from leadtui.sandbox.records import EXTRACTION_LAUNCH_COST, extraction_json, extraction_source
from leadtui.sandbox.state import SandboxState, sandbox_of
from leadtui.sandbox.store import make_id, next_seq

router = APIRouter(prefix=API_PREFIX, tags=["extractions"])

Reader = Annotated[Principal, Depends(require(Scope.EXTRACTIONS_READ))]
Writer = Annotated[Principal, Depends(require(Scope.EXTRACTIONS_WRITE))]


def _record(state: SandboxState, row: sqlite3.Row) -> tuple[dict[str, Any], dict[str, str]]:
    record, view = extraction_json(row, state.now(), state.config.job_seconds)
    return record, poll_hint(view.job)


def _load(conn: sqlite3.Connection, who: Principal, extraction_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM extractions WHERE id = ? AND account_id = ?",
        (extraction_id, who.account_id),
    ).fetchone()
    if row is None:
        raise not_found(f"Extraction '{extraction_id}'")
    return row


def consume_launch(conn: sqlite3.Connection, account_id: str) -> None:
    quota, used = conn.execute(
        "SELECT extraction_quota, launches_used FROM accounts WHERE id = ?", (account_id,)
    ).fetchone()
    if used + EXTRACTION_LAUNCH_COST > quota:
        raise ApiProblem(
            409,
            ErrorCode.EXTRACTION_UNAVAILABLE,
            f"The account's extraction quota is used up ({used} of {quota} launches).",
        )
    conn.execute(
        "UPDATE accounts SET launches_used = launches_used + ? WHERE id = ?",
        (EXTRACTION_LAUNCH_COST, account_id),
    )


def insert_extraction(
    conn: sqlite3.Connection, account_id: str, body: dict[str, Any], now: float, launched: bool
) -> sqlite3.Row:
    """A draft, or an extraction launched now (its launch consumed by the caller)."""
    seq = next_seq(conn, "extraction")
    conn.execute(
        "INSERT INTO extractions (seq, id, account_id, request_json, state, created_at,"
        " updated_at, launched_at, resumed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            seq,
            make_id("ext", seq),
            account_id,
            json.dumps(body),
            "active" if launched else ExtractionStatus.DRAFT,
            now,
            now,
            now if launched else None,
            now if launched else None,
        ),
    )
    row: sqlite3.Row = conn.execute("SELECT * FROM extractions WHERE seq = ?", (seq,)).fetchone()
    return row


@router.post(
    "/extractions/drafts",
    status_code=201,
    **op(Scope.EXTRACTIONS_WRITE, 400, summary="Create a draft (no launch consumed)"),
)
async def create_draft(request: Request, who: Writer, body: ExtractionDraft) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.transaction() as conn:
        row = insert_extraction(conn, who.account_id, body.to_body(), state.now(), launched=False)
    record, _ = _record(state, row)
    return JSONResponse({"data": record}, status_code=201)


@router.get("/extractions", **op(Scope.EXTRACTIONS_READ, 400, summary="List extractions"))
async def list_extractions(
    request: Request, who: Reader, cursor: CursorParam = None, limit: LimitParam = DEFAULT_LIMIT
) -> dict[str, Any]:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        rows, next_cursor = newest_first(conn, "extractions", who.account_id, cursor, limit)
    return page([_record(state, row)[0] for row in rows], next_cursor)


@router.post(
    "/extractions",
    status_code=201,
    **op(Scope.EXTRACTIONS_WRITE, 400, 409, summary="Create and launch (one launch of quota)"),
)
async def create_extraction(
    request: Request, who: Writer, body: ExtractionRequest, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    state = sandbox_of(request)
    fp = fingerprint("POST", request.url.path, body.to_body())
    with state.store.transaction() as conn:
        prior = replay(conn, who.account_id, idempotency_key, fp)
        if prior is not None:
            return prior
        consume_launch(conn, who.account_id)
        now = state.now()
        row = insert_extraction(conn, who.account_id, body.to_body(), now, launched=True)
        record, hint = _record(state, row)
        remember(conn, who.account_id, idempotency_key, fp, 201, {"data": record}, now)
    return JSONResponse({"data": record}, status_code=201, headers=hint)


@router.patch(
    "/extractions/{extractionId}/draft",
    **op(Scope.EXTRACTIONS_WRITE, 400, 404, 409, summary="Update a draft"),
)
async def update_draft(
    request: Request, who: Writer, extractionId: str, body: ExtractionDraft
) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.transaction() as conn:
        row = _load(conn, who, extractionId)
        if row["state"] != ExtractionStatus.DRAFT:
            raise ApiProblem(
                409, ErrorCode.DRAFT_NOT_EDITABLE, f"Extraction '{extractionId}' is not a draft."
            )
        merged = {**json.loads(row["request_json"]), **body.to_body()}
        conn.execute(
            "UPDATE extractions SET request_json = ?, updated_at = ? WHERE id = ?",
            (json.dumps(merged), state.now(), extractionId),
        )
        row = _load(conn, who, extractionId)
    return JSONResponse({"data": _record(state, row)[0]})


@router.post(
    "/extractions/{extractionId}/launch",
    status_code=201,
    **op(Scope.EXTRACTIONS_WRITE, 400, 404, 409, summary="Launch a draft (one launch of quota)"),
)
async def launch(
    request: Request, who: Writer, extractionId: str, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    state = sandbox_of(request)
    fp = fingerprint("POST", request.url.path, None)
    with state.store.transaction() as conn:
        prior = replay(conn, who.account_id, idempotency_key, fp)
        if prior is not None:
            return prior
        now = state.now()
        row = launch_draft(conn, _load(conn, who, extractionId), now)
        record, hint = _record(state, row)
        remember(conn, who.account_id, idempotency_key, fp, 201, {"data": record}, now)
    return JSONResponse({"data": record}, status_code=201, headers=hint)


def launch_draft(conn: sqlite3.Connection, row: sqlite3.Row, now: float) -> sqlite3.Row:
    """A complete draft starts now and consumes one launch, or 400/409 (inside a transaction)."""
    extraction_id = row["id"]
    if row["state"] != ExtractionStatus.DRAFT:
        raise ApiProblem(
            409, ErrorCode.INVALID_TRANSITION, f"Extraction '{extraction_id}' is not a draft."
        )
    try:
        ExtractionRequest.model_validate(json.loads(row["request_json"]))
    except ValidationError as exc:
        raise invalid(f"The draft is incomplete: {describe_validation(exc.errors())}") from None
    consume_launch(conn, row["account_id"])
    conn.execute(
        "UPDATE extractions SET state = 'active', launched_at = ?, resumed_at = ?,"
        " updated_at = ? WHERE id = ?",
        (now, now, now, extraction_id),
    )
    launched: sqlite3.Row = conn.execute(
        "SELECT * FROM extractions WHERE id = ?", (extraction_id,)
    ).fetchone()
    return launched


@router.get(
    "/extractions/{extractionId}", **op(Scope.EXTRACTIONS_READ, 404, summary="Extraction status")
)
async def get_extraction(request: Request, who: Reader, extractionId: str) -> JSONResponse:
    state = sandbox_of(request)
    with state.store.reading() as conn:
        row = _load(conn, who, extractionId)
    record, hint = _record(state, row)
    return JSONResponse({"data": record}, headers=hint)


def _transition(
    request: Request, who: Principal, extraction_id: str, key: str, body: Any, target: str
) -> JSONResponse:
    """Pause, resume or stop, replay-safe under the Idempotency-Key."""
    state = sandbox_of(request)
    fp = fingerprint(request.method, request.url.path, body)
    with state.store.transaction() as conn:
        prior = replay(conn, who.account_id, key, fp)
        if prior is not None:
            return prior
        now = state.now()
        row = move(conn, _load(conn, who, extraction_id), target, now, state.config.job_seconds)
        record, hint = _record(state, row)
        remember(conn, who.account_id, key, fp, 200, {"data": record}, now)
    return JSONResponse({"data": record}, headers=hint)


_ALLOWED_FROM: Final = {
    "paused": {ExtractionStatus.QUEUED, ExtractionStatus.RUNNING},
    "active": {ExtractionStatus.PAUSED},
    "stopped": {ExtractionStatus.QUEUED, ExtractionStatus.RUNNING, ExtractionStatus.PAUSED},
}
_VERB: Final = {"paused": "pause", "active": "resume", "stopped": "stop"}


def move(
    conn: sqlite3.Connection, row: sqlite3.Row, target: str, now: float, job_seconds: float
) -> sqlite3.Row:
    """Pause ("paused"), resume ("active") or stop ("stopped") at `now`, or 409."""
    extraction_id = row["id"]
    current, _ = extraction_json(row, now, job_seconds)
    if current["status"] not in _ALLOWED_FROM[target]:
        raise ApiProblem(
            409,
            ErrorCode.INVALID_TRANSITION,
            f"Cannot {_VERB[target]} extraction '{extraction_id}' while it is {current['status']}.",
        )
    run = extraction_run_seconds(row, now)
    conn.execute(
        "UPDATE extractions SET state = ?, run_seconds = ?, resumed_at = ?, updated_at = ?"
        " WHERE id = ?",
        (target, run, now if target == "active" else None, now, extraction_id),
    )
    moved: sqlite3.Row = conn.execute(
        "SELECT * FROM extractions WHERE id = ?", (extraction_id,)
    ).fetchone()
    return moved


@router.patch(
    "/extractions/{extractionId}",
    **op(Scope.EXTRACTIONS_WRITE, 400, 404, 409, summary="Pause or resume"),
)
async def pause_or_resume(
    request: Request,
    who: Writer,
    extractionId: str,
    body: ExtractionAction,
    idempotency_key: IdempotencyKeyHeader,
) -> JSONResponse:
    target = "paused" if body.action == "pause" else "active"
    return _transition(request, who, extractionId, idempotency_key, body.to_body(), target)


@router.post(
    "/extractions/{extractionId}/stop",
    **op(Scope.EXTRACTIONS_WRITE, 400, 404, 409, summary="Stop (results are archived)"),
)
async def stop(
    request: Request, who: Writer, extractionId: str, idempotency_key: IdempotencyKeyHeader
) -> JSONResponse:
    return _transition(request, who, extractionId, idempotency_key, None, "stopped")


@router.get(
    "/extractions/{extractionId}/results",
    **op(Scope.EXTRACTIONS_READ, 400, 404, summary="Live or archived results"),
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
        row = _load(conn, who, extractionId)
    record, _ = _record(state, row)
    start, stop, next_cursor = window(
        cursor, f"extraction-results:{extractionId}", limit, int(record["result_count"])
    )
    source = extraction_source(extractionId, json.loads(row["request_json"]))
    leads = generate(source, start, stop) if stop > start else []
    return page(leads, next_cursor, results_state=record["results_state"])
