"""Spends waiting for a person's yes in the running app: rows of the spend journal.

A surface that cannot ask anyone writes the spend as a request row and waits
(`approval_wait.py`); the running app answers it. A request names its spend by idempotency key
and request hash; an answer repeats what the person saw, and the asker sends only the spend it
holds, only when the answer names exactly it. One answer row per request (its primary key): of
two answers (two apps, or an app and the asker giving up) the first committed is the only one.

Old rows age out (`prune`): a day after they last changed, thirty days for an approved one
(History names who asked and who approved from it), never while an asker waits on or sends it.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Final

from leadtui.spend.account import SpendAccount
from leadtui.spend.claims import owner_died
from leadtui.spend.errors import Code
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import SpendJournal
from leadtui.spend.quote import PriceSource, Quote, Unit
from leadtui.spend.request import SpendRequest

DEFAULT_WAIT_SECONDS: Final = 120.0
MAX_WAIT_SECONDS: Final = 900.0
"""How long an asker may wait for the app's answer: 15 minutes at most."""
KEEP_SECONDS: Final = 24 * 3600.0
KEEP_APPROVED_SECONDS: Final = 30 * 24 * 3600.0
COMMAND_LINE: Final = "command line"


class Ruling(StrEnum):
    """How an approval request was answered; the first answer written is the only one."""

    APPROVED = "approved"
    """A person said yes in the app to exactly this spend: the asker sends it."""
    DENIED = "denied"
    STALE = "stale"
    """The quote no longer holds (price or balance changed): the asker quotes again."""
    TIMED_OUT = "timed_out"
    WITHDRAWN = "withdrawn"
    """The asker was interrupted before an answer: nothing is sent."""


class Progress(StrEnum):
    """What the asker did with its request."""

    WAITING = "waiting"
    REQUOTED = "requoted"
    """Replaced by a request with a fresh quote."""
    SENDING = "sending"
    SENT = "sent"
    NOT_SENT = "not_sent"
    """Denied, timed out, withdrawn, or the answer did not match: nothing was sent."""
    UNKNOWN = Code.OUTCOME_UNKNOWN.value


class UnreadableApproval(Exception):
    """A row this version cannot read (changed by hand, or a newer version's): never approved."""


@dataclass(frozen=True)
class Party:
    """Who asked or answered: the surface, a name, the process and machine, and when."""

    surface: str
    name: str
    pid: int
    host: str
    at: datetime

    @classmethod
    def here(cls, surface: str, name: str, at: datetime | None = None) -> Party:
        return cls(surface, name, os.getpid(), socket.gethostname(), at or datetime.now(UTC))

    @property
    def label(self) -> str:
        """`claude-code (pid 4242)`."""
        return f"{self.name} (pid {self.pid})"

    def gone(self) -> bool:
        """True when this party's process is known to have ended (on this machine only)."""
        return owner_died(f"{self.host}/{self.pid}/")

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"at": self.at.isoformat()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Party:
        return cls(
            str(doc["surface"]),
            str(doc["name"]),
            int(doc["pid"]),
            str(doc["host"]),
            datetime.fromisoformat(doc["at"]),
        )


@dataclass(frozen=True)
class Answer:
    """The app's (or the asker's own) answer, naming the spend the person saw."""

    verdict: Ruling
    by: Party
    idempotency_key: str
    request_hash: str
    total: int
    account: SpendAccount
    reason: str = ""

    def matches(self, request: SpendRequest, account: SpendAccount) -> bool:
        """About exactly `request` (key, whole request, total) for `account`."""
        return (
            self.idempotency_key == request.idempotency_key
            and self.request_hash == request.request_hash
            and self.total == request.quote.total
            and self.account.same_as(account)
        )

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"verdict": self.verdict.value, "by": self.by.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Answer:
        return cls(
            Ruling(doc["verdict"]),
            Party.from_json(doc["by"]),
            str(doc["idempotency_key"]),
            str(doc["request_hash"]),
            _whole(doc["total"]),
            SpendAccount(**doc["account"]),
            str(doc.get("reason") or ""),
        )


