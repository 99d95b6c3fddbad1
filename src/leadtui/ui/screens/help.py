"""Help (`?` or F1): the keys of the screen underneath, and how to reach everything else."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.key_names import keys_name

# Textual's own scrolling keys every scrollable widget has: they would bury the screen's own.
_GENERIC_ACTIONS = ("scroll_", "copy_text", "page_")

# Sections in the order they are listed; a binding's section comes from its id's prefix
# (Textual's own keys, which have no id, from the node that binds them).
SECTIONS = ("This screen", "In the table", "Go to", "Everywhere", "In the focused field")

# Textual's own keys (no binding id), in our words. Tab moves between a screen's tables and
# fields; the command palette opens on every screen.
_TEXTUAL_WORDS = {
    "focus_next": "Next table or field",
    "focus_previous": "Previous table or field",
    "command_palette": "Command palette",
}
_FOCUS_ACTIONS = ("focus_next", "focus_previous")


def _section(binding: Binding, node: DOMNode) -> str:
    if binding.id is None:
        # Textual's own keys: Tab goes with the tables; the app's and the screen's keys work
        # wherever the user is; a widget's (an input's, a list's) while it has the focus.
        action = binding.action.rsplit(".", 1)[-1]
        if action in _FOCUS_ACTIONS:
            return "In the table"
        return "Everywhere" if isinstance(node, (App, Screen)) else "In the focused field"
    prefix = binding.id.split(".", 1)[0]
    return {"screens": "Go to", "app": "Everywhere", "table": "In the table"}.get(
        prefix, "This screen"
    )


def key_rows(screen: Screen[object]) -> dict[str, list[tuple[str, str, bool]]]:
    """(keys, description, enabled) of every binding active on `screen`, by section; an
    action bound to several keys is one row ("↓ j"). Keys are named as `keys_name` names
    them ("shift+↑"), never by a footer's short form ("⇧↑"), and follow a remapped keymap."""
    # (section, description, keys, enabled) by (action, description).
    found: dict[tuple[str, str], tuple[str, str, list[str], bool]] = {}
    for key, active in screen.active_bindings.items():
        binding, description = active.binding, active.binding.description
        action = binding.action.rsplit(".", 1)[-1]
        if not description or binding.system:
            continue
        if binding.id is None and action.startswith(_GENERIC_ACTIONS):
            continue
        slot = (binding.action, description)
        if slot not in found:
            if binding.id is None:
                description = _TEXTUAL_WORDS.get(action, description)
            found[slot] = (_section(binding, active.node), description, [], active.enabled)
        found[slot][2].append(key)
    sections: dict[str, list[tuple[str, str, bool]]] = {name: [] for name in SECTIONS}
    for section, description, keys, enabled in found.values():
        sections[section].append((keys_name(keys), description, enabled))
    return {name: rows for name, rows in sections.items() if rows}


# From this many columns the keys are laid out in two columns: the screen's own on the left,
# "Go to" and "Everywhere" on the right, all in view at 100×30.
WIDE = 100
# Sections drawn in the right-hand column when there are two.
_RIGHT = ("Go to", "Everywhere")


def _keys_table(sections: dict[str, list[tuple[str, str, bool]]], *, gap: int = 2) -> Table:
    table = Table(box=None, padding=(0, gap), show_header=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for section, rows in sections.items():
        if table.row_count:
            table.add_row("", "")
        table.add_row(Text(section, style="italic"), "")
        for key, description, enabled in rows:
            note = "" if enabled else "  (not available now)"
            table.add_row(key, Text(description + note, style="" if enabled else "dim"))
    return table


class HelpScreen(ModalScreen[None]):
    """Lists the keys of `screen`; greyed keys say they are unavailable right now. Scrolls
    with ↑/↓, j/k, g/G, PgUp/PgDn; the border says when more is below or above."""

    CSS_PATH = stylesheet("help")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "dismiss", "Close", id="help.close"),
        Binding("j,down", "scroll_lines(1)", "Scroll down", id="help.down", show=False),
        Binding("k,up", "scroll_lines(-1)", "Scroll up", id="help.up", show=False),
        Binding("g,home", "scroll_to_end(False)", "Top", id="help.top", show=False),
        Binding("G,end", "scroll_to_end(True)", "Bottom", id="help.bottom", show=False),
    ]

    def __init__(self, screen: Screen[object], title: str) -> None:
        super().__init__()
        self._sections = key_rows(screen)
        self._title = title
        self._wide = False

    def compose(self) -> ComposeResult:
        self._wide = self.app.size.width >= WIDE
        with VerticalScroll(id="help-box", classes="-wide" if self._wide else "") as box:
            box.border_title = f"Keys — {self._title}"
            box.border_subtitle = "esc closes"
            if self._wide:
                left = {k: v for k, v in self._sections.items() if k not in _RIGHT}
                right = {k: v for k, v in self._sections.items() if k in _RIGHT}
                with Horizontal(id="help-columns"):
                    yield Static(_keys_table(left, gap=1), id="help-keys")
                    yield Static(_keys_table(right, gap=1), id="help-keys-right")
            else:
                yield Static(_keys_table(self._sections), id="help-keys")
            yield Static(
                "ctrl+p opens the command palette: every screen and action, by name.\n"
                "Keys can be remapped by binding id in the settings file (keymap).",
                id="help-tips",
            )

    @property
    def box(self) -> VerticalScroll:
        return self.query_one("#help-box", VerticalScroll)

    def on_mount(self) -> None:
        self.watch(self.box, "scroll_y", self._mark_more, init=False)
        self.watch(self.box, "max_scroll_y", self._mark_more, init=False)
        self.call_after_refresh(self._mark_more)

    def on_resize(self) -> None:
        if (self.app.size.width >= WIDE) != self._wide:
            self.refresh(recompose=True)
            self.call_after_refresh(self.on_mount)

    def _mark_more(self) -> None:
        """The border says what scrolling would show: more below, above, or both."""
        box = self.box
        marks = []
        if box.scroll_y > 0:
            marks.append("↑ more above")
        if box.scroll_y < box.max_scroll_y:
            marks.append("↓ more below (j/k, g/G)")
        box.border_subtitle = " · ".join([*marks, "esc closes"])

    def action_scroll_lines(self, lines: int) -> None:
        self.box.scroll_relative(y=lines, animate=False)

    def action_scroll_to_end(self, bottom: bool) -> None:
        self.box.scroll_to(y=self.box.max_scroll_y if bottom else 0, animate=False)
