"""Usage that arrives once the Account screen's widgets are gone (the app quitting: a screen's
children are removed before its last queued calls run) is dropped, never a crash."""

from __future__ import annotations

from typing import Any

from leadtui.ui.screens.account import AccountScreen
from tests.ui.pilot import settle, wait_for_text


async def test_usage_set_after_the_screens_widgets_are_removed_is_dropped(
    build_app: Any, client: Any
) -> None:
    usage = await client.usage()
    app = build_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for_text(pilot, "credits used")
        screen = app.screen
        assert isinstance(screen, AccountScreen)
        await screen.remove_children()  # as the app does to each screen when it quits
        screen.usage = None
        screen.usage = usage  # a load's answer, landing after the widgets went
        await settle(pilot)

        assert app.is_running
        assert app.return_code is None  # not ended by an error
        assert not screen.query("#usage-totals")
        assert not screen.query("#usage-days")  # no chart mounted into a body that is gone
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0  # quit by the user, not ended by an error
