"""One GET /me per balance refresh: at the start, and for a spend seen in the journal (with
GET /usage only where usage is shown), counted in the sandbox's request log."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx
import pytest

from leadtui.api.client import LeadClient
from leadtui.api.models import Search, SearchRequest
from leadtui.config.settings import SpendPolicy
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal, default_journal_path
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.frame.services import SharedRead
from leadtui.ui.screens.jobs import JobsScreen
from tests.spend.scenarios import SEARCH
from tests.ui import jobs_seed
from tests.ui.jobs_seed import Held
from tests.ui.pilot import settle, wait_until
from tests.ui.screen import screen_text

API = "/api/v1"


async def test_askers_of_one_refresh_share_its_read_and_the_next_refresh_reads_again() -> None:
    sent: list[int] = []
    went_out = [asyncio.Event() for _ in range(3)]
    answer = asyncio.Event()
    refresh = 0

    async def read() -> int:
        sent.append(len(sent) + 1)
        number = len(sent)
        went_out[number - 1].set()
        await answer.wait()
        if number == 3:
            raise LookupError("refused")
        return number

    shared = SharedRead(read, lambda: refresh)
    first = shared()
    await went_out[0].wait()
    joining = shared()  # the read is on its way: this ask shares it
    refresh = 1  # a spend settled: a read that went out before it cannot answer for it
    after_spend = shared()
    await went_out[1].wait()
    answer.set()
    assert (await first, await joining, await after_spend) == (1, 1, 2)
    failing = [shared() for _ in range(2)]  # answered: a new read
    done = await asyncio.gather(*failing, return_exceptions=True)
    assert [str(error) for error in done] == ["refused", "refused"]
    assert sent == [1, 2, 3]


@pytest.mark.parametrize("latency_ms", [0, 200])
async def test_the_start_reads_the_balance_once_however_slow_the_server(
    build_app: Any, sandbox_config: Any, sandbox_http: httpx.AsyncClient, latency_ms: int
) -> None:
    sandbox_config.latency_ms = latency_ms
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        # The header and Account show the one answer; the pending spends offer (which needs
        # the account) and the local watches have had their turn.
        await wait_until(pilot, lambda: "credits used" in screen_text(app))
        await wait_until(pilot, lambda: app.journal_watch.started)
        await settle(pilot)
        assert screen_text(app).count("10,000") == 2
        assert await reads_since(sandbox_http, set()) == ["GET /me", "GET /usage"]


async def test_an_ask_while_the_balance_is_on_its_way_shares_that_read(
    build_app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    held = Held(sandbox_app, hold=f"{API}/me", reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: held.held == 1)
        asked = asyncio.ensure_future(app.refresh_identity())  # e.g. the approvals' recheck
        await pilot.pause()
        held.release.set()
        assert (await asked).credits == 10_000
        await wait_until(pilot, lambda: "credits used" in screen_text(app))
        await settle(pilot)
        assert held.held == 1
        assert await reads_since(sandbox_http, set()) == ["GET /me", "GET /usage"]


def spend_elsewhere(sandbox_app: Any, search: Search, credits: int) -> None:
    """The command line, another process on the same journal file, unlocks `credits` results.

    Run to its end while the app's event loop waits (this thread is joined without yielding):
    the app sees the journal once, settled, whatever the timing of its watch."""

    async def spend() -> None:
        transport = httpx.ASGITransport(app=sandbox_app)
        async with LeadClient("http://127.0.0.1", "sk_demo_full", transport=transport) as client:
            gate = SpendGate(
                SpendJournal(default_journal_path()),
                profile="default",
                policy=SpendPolicy(spend_budget=0, read_only=False),
            )
            request = SpendRequest.for_unlock(Quote.unlock(search, credits, None), search.searchId)
            await gate.spend(request, client, Authorization(Surface.CLI, ceiling=credits))

    thread = threading.Thread(target=asyncio.run, args=(spend(),))
    thread.start()
    thread.join()


async def log_ids(sandbox_http: httpx.AsyncClient) -> set[str]:
    return {r["request_id"] for r in await jobs_seed.requests_log(sandbox_http)}


async def reads_since(sandbox_http: httpx.AsyncClient, seen: set[str]) -> list[str]:
    """The app's reads of the balance and the usage not in `seen`, in order."""
    return [
        f"{r['method']} {r['path'].removeprefix(API)}"
        for r in await jobs_seed.requests_log(sandbox_http)
        if r["request_id"] not in seen and r["path"] in (f"{API}/me", f"{API}/usage")
    ]


async def _seen_elsewhere(
    pilot: Any, app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient, make_client: Any
) -> list[str]:
    """Spend 7 credits elsewhere and wait for the header to show it: the app's reads since."""
    search = await make_client().searches.create(SearchRequest.model_validate(SEARCH))
    shown = f"◆ {app.credits - 7:,} credits"
    spend_elsewhere(sandbox_app, search, 7)
    theirs = await log_ids(sandbox_http)
    await wait_until(pilot, lambda: shown in screen_text(app))
    await settle(pilot)
    return await reads_since(sandbox_http, theirs)


async def test_on_jobs_a_spend_elsewhere_reads_the_balance_once_and_no_usage(
    build_app: Any,
    sandbox_app: Any,
    sandbox_http: httpx.AsyncClient,
    sandbox_clock: Any,
    make_client: Any,
) -> None:
    await jobs_seed.exports(make_client(), 2)
    sandbox_clock.advance(60)  # every job settled: Jobs polls slowly
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.journal_watch.started)
        await pilot.press("4")
        await wait_until(pilot, lambda: isinstance(app.screen, JobsScreen))
        await settle(pilot)
        reads = await _seen_elsewhere(pilot, app, sandbox_app, sandbox_http, make_client)
        assert reads == ["GET /me"]
        # The usage the spend moved is read when Account is shown again, once.
        before = await log_ids(sandbox_http)
        await pilot.press("1")
        await wait_until(pilot, lambda: len(app.screen.query("#usage-totals")) == 1)
        await settle(pilot)
        assert await reads_since(sandbox_http, before) == ["GET /me", "GET /usage"]


async def test_on_account_a_spend_elsewhere_reads_the_balance_and_the_usage_once_each(
    build_app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient, make_client: Any
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: "credits used" in screen_text(app))
        await wait_until(pilot, lambda: app.journal_watch.started)
        reads = await _seen_elsewhere(pilot, app, sandbox_app, sandbox_http, make_client)
        assert sorted(reads) == ["GET /me", "GET /usage"]
