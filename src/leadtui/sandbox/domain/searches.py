"""Searches: created and counted at once; their unlocked count grows with each export."""

from __future__ import annotations

import json
import sqlite3

from leadtui.api.models import SearchRequest
from leadtui.sandbox.domain.owned import load_owned
from leadtui.sandbox.records import count_results
from leadtui.sandbox.store import make_id, next_seq


def insert_search(
    conn: sqlite3.Connection, account_id: str, body: SearchRequest, now: float
) -> sqlite3.Row:
    """A new, counted search (call inside a transaction)."""
    seq = next_seq(conn, "search")
    conn.execute(
        "INSERT INTO searches (seq, id, account_id, request_json, result_count, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            seq,
            make_id("srch", seq),
            account_id,
            json.dumps(body.to_body()),
            count_results(body),
            now,
        ),
    )
    row: sqlite3.Row = conn.execute("SELECT * FROM searches WHERE seq = ?", (seq,)).fetchone()
    return row


def load_search(conn: sqlite3.Connection, account_id: str, search_id: str) -> sqlite3.Row:
    """The account's search, or 404."""
    return load_owned(conn, "searches", account_id, search_id)
