"""Approvals follows what moves: a spend made elsewhere moves "Balance now", an observed price
is quoted alike by the asker and the app, a request from another server says why it cannot
be approved here, and History names each answer once."""

from __future__ import annotations

from typing import Any

import pytest

from leadtui.api.client import LeadClient
from leadtui.spend.account import SpendAccount
from leadtui.spend.approval_wait import DeniedInApp
from leadtui.spend.approvals import Party
from leadtui.spend.decision import Authorization, Surface
from leadtui.spend.intent import SpendOperation, SpendOutcome
from leadtui.spend.journal import SpendJournal
from leadtui.spend.origin import spend_origin
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.screens.approvals import ApprovalsScreen
from tests.support import spend_requests
from tests.ui.approval_asker import desk, start_asking
from tests.ui.pilot import wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import footer_text
from tests.ui.test_approvals import _credits, _search, _toasts, _unlocks
from tests.ui.test_history_spends import _spend_elsewhere

DEMO = SpendAccount("…full", "acct_demo", "Demo Co")


def _overcharged_before(client: LeadClient) -> None:
    """An earlier unlock of 10 results that was debited 20: the observed price is 2."""
    journal = SpendJournal()
    key = "overcharged-earlier-unlock-000001"
    journal.record_intent(
        idempotency_key=key,
        operation=SpendOperation.UNLOCK,
        params={"search_id": "srch_earlier", "additional_results": 10},
        body={"additional_results": 10},
        amount=10,
        profile="default",
        origin=spend_origin(client.base_url),
        account=DEMO,
    )
    journal.record_outcome(key, SpendOutcome.SUCCEEDED, {"id": "exp_earlier"})
    journal.record_debit(key, 20)


async def test_an_observed_price_above_the_stated_one_is_approved_and_sent(
    build_app: Any, client: LeadClient, sandbox_http: Any
) -> None:
    _overcharged_before(client)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40)
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        text = await wait_for_text(pilot, "Waiting for you.")
        assert "80 credits (observed:" in text  # the asker's quote and the app's, alike
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend)
        await pilot.press("y")
        result = await asker
        await wait_for_text(pilot, "sent by the asker")

    assert [r.progress.value for r in desk().listed().requests] == ["sent"]  # never stale
    assert [u["idempotency_key"] for u in await _unlocks(sandbox_http)] == [
        result.intent.idempotency_key
    ]
    assert await _credits(sandbox_http) == 10_000 - 40  # the sandbox's own price


async def test_a_spend_made_elsewhere_moves_balance_now(
    build_app: Any, client: LeadClient, sandbox_http: Any
) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40)
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        await wait_for_text(pilot, "Balance now: 10,000 credits → 9,960")
        await _spend_elsewhere(client, 10, Authorization(Surface.CLI, confirmed=True))

        # Marked stale at once, then asked again at the balance read now.
        await wait_for_text(pilot, "Balance now: 9,990 credits → 9,950")
        screen = app.screen
        assert isinstance(screen, ApprovalsScreen)
        await wait_until(pilot, lambda: screen.rows[0].approvable)
        assert screen.rows[0].balance == "9,990 credits → 9,950"
        await pilot.press("y")
        await wait_for_screen(pilot, ConfirmSpend)
        await pilot.press("y")
        await asker

    assert await _credits(sandbox_http) == 10_000 - 10 - 40


async def test_y_on_a_request_of_another_server_says_why(build_app: Any) -> None:
    request = spend_requests.unlock("srch_1", 40, price_per_result=1, balance=10_000)
    desk().ask(
        request,
        asker=Party.here("cli", "command line"),
        wait_seconds=600,
        profile="default",
        origin="https://elsewhere.example",
        account=DEMO,
    )
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        await pilot.press("A")
        await wait_for_screen(pilot, ApprovalsScreen)
        await wait_for_text(pilot, "another server")
        # `y` is offered once the row has the cursor (the footer says so).
        await wait_until(pilot, lambda: "y Approve" in footer_text(app))
        await pilot.press("y")

        await wait_until(pilot, lambda: _toasts(app, "Not approved here"))
        [why] = _toasts(app, "Not approved here")
        assert "another server (https://elsewhere.example)" in why
        assert isinstance(app.screen, ApprovalsScreen)


async def test_history_names_an_answer_once(build_app: Any, client: LeadClient) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "10,000 credits")
        asker = start_asking(client, await _search(client), 40)
        await wait_for_text(pilot, "1 approval waiting")
        await pilot.press("A")
        await wait_for_text(pilot, "Waiting for you.")
        await pilot.press("n")
        with pytest.raises(DeniedInApp):
            await asker
        await wait_until(pilot, lambda: _toasts(app, "Denied by you"))

    notes = [e.what for e in app.history.entries()]
    denied = [n for n in notes if "sends nothing" in n]
    assert denied == [denied[0]]
    assert denied[0].startswith("Denied by you: test agent (pid")
    assert not any("Denied: Denied" in n or "Approved: Approved" in n for n in notes)
