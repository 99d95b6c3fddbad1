"""An account sees only its own rows: one lookup for searches, exports and extractions."""

from __future__ import annotations

import sqlite3
from typing import Final, Literal

from leadtui.sandbox.problems import not_found

Table = Literal["searches", "exports", "extractions"]
_NOUN: Final = {"searches": "Search", "exports": "Export", "extractions": "Extraction"}


def load_owned(conn: sqlite3.Connection, table: Table, account_id: str, row_id: str) -> sqlite3.Row:
    """The account's row `row_id` of `table`, or 404 (another account's row is not found)."""
    row: sqlite3.Row | None = conn.execute(
        # The table name is one of three literals, never user input.
        f"SELECT * FROM {table} WHERE id = ? AND account_id = ?",  # noqa: S608
        (row_id, account_id),
    ).fetchone()
    if row is None:
        raise not_found(f"{_NOUN[table]} '{row_id}'")
    return row
