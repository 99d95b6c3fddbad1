"""What an account spends: credits for unlocked results, launches for extractions, and the
per-day usage counters behind `GET /usage` (one writer for requests and credits)."""

from __future__ import annotations

import sqlite3
from typing import Final

from leadtui.api.contract import DEFAULT_PRICE_PER_RESULT, ErrorCode
from leadtui.sandbox.clock import day_of
from leadtui.sandbox.problems import ApiProblem

PRICE_PER_RESULT: Final = DEFAULT_PRICE_PER_RESULT
# Extractions cost launches from the account's quota, never credits.
EXTRACTION_LAUNCH_COST: Final = 1


def count_usage(
    conn: sqlite3.Connection, account_id: str, day: str, requests: int = 0, credits_used: int = 0
) -> None:
    """Add to an account's counters for one UTC day (call inside a transaction)."""
    conn.execute(
        "INSERT INTO usage (account_id, day, requests, credits_used) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(account_id, day) DO UPDATE SET requests = requests + excluded.requests,"
        " credits_used = credits_used + excluded.credits_used",
        (account_id, day, requests, credits_used),
    )


def debit_results(
    conn: sqlite3.Connection, account_id: str, results: int, now: float, price: int
) -> int:
    """Debit `results` unlocked results at `price` each and count it in /usage, or 409
    `insufficient_credits` (inside a transaction); the credits debited."""
    cost = results * price
    credits = int(
        conn.execute("SELECT credits FROM accounts WHERE id = ?", (account_id,)).fetchone()[0]
    )
    if cost > credits:
        raise ApiProblem(
            409,
            ErrorCode.INSUFFICIENT_CREDITS,
            f"Unlocking {results} results costs {cost} credits; the account has {credits}.",
        )
    conn.execute("UPDATE accounts SET credits = credits - ? WHERE id = ?", (cost, account_id))
    count_usage(conn, account_id, day_of(now), credits_used=cost)
    return cost


def consume_launch(conn: sqlite3.Connection, account_id: str) -> None:
    """One launch of the account's extraction quota, or 409 `extraction_unavailable`."""
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
