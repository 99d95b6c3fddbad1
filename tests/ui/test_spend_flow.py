"""The spend path every credit-consuming action uses: confirm, journal, send, explain."""

from __future__ import annotations

from functools import partial
from typing import Any

from leadtui.api.models import SearchRequest
from leadtui.spend.debit import SpendResult
from leadtui.spend.journal import SpendJournal
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.frame.spend_flow import confirm_and_spend, unlock_request
from tests.ui.screen import notices, screen_text, wait_until

ONE_EACH = {
    "activities": [{"name": "Plumber"}],
    "countries": [{"name": "France"}],
    "localisations": [{"name": "Paris"}],
}


async def _search(app: Any) -> Any:
    return await app.client.searches.create(SearchRequest.model_validate(ONE_EACH))


async def _unlock_requests(app: Any, sandbox_http: Any) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


def _start(app: Any, request: SpendRequest) -> Any:
    return app.run_worker(partial(confirm_and_spend, app.screen, request))


async def _confirm_unlock(app: Any, pilot: Any, count: int) -> tuple[SpendRequest, Any]:
    """Unlock `count` results of a new search, confirming with y; (request, worker result)."""
    search = await _search(app)
    request = unlock_request(search, count, app.credits)
    worker = _start(app, request)
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
    await pilot.press("y")
    await worker.wait()
    await pilot.pause()
    return request, worker.result


async def test_confirm_shows_cost_and_enter_cancels(build_app: Any, sandbox_http: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        search = await _search(app)
        request = unlock_request(search, 250, 10_000)
        worker = _start(app, request)
        await wait_until(pilot, lambda: "Unlock 250 results" in screen_text(app))
        assert isinstance(app.screen, ConfirmSpend)
        text = screen_text(app)
        assert "Unlock 250 results" in text
        assert "1 credit per result (stated by the server)" in text
        assert "250 credits" in text
        assert "10,000 → 9,750 after" in text
        assert request.short_key in text
        await pilot.press("enter")  # Cancel has the focus: Enter never spends
        await worker.wait()
        assert worker.result is None
        assert not isinstance(app.screen, ConfirmSpend)
        assert await _unlock_requests(app, sandbox_http) == []
        assert app.credits == 10_000


async def test_y_spends_once_journals_and_updates_badge(build_app: Any, sandbox_http: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        request, spent = await _confirm_unlock(app, pilot, 3)
        assert isinstance(spent, SpendResult)
        assert app.credits == 10_000 - 3
        sent = await _unlock_requests(app, sandbox_http)
        assert [r["idempotency_key"] for r in sent] == [request.idempotency_key]
        journaled = SpendJournal().get(request.idempotency_key)
        assert journaled is not None
        assert journaled.outcome == "succeeded"


async def test_read_only_blocks_before_any_modal_or_request(
    build_app: Any, sandbox_http: Any
) -> None:
    from leadtui.config.settings import Settings

    app = build_app(settings=Settings(read_only=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        search = await _search(app)
        request = unlock_request(search, 3, app.credits)
        worker = _start(app, request)
        await worker.wait()
        await pilot.pause()
        assert worker.result is None
        assert not isinstance(app.screen, ConfirmSpend)
        assert "Spending is switched off" in screen_text(app)
        assert await _unlock_requests(app, sandbox_http) == []


async def test_within_budget_spends_without_the_modal(build_app: Any) -> None:
    from leadtui.config.settings import Settings

    app = build_app(settings=Settings(spend_budget=5))
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        search = await _search(app)
        request = unlock_request(search, 5, app.credits)
        worker = _start(app, request)
        await worker.wait()
        await pilot.pause()
        assert isinstance(worker.result, SpendResult)
        assert app.credits == 10_000 - 5
        over = unlock_request(search, 6, app.credits)
        worker = _start(app, over)
        # Over the budget: asked.
        await wait_until(
            pilot, lambda: isinstance(app.screen, ConfirmSpend) and app.screen.decision.asks
        )
        await pilot.press("escape")
        await worker.wait()
        assert app.credits == 10_000 - 5


async def test_an_unlocked_export_is_announced_when_ready_on_any_screen(
    build_app: Any, sandbox_clock: Any
) -> None:

    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        _, spent = await _confirm_unlock(app, pilot, 3)
        assert isinstance(spent, SpendResult)
        export_id = spent.record.exportId
        # The user never opened the dashboard: the watcher follows the new export anyway.
        watcher = app.jobs
        assert ("export", export_id) in watcher.board.followed
        sandbox_clock.advance(60)
        await watcher.tick()
        await pilot.pause()
        assert app.current_mode == "account"
        messages = [words for _, words in notices(app)]
        assert any(f"{export_id} is ready" in m for m in messages)


async def test_account_shows_the_spend_once_the_server_settled_it(build_app: Any) -> None:
    # The usage the Account screen read before the spend is stale after it: the spend flow
    # signals the spend, and Account reads its figures again without a key press.
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "0 credits used" in screen_text(app))
        _, result = await _confirm_unlock(app, pilot, 7)
        assert isinstance(result, SpendResult)
        await wait_until(pilot, lambda: "7 credits used" in screen_text(app))
        assert "9,993" in screen_text(app)


async def test_a_toast_never_covers_the_dialogs_buttons(build_app: Any) -> None:
    from textual.widgets import Button
    from textual.widgets._toast import Toast

    app = build_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_until(pilot, lambda: app.credits is not None)
        search = await _search(app)
        _start(app, unlock_request(search, 5, app.credits))
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        # An error toast (title, a wrapped text, status, code and request id) is the tallest.
        app.notify(
            "Could not reach the server at http://127.0.0.1: the connection was refused. "
            "Nothing was sent.\nHTTP 503 · service_unavailable · request id req_0123456789",
            title="Cannot reach the server",
            severity="error",
            timeout=30,
        )
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) > 0)
        await pilot.pause()
        toast = app.screen.query_one(Toast).region
        for button in app.screen.query(Button):
            assert not toast.overlaps(button.region), (toast, button.region)
        assert "Spend 5 credits (y)" in screen_text(app)
