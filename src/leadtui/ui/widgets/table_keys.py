"""The keys every table shares, and the filter typed into a table's title.

Each binding has an id under `table.`, so one keymap entry changes it on every table.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.binding import Binding, BindingType

MOVEMENT_BINDINGS: list[BindingType] = [
    Binding("down,j", "cursor_down", "Down", id="table.down", show=False),
    Binding("up,k", "cursor_up", "Up", id="table.up", show=False),
    Binding("home,g", "first", "First row", id="table.first", show=False),
    Binding("end,G", "last", "Last row", id="table.last", show=False),
    Binding("pagedown", "page_down", "Page down", id="table.page_down", show=False),
    Binding("pageup", "page_up", "Page up", id="table.page_up", show=False),
    Binding("ctrl+d", "half_page(1)", "Half page down", id="table.half_down", show=False),
    Binding("ctrl+u", "half_page(-1)", "Half page up", id="table.half_up", show=False),
]

VIEW_BINDINGS: list[BindingType] = [
    Binding("slash", "filter", "Filter", id="table.filter", key_display="/"),
    Binding("escape", "clear_filter", "Clear filter", id="table.clear_filter", show=False),
    # Shown in help and the palette; the footer keeps room for the screen's own keys.
    Binding("s", "sort", "Sort", id="table.sort", show=False),
    Binding("D", "describe", "Describe", id="table.describe", key_display="D", show=False),
    Binding("I", "copy_id", "Copy id", id="table.copy_id", key_display="I", show=False),
]


class TypedFilter:
    """`/` starts typing a filter: keys are text until Enter (keep it) or Esc (clear it);
    `apply(query)` is called on every change, and the table shows `prompt` in its title."""

    def __init__(self, apply: Callable[[str], None]) -> None:
        self.apply = apply
        self.typing = False
        self.query = ""

    def start(self) -> None:
        self.typing = True

    def stop(self) -> None:
        self.typing = False
        self.query = ""

    @property
    def prompt(self) -> str:
        return f"/{self.query}▏" if self.typing else ""

    def handle(self, event: events.Key) -> bool:
        """Take the key while typing (True: the table stops it from doing anything else)."""
        if not self.typing:
            return False
        if event.key == "enter":
            self.typing = False
        elif event.key == "escape":
            self.stop()
            self.apply("")
        elif event.key == "backspace":
            self.query = self.query[:-1]
            self.apply(self.query)
        elif event.is_printable and event.character:
            self.query += event.character
            self.apply(self.query)
        else:
            return False
        event.stop()
        event.prevent_default()
        return True