@dataclass(frozen=True)
class ApprovalRequest:
    """One spend waiting for the app's answer, as the asker wrote it."""

    id: str
    asker: Party
    wait_seconds: float
    profile: str
    origin: str
    account: SpendAccount
    params: Mapping[str, Any]
    request_hash: str
    idempotency_key: str
    quote: Quote
    progress: Progress = Progress.WAITING
    detail: Mapping[str, Any] = field(default_factory=dict)
    answer: Answer | None = None

    @property
    def operation(self) -> SpendOperation:
        return self.quote.operation

    def to_json(self) -> dict[str, Any]:
        """What the row's `request` column holds (and what Approvals copies)."""
        return {
            "asker": self.asker.to_json(),
            "wait_seconds": self.wait_seconds,
            "account": self.account.__dict__,
            "params": dict(self.params),
            "quote": self.quote.to_json(),
        }

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> ApprovalRequest:
        """Raises UnreadableApproval for a row that cannot be read."""
        try:
            doc = json.loads(row["request"])
            answer = row["answer"]
            return cls(
                id=str(row["id"]),
                asker=Party.from_json(doc["asker"]),
                wait_seconds=float(doc["wait_seconds"]),
                profile=str(row["profile"]),
                origin=str(row["base_url"]),
                account=SpendAccount(**doc["account"]),
                params=dict(doc["params"]),
                request_hash=str(row["request_hash"]),
                idempotency_key=str(row["idempotency_key"]),
                quote=quote_from_json(doc["quote"]),
                progress=Progress(row["progress"]),
                detail=dict(json.loads(row["detail"])),
                answer=None if answer is None else Answer.from_json(json.loads(answer)),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UnreadableApproval(f"{type(exc).__name__}: {exc}") from None


def quote_from_json(doc: Mapping[str, Any]) -> Quote:
    """A quote as `Quote.to_json` wrote it."""
    balance = doc["balance"]
    return Quote(
        operation=SpendOperation(doc["operation"]),
        target=str(doc["target"]),
        units=_whole(doc["units"]),
        unit=Unit(doc["unit"]),
        price=_whole(doc["price"]),
        price_source=PriceSource(doc["price_source"]),
        balance=None if balance is None else _whole(balance),
    )


def _whole(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{value!r} is not a whole number")
    return value


_SELECT: Final = (
    "SELECT r.*, a.answer FROM approval_requests r"
    " LEFT JOIN approval_answers a ON a.request_id = r.id"
)


@dataclass(frozen=True)
class Listed:
    """Every request (oldest first) and the rows that cannot be read, with why."""

    requests: list[ApprovalRequest]
    refused: list[tuple[str, str]]


class ApprovalDesk:
    """The approval rows of one journal (blocking: from a thread in an event loop)."""

    def __init__(self, journal: SpendJournal) -> None:
        self.journal = journal

    def ask(
        self,
        request: SpendRequest,
        *,
        asker: Party,
        wait_seconds: float,
        profile: str,
        origin: str,
        account: SpendAccount,
    ) -> ApprovalRequest:
        pending = ApprovalRequest(
            id=uuid.uuid4().hex,
            asker=asker,
            wait_seconds=wait_seconds,
            profile=profile,
            origin=origin,
            account=account,
            params=dict(request.params),
            request_hash=request.request_hash,
            idempotency_key=request.idempotency_key,
            quote=request.quote,
        )
        with self.journal.writing() as db:
            db.execute(
                "INSERT INTO approval_requests (id, idempotency_key, request_hash, profile,"
                " base_url, request, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    pending.id,
                    pending.idempotency_key,
                    pending.request_hash,
                    profile,
                    origin,
                    json.dumps(pending.to_json(), sort_keys=True),
                    self.journal.clock(),
                ),
            )
        return pending

    def update(
        self, pending: ApprovalRequest, progress: Progress, detail: Mapping[str, Any] | None = None
    ) -> ApprovalRequest:
        """The asker records what it did with its request."""
        with self.journal.writing() as db:
            db.execute(
                "UPDATE approval_requests SET progress = ?, detail = ?, changed_at = ?,"
                " version = version + 1 WHERE id = ?",
                (progress.value, json.dumps(dict(detail or {})), self.journal.clock(), pending.id),
            )
        return replace(pending, progress=progress, detail=dict(detail or {}))

    def answer(self, request_id: str, answer: Answer) -> bool:
        """Answer a request, once: True when this answer is the one that counts, False when
        another was committed first (another app, or the asker gave up)."""
        now, doc = self.journal.clock(), json.dumps(answer.to_json(), sort_keys=True)
        with self.journal.writing() as db:
            db.execute("BEGIN IMMEDIATE")
            first = db.execute(
                "INSERT OR IGNORE INTO approval_answers (request_id, answer, answered_at)"
                " VALUES (?, ?, ?)",
                (request_id, doc, now),
            ).rowcount
            if first:
                db.execute(
                    "UPDATE approval_requests SET changed_at = ?, version = version + 1"
                    " WHERE id = ?",
                    (now, request_id),
                )
            db.execute("COMMIT")
        return first == 1

    def get(self, request_id: str) -> ApprovalRequest | None:
        """One request with its answer. Raises UnreadableApproval."""
        with self.journal.reading() as db:
            rows = db.execute(_SELECT + " WHERE r.id = ?", (request_id,)).fetchall()
        return ApprovalRequest.from_row(rows[0]) if rows else None

    def listed(self) -> Listed:
        """Every request with its answer, in one query."""
        with self.journal.reading() as db:
            rows = db.execute(_SELECT + " ORDER BY r.rowid").fetchall()
        found: list[ApprovalRequest] = []
        refused: list[tuple[str, str]] = []
        for row in rows:
            try:
                found.append(ApprovalRequest.from_row(row))
            except UnreadableApproval as exc:
                refused.append((str(row["id"]), str(exc)))
        found.sort(key=lambda r: (r.asker.at, r.id))
        return Listed(found, refused)

    def prune(self, now: float | None = None) -> int:
        """Remove the rows aged out at `now` (the journal's clock by default); how many went."""
        now = self.journal.clock() if now is None else now
        with self.journal.reading() as db:
            rows = db.execute(_SELECT).fetchall()
        ids = [(str(row["id"]),) for row in rows if _aged_out(row, now)]
        if ids:
            with self.journal.writing() as db:
                db.execute("BEGIN IMMEDIATE")
                db.executemany("DELETE FROM approval_answers WHERE request_id = ?", ids)
                db.executemany("DELETE FROM approval_requests WHERE id = ?", ids)
                db.execute("COMMIT")
        return len(ids)


def _aged_out(row: sqlite3.Row, now: float) -> bool:
    age = now - float(row["changed_at"])
    try:
        request = ApprovalRequest.from_row(row)
    except UnreadableApproval:
        return False  # changed by hand or a newer version's: shown as refused, never removed
    alive = not request.asker.gone()
    waited_on = request.answer is None and request.progress is Progress.WAITING
    if waited_on and alive and now <= request.asker.at.timestamp() + request.wait_seconds:
        return False
    if request.progress is Progress.SENDING and alive:
        return False
    approved = request.answer is not None and request.answer.verdict is Ruling.APPROVED
    return age > (KEEP_APPROVED_SECONDS if approved else KEEP_SECONDS)
