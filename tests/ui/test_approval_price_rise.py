"""The price raised after the app's yes and before the asker's POST: `leadtui unlock
--approve-in-app` (in process, beside the app) sends nothing at the higher price and answers
`quote_changed` with both quotes; it cannot ask anyone again."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from leadtui.cli.exit_codes import Exit
from leadtui.spend.approvals import Ruling
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.screens.approvals import ApprovalsScreen
from tests.cli.conftest import URL, Cli, Ran
from tests.ui.approval_asker import desk
from tests.ui.pilot import wait_for_screen, wait_for_text

ONE_SEARCH = {
    "activities": [{"name": "Bakery"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}
RAISED = {"stated": 2, "charged": 2}
"""Credits per result once the price rose (it was 1)."""


def _approved() -> bool:
    return any(
        r.answer is not None and r.answer.verdict is Ruling.APPROVED
        for r in desk().listed().requests
    )


@dataclass
class PriceRisesAfterTheYes(Cli):
    """A command line waiting for the app's answer; the app's yes is read once a wait ends, so
    the price rises right after the yes, before the asker reads it and posts."""

    raised: list[dict[str, int]] = field(default_factory=list)
    looks_left: int = 6000
    """How often it looks for the yes, in all: a test failed before the yes does not hang."""

    async def sleep(self, seconds: float) -> None:
        while not self.raised and self.looks_left > 0:
            self.looks_left -= 1
            if _approved():
                async with httpx.AsyncClient(
                    transport=httpx.ASGITransport(app=self.sandbox_app), base_url=URL
                ) as sandbox:
                    (await sandbox.put("/_sandbox/pricing", json=RAISED)).raise_for_status()
                self.raised.append(RAISED)
            else:  # the app answers in the test's own loop, meanwhile
                await asyncio.sleep(0.01)
        await super().sleep(seconds)


async def _credits(sandbox_http: Any) -> int:
    r = await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={})
    return int(r.json()["data"]["credits"])


async def _unlocks(sandbox_http: Any) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


async def test_a_price_raised_between_the_apps_yes_and_the_post_sends_nothing(
    build_app: Any,
    client: Any,
    sandbox_app: Any,
    sandbox_clock: Any,
    sandbox_http: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEADTUI_BASE_URL", URL)
    monkeypatch.setenv("LEADTUI_API_KEY", "sk_demo_full")
    command_line = PriceRisesAfterTheYes(
        sandbox_app, sandbox_clock, httpx.ASGITransport(app=sandbox_app)
    )
    search_id = str((await client.searches.create(ONE_SEARCH)).searchId)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = asyncio.create_task(
            asyncio.to_thread(
                command_line.run,
                "unlock",
                search_id,
                "--results",
                "40",
                "--approve-in-app",
                "--json",
            )
        )
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        await wait_for_screen(pilot, ApprovalsScreen)
        await wait_for_text(pilot, "Waiting for you.")
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend)
        await wait_for_text(pilot, "Approve 40 credits (y)")
        await pilot.press("y")
        ran: Ran = await asker
        await wait_for_text(pilot, "not sent")

    assert command_line.raised == [RAISED]
    assert ran.code == Exit.CONFIRMATION_REQUIRED, ran.err
    assert ran.error["code"] == "quote_changed"
    # Both quotes: what the app approved, and what it costs now (never sent).
    assert (ran.error["accepted"]["total"], ran.error["accepted"]["price"]) == (40, 1)
    assert (ran.error["quote"]["total"], ran.error["quote"]["price"]) == (80, 2)
    assert ran.error["accepted"]["request_hash"] == desk().listed().requests[0].request_hash
    assert await _unlocks(sandbox_http) == []
    assert await _credits(sandbox_http) == 10_000
