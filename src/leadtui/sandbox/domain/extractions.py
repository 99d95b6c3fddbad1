"""Custom extractions: drafts (free), launch (one launch of quota), pause, resume, stop and
failure. A row stores a `StoredState`; queued, running and completed follow from the clock."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Final

from pydantic import ValidationError

from leadtui.api.contract import ErrorCode, ExtractionStatus
from leadtui.api.models import ExtractionRequest
from leadtui.sandbox.domain.jobs import (
    UNFINISHED,
    StoredState,
    extraction_run_seconds,
    extraction_view,
)
from leadtui.sandbox.domain.ledger import consume_launch
from leadtui.sandbox.problems import ApiProblem, describe_validation, invalid
from leadtui.sandbox.store import insert, load_row

# The stored state each move leads to: its verb, and the statuses it may start from.
_MOVES: Final = {
    StoredState.PAUSED: ("pause", {ExtractionStatus.QUEUED, ExtractionStatus.RUNNING}),
    StoredState.ACTIVE: ("resume", {ExtractionStatus.PAUSED}),
    StoredState.STOPPED: ("stop", UNFINISHED),
    StoredState.FAILED: ("fail", UNFINISHED),
}


def insert_extraction(
    conn: sqlite3.Connection, account_id: str, body: dict[str, Any], now: float, launched: bool
) -> sqlite3.Row:
    """A draft, or an extraction launched now (consuming one launch, or 409)."""
    if launched:
        consume_launch(conn, account_id)
    return insert(
        conn,
        "extractions",
        account_id=account_id,
        request_json=json.dumps(body),
        state=StoredState.ACTIVE if launched else StoredState.DRAFT,
        created_at=now,
        updated_at=now,
        launched_at=now if launched else None,
        resumed_at=now if launched else None,
    )


def update_draft(
    conn: sqlite3.Connection, row: sqlite3.Row, changes: dict[str, Any], now: float
) -> sqlite3.Row:
    """The draft with `changes` merged in, or 409 `draft_not_editable`."""
    if row["state"] != StoredState.DRAFT:
        raise ApiProblem(
            409, ErrorCode.DRAFT_NOT_EDITABLE, f"Extraction '{row['id']}' is not a draft."
        )
    merged = {**json.loads(row["request_json"]), **changes}
    conn.execute(
        "UPDATE extractions SET request_json = ?, updated_at = ? WHERE id = ?",
        (json.dumps(merged), now, row["id"]),
    )
    return load_row(conn, "extractions", row["id"])


def launch_draft(conn: sqlite3.Connection, row: sqlite3.Row, now: float) -> sqlite3.Row:
    """A complete draft starts now and consumes one launch, or 400/409 (inside a transaction)."""
    extraction_id = row["id"]
    if row["state"] != StoredState.DRAFT:
        raise ApiProblem(
            409, ErrorCode.INVALID_TRANSITION, f"Extraction '{extraction_id}' is not a draft."
        )
    try:
        ExtractionRequest.model_validate(json.loads(row["request_json"]))
    except ValidationError as exc:
        raise invalid(f"The draft is incomplete: {describe_validation(exc.errors())}") from None
    consume_launch(conn, row["account_id"])
    conn.execute(
        "UPDATE extractions SET state = ?, launched_at = ?, resumed_at = ?, updated_at = ?"
        " WHERE id = ?",
        (StoredState.ACTIVE, now, now, now, extraction_id),
    )
    return load_row(conn, "extractions", extraction_id)


def move(
    conn: sqlite3.Connection, row: sqlite3.Row, target: StoredState, now: float, job_seconds: float
) -> sqlite3.Row:
    """Pause (`PAUSED`), resume (`ACTIVE`), stop (`STOPPED`) or fail (`FAILED`) at `now`, or
    409 `invalid_transition`; the run clock keeps the time already run."""
    extraction_id = row["id"]
    status = extraction_view(row, now, job_seconds, 0).job.status
    verb, allowed_from = _MOVES[target]
    if status not in allowed_from:
        raise ApiProblem(
            409,
            ErrorCode.INVALID_TRANSITION,
            f"Cannot {verb} extraction '{extraction_id}' while it is {status}.",
        )
    conn.execute(
        "UPDATE extractions SET state = ?, run_seconds = ?, resumed_at = ?, updated_at = ?"
        " WHERE id = ?",
        (
            target,
            extraction_run_seconds(row, now),
            now if target == StoredState.ACTIVE else None,
            now,
            extraction_id,
        ),
    )
    return load_row(conn, "extractions", extraction_id)
