"""The spend journal: intents are durable before sending and stay pending until settled."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from leadtui.spend.errors import JournalError
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal, canonical_body_hash, default_journal_path
from tests.spend.conftest import DEMO, journal_unlock


def _unlock(journal: SpendJournal, key: str, profile: str = "default") -> None:
    journal_unlock(journal, key, results=40, profile=profile, origin="https://api.example.com")


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
    assert (intent.profile, intent.origin) == ("default", "https://api.example.com")
    assert intent.account == DEMO
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
        from leadtui.spend.account import SpendAccount
        from leadtui.spend.journal import SpendJournal
        SpendJournal(Path({str(path)!r})).record_intent(
            idempotency_key="ik-crash", operation="unlock",
            params={{"search_id": "s", "additional_results": 1}},
            body={{"additional_results": 1}}, amount=1, profile="default",
            origin="http://127.0.0.1", account=SpendAccount("…full", "acct_demo"),
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
    assert journal.pending(profile="default", origin="https://other.example") == []


def test_a_key_is_journaled_once(tmp_path: Path) -> None:
    journal = SpendJournal(tmp_path / "j.sqlite3")
    _unlock(journal, "ik-dup")
    with pytest.raises(JournalError, match="already in the journal"):
        _unlock(journal, "ik-dup")


def test_body_hash_is_canonical() -> None:
    assert canonical_body_hash({"a": 1, "b": [1, 2]}) == canonical_body_hash({"b": [1, 2], "a": 1})
    assert canonical_body_hash({"a": 1}) != canonical_body_hash({"a": 2})
    assert len(canonical_body_hash(None)) == 64


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_the_journal_and_its_wal_files_are_private_whatever_the_umask(
    tmp_path: Path, umask: int
) -> None:
    path = tmp_path / "state" / "journal.sqlite3"
    # A child process: the umask is process-wide, and the test must not change ours.
    script = textwrap.dedent(
        """
        import os, sqlite3, sys
        from pathlib import Path
        os.umask(int(sys.argv[2]))
        from tests.spend.conftest import journal_unlock
        from leadtui.spend.journal import SpendJournal
        journal = SpendJournal(Path(sys.argv[1]))
        journal_unlock(journal, "ik-private")
        held = sqlite3.connect(sys.argv[1])  # an open connection keeps -wal and -shm
        held.execute("SELECT COUNT(*) FROM spend_intents").fetchone()
        print(*(oct(os.stat(sys.argv[1] + s).st_mode & 0o777) for s in ("", "-wal", "-shm")))
        held.close()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path), str(umask)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.split() == ["0o600", "0o600", "0o600"]
    assert path.parent.stat().st_mode & 0o777 == 0o700


def test_an_existing_journal_readable_by_others_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _unlock(SpendJournal(path), "ik-1")
    path.chmod(0o644)
    SpendJournal(path)
    assert path.stat().st_mode & 0o777 == 0o600
