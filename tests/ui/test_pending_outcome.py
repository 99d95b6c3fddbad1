"""A spend whose outcome was unknown: what the screen says about it ends when it is settled.

The "outcome unknown" panel goes, and the counts are read again, as soon as the spend is
resent and settled or discarded; a resend the server refuses says what is known, no more.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from leadtui.spend.journal import SpendJournal
from leadtui.ui.dialogs.pending_spends import PendingSpends
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.pilot import wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import flat_text, footer_text, notices, screen_text, widget_text
from tests.ui.search_walk import ONE_EACH, confirm_suggested_unlock, open_first_search
from tests.ui.test_pending_spends_accounts import DEMO, left_pending


class LosesFirstUnlock(httpx.AsyncBaseTransport):
    """The sandbox, with the first unlock's connection cut: before the server saw it
    (`reaches_server=False`) or after it took it."""

    def __init__(self, sandbox: httpx.AsyncBaseTransport, *, reaches_server: bool) -> None:
        self.sandbox = sandbox
        self.reaches_server = reaches_server
        self.cut = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        unlock = request.method == "POST" and request.url.path.endswith("/exports")
        if not unlock or self.cut:
            return await self.sandbox.handle_async_request(request)
        self.cut = True
        if self.reaches_server:
            await self.sandbox.handle_async_request(request)
        raise httpx.RemoteProtocolError("connection cut", request=request)


async def _unknown_unlock(build_app: Any, client: Any, sandbox_app: Any, *, reached: bool) -> Any:
    await client.searches.create(ONE_EACH)
    cut = LosesFirstUnlock(httpx.ASGITransport(app=sandbox_app), reaches_server=reached)
    return build_app(transport=cut)


async def _confirm_and_lose_the_answer(app: Any, pilot: Any) -> None:
    await open_first_search(app, pilot)
    await confirm_suggested_unlock(app, pilot)
    await pilot.press("y")
    await wait_for_screen(pilot, PendingSpends)
    detail = app.screen_stack[-2]
    assert isinstance(detail, SearchDetailScreen)
    report = detail.shown_error
    assert report is not None
    assert report.title.endswith("outcome unknown")


async def test_a_resent_spend_clears_outcome_unknown_and_shows_fresh_counts(
    build_app: Any, client: Any, sandbox_app: Any
) -> None:
    app = await _unknown_unlock(build_app, client, sandbox_app, reached=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await _confirm_and_lose_the_answer(app, pilot)
        await pilot.press("r")  # the server takes it now, under the same key
        await wait_for_screen(pilot, SearchDetailScreen)
        # No `r` on the search: the counts come by themselves, the panel is gone.
        await wait_for_text(pilot, "Unlocked 100")
        await wait_until(pilot, lambda: "outcome unknown" not in flat_text(app))
        assert app.screen.shown_error is None
        # The resend made the debit, and says so.
        spent = " ".join(text for title, text in notices(app) if title == "Spent")
        assert "Sent now: 100 credits." in spent


@pytest.mark.parametrize("reached", [True, False], ids=["server-took-it", "never-arrived"])
async def test_a_discarded_spend_clears_outcome_unknown_and_reads_the_counts_again(
    build_app: Any, client: Any, sandbox_app: Any, reached: bool
) -> None:
    app = await _unknown_unlock(build_app, client, sandbox_app, reached=reached)
    async with app.run_test(size=(100, 30)) as pilot:
        await _confirm_and_lose_the_answer(app, pilot)
        await pilot.press("d")
        await wait_for_screen(pilot, SearchDetailScreen)
        await wait_until(pilot, lambda: "outcome unknown" not in flat_text(app))
        # What the server holds is shown, whichever way it went.
        expected = "Unlocked 100" if reached else "No results unlocked yet"
        await wait_for_text(pilot, expected)
        await wait_until(pilot, lambda: app.credits == (9_900 if reached else 10_000))


async def test_a_resend_refused_for_credits_says_what_is_known(
    build_app: Any, client: Any, sandbox_http: Any
) -> None:
    search = await client.searches.create(ONE_EACH)
    left_pending("ik-earlier-run", search.searchId, DEMO)
    await sandbox_http.patch("/_sandbox/accounts/acct_demo", json={"credits": 0})
    app = build_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for_screen(pilot, PendingSpends)
        await pilot.press("r")
        await wait_until(
            pilot, lambda: "charged nothing" in widget_text(app, "#pending-spends-box")
        )
        text = widget_text(app, "#pending-spends-box")
        assert "The server refused this send (not enough credits)" in text
        assert "An earlier send under the same idempotency key" in text
        # One thing known (this send was refused), one not (the earlier one): never both
        # "nothing was charged" and "unknown" about the same send.
        assert "Nothing was charged" not in text
        assert "Whether the spend went through is unknown" not in text
        assert "insufficient_credits" in text
        assert isinstance(app.screen, PendingSpends)  # still offered, to resend or discard
        assert "Unlock 3 results" in screen_text(app)
    intent = SpendJournal().get("ik-earlier-run")
    assert intent is not None
    assert intent.pending


async def test_while_a_resend_is_sending_the_dialog_offers_no_key(
    build_app: Any, client: Any, sandbox_app: Any
) -> None:
    from tests.ui.test_spend_in_flight import HeldSpends

    search = await client.searches.create(ONE_EACH)
    left_pending("ik-earlier-run", search.searchId, DEMO)
    held = HeldSpends(httpx.ASGITransport(app=sandbox_app))
    app = build_app(transport=held)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_screen(pilot, PendingSpends)
        await wait_for_text(pilot, "d Discard")
        await pilot.press("r")
        await wait_until(pilot, lambda: held.held == 1)
        await wait_for_text(pilot, "Sending…")
        footer = footer_text(app)
        for gone in ("Resend", "Discard", "Decide later"):
            assert gone not in footer
        held.release.set()
        await wait_until(pilot, lambda: not isinstance(app.screen, PendingSpends))
