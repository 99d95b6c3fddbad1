"""What a screen shows instead of itself when the terminal is below the size it is laid out for."""

from __future__ import annotations

from textual.widgets import Static


class TooSmall(Static):
    """Mounted by a main screen the first time the terminal is below its `MIN_SIZE`; while it
    is, the screen shows only this (the CSS hides its siblings through the screen's
    `-too-small` class), rather than a cut table."""

    DEFAULT_CSS = """
    TooSmall {
        display: none;
        width: 1fr;
        height: 1fr;
        content-align: center middle;
        text-style: bold;
    }
    """

    def tell(self, need: tuple[int, int], have: tuple[int, int]) -> None:
        self.update(
            f"Terminal too small: need {need[0]}×{need[1]}, have {have[0]}×{have[1]}\n"
            "Enlarge the window, or press ctrl+q to quit."
        )
