"""Toasts are drawn once, and never over a dialog: they wait until it closes."""

from __future__ import annotations

from typing import Any

from tests.ui.pilot import settle
from tests.ui.screen import screen_text, toasts_text, wait_until


async def test_a_toast_is_drawn_once_and_waits_while_a_dialog_is_up(build_app: Any) -> None:
    app = build_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot)
        app.notify("exp_000001 is ready", title="Export ready", timeout=60)
        await wait_until(pilot, lambda: "exp_000001 is ready" in toasts_text(app))
        await pilot.press("q")
        await wait_until(pilot, lambda: "Quit leadtui?" in screen_text(app))
        await pilot.pause()
        assert screen_text(app).count("exp_000001 is ready") <= 1  # not again over the dialog
        app.notify("exp_000002 is ready", title="Export ready", timeout=60)
        await pilot.pause()
        await pilot.pause()  # the toast would be mounted by now
        assert "exp_000002" not in screen_text(app)  # the dialog's words stay readable
        await pilot.press("escape")
        await wait_until(pilot, lambda: "exp_000002 is ready" in toasts_text(app))
        assert screen_text(app).count("exp_000002 is ready") == 1
