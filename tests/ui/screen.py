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


def widget_text(app: Any, selector: str) -> str:
    """The words drawn inside the widget `selector` on the current screen, one space apart
    (what is drawn beside it, e.g. the screen under a dialog, left out)."""
    return _words_in(app, app.screen.query_one(selector).region)


def toasts_text(app: Any) -> str:
    """The words of every toast on screen (run the app with `notifications=True`)."""
    return " ".join(_words_in(app, toast.region) for toast in app.screen.query("Toast"))


def _words_in(app: Any, region: Any) -> str:
    rows = screen_text(app).splitlines()[region.y : region.bottom]
    text = " ".join(row[region.x : region.right] for row in rows)
    return " ".join(text.replace("▌", " ").split())  # a toast's edge is no word


def footer_text(app: Any) -> str:
    """The bottom row: the footer's keys as the user reads them."""
    return screen_text(app).splitlines()[-1].strip()


async def wait_until(pilot: Any, condition: Any, *, seconds: float = 10.0) -> None:
    """Kept for the screens' tests that import it from here: see `tests.ui.pilot`."""
    from tests.ui.pilot import wait_until as wait

    await wait(pilot, condition, seconds=seconds)


def notices(app: Any) -> list[tuple[str, str]]:
    """(title, words) of every toast the app showed this run, oldest first, whether still on
    screen or gone: the History screen keeps each as the words shown (markup removed)."""
    return [(e.title, e.text) for e in reversed(app.history.entries()) if e.exchange is None]
