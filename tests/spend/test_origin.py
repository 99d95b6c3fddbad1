"""One server, many spellings: a pending spend is found whichever way the URL is written."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.journal import SpendJournal
from leadtui.spend.origin import spend_origin
from tests.spend.conftest import gate, journal_unlock


@pytest.mark.parametrize(
    ("spelled", "origin"),
    [
        ("https://api.example.com", "https://api.example.com"),
        ("https://API.Example.COM/", "https://api.example.com"),
        ("https://api.example.com:443", "https://api.example.com"),
        ("HTTPS://api.example.com:443/api/v1/", "https://api.example.com"),
        ("https://api.example.com.", "https://api.example.com"),
        ("https://api.example.com:8443/", "https://api.example.com:8443"),
        ("https://example.com/leads/", "https://example.com/leads"),
        ("http://127.0.0.1", "http://localhost"),
        ("http://localhost:80/", "http://localhost"),
        ("http://127.0.0.1:8000", "http://localhost:8000"),
        ("http://[::1]:8000/", "http://localhost:8000"),
        ("http://LOCALHOST:8000", "http://localhost:8000"),
        ("http://127.0.0.2:8000", "http://localhost:8000"),
        ("http://api.example.com:443", "http://api.example.com:443"),
        ("  not a url  ", "not a url"),
        ("https://h:99999", "https://h:99999"),
    ],
)
def test_one_spelling_per_server(spelled: str, origin: str) -> None:
    assert spend_origin(spelled) == origin


def test_a_spend_recorded_under_one_spelling_is_found_under_another(tmp_path: Path) -> None:
    journal = SpendJournal(tmp_path / "journal.sqlite3")
    journal_unlock(journal, "ik-v4", origin="http://127.0.0.1:8000/")
    journal_unlock(journal, "ik-h", origin="https://H.example:443/")
    assert [i.idempotency_key for i in journal.pending(origin="http://[::1]:8000")] == ["ik-v4"]
    assert [i.idempotency_key for i in journal.pending(origin="https://h.example")] == ["ik-h"]
    assert journal.pending(origin="http://localhost:8001") == []


async def test_the_gate_offers_it_to_a_client_of_the_same_server_spelled_otherwise(
    make_client: Callable[..., LeadClient], journal: SpendJournal
) -> None:
    journal_unlock(journal, "ik-loop", origin="http://127.0.0.1:80/")
    client = make_client()
    assert client.base_url == "http://127.0.0.1"
    assert [i.idempotency_key for i in await gate(journal).pending(client)] == ["ik-loop"]


def test_a_journal_written_by_the_previous_version_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE spend_intents (
                idempotency_key TEXT PRIMARY KEY, operation TEXT NOT NULL, params TEXT NOT NULL,
                body_sha256 TEXT NOT NULL, amount INTEGER, profile TEXT NOT NULL,
                base_url TEXT NOT NULL, created_at TEXT NOT NULL, outcome TEXT,
                outcome_detail TEXT, outcome_at TEXT
            );
            INSERT INTO spend_intents VALUES ('ik-old', 'unlock',
                '{"search_id": "srch_1", "additional_results": 2}', 'x', 2, 'default',
                'http://127.0.0.1:8000/', '2026-01-01T00:00:00+00:00', NULL, NULL, NULL);
            """
        )
    db.close()
    journal = SpendJournal(path)
    [old] = journal.pending(origin="http://localhost:8000")
    assert (old.idempotency_key, old.attempts, old.account.id) == ("ik-old", 0, None)
    # Its account is unknown: it is listed, but offered to no account (discard it).
    assert not old.account.same_as(old.account)
    journal.discard("ik-old")
    assert journal.pending() == []
