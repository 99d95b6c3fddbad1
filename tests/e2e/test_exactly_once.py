"""Exactly once under faults, over a real socket: the `leadtui sandbox` command with 30% of
API requests failing (half before the handler, half after it committed), driven through the
SpendGate the app uses: journal the intent, send, retry with the same key, resend if unsure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from tests.e2e.crashes import crash_after_sending
from tests.e2e.sandbox_process import sandbox_process
from tests.support import spend_requests
from tests.support.pages import every

from leadtui.api.client import LeadClient
from leadtui.api.errors import LeadError
from leadtui.api.keys import new_idempotency_key
from leadtui.api.models import Export, Extraction
from leadtui.config.settings import SpendPolicy
from leadtui.spend.debit import SpendResult
from leadtui.spend.gate import SpendGate
from leadtui.spend.intent import SpendOutcome
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest

SPENDS = 50
RESULTS_PER_UNLOCK = 3
UNLOCK_SIZES = tuple(range(1, SPENDS + 1))
PROFILE = "default"
# Enough locked results for fifty unlocks of 1 to 50 (and the crash test's one more).
BROAD_SEARCH = {
    "activities": [{"name": n} for n in ("Bakery", "Florist", "Cafe", "Bookshop")],
    "countries": [{"name": n} for n in ("France", "Belgium", "Spain")],
    "localisations": [{"name": n} for n in ("Paris", "Lyon", "Lille")],
}
EXTRACTION = {
    "categories": ["bakery"],
    "countries": ["FR"],
    "localisations": ["Paris"],
    "enrichment_sources": ["website"],
}

T = TypeVar("T")

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(90)]


@pytest.fixture(scope="module")
def faulty_sandbox() -> Iterator[str]:
    with sandbox_process(
        "--fault-rate", "0.3", "--fault-seed", "1234", "--job-seconds", "0.3"
    ) as url:
        yield url


def spend_gate(journal: SpendJournal) -> SpendGate:
    return SpendGate(journal, profile=PROFILE, policy=SpendPolicy(spend_budget=0, read_only=False))


async def account(control: httpx.AsyncClient) -> dict[str, Any]:
    """The account row, read on the sandbox side (`/_sandbox` is outside the faults)."""
    r = await control.patch("/_sandbox/accounts/acct_demo", json={})
    r.raise_for_status()
    row: dict[str, Any] = r.json()["data"]
    return row


async def requests_log(control: httpx.AsyncClient) -> list[dict[str, Any]]:
    r = await control.get("/_sandbox/requests")
    r.raise_for_status()
    log: list[dict[str, Any]] = r.json()["data"]
    return log


async def until_answered(call: Callable[[], Awaitable[T]], tries: int = 20) -> T:
    """For the test's own unkeyed setup calls (a search, a draft): harmless to repeat."""
    for _ in range(tries - 1):
        try:
            return await call()
        except LeadError:
            await asyncio.sleep(0)
    return await call()


async def spend_until_settled(
    gate: SpendGate, request: SpendRequest, client: LeadClient
) -> SpendResult:
    """What the app does: execute once; while the outcome is unknown, resend the SAME key."""
    try:
        return await spend_requests.execute(gate, request, client, confirmed=True)
    except LeadError:
        pass
    for _ in range(10):
        intent = gate.journal.get(request.idempotency_key)
        assert intent is not None
        assert intent.pending
        try:
            return await gate.resend(intent, client)
        except LeadError:
            continue
    raise AssertionError(f"spend {request.short_key} never settled")


async def spend_all(
    gate: SpendGate, requests: list[SpendRequest], client: LeadClient
) -> list[SpendResult]:
    lanes = asyncio.Semaphore(10)

    async def one(request: SpendRequest) -> SpendResult:
        async with lanes:
            return await spend_until_settled(gate, request, client)

    return await asyncio.gather(*(one(r) for r in requests))


def exported(result: SpendResult) -> Export:
    assert isinstance(result.record, Export)
    return result.record


def extracted(result: SpendResult) -> Extraction:
    assert isinstance(result.record, Extraction)
    return result.record


def injected_faults(log: list[dict[str, Any]], keys: set[str]) -> dict[str, int]:
    seen: dict[str, int] = {}
    for record in log:
        if record["idempotency_key"] in keys and record["fault"]:
            seen[record["fault"]] = seen.get(record["fault"], 0) + 1
    return seen


