"""Shared pieces of the spend-core tests: a journal in tmp_path, a gate, a search to unlock."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.models import SearchItem, SearchRequest
from leadtui.config.settings import SpendPolicy
from leadtui.spend.account import SpendAccount
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendIntent, SpendOperation
from leadtui.spend.journal import SpendJournal

SEARCH = SearchRequest(
    activities=[SearchItem(name="Bakery")],
    countries=[SearchItem(name="France")],
    localisations=[SearchItem(name="Paris")],
)
DEMO = SpendAccount("…full", "acct_demo", "Demo Co")
LOW = SpendAccount("••••••••", "acct_low", "Lowball Ltd")


async def no_sleep(_seconds: float) -> None:
    return None


@pytest.fixture
def journal(tmp_path: Path) -> SpendJournal:
    return SpendJournal(tmp_path / "journal.sqlite3")


def gate(journal: SpendJournal, budget: int = 0, read_only: bool = False) -> SpendGate:
    return SpendGate(journal, profile="default", policy=SpendPolicy(budget, read_only))


def journal_unlock(
    journal: SpendJournal,
    key: str,
    *,
    search_id: str = "srch_1",
    results: int = 1,
    profile: str = "default",
    origin: str = "http://127.0.0.1",
    account: SpendAccount = DEMO,
    surface: str = "",
) -> SpendIntent:
    """An unlock intent as an earlier run (of `surface`) left it: journaled, never settled."""
    return journal.record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": search_id, "additional_results": results},
        body={"additional_results": results},
        amount=results,
        profile=profile,
        origin=origin,
        account=account,
        surface=surface,
    )


async def credits(client: LeadClient) -> int:
    return (await client.me()).credits


def faults(sandbox_app: Any, rate: float, seed: int = 0) -> None:
    """Turn the sandbox's fault injection on (503 before, 502 or a cut after the handler)."""
    state = sandbox_app.state.sandbox
    state.config.fault_rate = rate
    state.fault_rng = random.Random(seed)


async def spend_attempts(sandbox_http: httpx.AsyncClient) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]
