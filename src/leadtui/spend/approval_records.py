"""What an approval file holds: who asks, the spend and its quote, and the answer."""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from leadtui.spend.account import SpendAccount
from leadtui.spend.approval_files import UnreadableApproval
from leadtui.spend.claims import owner_died
from leadtui.spend.intent import SpendOperation
from leadtui.spend.journal import canonical_body_hash
from leadtui.spend.quote import PriceSource, Quote, Unit
from leadtui.spend.request import SpendRequest


class Verdict(StrEnum):
    """How a request was answered; the first answer written is the only one."""

    APPROVED = "approved"
    """A person said yes in the app to exactly this quote: the asker sends it."""
    DENIED = "denied"
    """A person said no: nothing is sent."""
    STALE = "stale"
    """The quote no longer holds (price or balance changed): the asker quotes again."""
    TIMED_OUT = "timed_out"
    """The asker stopped waiting (its timeout): nothing is sent."""
    WITHDRAWN = "withdrawn"
    """The asker was interrupted or refused before an answer: nothing is sent."""


class Progress(StrEnum):
    """What the asker did, as it writes into its request file."""

    WAITING = "waiting"
    REQUOTED = "requoted"
    """Replaced by a request with a fresh quote."""
    SENDING = "sending"
    """Approved; being journaled and sent by the asker."""
    SENT = "sent"
    """The server answered the asker's send (the journal holds the outcome)."""
    NOT_SENT = "not_sent"
    """Denied, timed out, withdrawn, or the approval did not match: nothing was sent."""
    UNKNOWN = "outcome_unknown"
    """Sent, and no definitive answer came back: pending in the journal."""


@dataclass(frozen=True)
class Party:
    """Who asked or answered: the surface ("agent", "cli", "app"), a name (the MCP client's, or
    "command line"), the process and the machine, and when."""

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
        return {
            "surface": self.surface,
            "name": self.name,
            "pid": self.pid,
            "host": self.host,
            "at": self.at.isoformat(),
        }

    @classmethod
    def from_json(cls, data: object) -> Party:
        doc = _object(data, "party")
        return cls(
            _text(doc, "surface"),
            _text(doc, "name"),
            _whole(doc, "pid"),
            _text(doc, "host"),
            _when(doc, "at"),
        )


@dataclass(frozen=True)
class Answer:
    """The app's (or the asker's own) answer, with what the person saw when they said yes."""

    verdict: Verdict
    by: Party
    idempotency_key: str
    body_sha256: str
    total: int
    account: SpendAccount
    quote: Mapping[str, Any] = field(default_factory=dict)
    reason: str = ""

    def matches(self, request: SpendRequest, account: SpendAccount) -> bool:
        """True when this answer is about exactly `request` for `account`."""
        return (
            self.idempotency_key == request.idempotency_key
            and self.body_sha256 == canonical_body_hash(request.body)
            and self.total == request.quote.total
            and self.account.same_as(account)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "by": self.by.to_json(),
            "idempotency_key": self.idempotency_key,
            "body_sha256": self.body_sha256,
            "total": self.total,
            "account": _account_json(self.account),
            "quote": dict(self.quote),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: object) -> Answer:
        doc = _object(data, "answer")
        try:
            verdict = Verdict(str(doc.get("verdict")))
        except ValueError:
            raise UnreadableApproval(f"unknown verdict {doc.get('verdict')!r}") from None
        return cls(
            verdict,
            Party.from_json(doc.get("by")),
            _text(doc, "idempotency_key"),
            _text(doc, "body_sha256"),
            _whole(doc, "total"),
            _account(doc.get("account")),
            _object(doc.get("quote", {}), "quote"),
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
    operation: SpendOperation
    params: Mapping[str, Any]
    body_sha256: str
    idempotency_key: str
    quote: Quote
    progress: Progress = Progress.WAITING
    detail: Mapping[str, Any] = field(default_factory=dict)
    answer: Answer | None = None

    @property
    def open(self) -> bool:
        """Still waiting for an answer (and its asker said nothing else)."""
        return self.answer is None and self.progress is Progress.WAITING

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "id": self.id,
            "asker": self.asker.to_json(),
            "wait_seconds": self.wait_seconds,
            "profile": self.profile,
            "origin": self.origin,
            "account": _account_json(self.account),
            "spend": {
                "operation": self.operation.value,
                "params": dict(self.params),
                "body_sha256": self.body_sha256,
                "idempotency_key": self.idempotency_key,
            },
            "quote": self.quote.to_json(),
            "progress": self.progress.value,
            "detail": dict(self.detail),
        }

    @classmethod
    def from_json(cls, data: object, answer: Answer | None) -> ApprovalRequest:
        doc = _object(data, "request")
        spend = _object(doc.get("spend"), "spend")
        try:
            operation = SpendOperation(str(spend.get("operation")))
            progress = Progress(str(doc.get("progress")))
        except ValueError as exc:
            raise UnreadableApproval(str(exc)) from None
        wait = doc.get("wait_seconds")
        if not isinstance(wait, int | float) or isinstance(wait, bool):
            raise UnreadableApproval("wait_seconds is not a number")
        return cls(
            id=_text(doc, "id"),
            asker=Party.from_json(doc.get("asker")),
            wait_seconds=float(wait),
            profile=_text(doc, "profile"),
            origin=_text(doc, "origin"),
            account=_account(doc.get("account")),
            operation=operation,
            params=_object(spend.get("params"), "params"),
            body_sha256=_text(spend, "body_sha256"),
            idempotency_key=_text(spend, "idempotency_key"),
            quote=quote_from_json(doc.get("quote")),
            progress=progress,
            detail=_object(doc.get("detail", {}), "detail"),
            answer=answer,
        )


def quote_from_json(data: object) -> Quote:
    """A quote as `Quote.to_json` wrote it."""
    doc = _object(data, "quote")
    try:
        operation = SpendOperation(str(doc.get("operation")))
        unit = Unit(str(doc.get("unit")))
        source = PriceSource(str(doc.get("price_source")))
    except ValueError as exc:
        raise UnreadableApproval(f"quote: {exc}") from None
    balance = doc.get("balance")
    if balance is not None and (not isinstance(balance, int) or isinstance(balance, bool)):
        raise UnreadableApproval("quote: balance is not a whole number")
    return Quote(
        operation=operation,
        target=_text(doc, "target"),
        units=_whole(doc, "units"),
        unit=unit,
        price=_whole(doc, "price"),
        price_source=source,
        balance=balance,
    )


def _object(data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise UnreadableApproval(f"{what} is not an object")
    return data


def _text(doc: Mapping[str, Any], name: str) -> str:
    value = doc.get(name)
    if not isinstance(value, str):
        raise UnreadableApproval(f"{name} is not text")
    return value


def _whole(doc: Mapping[str, Any], name: str) -> int:
    value = doc.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise UnreadableApproval(f"{name} is not a whole number")
    return value


def _when(doc: Mapping[str, Any], name: str) -> datetime:
    try:
        return datetime.fromisoformat(_text(doc, name))
    except ValueError:
        raise UnreadableApproval(f"{name} is not a date") from None


def _account_json(account: SpendAccount) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "key_hint": account.key_hint}


def _account(data: object) -> SpendAccount:
    doc = _object(data, "account")
    ident, name = doc.get("id"), doc.get("name")
    return SpendAccount(
        _text(doc, "key_hint"),
        ident if isinstance(ident, str) else None,
        name if isinstance(name, str) else None,
    )
