"""The spend journal: every credit-consuming call is written down before it is sent.

An intent without an outcome means "sent, or about to be, and we never learnt the answer":
the app offers to resend it with the same Idempotency-Key, which the server never debits twice.
SQLite in WAL mode with synchronous=FULL, so a committed intent survives a crash or power loss.
One short-lived connection per call keeps it safe to use from any thread.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from leadtui.config.settings import state_dir

JOURNAL_FILE_NAME: Final = "journal.sqlite3"

_SCHEMA: Final = """
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
    outcome_at      TEXT
);
CREATE INDEX IF NOT EXISTS spend_intents_pending
    ON spend_intents (profile, base_url) WHERE outcome IS NULL;
"""


class SpendOperation(StrEnum):
    """The credit-consuming calls."""

    UNLOCK = "unlock"
    EXTRACTION_CREATE = "extraction.create"
    EXTRACTION_LAUNCH = "extraction.launch"


class SpendOutcome(StrEnum):
    SUCCEEDED = "succeeded"
    """The server accepted it; detail holds the resulting id."""
    REJECTED = "rejected"
    """A definitive 4xx: nothing was spent; detail holds the error code and request id."""
    DISCARDED = "discarded"
    """The user chose not to resend an intent whose outcome was unknown."""


class JournalError(Exception):
    """The journal could not be written; the spend must not be sent."""


@dataclass(frozen=True)
class SpendIntent:
    """One journaled spend. `outcome` None: pending (outcome unknown)."""

    idempotency_key: str
    operation: SpendOperation
    params: Mapping[str, Any]
    body_sha256: str
    amount: int | None
    profile: str
    base_url: str
    created_at: datetime
    outcome: SpendOutcome | None = None
    outcome_detail: Mapping[str, Any] = field(default_factory=dict)
    outcome_at: datetime | None = None

    @property
    def pending(self) -> bool:
        return self.outcome is None


def canonical_body_hash(body: Mapping[str, Any] | None) -> str:
    """sha256 of the body as canonical JSON (sorted keys, no spaces); of b"" when there is none."""
    data = b"" if body is None else json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(data).hexdigest()


def default_journal_path() -> Path:
    return state_dir() / JOURNAL_FILE_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat()


class SpendJournal:
    """Durable record of spend intents and their outcomes."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_journal_path()
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            with closing(sqlite3.connect(self.path, timeout=5.0, isolation_level=None)) as db:
                # synchronous is per connection: FULL fsyncs the WAL on every commit.
                db.execute("PRAGMA synchronous=FULL")
                db.row_factory = sqlite3.Row
                yield db
        except sqlite3.Error as exc:
            raise JournalError(f"The spend journal {self.path} failed: {exc}") from exc

    def record_intent(
        self,
        *,
        idempotency_key: str,
        operation: SpendOperation,
        params: Mapping[str, Any],
        body: Mapping[str, Any] | None,
        amount: int | None,
        profile: str,
        base_url: str,
    ) -> SpendIntent:
        """Write the intent and commit durably; call this BEFORE sending the request.

        `params` is what a resend needs (search id, additional_results, extraction id or
        request body). Never the API key. A key already in the journal is refused.
        """
        intent = SpendIntent(
            idempotency_key=idempotency_key,
            operation=SpendOperation(operation),
            params=dict(params),
            body_sha256=canonical_body_hash(body),
            amount=amount,
            profile=profile,
            base_url=base_url,
            created_at=datetime.now(UTC),
        )
        try:
            with self._connect() as db:
                db.execute(
                    "INSERT INTO spend_intents (idempotency_key, operation, params, body_sha256,"
                    " amount, profile, base_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        intent.idempotency_key,
                        intent.operation.value,
                        json.dumps(intent.params, sort_keys=True),
                        intent.body_sha256,
                        intent.amount,
                        intent.profile,
                        intent.base_url,
                        intent.created_at.isoformat(),
                    ),
                )
        except JournalError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise JournalError(
                    f"The idempotency key {idempotency_key[:8]} is already in the journal; "
                    "resend that intent instead of recording it again."
                ) from None
            raise
        return intent

    def record_outcome(
        self, idempotency_key: str, outcome: SpendOutcome, detail: Mapping[str, Any] | None = None
    ) -> None:
        """Settle a pending intent. Settled intents keep their first outcome."""
        with self._connect() as db:
            db.execute(
                "UPDATE spend_intents SET outcome = ?, outcome_detail = ?, outcome_at = ?"
                " WHERE idempotency_key = ? AND outcome IS NULL",
                (
                    SpendOutcome(outcome).value,
                    json.dumps(dict(detail or {})),
                    _now(),
                    idempotency_key,
                ),
            )

    def discard(self, idempotency_key: str) -> None:
        """The user chose not to resend: the intent stays in history, no longer pending."""
        self.record_outcome(idempotency_key, SpendOutcome.DISCARDED)

    def get(self, idempotency_key: str) -> SpendIntent | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT * FROM spend_intents WHERE idempotency_key = ?", (idempotency_key,)
            ).fetchone()
        return _intent(row) if row is not None else None

    def pending(self, profile: str | None = None, base_url: str | None = None) -> list[SpendIntent]:
        """Intents with no outcome, oldest first; narrowed to one account when given."""
        query = "SELECT * FROM spend_intents WHERE outcome IS NULL"
        args: list[str] = []
        if profile is not None:
            query += " AND profile = ?"
            args.append(profile)
        if base_url is not None:
            query += " AND base_url = ?"
            args.append(base_url)
        with self._connect() as db:
            rows = db.execute(query + " ORDER BY created_at, rowid", args).fetchall()
        return [_intent(row) for row in rows]

    def history(self, limit: int = 50) -> list[SpendIntent]:
        """The most recent intents, newest first, settled or not."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM spend_intents ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_intent(row) for row in rows]


def _intent(row: sqlite3.Row) -> SpendIntent:
    return SpendIntent(
        idempotency_key=row["idempotency_key"],
        operation=SpendOperation(row["operation"]),
        params=json.loads(row["params"]),
        body_sha256=row["body_sha256"],
        amount=row["amount"],
        profile=row["profile"],
        base_url=row["base_url"],
        created_at=datetime.fromisoformat(row["created_at"]),
        outcome=SpendOutcome(row["outcome"]) if row["outcome"] is not None else None,
        outcome_detail=json.loads(row["outcome_detail"]) if row["outcome_detail"] else {},
        outcome_at=datetime.fromisoformat(row["outcome_at"]) if row["outcome_at"] else None,
    )
