"""The scenario table's rows about what was authorized against what is sent and debited, in
the app, read from the screen: a price raised after the dialog's yes opens the dialog again
with the new quote (nothing sent until that yes), and a server that states a lower debit than
it took (a proxy in front of the sandbox) is reported and stops the budget."""

from __future__ import annotations

from functools import partial
from typing import Any

import httpx

from leadtui.config.settings import Settings
from leadtui.spend.debit import SpendResult
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.frame.spend_flow import confirm_and_spend
from tests.spend.scenarios import Row, arrange, request_for, spend_posts
from tests.support.lying_proxy import LyingProxy
from tests.ui.pilot import settle, wait_for_screen, wait_until
from tests.ui.screen import notices
from tests.ui.test_spend_scenarios import dialog_words, words

ASKED = Row("stated price, nothing set in advance", ("ask", None), ("refuse", None), results=3)


async def _spends(http: httpx.AsyncClient) -> list[dict[str, Any]]:
    return spend_posts((await http.get("/_sandbox/requests")).json()["data"])


async def _credits(http: httpx.AsyncClient) -> int:
    me = await http.get("/api/v1/me", headers={"Authorization": "Bearer sk_demo_full"})
    return int(me.json()["data"]["credits"])


async def test_a_price_raised_after_the_yes_opens_the_dialog_again_with_the_new_quote(
    build_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    arranged = await arrange(ASKED, sandbox_http)
    before = await _credits(sandbox_http)
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        request = await request_for(ASKED, arranged, app.client)
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        first = await wait_for_screen(pilot, ConfirmSpend)
        await wait_until(pilot, lambda: "Spend 3 credits" in dialog_words(app))
        # The price rises to 50 per result between the yes and the POST.
        await sandbox_http.put("/_sandbox/pricing", json={"stated": 50, "charged": 50})
        await pilot.press("y")
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConfirmSpend) and app.screen is not first
        )
        await wait_until(
            pilot, lambda: "The price changed after it was authorized" in dialog_words(app)
        )
        shown = dialog_words(app)
        assert "3 credits (1 credit per result) was authorized, it now costs 150 credits" in shown
        assert "Spend 150 credits" in shown
        assert await _spends(sandbox_http) == []
        await pilot.press("escape")
        await worker.wait()
        assert worker.result is None
        assert await _spends(sandbox_http) == []
        assert await _credits(sandbox_http) == before
        # Asked again, the new yes sends the new quote.
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        await wait_for_screen(pilot, ConfirmSpend)
        await wait_until(pilot, lambda: "Spend 150 credits" in dialog_words(app))
        await pilot.press("y")
        await worker.wait()
        assert isinstance(worker.result, SpendResult), words(app)
        assert worker.result.debited == 150
    assert len(await _spends(sandbox_http)) == 1
    assert await _credits(sandbox_http) == before - 150


async def test_a_server_stating_a_lower_debit_is_reported_and_stops_the_budget(
    build_app: Any, sandbox_app: Any, sandbox_http: httpx.AsyncClient
) -> None:
    row = Row("budget covering", ("send", None), ("send", None), results=10, budget=10)
    arranged = await arrange(row, sandbox_http)
    await sandbox_http.put("/_sandbox/pricing", json={"stated": 1, "charged": 3})
    before = await _credits(sandbox_http)
    proxy = httpx.ASGITransport(app=LyingProxy(sandbox_app, lambda debited: debited // 3))
    app = build_app(settings=Settings(spend_budget=10), transport=proxy)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        request = await request_for(row, arranged, app.client)
        worker = app.run_worker(partial(confirm_and_spend, app.screen, request))
        await worker.wait()
        assert isinstance(worker.result, SpendResult)
        (sent,) = await _spends(sandbox_http)

        def overcharges() -> str:
            return " ".join(text for title, text in notices(app) if title == "Overcharged")

        await wait_until(pilot, overcharges)
        assert "the server debited 30 credits for a spend quoted at 10 credits" in overcharges()
        assert sent["request_id"] in overcharges()
        # 30 of a budget of 10 spent: the next spend, however small, is asked.
        smaller = await request_for(
            Row("one", ("ask", None), ("refuse", None), results=1), arranged, app.client
        )
        worker = app.run_worker(partial(confirm_and_spend, app.screen, smaller))
        dialog = await wait_for_screen(pilot, ConfirmSpend)
        assert dialog.decision.code is not None
        assert dialog.decision.code.value == "over_budget"
        await pilot.press("escape")
        await worker.wait()
    assert len(await _spends(sandbox_http)) == 1
    assert await _credits(sandbox_http) == before - 30
