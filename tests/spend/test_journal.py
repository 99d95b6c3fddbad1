"""The spend journal: intents are durable before sending and stay pending until settled."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leadtui.spend.journal import (
    JournalError,
    SpendJournal,
    SpendOperation,
    SpendOutcome,
    canonical_body_hash,
    default_journal_path,
)


def _unlock(journal: SpendJournal, key: str, profile: str = "default") -> None:
    journal.record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": "srch_1", "additional_results": 40},
        body={"additional_results": 40},
        amount=40,
        profile=profile,
        base_url="https://api.example.com",
    )


def test_default_location_is_the_state_dir() -> None:
    journal = SpendJournal()
    assert journal.path == default_journal_path()
    assert journal.path.name == "journal.sqlite3"
    assert "xdg_state_home" in str(journal.path)


def test_an_intent_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _unlock(SpendJournal(path), "ik-1")
    [intent] = SpendJournal(path).pending()
    assert intent.idempotency_key == "ik-1"
    assert intent.operation is SpendOperation.UNLOCK
    assert intent.params == {"search_id": "srch_1", "additional_results": 40}
    assert intent.amount == 40
    assert intent.body_sha256 == canonical_body_hash({"additional_results": 40})
    assert (intent.profile, intent.base_url) == ("default", "https://api.example.com")
    assert intent.pending
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_intent_survives_a_crash_right_after_it_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    # A process that records an intent and dies before it could send or close anything.
    script = textwrap.dedent(
        f"""
        import os
        from pathlib import Path
        from leadtui.spend.journal import SpendJournal
        SpendJournal(Path({str(path)!r})).record_intent(
            idempotency_key="ik-crash", operation="unlock",
            params={{"search_id": "s", "additional_results": 1}},
            body={{"additional_results": 1}}, amount=1, profile="default",
            base_url="http://127.0.0.1",
        )
        os._exit(9)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], check=False, timeout=60)
    assert done.returncode == 9
    assert [i.idempotency_key for i in SpendJournal(path).pending()] == ["ik-crash"]


def test_outcomes_settle_intents(tmp_path: Path) -> None:
    journal = SpendJournal(tmp_path / "j.sqlite3")
    for key in ("ik-ok", "ik-no", "ik-drop", "ik-open"):
        _unlock(journal, key)
    journal.record_outcome("ik-ok", SpendOutcome.SUCCEEDED, {"id": "exp_1"})
    journal.record_outcome(
        "ik-no", SpendOutcome.REJECTED, {"code": "insufficient_credits", "request_id": "req_9"}
    )
    journal.discard("ik-drop")
    assert [i.idempotency_key for i in journal.pending()] == ["ik-open"]
    ok = journal.get("ik-ok")
    assert ok is not None
    assert (ok.outcome, ok.outcome_detail) == (SpendOutcome.SUCCEEDED, {"id": "exp_1"})
    assert ok.outcome_at is not None
    rejected = journal.get("ik-no")
    assert rejected is not None
    assert rejected.outcome_detail["request_id"] == "req_9"
    dropped = journal.get("ik-drop")
    assert dropped is not None
    assert dropped.outcome is SpendOutcome.DISCARDED
    # The first outcome stands.
    journal.record_outcome("ik-ok", SpendOutcome.REJECTED, {"code": "late"})
    again = journal.get("ik-ok")
    assert again is not None
    assert again.outcome is SpendOutcome.SUCCEEDED
    assert journal.history()[0].idempotency_key == "ik-open"


def test_pending_is_narrowed_to_one_account(tmp_path: Path) -> None:
    journal = SpendJournal(tmp_path / "j.sqlite3")
    _unlock(journal, "ik-a", profile="default")
    _unlock(journal, "ik-b", profile="work")
    assert [i.idempotency_key for i in journal.pending(profile="work")] == ["ik-b"]
    assert journal.pending(profile="default", base_url="https://other.example") == []


def test_a_key_is_journaled_once(tmp_path: Path) -> None:
    journal = SpendJournal(tmp_path / "j.sqlite3")
    _unlock(journal, "ik-dup")
    with pytest.raises(JournalError, match="already in the journal"):
        _unlock(journal, "ik-dup")


def test_body_hash_is_canonical() -> None:
    assert canonical_body_hash({"a": 1, "b": [1, 2]}) == canonical_body_hash({"b": [1, 2], "a": 1})
    assert canonical_body_hash({"a": 1}) != canonical_body_hash({"a": 2})
    assert len(canonical_body_hash(None)) == 64
