"""Exports: unlock (the credit-spending move), failure, retry, and readiness for reading."""

from __future__ import annotations

import sqlite3

from leadtui.api.contract import ErrorCode, ExportStatus
from leadtui.sandbox.domain.jobs import JobView, export_view, poll_hint
from leadtui.sandbox.domain.ledger import PRICE_PER_RESULT, debit_results
from leadtui.sandbox.problems import ApiProblem
from leadtui.sandbox.store import insert, load_row


def unlock(
    conn: sqlite3.Connection,
    account_id: str,
    search_id: str,
    wanted: int,
    now: float,
    price: int = PRICE_PER_RESULT,
) -> sqlite3.Row:
    """Debit, unlock and queue the export, or raise 404/409 (call inside a transaction,
    after the idempotency check)."""
    search = load_row(conn, "searches", search_id, account_id)
    locked = int(search["result_count"]) - int(search["unlocked_count"])
    if wanted > locked:
        raise ApiProblem(
            409,
            ErrorCode.INSUFFICIENT_RESULTS,
            f"Only {locked} results of this search are still locked; {wanted} were asked.",
        )
    cost = debit_results(conn, account_id, wanted, now, price)
    conn.execute(
        "UPDATE searches SET unlocked_count = unlocked_count + ? WHERE id = ?", (wanted, search_id)
    )
    return insert(
        conn,
        "exports",
        account_id=account_id,
        search_id=search_id,
        first_index=int(search["unlocked_count"]),
        additional_results=wanted,
        credits_debited=cost,
        created_at=now,
        started_at=now,
    )


def require_ready(row: sqlite3.Row, view: JobView) -> None:
    """409 `export_not_ready` (with a polling hint while it moves) unless the export is ready."""
    if view.status != ExportStatus.READY:
        raise ApiProblem(
            409,
            ErrorCode.EXPORT_NOT_READY,
            f"Export '{row['id']}' is {view.status}; its results are readable once ready.",
            poll_hint(view),
        )


def retry(conn: sqlite3.Connection, row: sqlite3.Row, now: float, job_seconds: float) -> bool:
    """A failed export is queued again at `now` (no credits); False if it was not failed."""
    if export_view(row, now, job_seconds).status != ExportStatus.FAILED:
        return False
    conn.execute(
        "UPDATE exports SET failed_at = NULL, started_at = ?, retries = retries + 1 WHERE id = ?",
        (now, row["id"]),
    )
    return True


def fail_export(conn: sqlite3.Connection, row: sqlite3.Row, now: float, job_seconds: float) -> None:
    """A queued or processing export fails at `now`, or 409."""
    status = export_view(row, now, job_seconds).status
    if status not in (ExportStatus.QUEUED, ExportStatus.PROCESSING):
        raise ApiProblem(409, ErrorCode.INVALID_TRANSITION, f"Export '{row['id']}' is {status}.")
    conn.execute("UPDATE exports SET failed_at = ? WHERE id = ?", (now, row["id"]))
