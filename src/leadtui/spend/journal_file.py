"""The journal's SQLite file: created private (0600, whatever the umask), its schema, and the
upgrade of a file an earlier version wrote."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Final

from leadtui.spend.origin import spend_origin

SCHEMA_VERSION: Final = 4
PRIVATE_MODE: Final = 0o600

# Which spends count under which limits (an agent server's allowance): once each, resent or not.
_LIMITS: Final = """
CREATE TABLE IF NOT EXISTS spend_limits (
    limits          TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    PRIMARY KEY (limits, idempotency_key)
)
"""
# `base_url` holds the spend origin (spend_origin): the column keeps its first name so files
# written by earlier versions stay readable.
_INDEX: Final = (
    "CREATE INDEX IF NOT EXISTS spend_intents_pending"
    " ON spend_intents (profile, base_url) WHERE outcome IS NULL"
)
# Columns version 1 lacked: (name, declaration). From `surface` on, version 2 lacked them too:
# rows written before keep '' (surface unknown) and NULLs: they were never counted against a
# budget, their body was not kept, their debit not measured.
_ADDED: Final = (
    ("account_id", "TEXT"),
    ("account_name", "TEXT"),
    ("key_hint", "TEXT NOT NULL DEFAULT ''"),
    ("attempts", "INTEGER NOT NULL DEFAULT 0"),
    ("last_error", "TEXT"),
    ("claim_owner", "TEXT"),
    ("claim_expires", "REAL"),
    ("surface", "TEXT NOT NULL DEFAULT ''"),
    ("authorized_by", "TEXT"),
    ("body", "TEXT"),
    ("debited", "INTEGER"),
)
# The table as version 1 made it, then every column added since.
_TABLE: Final = f"""
CREATE TABLE IF NOT EXISTS spend_intents (
    idempotency_key TEXT PRIMARY KEY,
    operation       TEXT NOT NULL,
    params          TEXT NOT NULL,
    body_sha256     TEXT NOT NULL,
    amount          INTEGER,
    profile         TEXT NOT NULL,
    base_url        TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    outcome         TEXT,
    outcome_detail  TEXT,
    outcome_at      TEXT,
    {", ".join(f"{name} {declaration}" for name, declaration in _ADDED)}
)
"""


# Spends waiting for a yes in the running app, and their answers (`approvals.py`). A request
# names the spend it would send by its idempotency key and its request hash; an answer is one
# row per request (its primary key), so of two answers the first committed is the only one.
# Created when missing: a journal written before them is upgraded in place, nothing moved.
_APPROVALS: Final = (
    """
CREATE TABLE IF NOT EXISTS approval_requests (
    id              TEXT PRIMARY KEY,
    idempotency_key TEXT NOT NULL,
    request_hash    TEXT NOT NULL,
    profile         TEXT NOT NULL,
    base_url        TEXT NOT NULL,
    request         TEXT NOT NULL,
    progress        TEXT NOT NULL DEFAULT 'waiting',
    detail          TEXT NOT NULL DEFAULT '{}',
    changed_at      REAL NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0
)
""",
    """
CREATE TABLE IF NOT EXISTS approval_answers (
    request_id  TEXT PRIMARY KEY REFERENCES approval_requests (id),
    answer      TEXT NOT NULL,
    answered_at REAL NOT NULL
)
""",
    "CREATE INDEX IF NOT EXISTS approval_requests_key ON approval_requests (idempotency_key)",
)


def create_private(path: Path) -> None:
    """The file and its folder readable by the user only, an existing -wal and -shm too (SQLite
    gives those it creates later the database file's mode)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_MODE))
    # os.open's mode is filtered by the umask; chmod is not.
    os.chmod(path, PRIVATE_MODE)
    for suffix in ("-wal", "-shm"):
        sidecar = path.with_name(path.name + suffix)
        if sidecar.exists():
            os.chmod(sidecar, PRIVATE_MODE)


def prepare(db: sqlite3.Connection) -> None:
    """WAL mode and the current schema; an earlier version's file is upgraded in one
    transaction, so two processes opening it at once cannot both upgrade it."""
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(_TABLE)
        db.execute(_LIMITS)
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            _upgrade(db)
        db.execute(_INDEX)
        for statement in _APPROVALS:
            db.execute(statement)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _upgrade(db: sqlite3.Connection) -> None:
    present = {row[1] for row in db.execute("PRAGMA table_info(spend_intents)")}
    for name, declaration in _ADDED:
        if name not in present:
            db.execute(f"ALTER TABLE spend_intents ADD COLUMN {name} {declaration}")
    rows = db.execute("SELECT idempotency_key, base_url FROM spend_intents").fetchall()
    for key, base_url in rows:
        if isinstance(base_url, str) and spend_origin(base_url) != base_url:
            db.execute(
                "UPDATE spend_intents SET base_url = ? WHERE idempotency_key = ?",
                (spend_origin(base_url), key),
            )
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
