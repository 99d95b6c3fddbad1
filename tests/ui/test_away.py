"""While you were away: two app sessions, and what the command line and an agent did between
them, read off the panel the second session opens.

The journal writes wall-clock times, so the sandbox's clock starts an hour before now here,
and moves two hours on between the sessions."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest

from leadtui.digest.marks import marks_path
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.pending_spends import PendingSpends
from leadtui.ui.dialogs.while_away import WhileAway
from leadtui.ui.frame import spend_flow
from leadtui.ui.screens.jobs import JobsScreen
from tests.cli.conftest import URL, Cli
from tests.conftest import FakeClock
from tests.mcp_tools.conftest import clock, in_process, ok  # noqa: F401  the agent's fixtures
from tests.spend.conftest import journal_unlock
from tests.support.bodies import EXTRACTION, SEARCH
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import flat_text, widget_text

pytestmark = pytest.mark.usefixtures("utc")


@pytest.fixture
def sandbox_clock() -> FakeClock:
    return FakeClock(float(int(time.time()) - 3600))


def marked_at() -> float | None:
    """When the app last marked itself open (any account), from the marks file."""
    try:
        data = json.loads(marks_path().read_text())
    except OSError:
        return None
    return max(entry["app"]["at"] for entry in data.values() if "app" in entry)


async def first_session(build_app: Any, sandbox_clock: FakeClock) -> None:
    """The app open once (nothing to compare with yet: no panel), then closed: the mark is
    written once the look is done, and again as it closes."""
    sandbox_clock.advance(60)  # the demo's jobs have all settled
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: marked_at() == sandbox_clock.now)
        await settle(pilot)
        assert not isinstance(app.screen, WhileAway)
        sandbox_clock.advance(30)
    assert marked_at() == sandbox_clock.now


async def test_what_the_command_line_and_an_agent_did_meanwhile_shows_by_surface(
    build_app: Any,
    sandbox_app: Any,
    sandbox_clock: FakeClock,
    in_process: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await first_session(build_app, sandbox_clock)
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    cli = Cli(sandbox_app, sandbox_clock, httpx.ASGITransport(app=sandbox_app))
    search_id = await cli_search(sandbox_app)
    unlocked = await cli_unlock(cli, search_id, 6)
    async with in_process(max_credits=10) as agent:
        sent = ok(await agent.call_tool("unlock_results", {"search_id": search_id, "results": 4}))
    failed = sent["record"]["exportId"]
    await sandbox_post(sandbox_app, f"/_sandbox/exports/{failed}/fail")
    sandbox_clock.advance(2 * 3600)

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, WhileAway)
        await wait_for_text(pilot, "While you were away")
        text = widget_text(app, "#away-box")
        assert "Spent 10 credits: the command line 6 credits, agents 4 credits." in text
        assert "Balance: 10,000 → 9,990 credits." in text
        assert text.count(f"Export {unlocked} ready") == 1
        assert text.count(f"Export {failed} failed") == 1
        assert "Approvals: none asked." in text
        await pilot.press("enter")  # the newest first: the export that became ready
        await wait_for_screen(pilot, JobsScreen)
        await wait_for_text(pilot, unlocked)
        assert failed not in flat_text(app)


async def test_nothing_changed_no_panel_and_the_key_or_the_palette_reopen_it(
    build_app: Any, sandbox_clock: FakeClock
) -> None:
    await first_session(build_app, sandbox_clock)
    sandbox_clock.advance(600)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: marked_at() == sandbox_clock.now)
        await settle(pilot)
        assert not isinstance(app.screen, WhileAway)
        await pilot.press("L")
        await wait_for_screen(pilot, WhileAway)
        await wait_for_text(pilot, "While you were away")
        text = widget_text(app, "#away-box")
        assert "Spent nothing." in text
        assert "Nothing changed." in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, WhileAway))
        await pilot.press("ctrl+p")
        await pilot.press(*"while you were away")
        await wait_for_text(pilot, "app: while you were away")
        await pilot.press("enter")
        await wait_for_screen(pilot, WhileAway)


async def cli_search(sandbox_app: Any) -> str:
    created = await sandbox_post(sandbox_app, "/api/v1/searches", SEARCH)
    return str(created["searchId"])


async def cli_unlock(cli: Cli, search_id: str, results: int) -> str:
    """`leadtui unlock` in a thread (it runs its own event loop): its export id."""
    ran = await asyncio.to_thread(
        cli.run,
        "unlock",
        search_id,
        "--results",
        str(results),
        "--max-credits",
        str(results),
        "--json",
    )
    assert ran.code == 0, ran.out + ran.err
    return str(ran.doc["exportId"])


async def sandbox_post(
    sandbox_app: Any, path: str, body: Any = None, *, idempotency_key: str = ""
) -> Any:
    """A request straight to the sandbox (nothing of leadtui's): its `data`."""
    headers = {"Authorization": "Bearer sk_demo_full"}
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app), base_url=URL
    ) as http:
        response = await http.post(path, json=body, headers=headers)
        response.raise_for_status()
        return response.json()["data"]


