"""`leadtui --demo`'s dataset: Demo Co opens on a month of history and jobs in every state."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadtui.cli.main import build_parser
from leadtui.cli.sandbox import config_from
from leadtui.sandbox.app import create_app
from leadtui.sandbox.config import SandboxConfig
from tests.conftest import FakeClock
from tests.sandbox.helpers import API, auth, credits

JOB_SECONDS = 0.3


@pytest.fixture
def sandbox_config(sandbox_clock: FakeClock) -> SandboxConfig:
    """The shared `sandbox_http` fixture, on a sandbox seeded with the demo data."""
    return SandboxConfig(job_seconds=JOB_SECONDS, clock=sandbox_clock, demo_data=True)


@asynccontextmanager
async def _client(config: SandboxConfig) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_app(config))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        yield http


async def _data(http: httpx.AsyncClient, path: str, key: str = "sk_demo_full") -> Any:
    r = await http.get(f"{API}{path}", headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()["data"]


async def _statuses(http: httpx.AsyncClient, path: str) -> dict[str, str]:
    return {
        item.get("exportId") or item["extractionId"]: item["status"]
        for item in await _data(http, path)
    }


async def test_usage_shows_thirty_days_of_varied_history(sandbox_http: httpx.AsyncClient) -> None:
    usage = await _data(sandbox_http, "/usage")
    daily = usage["daily"]
    assert len(daily) == 30
    assert all(day["requests"] > 0 for day in daily)
    assert len({day["requests"] for day in daily}) > 20  # not a flat line
    spending_days = [day for day in daily if day["credits_used"] > 0]
    assert len(spending_days) >= 8
    assert usage["totals"]["credits_used"] == sum(day["credits_used"] for day in daily)
    assert usage["totals"]["credits_used"] == 10_000 - usage["credits"]


async def test_credits_are_ten_thousand_minus_every_unlock(sandbox_http: httpx.AsyncClient) -> None:
    exports = await _data(sandbox_http, "/exports")
    spent = sum(export["credits_debited"] for export in exports)
    assert 0 < spent < 2_000
    me = await _data(sandbox_http, "/me")
    assert me["credits"] == 10_000 - spent
    assert me["extraction_launches"]["used"] == 3  # completed, paused and running; not the draft


async def test_searches_are_listed_with_their_unlocked_leads(
    sandbox_http: httpx.AsyncClient,
) -> None:
    searches = await _data(sandbox_http, "/searches")
    by_activity = {s["request"]["activities"][0]["name"]: s for s in searches}
    assert set(by_activity) >= {"Bakeries", "Dental clinics", "Coworking spaces"}
    assert 3 <= len(searches) <= 5
    bakeries = by_activity["Bakeries"]
    assert bakeries["summary"] == "Bakeries · France · Lyon, Villeurbanne"
    assert 0 < bakeries["unlocked_count"] < bakeries["result_count"]
    assert any(s["unlocked_count"] == 0 for s in searches)  # one still waits for an unlock
    exports = await _data(sandbox_http, "/exports")
    for search in searches:
        unlocked = sum(
            e["additional_results"] for e in exports if e["searchId"] == search["searchId"]
        )
        assert search["unlocked_count"] == unlocked
    leads = await _data(sandbox_http, f"/searches/{bakeries['searchId']}/results?limit=5")
    assert len(leads) == 5
    assert {lead["city"] for lead in leads} <= {"Lyon", "Villeurbanne"}


async def test_exports_in_every_state_then_moving(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    statuses = await _statuses(sandbox_http, "/exports")
    assert set(statuses.values()) == {"ready", "processing", "queued", "failed"}
    newest_first = list(statuses.values())
    assert newest_first[:3] == ["queued", "processing", "failed"]
    processing = next(i for i, s in statuses.items() if s == "processing")
    queued = next(i for i, s in statuses.items() if s == "queued")

    sandbox_clock.advance(JOB_SECONDS)
    moved = await _statuses(sandbox_http, "/exports")
    assert moved[processing] == "ready"
    assert moved[queued] == "queued"  # waits its turn a few job lengths
    results = await _data(sandbox_http, f"/exports/{processing}/results")
    assert len(results) == 25

    sandbox_clock.advance(5 * JOB_SECONDS)
    assert (await _statuses(sandbox_http, "/exports"))[queued] == "ready"


async def test_failed_export_retries_without_spending(sandbox_http: httpx.AsyncClient) -> None:
    statuses = await _statuses(sandbox_http, "/exports")
    failed = next(i for i, s in statuses.items() if s == "failed")
    before = await credits(sandbox_http)
    r = await sandbox_http.post(f"{API}/exports/{failed}/retry", headers=auth())
    assert r.status_code == 202
    assert r.json()["data"]["status"] == "queued"
    assert await credits(sandbox_http) == before


async def test_extractions_in_several_states(
    sandbox_http: httpx.AsyncClient, sandbox_clock: FakeClock
) -> None:
    extractions = await _data(sandbox_http, "/extractions")
    by_status = {e["status"]: e for e in extractions}
    assert set(by_status) == {"draft", "running", "paused", "completed"}
    assert by_status["draft"]["editable"] is True
    assert by_status["completed"]["results_state"] == "archived"
    assert by_status["completed"]["result_count"] > 0
    assert 0 < by_status["paused"]["progress"] < 1
    running = by_status["running"]["extractionId"]
    sandbox_clock.advance(3 * JOB_SECONDS)
    assert (await _statuses(sandbox_http, "/extractions"))[running] == "completed"
    # The seeded draft is complete: the demo user can launch it.
    draft = by_status["draft"]["extractionId"]
    r = await sandbox_http.post(
        f"{API}/extractions/{draft}/launch", headers=auth(**{"Idempotency-Key": "demo-launch"})
    )
    assert r.status_code == 201, r.text


async def test_reset_brings_the_demo_data_back(sandbox_http: httpx.AsyncClient) -> None:
    r = await sandbox_http.post("/_sandbox/reset")
    assert r.status_code == 200
    assert len(await _data(sandbox_http, "/searches")) == 5
    assert set((await _statuses(sandbox_http, "/exports")).values()) >= {"ready", "failed"}


async def test_same_clock_same_dataset(sandbox_clock: FakeClock) -> None:
    config = SandboxConfig(job_seconds=JOB_SECONDS, clock=sandbox_clock, demo_data=True)
    async with _client(config) as one, _client(config) as two:
        assert await _data(one, "/usage") == await _data(two, "/usage")
        assert await _data(one, "/exports") == await _data(two, "/exports")


async def test_a_kept_file_is_seeded_once(tmp_path: Path, sandbox_clock: FakeClock) -> None:
    config = SandboxConfig(db_path=tmp_path / "demo.db", clock=sandbox_clock, demo_data=True)
    async with _client(config) as http:
        first = await credits(http)
    async with _client(replace(config)) as http:
        assert await credits(http) == first
        assert len(await _data(http, "/searches")) == 5


async def test_without_the_flag_a_sandbox_starts_empty(sandbox_clock: FakeClock) -> None:
    async with _client(SandboxConfig(job_seconds=JOB_SECONDS, clock=sandbox_clock)) as http:
        assert await _data(http, "/searches") == []
        assert await _data(http, "/exports") == []
        assert await _data(http, "/extractions") == []
        usage = await _data(http, "/usage")
        assert usage["totals"]["credits_used"] == 0
        assert usage["credits"] == 10_000


def test_sandbox_command_seeds_only_when_asked() -> None:
    parser = build_parser()
    assert config_from(parser.parse_args(["sandbox"])).demo_data is False
    assert config_from(parser.parse_args(["sandbox", "--demo-data"])).demo_data is True
