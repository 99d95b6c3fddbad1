"""The "While you were away" panel at 100×30 and 80×24: a mark two hours back, spends of each
surface journaled since, one still pending, an export that became ready and one that failed."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from leadtui.digest.marks import Looker, Mark, Marks, Seen, marks_path
from leadtui.spend.account import SpendAccount
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.pending_spends import PendingSpends
from leadtui.ui.dialogs.while_away import WhileAway
from tests.conftest import FakeClock
from tests.ui.conftest import SANDBOX_URL
from tests.ui.pilot import settle, wait_for_screen, wait_for_text

SIZES = [pytest.param((100, 30), id="100x30"), pytest.param((80, 24), id="80x24")]
DEMO = SpendAccount("…full", "acct_demo", "Demo Co")
SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}

pytestmark = pytest.mark.usefixtures("fixed_request_ids", "utc")


def seed(sandbox_app: Any, clock: FakeClock) -> None:
    """The app last open two hours ago, with 10,135 credits; spends since by every surface,
    two exports since settled (one ready, one failed)."""
    asyncio.run(settled_exports(sandbox_app))
    clock.advance(1)
    seen = Seen("default", SANDBOX_URL, DEMO)
    Marks(marks_path()).put(seen, Looker.APP, Mark(clock.now - 2 * 3600, 10_135))
    journal = SpendJournal(clock=lambda: clock.now - 3600)
    for key, credits, surface, settled in (
        ("away-app-1", 50, "app", True),
        ("away-cli-1", 120, "cli", True),
        ("away-agent-1", 30, "agent", True),
        ("away-agent-2", 8, "agent", False),
    ):
        journal.record_intent(
            idempotency_key=key,
            operation=SpendOperation.UNLOCK,
            params={"search_id": "srch_000001", "additional_results": credits},
            body={"additional_results": credits},
            amount=credits,
            profile="default",
            origin=SANDBOX_URL,
            account=DEMO,
            surface=surface,
        )
        if settled:
            journal.record_outcome(key, SpendOutcome.SUCCEEDED)


async def settled_exports(sandbox_app: Any) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),
        base_url=SANDBOX_URL,
        headers={"Authorization": "Bearer sk_demo_full"},
    ) as http:
        search = await http.post("/api/v1/searches", json=SEARCH)
        search_id = search.json()["data"]["searchId"]
        for n, results in enumerate((25, 40)):
            export = await http.post(
                f"/api/v1/searches/{search_id}/exports",
                json={"additional_results": results},
                headers={"Idempotency-Key": f"away-snapshot-{n}"},
            )
            export.raise_for_status()
        failed = export.json()["data"]["exportId"]
        (await http.post(f"/_sandbox/exports/{failed}/fail")).raise_for_status()


@pytest.mark.parametrize("size", SIZES)
def test_while_away(
    snap_compare: Any,
    build_app: Any,
    sandbox_app: Any,
    sandbox_clock: FakeClock,
    size: tuple[int, int],
) -> None:
    seed(sandbox_app, sandbox_clock)

    async def run_before(pilot: Any) -> None:
        # The spend still pending is offered too, under the panel (the panel waits for the
        # offer): both are up before the picture.
        await wait_for_screen(pilot, WhileAway)
        assert PendingSpends in map(type, pilot.app.screen_stack)
        await wait_for_text(pilot, "While you were away")
        # Drawn again over both: a panel pushed right after the offer may have blended in
        # the screens below before the offer's own frame was painted.
        pilot.app.screen.refresh(layout=True)
        await settle(pilot)

    assert snap_compare(build_app(), terminal_size=size, run_before=run_before)
