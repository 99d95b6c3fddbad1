"""Read what a user would see: the current screen as plain text lines."""

from __future__ import annotations

from typing import Any


def screen_text(app: Any) -> str:
    """Every row of the terminal, as rendered (modals included), right-stripped."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


def flat_text(app: Any) -> str:
    """The screen's words with one space between them (a wrapped line reads as one)."""
    return " ".join(screen_text(app).split())


def footer_text(app: Any) -> str:
    """The bottom row: the footer's keys as the user reads them."""
    return screen_text(app).splitlines()[-1].strip()


async def wait_until(pilot: Any, condition: Any, *, seconds: float = 10.0) -> None:
    """Kept for the screens' tests that import it from here: see `tests.ui.pilot`."""
    from tests.ui.pilot import wait_until as wait

    await wait(pilot, condition, seconds=seconds)
