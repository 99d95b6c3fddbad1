"""The sandbox's SQLite state: one connection, one lock, one transaction per mutation, and
the one insert and lookup of the rows that have ids (an account sees only its own).

Every credit-spending change (debit, job row, idempotency record) happens inside
`transaction()`, so concurrent requests with one key see exactly one of them commit first.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple
from pathlib import Path
from typing import Final, Literal

from leadtui.sandbox.accounts import DEMO_ACCOUNTS
from leadtui.sandbox.problems import not_found

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, credits INTEGER NOT NULL,
    subscription_status TEXT NOT NULL, access_status TEXT NOT NULL,
    extraction_quota INTEGER NOT NULL, launches_used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS searches (
    seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    request_json TEXT NOT NULL, result_count INTEGER NOT NULL,
    unlocked_count INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS exports (
    seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    search_id TEXT NOT NULL, first_index INTEGER NOT NULL, additional_results INTEGER NOT NULL,
    credits_debited INTEGER NOT NULL, created_at REAL NOT NULL, started_at REAL NOT NULL,
    failed_at REAL, retries INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS extractions (
    seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, account_id TEXT NOT NULL,
    request_json TEXT NOT NULL, state TEXT NOT NULL, created_at REAL NOT NULL,
    updated_at REAL NOT NULL, launched_at REAL, resumed_at REAL,
    run_seconds REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS idempotency (
    account_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE TABLE IF NOT EXISTS usage (
    account_id TEXT NOT NULL, day TEXT NOT NULL, requests INTEGER NOT NULL DEFAULT 0,
    credits_used INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (account_id, day)
);
"""

_STATE_TABLES = ("accounts", "searches", "exports", "extractions", "idempotency", "usage")
Table = Literal["searches", "exports", "extractions"]
_NOUN: Final = {"searches": "Search", "exports": "Export", "extractions": "Extraction"}
# Ids are `srch_000001`, ...; a table's id sequence is its noun (`search`: kept files hold it).
_ID_PREFIX: Final = {"searches": "srch", "exports": "exp", "extractions": "ext"}


class Store:
    """SQLite in memory (fresh, seeded state) or in a WAL file that survives restarts."""

    def __init__(self, db_path: Path | None) -> None:
        target = str(db_path) if db_path is not None else ":memory:"
        self._conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        if db_path is not None:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(_SCHEMA)
        with self.transaction() as conn:
            if conn.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0:
                _seed(conn)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One serialised write transaction; rolled back if the block raises."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._conn

    def reset(self) -> None:
        """Back to the seeded state; id counters are kept so no id is ever handed out twice."""
        with self.transaction() as conn:
            for table in _STATE_TABLES:
                conn.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed table names
            _seed(conn)

    def secret(self, name: str) -> bytes:
        """A random secret made on first use and kept with the state: per start in memory,
        across restarts in a kept file (so its cursors stay valid)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)",
                (name, secrets.token_bytes(32)),
            )
            row = conn.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        return bytes(row[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def insert(conn: sqlite3.Connection, table: Table, **columns: object) -> sqlite3.Row:
    """A new row of `table`, with the next id of its sequence (call inside a transaction)."""
    (seq,) = conn.execute(
        "INSERT INTO counters (name, value) VALUES (?, 1) "
        "ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
        (_NOUN[table].lower(),),
    ).fetchone()
    names = ", ".join(["seq", "id", *columns])
    marks = ", ".join("?" * (len(columns) + 2))
    conn.execute(
        f"INSERT INTO {table} ({names}) VALUES ({marks})",  # noqa: S608 - names from code
        (seq, f"{_ID_PREFIX[table]}_{seq:06d}", *columns.values()),
    )
    row: sqlite3.Row = conn.execute(f"SELECT * FROM {table} WHERE seq = ?", (seq,)).fetchone()  # noqa: S608
    return row


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


def _seed(conn: sqlite3.Connection) -> None:
    conn.executemany(
        "INSERT INTO accounts (id, name, credits, subscription_status, access_status,"
        " extraction_quota) VALUES (?, ?, ?, ?, ?, ?)",
        [astuple(account) for account in DEMO_ACCOUNTS],
    )
