"""The one set of waiting helpers for UI tests: wait on a condition, never on the wall clock.

- `settle(pilot)`: every worker finished and the screen redrawn (twice: a worker's result
  often starts another worker); cursors stop blinking so pictures are stable.
- `wait_until(pilot, condition)`: let the app run until `condition()` holds.
- `wait_for_screen(pilot, ScreenType)`: until that screen (or modal) is on top; returns it.
- `wait_for_text(pilot, text)`: until `text` is on screen (whitespace-insensitive).
- `advance(pilot, clock, seconds)`: move the injected clock, then let timers see it.

A wait gives up after `seconds` of polling and fails with what is on screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.widgets import Input
from textual.worker import WorkerCancelled

from tests.ui.screen import flat_text, screen_text

ScreenT = TypeVar("ScreenT")

# How often a wait looks again. Not a synchronisation delay: each look is a condition check.
_POLL = 0.02


async def settle(pilot: Any) -> None:
    """Until no worker runs and the screen has been redrawn after the last one."""
    app = pilot.app
    for _ in range(2):
        await pilot.pause()
        await _workers_done(app)
    for field in app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


async def _workers_done(app: Any) -> None:
    # A worker replaced by a newer one of its group (exclusive) ends cancelled: that is the
    # app working as meant, so wait for the ones still running instead of failing.
    while True:
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        return


async def wait_until(pilot: Any, condition: Callable[[], object], *, seconds: float = 10.0) -> None:
    """Let the app run until `condition()` holds; a loaded machine may need many frames."""
    for _ in range(int(seconds / _POLL)):
        if condition():
            return
        await pilot.pause(_POLL)
    if condition():
        return
    raise AssertionError(f"still not there after {seconds}s; screen:\n{screen_text(pilot.app)}")


async def wait_for_screen(
    pilot: Any, screen_type: type[ScreenT], *, seconds: float = 10.0
) -> ScreenT:
    """Until a `screen_type` is on top (a worker pushing a modal never completes: no settle)."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, screen_type), seconds=seconds)
    screen: ScreenT = pilot.app.screen
    return screen


async def wait_for_text(pilot: Any, text: str, *, seconds: float = 10.0) -> str:
    """Until `text` is on screen; returns the screen's words (one space between them)."""
    wanted = " ".join(text.split())
    await wait_until(pilot, lambda: wanted in flat_text(pilot.app), seconds=seconds)
    return flat_text(pilot.app)


async def advance(pilot: Any, clock: Any, seconds: float) -> None:
    """Move the injected clock (`FakeClock`) on by `seconds`; timers read it on their next tick."""
    clock.now += seconds
    await pilot.pause()