async def test_fifty_unlocks_under_faults_make_fifty_exports_and_debit_once_each(
    faulty_sandbox: str, tmp_path: Path
) -> None:
    journal = SpendJournal(tmp_path / "journal.sqlite3")
    gate = spend_gate(journal)
    async with (
        LeadClient(faulty_sandbox, "sk_demo_full", max_retries=3, timeout=5.0) as client,
        LeadClient(faulty_sandbox, "sk_demo_full", max_retries=12, timeout=5.0) as reader,
        httpx.AsyncClient(base_url=faulty_sandbox) as control,
    ):
        search = await until_answered(lambda: client.searches.create(BROAD_SEARCH))
        assert (search.result_count or 0) >= sum(UNLOCK_SIZES) + 1
        before = await account(control)
        credits_before = (await reader.me()).credits

        # Fifty different unlocks: identical ones would wait for each other (a spend like a
        # pending one is refused until that one is settled).
        requests = [spend_requests.unlock(search.searchId, n) for n in UNLOCK_SIZES]
        results = await spend_all(gate, requests, client)

        after = await account(control)
        credits_after = (await reader.me()).credits
        exports = await every(lambda c: reader.exports.list(c, 100))
        log = await requests_log(control)

    debit = sum(UNLOCK_SIZES)
    assert before["credits"] - after["credits"] == debit
    assert credits_before - credits_after == debit  # the API's own read path agrees
    mine = [e for e in exports if e.searchId == search.searchId]
    assert len(mine) == SPENDS
    assert {r.record.idempotency_key for r in results} == {r.idempotency_key for r in requests}
    assert len({exported(r).exportId for r in results}) == SPENDS
    assert {e.exportId for e in mine} == {exported(r).exportId for r in results}
    assert journal.pending() == []
    assert {i.outcome for i in journal.history(limit=SPENDS + 1)} == {SpendOutcome.SUCCEEDED}
    # The faults did strike these very requests, after the handler ran as well as before.
    faults = injected_faults(log, {r.idempotency_key for r in requests})
    assert faults.get("503", 0) > 0
    assert faults.get("502", 0) + faults.get("cut", 0) > 0


async def test_fifty_extraction_launches_under_faults_consume_fifty_launches(
    faulty_sandbox: str, tmp_path: Path
) -> None:
    journal = SpendJournal(tmp_path / "journal.sqlite3")
    gate = spend_gate(journal)
    async with (
        LeadClient(faulty_sandbox, "sk_demo_full", max_retries=3, timeout=5.0) as client,
        LeadClient(faulty_sandbox, "sk_demo_full", max_retries=12, timeout=5.0) as reader,
        httpx.AsyncClient(base_url=faulty_sandbox) as control,
    ):
        r = await control.patch("/_sandbox/accounts/acct_demo", json={"extraction_quota": 10_000})
        r.raise_for_status()
        before = await account(control)
        launched_before = {
            e.extractionId for e in await all_extractions(reader) if e.status != "draft"
        }
        # Half created and launched in one call, half launched from a draft.
        drafts = [
            await until_answered(lambda: client.extractions.create_draft(EXTRACTION))
            for _ in range(SPENDS // 2)
        ]
        requests = [
            spend_requests.extraction_create({**EXTRACTION, "localisations": [f"Town {n}"]})
            for n in range(SPENDS // 2)
        ]
        requests += [spend_requests.extraction_launch(d.extractionId) for d in drafts]
        results = await spend_all(gate, requests, client)

        after = await account(control)
        launched_after = {
            e.extractionId for e in await all_extractions(reader) if e.status != "draft"
        }
        log = await requests_log(control)

    assert after["launches_used"] - before["launches_used"] == SPENDS
    assert after["credits"] == before["credits"]
    new = launched_after - launched_before
    assert len(new) == SPENDS
    assert {extracted(r).extractionId for r in results} == new
    assert journal.pending() == []
    faults = injected_faults(log, {r.idempotency_key for r in requests})
    assert faults.get("502", 0) + faults.get("cut", 0) > 0


async def all_extractions(reader: LeadClient) -> list[Any]:
    return await every(lambda c: reader.extractions.list(c, 100))


async def test_a_spender_killed_after_sending_is_resent_with_its_key_and_debited_once(
    faulty_sandbox: str, tmp_path: Path
) -> None:
    journal_path = tmp_path / "journal.sqlite3"
    key = new_idempotency_key()
    async with (
        LeadClient(faulty_sandbox, "sk_demo_full", max_retries=12, timeout=5.0) as client,
        httpx.AsyncClient(base_url=faulty_sandbox) as control,
    ):
        search = await until_answered(lambda: client.searches.create(BROAD_SEARCH))
        before = await account(control)

        await crash_after_sending(
            faulty_sandbox, journal_path, search.searchId, RESULTS_PER_UNLOCK, key, "sk_demo_full"
        )

        # The next start: the intent is pending, and resending it uses the same key.
        gate = spend_gate(SpendJournal(journal_path))
        pending = await gate.pending(client)
        assert [p.idempotency_key for p in pending] == [key]
        result = await gate.resend(pending[0], client)
        after = await account(control)
        log = await requests_log(control)
        exports = await every(lambda c: client.exports.list(c, 100))

    assert result.record.idempotency_key == key
    assert before["credits"] - after["credits"] == RESULTS_PER_UNLOCK
    assert gate.journal.pending() == []
    settled = gate.journal.get(key)
    assert settled is not None
    assert settled.outcome is SpendOutcome.SUCCEEDED
    unlocks = [
        r
        for r in log
        if r["method"] == "POST" and r["path"].endswith(f"/searches/{search.searchId}/exports")
    ]
    # The killed child's attempt(s) and the resend: all with the one key, one debit.
    assert len(unlocks) >= 2
    assert {r["idempotency_key"] for r in unlocks} == {key}
    assert [e.exportId for e in exports if e.searchId == search.searchId] == [
        exported(result).exportId
    ]
