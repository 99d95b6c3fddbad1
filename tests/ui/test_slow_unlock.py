"""On a slow server, `u` and the count's Enter show at once what they wait for (the balance
read for the quote), and keys typed meanwhile are refused visibly, never taken by the screen
below (a digit would switch screens, a `y` must not confirm anything). The server's slowness
is a hold released on a condition, never a clock."""

from __future__ import annotations

from typing import Any

from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.search_detail import SearchDetailScreen
from tests.ui.jobs_seed import Held, requests_log
from tests.ui.pilot import settle, wait_for_screen, wait_for_text, wait_until
from tests.ui.screen import notices
from tests.ui.search_walk import ONE_EACH, open_first_search


async def test_u_and_enter_show_at_once_what_they_wait_for_and_refuse_keys_meanwhile(
    build_app: Any, client: Any, sandbox_app: Any, sandbox_http: Any
) -> None:
    await client.searches.create(ONE_EACH)
    held = Held(sandbox_app, reads=True)
    app = build_app(transport=held)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await open_first_search(app, pilot)
        await settle(pilot)
        held.hold = "/api/v1/me"  # from now on the server is slow to say the balance

        await pilot.press("u")
        await wait_for_text(pilot, "⟳ reading your balance for the quote (GET /me)… other keys")
        await wait_until(pilot, lambda: held.held == 1)
        await pilot.press("1")  # would open Account
        await wait_until(pilot, lambda: any("'1' was not taken" in n for _, n in notices(app)))
        assert isinstance(app.screen, SearchDetailScreen)
        held.release.set()
        await wait_for_screen(pilot, UnlockCount)
        await wait_for_text(pilot, "✓ costs 100 credits")

        held.release.clear()
        await pilot.press("enter")
        await wait_for_text(pilot, "⟳ reading your balance again for the confirmation")
        await wait_until(pilot, lambda: held.held == 2)
        await pilot.press("y")  # the confirmation is not up yet: this confirms nothing
        await wait_until(pilot, lambda: any("'y' was not taken" in n for _, n in notices(app)))
        held.release.set()
        await wait_for_screen(pilot, ConfirmSpend)
        await wait_for_text(pilot, "Spend 100 credits (y)")
        await pilot.press("escape")
        await wait_for_screen(pilot, SearchDetailScreen)
        text = await wait_for_text(pilot, "Press u to unlock.")
        assert "⟳ reading" not in text
    posts = [r for r in await requests_log(sandbox_http) if r["method"] == "POST"]
    assert [r["path"] for r in posts] == ["/api/v1/searches"]  # no unlock was sent
