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

# Generic movement keys every scrollable widget has: they would bury the screen's own keys.
_GENERIC_ACTIONS = ("scroll_", "focus_next", "focus_previous", "copy_text", "page_")

# Sections in the order they are listed; a binding's section comes from its id's prefix.
SECTIONS = ("This screen", "Go to", "Everywhere", "In the focused field")


def _section(binding: Binding) -> str:
    if binding.id is None:
        return "In the focused field"
    prefix = binding.id.split(".", 1)[0]
    return {"screens": "Go to", "app": "Everywhere"}.get(prefix, "This screen")


def key_rows(screen: Screen[object]) -> dict[str, list[tuple[str, str, bool]]]:
    """(key, description, enabled) of every binding active on `screen`, by section."""
    sections: dict[str, list[tuple[str, str, bool]]] = {name: [] for name in SECTIONS}
    seen: set[str] = set()
    for active in screen.active_bindings.values():
        binding = active.binding
        if not binding.description or binding.system or binding.action in seen:
            continue
        if binding.action.rsplit(".", 1)[-1].startswith(_GENERIC_ACTIONS):
            continue
        seen.add(binding.action)
        row = (screen.app.get_key_display(binding), binding.description, active.enabled)
        sections[_section(binding)].append(row)
    return {name: rows for name, rows in sections.items() if rows}


class HelpScreen(ModalScreen[None]):
    """Lists the keys of `screen`; greyed keys say they are unavailable right now."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, screen: Screen[object], title: str) -> None:
        super().__init__()
        self._sections = key_rows(screen)
        self._title = title

    def compose(self) -> ComposeResult:
        table = Table(box=None, padding=(0, 2), show_header=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for section, rows in self._sections.items():
            if table.row_count:
                table.add_row("", "")
            table.add_row(Text(section, style="italic"), "")
            for key, description, enabled in rows:
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
