"""What a screen shows instead of itself when the terminal is below the size it is laid out for."""

from __future__ import annotations

from textual.widgets import Static

# The smallest terminal a screen is laid out for (columns, rows): an SSH pane of 60×20 still
# shows the credits, the account, the searches and the jobs (fewer columns, a compact footer).
MIN_SIZE = (60, 20)


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
        need_width, need_height = getattr(self.screen, "MIN_SIZE", MIN_SIZE)
        width, height = self.app.size
        small = width < need_width or height < need_height
        if small:
            self.update(
                f"Terminal too small: need {need_width}×{need_height}, have {width}×{height}\n"
                "Enlarge the window, or press ctrl+q to quit."
            )
        self.screen.set_class(small, "-too-small")
