"""A row this version cannot read is skipped and reported, never a crash at every start."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.errors import JournalError
from leadtui.spend.intent import UnreadableIntent
from leadtui.spend.journal import SpendJournal
from tests.spend.conftest import gate, journal_unlock

SPOIL = {
    "operation": "UPDATE spend_intents SET operation = ? WHERE idempotency_key = ?",
    "params": "UPDATE spend_intents SET params = ? WHERE idempotency_key = ?",
    "created_at": "UPDATE spend_intents SET created_at = ? WHERE idempotency_key = ?",
    "outcome": "UPDATE spend_intents SET outcome = ? WHERE idempotency_key = ?",
}


def spoil(path: Path, key: str, column: str, value: object) -> None:
    """What a newer version, or a damaged file, leaves in a row."""
    with sqlite3.connect(path) as db:
        db.execute(SPOIL[column], (value, key))
    db.close()


async def test_unreadable_rows_are_skipped_and_listed_with_the_reason(
    make_client: Callable[..., LeadClient], journal: SpendJournal
) -> None:
    for key in ("ik-newer", "ik-json", "ik-date", "ik-list", "ik-outcome", "ik-good"):
        journal_unlock(journal, key)
    spoil(journal.path, "ik-newer", "operation", "subscription.renew")
    spoil(journal.path, "ik-json", "params", "{not json")
    spoil(journal.path, "ik-date", "created_at", "yesterday")
    spoil(journal.path, "ik-list", "params", "[1, 2]")
    spoil(journal.path, "ik-outcome", "outcome", "refunded")

    reopened = SpendJournal(journal.path)
    assert [i.idempotency_key for i in reopened.pending()] == ["ik-good"]
    assert [i.idempotency_key for i in await gate(reopened).pending(make_client())] == ["ik-good"]
    assert [i.idempotency_key for i in reopened.history()] == ["ik-good"]
    assert reopened.unreadable() == [
        UnreadableIntent("ik-newer", "unknown operation 'subscription.renew' (a newer version?)"),
        UnreadableIntent("ik-json", "params is not a JSON object"),
        UnreadableIntent("ik-date", "created_at is not a date"),
        UnreadableIntent("ik-list", "params is not a JSON object"),
        UnreadableIntent("ik-outcome", "unknown outcome 'refunded' (a newer version?)"),
    ]
    with pytest.raises(JournalError, match="cannot be read by this version: params"):
        reopened.get("ik-json")
    # The rows stay as they are, for the version that wrote them.
    with sqlite3.connect(journal.path) as db:
        assert db.execute("SELECT COUNT(*) FROM spend_intents").fetchone()[0] == 6
    db.close()
