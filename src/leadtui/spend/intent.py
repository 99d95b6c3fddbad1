"""What the journal holds: the spend intent and its outcome, and how a row is read back.

A row this version cannot read (a newer version's operation or outcome, bad JSON, a bad date)
becomes an `UnreadableIntent` with the reason, never an exception at start-up.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from leadtui.api.keys import short_key
from leadtui.spend.account import SpendAccount


class SpendOperation(StrEnum):
    """The credit-consuming calls."""

    UNLOCK = "unlock"
    EXTRACTION_CREATE = "extraction.create"
    EXTRACTION_LAUNCH = "extraction.launch"


class SpendOutcome(StrEnum):
    SUCCEEDED = "succeeded"
    """The server accepted it; detail holds the resulting id."""
    REJECTED = "rejected"
    """A definitive 4xx to a first send: nothing was spent; detail holds code and request id."""
    DISCARDED = "discarded"
    """The user chose not to resend an intent whose outcome was unknown (a later success
    still overrides it: the server's answer wins)."""


@dataclass(frozen=True)
class SpendIntent:
    """One journaled spend. `outcome` None: pending (outcome unknown)."""

    idempotency_key: str
    operation: SpendOperation
    params: Mapping[str, Any]
    body_sha256: str
    amount: int | None
    profile: str
    origin: str
    """The server, as `spend_origin` spells it."""
    account: SpendAccount
    created_at: datetime
    outcome: SpendOutcome | None = None
    outcome_detail: Mapping[str, Any] = field(default_factory=dict)
    outcome_at: datetime | None = None
    attempts: int = 0
    """HTTP attempts known to have been made (at least this many)."""
    last_error: str | None = None
    """The error code of the last failed attempt, when one failed."""
    surface: str = ""
    """Who spent it: `app`, `cli` or `agent` ("" for rows an earlier version wrote)."""
    authorized_by: str | None = None
    """What let it out: `confirmation`, `max-credits`, `max-launches`, `allowance`, `budget`."""
    body: str | None = None
    """The request body exactly as sent on every attempt (None: no body, or an earlier
    version's row, whose body is rebuilt from `params`)."""
    debited: int | None = None
    """Credits the account was actually debited, measured from the balance after it settled."""

    @property
    def pending(self) -> bool:
        return self.outcome is None

    @property
    def short_key(self) -> str:
        return short_key(self.idempotency_key)


@dataclass(frozen=True)
class UnreadableIntent:
    """A row this version cannot read: never offered or sent, left in the file untouched."""

    idempotency_key: str
    reason: str


class Unreadable(Exception):
    """The reason a row cannot be read by this version."""


def read_all(rows: list[sqlite3.Row]) -> list[SpendIntent]:
    intents = []
    for row in rows:
        with suppress(Unreadable):
            intents.append(read_row(row))
    return intents


def _json_object(text: object, column: str) -> dict[str, Any]:
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise Unreadable(f"{column} is not a JSON object")
    return value


def _date(text: object, column: str) -> datetime:
    try:
        value = datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        value = None
    if value is None:
        raise Unreadable(f"{column} is not a date")
    return value


def _check_params(operation: SpendOperation, params: dict[str, Any]) -> None:
    """What a resend needs, as it needs it: a row that could not be sent again as it was
    first sent (a count that is no whole number, an id that is no text) is unreadable."""
    if operation is SpendOperation.UNLOCK:
        count = params.get("additional_results")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise Unreadable(f"the count to unlock {count!r} is not a whole number above 0")
        if not isinstance(params.get("search_id"), str):
            raise Unreadable("the search id is not text")
    elif operation is SpendOperation.EXTRACTION_LAUNCH:
        if not isinstance(params.get("extraction_id"), str):
            raise Unreadable("the extraction id is not text")
    elif not isinstance(params.get("request"), dict):
        raise Unreadable("the extraction request is not a JSON object")


def read_row(row: sqlite3.Row) -> SpendIntent:
    try:
        operation = SpendOperation(row["operation"])
    except ValueError:
        raise Unreadable(f"unknown operation {row['operation']!r} (a newer version?)") from None
    try:
        outcome = SpendOutcome(row["outcome"]) if row["outcome"] is not None else None
    except ValueError:
        raise Unreadable(f"unknown outcome {row['outcome']!r} (a newer version?)") from None
    amount, attempts = row["amount"], row["attempts"]
    if (amount is not None and not isinstance(amount, int)) or not isinstance(attempts, int):
        raise Unreadable("amount or attempts is not a whole number")
    detail = row["outcome_detail"]
    params = _json_object(row["params"], "params")
    _check_params(operation, params)
    return SpendIntent(
        idempotency_key=str(row["idempotency_key"]),
        operation=operation,
        params=params,
        body_sha256=str(row["body_sha256"]),
        amount=amount,
        profile=str(row["profile"]),
        origin=str(row["base_url"]),
        account=SpendAccount(
            str(row["key_hint"] or ""), _text(row, "account_id"), _text(row, "account_name")
        ),
        created_at=_date(row["created_at"], "created_at"),
        outcome=outcome,
        outcome_detail=_json_object(detail, "outcome_detail") if detail else {},
        outcome_at=_date(row["outcome_at"], "outcome_at") if row["outcome_at"] else None,
        attempts=attempts,
        last_error=_text(row, "last_error"),
        surface=_text(row, "surface") or "",
        authorized_by=_text(row, "authorized_by"),
        body=_text(row, "body"),
        debited=row["debited"] if isinstance(row["debited"], int) else None,
    )


def _text(row: sqlite3.Row, column: str) -> str | None:
    value = row[column]
    return value if isinstance(value, str) else None
