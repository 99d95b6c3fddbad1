"""Escapes the screen does not draw (bell, desktop notification) reach the terminal through
Textual's public driver API, and a headless run writes none and still works."""

from __future__ import annotations

from typing import Any

import pytest
import textual.constants

from leadtui.config.settings import Settings
from tests.support.terminal import RECORDING_DRIVER, RecordingDriver
from tests.ui import jobs_seed
from tests.ui.pilot import wait_until
from tests.ui.screen import toasts_text

DESKTOP = "\x1b]9;✓ Export is ready: "


async def _announce_a_ready_export(app: Any, pilot: Any, sandbox_clock: Any) -> None:
    """Open the dashboard, then let the followed export get ready and the watcher tick."""
    await pilot.press("4")
    await app.workers.wait_for_complete()
    sandbox_clock.advance(60)
    await app.jobs.tick()
    await wait_until(pilot, lambda: "Export is ready" in toasts_text(app))


async def test_a_desktop_notification_is_written_to_the_terminal_textual_picked(
    build_app: Any, client: Any, sandbox_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The driver Textual picks (here through TEXTUAL_DRIVER, as a user could choose one) is
    # the one the app runs on, attached to its terminal output.
    monkeypatch.setattr(textual.constants, "DRIVER", RECORDING_DRIVER)
    monkeypatch.setattr(RecordingDriver, "written", [])
    (export,) = await jobs_seed.exports(client, 1)
    app = build_app(settings=Settings(notify_bell=True, notify_desktop=True))
    assert issubclass(app.driver_class, RecordingDriver)
    async with app.run_test(size=(100, 30), headless=False, notifications=True) as pilot:
        await _announce_a_ready_export(app, pilot, sandbox_clock)
        written = "".join(RecordingDriver.written)
    assert "\a" in RecordingDriver.written
    assert f"{DESKTOP}{export.exportId} is ready" in written
    assert f"\x1b]777;notify;✓ Export is ready;{export.exportId} is ready" in written
    after = len(RecordingDriver.written)
    app.terminal.write("\a")  # application mode is over: nothing more reaches the terminal
    assert len(RecordingDriver.written) == after


async def test_headless_writes_nothing_to_any_terminal_and_still_announces(
    build_app: Any, client: Any, sandbox_clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(textual.constants, "DRIVER", RECORDING_DRIVER)
    monkeypatch.setattr(RecordingDriver, "written", [])
    await jobs_seed.exports(client, 1)
    app = build_app(settings=Settings(notify_bell=True, notify_desktop=True))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        # Textual's own headless driver runs the app: never attached to the terminal output.
        await _announce_a_ready_export(app, pilot, sandbox_clock)
        app.terminal.write("\a")  # said to nobody, without failing
    assert RecordingDriver.written == []
