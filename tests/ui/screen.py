"""Read what a user would see: the current screen as plain text lines."""

from __future__ import annotations

from typing import Any


def screen_text(app: Any) -> str:
    """Every row of the terminal, as rendered (modals included), right-stripped."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


async def wait_until(pilot: Any, condition: Any, *, seconds: float = 10.0) -> None:
    """Let the app run until `condition()` holds: a loaded machine may need more than one
    frame for a worker to push a screen. Fails with what is on screen after `seconds`."""
    steps = int(seconds / 0.05)
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"still not there after {seconds}s; screen:\n{screen_text(pilot.app)}")