class HoldsJobLists(httpx.AsyncBaseTransport):
    """The sandbox, with every read of the job lists held until `release`."""

    def __init__(self, sandbox_app: Any) -> None:
        self.sandbox = httpx.ASGITransport(app=sandbox_app)
        self.released = asyncio.Event()
        self.held = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path.endswith(("/exports", "/extractions")):
            self.held += 1
            await self.released.wait()
        return await self.sandbox.handle_async_request(request)


async def test_the_look_waits_on_the_job_lists_without_holding_up_the_credits(
    build_app: Any, sandbox_app: Any, sandbox_clock: FakeClock
) -> None:
    await first_session(build_app, sandbox_clock)
    search_id = await cli_search(sandbox_app)
    await sandbox_post(
        sandbox_app,
        f"/api/v1/searches/{search_id}/exports",
        {"additional_results": 2},
        idempotency_key="away-held-1",
    )
    sandbox_clock.advance(60)
    slow = HoldsJobLists(sandbox_app)
    app = build_app(transport=slow)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: slow.held >= 1)
        await wait_for_text(pilot, "9,998 credits")
        assert not isinstance(app.screen, WhileAway)
        slow.released.set()
        await wait_for_screen(pilot, WhileAway)
        await wait_for_text(pilot, "Spent nothing.")


async def test_the_panel_lies_over_the_pending_spends_offer_even_when_the_offer_is_slower(
    build_app: Any, sandbox_clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await first_session(build_app, sandbox_clock)
    journal = SpendJournal(clock=lambda: sandbox_clock.now)
    journal_unlock(journal, "away-pending-1", results=3, origin=URL, surface="agent")
    sandbox_clock.advance(60)
    # The offer's read of the journal held until the look is done: the panel must wait.
    released = asyncio.Event()
    read_pending = spend_flow.pending_intents

    async def held(app: Any) -> Any:
        await released.wait()
        return await read_pending(app)

    monkeypatch.setattr(spend_flow, "pending_intents", held)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: marked_at() == sandbox_clock.now)
        assert app.away.digest is not None
        assert app.away.digest.changed
        await pilot.pause()
        assert not isinstance(app.screen, WhileAway)
        released.set()
        await wait_for_screen(pilot, WhileAway)
        assert [type(s) for s in app.screen_stack[-2:]] == [PendingSpends, WhileAway]
        await pilot.press("escape")
        await wait_for_screen(pilot, PendingSpends)
        await wait_for_text(pilot, "away-pen")


async def test_enter_on_an_extraction_that_completed_opens_it_on_jobs(
    build_app: Any, sandbox_app: Any, sandbox_clock: FakeClock
) -> None:
    await first_session(build_app, sandbox_clock)
    made = await sandbox_post(
        sandbox_app, "/api/v1/extractions", EXTRACTION, idempotency_key="away-extraction-1"
    )
    stopped = await sandbox_post(
        sandbox_app, "/api/v1/extractions", EXTRACTION, idempotency_key="away-extraction-2"
    )
    await sandbox_post(
        sandbox_app,
        f"/api/v1/extractions/{stopped['extractionId']}/stop",
        idempotency_key="away-stop-2",
    )
    sandbox_clock.advance(60)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_screen(pilot, WhileAway)
        text = await wait_for_text(pilot, f"Extraction {made['extractionId']} completed")
        assert f"Extraction {stopped['extractionId']} stopped" in text
        await pilot.press("enter")
        await wait_for_screen(pilot, JobsScreen)
        await wait_for_text(pilot, f"{made['extractionId']}")
        assert stopped["extractionId"] not in flat_text(app)
