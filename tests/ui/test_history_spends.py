"""History's spends: who asked for each and who approved it, read from the screen at the sizes
people use (the rule is the one `leadtui pending --json` reads)."""

from __future__ import annotations

import os
from typing import Any

from leadtui.api.client import LeadClient
from leadtui.config.settings import SpendPolicy
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.gate import SpendGate
from leadtui.spend.journal import SpendJournal, default_journal_path
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.screens.history import HistoryScreen
from tests.ui.approval_asker import AGENT, start_asking
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import screen_text
from tests.ui.test_approvals import _search

PID = os.getpid()  # the asker and the app are this test's process


async def _spend_elsewhere(
    client: LeadClient, results: int, authorization: Authorization, budget: int = 0
) -> None:
    """A spend another process journals in the same journal, as `authorization` lets it out."""
    search_id = await _search(client)
    gate = SpendGate(
        SpendJournal(default_journal_path()),
        profile="default",
        policy=SpendPolicy(spend_budget=budget, read_only=False),
    )
    search = await client.searches.get(search_id)
    request = SpendRequest.for_unlock(Quote.unlock(search, results, None), search_id)
    await gate.spend(request, client, authorization)


def _row(app: Any, credits: str) -> list[str]:
    """The Spends row of the spend of `credits`, as its cells read on screen."""
    lines = screen_text(app).splitlines()
    top = next(i for i, line in enumerate(lines) if "Spends ·" in line)
    for line in lines[top + 2 :]:
        cells = line.strip("│ ").split("  ")
        cells = [cell.strip() for cell in cells if cell.strip()]
        if len(cells) > 1 and cells[1] == credits:
            return cells
    raise AssertionError(f"no spend of {credits} credits in\n{screen_text(app)}")


async def _approve_in_the_app(app: Any, pilot: Any, client: LeadClient) -> None:
    asker = start_asking(client, await _search(client), 40)
    await wait_for_text(pilot, "1 approval waiting")
    await pilot.press("A")
    await wait_for_text(pilot, "Waiting for you.")
    await pilot.press("y")
    await wait_for_screen(pilot, ConfirmSpend)
    await pilot.press("y")
    await asker
    await pilot.press("escape")


async def test_each_spend_says_who_asked_and_who_approved_at_100_and_80_columns(
    build_app: Any, client: LeadClient
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        await _approve_in_the_app(app, pilot, client)
        await _spend_elsewhere(client, 7, Authorization(Surface.CLI, ceiling=7, can_ask=False))
        await _spend_elsewhere(client, 3, Authorization(Surface.APP, confirmed=True))
        await _spend_elsewhere(client, 2, Authorization(Surface.AGENT), budget=100)
        await pilot.press("H")
        await wait_for_screen(pilot, HistoryScreen)
        await wait_until(pilot, lambda: "Spends · 4" in screen_text(app))

        heading = next(line for line in screen_text(app).splitlines() if "Asked by" in line)
        for column in ("Journaled", "Credits", "Outcome", "Asked by", "Approved by", "Spend"):
            assert column in heading
        asked_in_app = _row(app, "40")
        assert asked_in_app[2:5] == ["succeeded", f"{AGENT} ({PID})", f"app ({PID})"]
        assert asked_in_app[5].startswith("unlock srch_")
        assert _row(app, "7")[3:5] == ["command line", "--max-credits"]
        assert _row(app, "3")[3:5] == ["app", "dialog"]
        assert _row(app, "2")[3:5] == ["agent", "budget"]
        assert "Key" in heading  # at 100 columns the key fits too

        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert "Status" in next(line for line in lines if "Request id" in line)
        heading = next(line for line in lines if "Asked by" in line)
        assert heading.split()[-3:] == ["by", "Spend", "│"]  # the spend is cut, not them
        assert _row(app, "40")[3:5] == [f"{AGENT} ({PID})", f"app ({PID})"]
        assert _row(app, "7")[3:5] == ["command line", "--max-credits"]


async def test_describe_holds_both_parties_as_pending_json_prints_them(
    build_app: Any, client: LeadClient
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        await _approve_in_the_app(app, pilot, client)
        await pilot.press("H")
        await wait_for_screen(pilot, HistoryScreen)
        await wait_until(pilot, lambda: "Spends · 1" in screen_text(app))
        await pilot.press("tab")
        await pilot.press("D")
        text = await wait_for_text(pilot, '"asked_by"')
        assert f'"name": "{AGENT}"' in text
        assert f'"pid": {PID}' in text
        assert '"name": "leadtui app"' in text


async def test_only_the_spends_of_this_server_and_account_are_listed(
    build_app: Any, client: LeadClient
) -> None:
    """Spends journaled against another server or by another account of the same profile are
    not this account's money: left out, and the border says how many and where the list is."""
    from leadtui.spend.account import SpendAccount
    from leadtui.spend.journal import SpendOperation

    journal = SpendJournal(default_journal_path())
    for key, origin, account in (
        ("ik-other-server", "http://sandbox.example:8765", SpendAccount("…full", "acct_demo")),
        ("ik-other-account", "http://127.0.0.1", SpendAccount("…low", "acct_low", "Lowball")),
    ):
        journal.record_intent(
            idempotency_key=key,
            operation=SpendOperation.UNLOCK,
            params={"search_id": "srch_elsewhere", "additional_results": 54},
            body={"additional_results": 54},
            amount=54,
            profile="default",
            origin=origin,
            account=account,
        )
        journal.discard(key)
    await _spend_elsewhere(client, 3, Authorization(Surface.APP, confirmed=True))
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "9,997 credits")
        await pilot.press("H")
        await wait_for_screen(pilot, HistoryScreen)
        text = await wait_for_text(pilot, "· 2 elsewhere not shown ·")
        assert "Spends · 1" in text
        assert "Demo Co (acct_demo) at http://localhost" in text
        assert _row(app, "3")[2] == "succeeded"
        assert " 54 " not in text
        assert "srch_elsewhere" not in text
