"""Stored first answers to idempotency keys: a key's answer is kept in the same transaction
as the change it describes, and a repeat of the same request finds it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from typing import Any

from leadtui.api.contract import ErrorCode
from leadtui.sandbox.problems import ApiProblem

# What an action answers: its status and body (`{"data": record}`).
Outcome = tuple[int, dict[str, Any]]


def fingerprint(method: str, path: str, body: Any) -> str:
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def stored_answer(conn: sqlite3.Connection, account_id: str, key: str, fp: str) -> Outcome | None:
    """The stored answer for this key, or None; 409 if the key was used for another request."""
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
    return int(row["status"]), json.loads(row["body"])


def remember(
    conn: sqlite3.Connection, account_id: str, key: str, fp: str, outcome: Outcome, now: float
) -> None:
    status, body = outcome
    conn.execute(
        "INSERT INTO idempotency (account_id, key, fingerprint, status, body, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (account_id, key, fp, status, json.dumps(body), now),
    )
