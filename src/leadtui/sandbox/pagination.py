"""Opaque, tamper-evident cursors and the page body `{"data": [...], "next_cursor": ...}`.

A cursor holds the position after the last item shown (keyset, not offset), signed with the
store's secret and bound to its list, so a walk never repeats or skips an item while new
ones are created, and no position is accepted that this list could not have issued.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import sqlite3
from collections.abc import Callable
from typing import Annotated, Any, Final

from fastapi import Query
from pydantic.json_schema import SkipJsonSchema

from leadtui.api.models import PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN
from leadtui.sandbox.leads import LeadSource, generate
from leadtui.sandbox.problems import invalid
from leadtui.sandbox.store import Store, Table

# Absent or a string, never null: the schema says so.
CursorParam = Annotated[
    str | SkipJsonSchema[None],
    Query(
        description=(
            "Opaque cursor from a previous page's `next_cursor`, of this same list. An empty "
            "cursor, or one this server did not issue for this list, answers 400."
        ),
        # Documented, not enforced by FastAPI: the 400 comes from decode_cursor, as for a
        # foreign cursor, in the server's own error body.
        json_schema_extra={"minLength": 1},
    ),
]
LimitParam = Annotated[
    int,
    Query(
        ge=PAGE_LIMIT_MIN,
        le=PAGE_LIMIT_MAX,
        description=f"Page size, {PAGE_LIMIT_MIN} to {PAGE_LIMIT_MAX}.",
    ),
]
DEFAULT_LIMIT = PAGE_LIMIT_DEFAULT
# Row sequence numbers stay below this (SQLite integers are 64-bit).
_SEQ_CEILING: Final = 2**62
# A page of records ends early, with a cursor, once its records reach this many bytes of JSON:
# whatever their size, a page stays far below what a client reads (the client's 8 MiB).
PAGE_BYTES_MAX: Final = 1_048_576


def fitting(records: list[dict[str, Any]], budget: int = PAGE_BYTES_MAX) -> int:
    """How many of `records`, from the first, fit `budget` bytes of JSON (always one)."""
    used = 0
    for count, record in enumerate(records):
        used += len(json.dumps(record, separators=(",", ":")).encode())
        if used > budget and count:
            return count
    return len(records)


def page(items: list[dict[str, Any]], next_cursor: str | None) -> dict[str, Any]:
    return {"data": items, "next_cursor": next_cursor}


class Pages:
    """Pages of the sandbox's lists, with cursors signed by the store's secret."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._secret = store.secret("cursor")

    def _sign(self, payload: bytes) -> str:
        return hmac.new(self._secret, payload, hashlib.sha256).hexdigest()[:16]

    def encode_cursor(self, list_name: str, position: int) -> str:
        payload = json.dumps([list_name, position], separators=(",", ":")).encode()
        token = base64.urlsafe_b64encode(payload).decode().rstrip("=")
        return f"{token}.{self._sign(payload)}"

    def decode_cursor(self, cursor: str | None, list_name: str, ceiling: int) -> int | None:
        """The position a cursor stands for, in `[0, ceiling]`; 400 if this list never issued it."""
        if cursor is None:
            return None
        try:
            token, signature = cursor.rsplit(".", 1)
            payload = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            name, position = json.loads(payload)
        except (ValueError, TypeError, binascii.Error):
            raise invalid("cursor: is not a cursor issued by this server.") from None
        valid = hmac.compare_digest(signature, self._sign(payload))
        in_range = type(position) is int and 0 <= position <= ceiling
        if not valid or name != list_name or not in_range:
            raise invalid("cursor: is not a cursor issued for this list.")
        return int(position)

    def newest_first(
        self,
        table: Table,
        account_id: str,
        cursor: str | None,
        limit: int,
        render: Callable[[sqlite3.Row], dict[str, Any]],
    ) -> dict[str, Any]:
        """One page of an account's rows of `table`, newest first, as `render` makes them
        records: `limit` records, fewer when they reach `PAGE_BYTES_MAX`."""
        list_name = f"{table}:{account_id}"
        before = self.decode_cursor(cursor, list_name, _SEQ_CEILING)
        with self._store.reading() as conn:
            rows = conn.execute(
                # The table name is one of three literals, never user input.
                f"SELECT * FROM {table} WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",  # noqa: S608
                (account_id, before if before is not None else _SEQ_CEILING, limit + 1),
            ).fetchall()
            records = [render(row) for row in rows[:limit]]
        kept = fitting(records)
        if len(rows) <= kept:
            return page(records, None)
        return page(records[:kept], self.encode_cursor(list_name, int(rows[kept - 1]["seq"])))

    def leads(
        self, cursor: str | None, list_name: str, limit: int, source: LeadSource, indexes: range
    ) -> dict[str, Any]:
        """One page of the leads of `source` at `indexes`."""
        start = self.decode_cursor(cursor, list_name, len(indexes)) or 0
        shown = indexes[start : start + limit]
        next_cursor = (
            self.encode_cursor(list_name, start + len(shown)) if shown.stop < indexes.stop else None
        )
        # An empty page builds no lead pools (a draft's results, the end of a list).
        leads = generate(source, shown.start, shown.stop) if shown else []
        return page(leads, next_cursor)
