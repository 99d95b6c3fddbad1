"""Searches: created and counted at once; their unlocked count grows with each export."""

from __future__ import annotations

import json
import sqlite3

from leadtui.api.models import SearchRequest
from leadtui.sandbox.records import count_results
from leadtui.sandbox.store import insert


def insert_search(
    conn: sqlite3.Connection, account_id: str, body: SearchRequest, now: float
) -> sqlite3.Row:
    """A new, counted search (call inside a transaction)."""
    return insert(
        conn,
        "searches",
        account_id=account_id,
        request_json=json.dumps(body.to_body()),
        result_count=count_results(body),
        created_at=now,
    )
