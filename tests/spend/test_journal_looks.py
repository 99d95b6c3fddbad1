"""Looks at the journal (the app's per-poll `activity`, the budget, pending spends) never fail
for a busy file and never stand in a spend's way: another process writing, or holding the
whole file, makes a look wait or read what was committed, and the spend goes through."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from leadtui.api.client import LeadClient
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from tests.spend.conftest import SEARCH, gate, journal_unlock
from tests.support import spend_requests


@contextmanager
def writing_elsewhere(path: Path, *, whole_file: bool = False) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding a write transaction that journals an intent, not
    committed until the block ends (`whole_file`: it locks the file to every reader too)."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        if whole_file:
            other.execute("PRAGMA locking_mode=EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute(
            "INSERT INTO spend_intents (idempotency_key, operation, params, body_sha256,"
            " amount, profile, base_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                "ik-elsewhere",
                "unlock",
                '{"additional_results": 2, "search_id": "srch_9"}',
                "0" * 64,
                2,
                "default",
                "http://127.0.0.1",
                datetime.now(UTC).isoformat(),
            ),
        )
        yield other
        other.execute("COMMIT")


def _nobody_reads(path: Path) -> bool:
    """True when no connection holds a read open: a full checkpoint is not kept waiting."""
    with closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as db:
        busy, _log, _done = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()[0]
    return busy == 0


async def test_looks_read_what_was_committed_while_another_process_writes(
    journal: SpendJournal, client: LeadClient
) -> None:
    journal_unlock(journal, "ik-mine", results=3)
    with writing_elsewhere(journal.path):
        count, *_ = journal.activity("default")
        assert count == 1
        assert [i.idempotency_key for i in journal.pending()] == ["ik-mine"]
        assert journal.get("ik-elsewhere") is None
        assert journal.budget_spent("default") == 0
        assert [i.idempotency_key for i in journal.history()] == ["ik-mine"]
        assert journal.unreadable() == []
    assert journal.activity("default")[0] == 2
    assert {i.idempotency_key for i in journal.pending()} == {"ik-mine", "ik-elsewhere"}
    assert _nobody_reads(journal.path)  # no look kept a transaction open
    # The spend proceeds, while another process's slow look is still reading.
    search = await client.searches.create(SEARCH)
    request = spend_requests.unlock(search.searchId, 2)
    with closing(sqlite3.connect(journal.path, isolation_level=None)) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT * FROM spend_intents").fetchone()
        result = await spend_requests.execute(gate(journal), request, client, confirmed=True)
        reader.execute("COMMIT")
    settled = journal.get(result.intent.idempotency_key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED


async def test_a_look_waits_for_a_file_another_process_holds_whole_then_reads(
    journal: SpendJournal,
) -> None:
    journal_unlock(journal, "ik-mine")
    with writing_elsewhere(journal.path, whole_file=True):
        # Submitted to a thread at once: it runs while the other process holds the file.
        look = asyncio.get_running_loop().run_in_executor(None, journal.activity, "default")
        assert not look.done()  # it cannot have read (nor failed: see below) while held
    # Released: the look read after the other process committed, and did not fail.
    count, *_ = await look
    assert count == 2
