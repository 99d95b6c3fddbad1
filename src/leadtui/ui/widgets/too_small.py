"""What a screen shows instead of itself when the terminal is below the size it is laid out for."""

from __future__ import annotations

from textual.widgets import Static

# The smallest terminal a screen is laid out for (columns, rows): an SSH pane of 60×20 still
# shows the credits, the account, the searches and the jobs (fewer columns, a compact footer).
MIN_SIZE = (60, 20)


def too_small_text(width: int, height: int, need: tuple[int, int] = MIN_SIZE) -> str | None:
    """ "Terminal too small: need 80×24, have 60×20", or None when the terminal is big enough."""
    need_width, need_height = need
    if width >= need_width and height >= need_height:
        return None
    return f"Terminal too small: need {need_width}×{need_height}, have {width}×{height}"


class TooSmall(Static):
    """Composed last by every main screen; below its screen's `MIN_SIZE` the screen shows only
    this (the CSS hides its siblings through the screen's `-too-small` class), rather than a
    cut table."""

    DEFAULT_CSS = """
    TooSmall {
        display: none;
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-style: bold;
    }
    """

    def on_mount(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Show or hide the screen for the terminal's current size (on every resize)."""
        need = getattr(self.screen, "MIN_SIZE", MIN_SIZE)
        text = too_small_text(self.app.size.width, self.app.size.height, need)
        if text is not None:
            self.update(text + "\nEnlarge the window, or press ctrl+q to quit.")
        self.screen.set_class(text is not None, "-too-small")
