"""An account sees only its own rows: one lookup for searches, exports and extractions."""

from __future__ import annotations

import sqlite3
from typing import Final

from leadtui.sandbox.problems import not_found
from leadtui.sandbox.store import Table

_NOUN: Final = {"searches": "Search", "exports": "Export", "extractions": "Extraction"}


def load_row(
    conn: sqlite3.Connection, table: Table, row_id: str, account_id: str | None = None
) -> sqlite3.Row:
    """Row `row_id` of `table`, or 404; given `account_id`, another account's row is not found."""
    row: sqlite3.Row | None = conn.execute(
        # The table name is one of three literals, never user input.
        f"SELECT * FROM {table} WHERE id = ?",  # noqa: S608
        (row_id,),
    ).fetchone()
    if row is None or (account_id is not None and row["account_id"] != account_id):
        raise not_found(f"{_NOUN[table]} '{row_id}'")
    return row
