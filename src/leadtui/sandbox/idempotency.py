"""Replay-safe writes: the first response to a key is stored in the same transaction as the
change it describes, and a repeat of the same request gets it back with no new effect."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Annotated, Any

from fastapi import Header
from fastapi.responses import JSONResponse

from leadtui.api.contract import IDEMPOTENCY_HEADER, ErrorCode
from leadtui.api.models import IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_MIN
from leadtui.sandbox.problems import ApiProblem

IdempotencyKeyHeader = Annotated[
    str,
    Header(
        alias=IDEMPOTENCY_HEADER,
        min_length=IDEMPOTENCY_KEY_MIN,
        max_length=IDEMPOTENCY_KEY_MAX,
        description="Unique per intended action; a repeat replays the first response.",
    ),
]

REPLAY_HEADER = "Idempotent-Replayed"


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def replay(conn: sqlite3.Connection, account_id: str, key: str, fp: str) -> JSONResponse | None:
    """The stored response for this key, or None; 409 if the key was used for another request."""
    row = conn.execute(
        "SELECT fingerprint, status, body FROM idempotency WHERE account_id = ? AND key = ?",
        (account_id, key),
    ).fetchone()
    if row is None:
        return None
    if row["fingerprint"] != fp:
        raise ApiProblem(
            409,
            ErrorCode.IDEMPOTENCY_CONFLICT,
            "This Idempotency-Key was already used for a different request.",
        )
    return JSONResponse(
        json.loads(row["body"]), status_code=int(row["status"]), headers={REPLAY_HEADER: "true"}
    )


def remember(
    conn: sqlite3.Connection,
    account_id: str,
    key: str,
    fp: str,
    status: int,
    body: dict[str, Any],
    now: float,
) -> None:
    conn.execute(
        "INSERT INTO idempotency (account_id, key, fingerprint, status, body, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (account_id, key, fp, status, json.dumps(body), now),
    )
