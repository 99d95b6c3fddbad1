"""The per-day usage counters behind `GET /usage`: one writer for requests and credits."""

from __future__ import annotations

import sqlite3


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
