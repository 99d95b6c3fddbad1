"""The jobs dashboard with jobs in every state, at 100×30 and 80×24, time frozen."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.sandbox.config import SandboxConfig
from tests.ui import jobs_seed

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((80, 24), id="80x24")]
# The smallest terminal the main screens are laid out for (an SSH pane).
WITH_SMALL = [*SIZES, pytest.param((60, 20), id="60x20")]


@pytest.fixture
def sandbox_config(sandbox_clock: Any) -> SandboxConfig:
    # Long enough jobs that every state can be set up by moving the frozen clock.
    return SandboxConfig(job_seconds=10, clock=sandbox_clock)


# Times drawn in UTC, whatever the machine's zone.
pytestmark = pytest.mark.usefixtures("utc")


async def _every_state(sandbox_app: Any, clock: Any) -> None:
    """Exports queued/processing/ready/failed; extractions in all seven states."""
    transport = httpx.ASGITransport(app=sandbox_app)
    async with (
        LeadClient("http://127.0.0.1", "sk_demo_full", transport=transport) as client,
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as control,
    ):
        search = await jobs_seed.new_search(client)
        await client.exports.create(search, 120)  # → ready
        await jobs_seed.extraction(client, categories=["bakery", "florist"])  # → completed
        clock.advance(31)
        failed = await client.exports.create(search, 40)
        stopped = await jobs_seed.extraction(client, countries=["DE"])
        broken = await jobs_seed.extraction(client, countries=["IT"])
        paused = await jobs_seed.extraction(client, countries=["ES"])
        clock.advance(3)
        await jobs_seed.fail_export(control, failed.exportId)
        await client.extractions.stop(stopped.extractionId)
        await jobs_seed.fail_extraction(control, broken.extractionId)
        await client.extractions.pause(paused.extractionId)
        await client.exports.create(search, 25)  # → processing
        await jobs_seed.extraction(client, countries=["PT"])  # → running
        clock.advance(4)
        await client.exports.create(search, 10)  # → queued
        await jobs_seed.extraction(client, countries=["BE"])  # → queued
        await client.extractions.create_draft({"categories": ["garage"], "countries": ["NL"]})
        clock.advance(1)


def _open_jobs() -> Any:
    async def run_before(pilot: Any) -> None:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.press("4")
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", WITH_SMALL)
def test_jobs_every_state(
    snap_compare: Any, build_app: Any, sandbox_app: Any, sandbox_clock: Any, size: Any
) -> None:
    asyncio.run(_every_state(sandbox_app, sandbox_clock))
    assert snap_compare(build_app(), terminal_size=size, run_before=_open_jobs())


def test_jobs_light_theme(
    snap_compare: Any, build_app: Any, sandbox_app: Any, sandbox_clock: Any
) -> None:
    """ctrl+t: status colours repainted from the light theme, panel borders visible."""
    asyncio.run(_every_state(sandbox_app, sandbox_clock))
    open_jobs = _open_jobs()

    async def run_before(pilot: Any) -> None:
        await open_jobs(pilot)
        await pilot.press("ctrl+t")
        await pilot.pause()

    assert snap_compare(build_app(), terminal_size=(100, 30), run_before=run_before)
