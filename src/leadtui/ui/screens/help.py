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

from leadtui.ui.model.key_names import keys_name
from leadtui.ui.stylesheets import stylesheet

# Textual's own scrolling keys every scrollable widget has: they would bury the screen's own.
_GENERIC_ACTIONS = ("scroll_", "copy_text", "page_")

# Sections in the order they are listed; a binding's section comes from its id's prefix.
SECTIONS = ("This screen", "In the table", "Go to", "Everywhere", "In the focused field")

# Textual's focus keys, in our words (Tab moves between a screen's tables and fields).
_FOCUS_WORDS = {
    "focus_next": "Next table or field",
    "focus_previous": "Previous table or field",
}


def _section(binding: Binding) -> str:
    if binding.id is None:
        action = binding.action.rsplit(".", 1)[-1]
        return "In the table" if action in _FOCUS_WORDS else "In the focused field"
    prefix = binding.id.split(".", 1)[0]
    return {"screens": "Go to", "app": "Everywhere", "table": "In the table"}.get(
        prefix, "This screen"
    )


def key_rows(screen: Screen[object]) -> dict[str, list[tuple[str, str, bool]]]:
    """(keys, description, enabled) of every binding active on `screen`, by section; an
    action bound to several keys is one row ("↓ j")."""
    found: dict[tuple[str, str], tuple[Binding, list[str], bool]] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        action = binding.action.rsplit(".", 1)[-1]
        if not binding.description or binding.system:
            continue
        if binding.id is None and action.startswith(_GENERIC_ACTIONS):
            continue
        slot = (binding.action, binding.description)
        if slot in found:
            found[slot][1].append(key)
        else:
            found[slot] = (binding, [key], active.enabled)
    sections: dict[str, list[tuple[str, str, bool]]] = {name: [] for name in SECTIONS}
    for binding, keys, enabled in found.values():
        action = binding.action.rsplit(".", 1)[-1]
        description = _FOCUS_WORDS.get(action, binding.description)
        shown = binding.key_display if binding.key_display and len(keys) == 1 else keys_name(keys)
        sections[_section(binding)].append((shown, description, enabled))
    return {name: rows for name, rows in sections.items() if rows}


class HelpScreen(ModalScreen[None]):
    """Lists the keys of `screen`; greyed keys say they are unavailable right now."""

    CSS_PATH = stylesheet("help")

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
