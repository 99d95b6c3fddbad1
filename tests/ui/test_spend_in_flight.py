"""A confirmed spend while the server is slow: shown at once, no key cancels it, quit asks."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.screen import screen_text, wait_until
from tests.ui.search_walk import (
    ONE_EACH,
    confirm_suggested_unlock,
    open_first_search,
    unlock_dialog,
)


class HeldSpends(httpx.AsyncBaseTransport):
    """The sandbox, with every unlock held until the test lets it through (a slow server)."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport) -> None:
        self.sandbox = sandbox
        self.release = asyncio.Event()
        self.held = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST" and request.url.path.endswith("/exports"):
            self.held += 1
            await self.release.wait()
        return await self.sandbox.handle_async_request(request)


def _footer(app: Any) -> str:
    return screen_text(app).splitlines()[-1]


async def _unlocks(sandbox_http: Any) -> list[dict[str, Any]]:
    log = (await sandbox_http.get("/_sandbox/requests")).json()["data"]
    return [r for r in log if r["method"] == "POST" and r["path"].endswith("/exports")]


@pytest.fixture
async def held_app(build_app: Any, client: Any, sandbox_app: Any) -> tuple[Any, HeldSpends]:
    """One search on the server, and the app signed in through a server that holds unlocks."""
    await client.searches.create(ONE_EACH)
    held = HeldSpends(httpx.ASGITransport(app=sandbox_app))
    return build_app(transport=held), held


async def _send_held_unlock(app: Any, pilot: Any, held: HeldSpends) -> None:
    """Unlock the suggested 100 and confirm; the server holds the answer."""
    await open_first_search(app, pilot)
    await confirm_suggested_unlock(app, pilot)
    await pilot.press("y")
    # Shown in the dialog the user is looking at, in the frame after the key.
    assert "Sending… (same key on every retry)" in screen_text(app)
    await wait_until(pilot, lambda: held.held == 1)
    # Only keys that work are offered: neither y nor Esc does anything now.
    assert "y Spend" not in _footer(app)
    assert "Esc Cancel" not in _footer(app)


async def test_confirm_spend_footer_names_its_own_keys(build_app: Any, client: Any) -> None:
    await client.searches.create(ONE_EACH)
    app = build_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_first_search(app, pilot)
        assert "Copy cell" in _footer(app)  # the detail's own keys, before the dialogs
        await unlock_dialog(app, pilot)
        assert "Esc Cancel" in _footer(app)
        assert "Copy cell" not in _footer(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        footer = _footer(app)
        assert "y Spend" in footer
        assert "Esc Cancel" in footer
        assert "Copy cell" not in footer
        assert "Spend 100 credits (y)" in screen_text(app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))


async def test_a_confirmed_unlock_ends_only_with_the_servers_answer(
    held_app: tuple[Any, HeldSpends], sandbox_http: Any
) -> None:
    app, held = held_app
    async with app.run_test(size=(100, 30)) as pilot:
        await _send_held_unlock(app, pilot, held)
        # Keys that used to cancel or repeat it do nothing now.
        await pilot.press("u", "escape", "n", "y", "enter")
        assert isinstance(app.screen, ConfirmSpend)
        assert "Sending… (same key on every retry)" in screen_text(app)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: "Quit while a spend is sending?" in screen_text(app))
        assert "y Quit" in _footer(app)
        await pilot.press("escape")  # stay
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmSpend))
        held.release.set()
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await wait_until(pilot, lambda: "Unlocked 100" in screen_text(app))
        assert app.credits == 10_000 - 100
        assert "◆ 9,900 credits" in screen_text(app)
        assert app.spends_in_flight == 0
    sent = await _unlocks(sandbox_http)
    assert len(sent) == 1
    intent = SpendJournal().get(sent[0]["idempotency_key"])
    assert intent is not None
    assert intent.outcome == "succeeded"


async def test_within_budget_the_spend_is_shown_sending_without_asking(
    build_app: Any, client: Any, sandbox_app: Any
) -> None:
    from leadtui.config.settings import Settings

    await client.searches.create(ONE_EACH)
    held = HeldSpends(httpx.ASGITransport(app=sandbox_app))
    app = build_app(transport=held, settings=Settings(spend_budget=500))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_first_search(app, pilot)
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, UnlockCount))
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: (
                "Within your spend_budget: sent without asking. Sending… (same key"
                in " ".join(screen_text(app).split())
            ),
        )
        held.release.set()
        await wait_until(pilot, lambda: app.credits == 10_000 - 100)
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))


async def test_an_answer_that_comes_while_quit_is_asked_keeps_both_dialogs_right(
    held_app: tuple[Any, HeldSpends],
) -> None:
    app, held = held_app
    async with app.run_test(size=(100, 30)) as pilot:
        await _send_held_unlock(app, pilot, held)
        await pilot.press("ctrl+c")  # as ctrl+q: asks while a spend is sending
        await wait_until(pilot, lambda: "Quit while a spend is sending?" in screen_text(app))
        held.release.set()
        await wait_until(pilot, lambda: app.credits == 10_000 - 100)
        assert "Quit while a spend is sending?" in screen_text(app)  # still asking
        await pilot.press("escape")  # stay: the answered spend's dialog closes too
        await wait_until(pilot, lambda: isinstance(app.screen, SearchDetailScreen))
        await wait_until(pilot, lambda: "Unlocked 100" in screen_text(app))
