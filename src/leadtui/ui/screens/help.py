"""Help (`?` or F1): the keys of the screen underneath, and how to reach everything else."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


def key_rows(screen: Screen[object]) -> list[tuple[str, str, bool]]:
    """(key, description, enabled) for every binding active on `screen`, in footer order."""
    rows: list[tuple[str, str, bool]] = []
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        if not binding.description or binding.system or binding.action in seen:
            continue
        seen.add(binding.action)
        rows.append((screen.app.get_key_display(binding), binding.description, active.enabled))
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists the keys of `screen`; greyed keys say they are unavailable right now."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, screen: Screen[object], title: str) -> None:
        super().__init__()
        self._rows = key_rows(screen)
        self._title = title

    def compose(self) -> ComposeResult:
        table = Table(box=None, padding=(0, 2), show_header=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, description, enabled in self._rows:
            note = "" if enabled else "  (not available now)"
            table.add_row(key, Text(description + note, style="" if enabled else "dim"))
        with VerticalScroll(id="help-box") as box:
            box.border_title = f"Keys — {self._title}"
            box.border_subtitle = "esc closes"
            yield Static(table, id="help-keys")
            yield Static(
                "ctrl+p opens the command palette: every screen and action, by name.\n"
                "Keys can be remapped by binding id in the settings file (keymap).",
                id="help-tips",
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)
