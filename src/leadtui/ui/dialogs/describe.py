"""Describe: a whole record as pretty JSON, highlighted, scrollable, searchable, copyable.

Every field the server sent is here, the ones the spec does not fix included. A cursor line
selects a field: `y` copies it, `Y` the whole record (OSC 52); `/` searches, `n`/`N` move
between matches.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from leadtui.ui.frame.clipboard import copy_and_tell
from leadtui.ui.model.json_lines import (
    copy_text,
    find,
    json_lines,
    matches,
    path_text,
    value_at,
)
from leadtui.ui.widgets.table_keys import MOVEMENT_BINDINGS


class Describe(ModalScreen[None]):
    """`Describe(record, "Search srch_…")`: push it; Esc or q closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="describe.close"),
        *MOVEMENT_BINDINGS,
        Binding("slash", "search", "Search", id="describe.search", key_display="/"),
        Binding("n", "next_match(1)", "Next match", id="describe.next", show=False),
        Binding("N", "next_match(-1)", "Previous match", id="describe.previous", show=False),
        Binding("y", "copy_field", "Copy field", id="describe.copy_field"),
        Binding("Y", "copy_record", "Copy all", id="describe.copy_record", key_display="Y"),
    ]

    DEFAULT_CSS = """
    Describe { align: center middle; }
    Describe > #describe-box {
        width: 90%; height: 90%; border: round $primary; background: $surface; padding: 0 1;
    }
    Describe #describe-json { height: 1fr; }
    Describe #describe-json > Static { width: auto; }
    Describe #describe-where { height: 1; color: $text-muted; }
    Describe #describe-search { display: none; height: 1; border: none; padding: 0; }
    Describe #describe-search.-open { display: block; }
    """

    def __init__(self, record: Any, title: str) -> None:
        super().__init__()
        self.record = record
        self.title_text = title
        self.lines = json_lines(record)
        self.cursor = 0
        self.search_text = ""
        self._highlighted: list[Text] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="describe-box") as box:
            box.border_title = self.title_text
            box.border_subtitle = "y field · Y all · / search · esc closes"
            with VerticalScroll(id="describe-json"):
                yield Static(id="describe-text")
            yield Static(id="describe-where")
            yield Input(placeholder="search the record", id="describe-search")

    def on_mount(self) -> None:
        theme = "ansi_light" if "light" in self.app.theme else "ansi_dark"
        code = "\n".join(line.text for line in self.lines)
        syntax = Syntax(code, "json", theme=theme, background_color="default")
        self._highlighted = list(syntax.highlight(code).split("\n", allow_blank=True))
        self._draw()
        self.query_one("#describe-json").focus()

    def _draw(self) -> None:
        shown = [line.copy() for line in self._highlighted]
        for index in matches(self.lines, self.search_text):
            shown[index].stylize("underline")
        if 0 <= self.cursor < len(shown):
            shown[self.cursor].stylize("reverse")
        out = Text("\n", no_wrap=True, overflow="ellipsis").join(shown)
        self.query_one("#describe-text", Static).update(out)
        self.query_one("#describe-where", Static).update(self._where())
        self._keep_cursor_visible()

    def _where(self) -> str:
        where = path_text(self.lines[self.cursor].path) if self.lines else ""
        if not self.search_text:
            return where
        found = matches(self.lines, self.search_text)
        if not found:
            return f"{where} · no match for {self.search_text!r}"
        number = found.index(self.cursor) + 1 if self.cursor in found else None
        place = f"match {number} of {len(found)}" if number else f"{len(found)} matches"
        return f"{where} · {place} for {self.search_text!r} (n/N)"

    def _keep_cursor_visible(self) -> None:
        view = self.query_one("#describe-json", VerticalScroll)
        height = max(1, view.scrollable_content_region.height)
        if self.cursor < view.scroll_y:
            view.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= view.scroll_y + height:
            view.scroll_to(y=self.cursor - height + 1, animate=False)

    def _go(self, line: int) -> None:
        self.cursor = max(0, min(len(self.lines) - 1, line))
        self._draw()

    def action_cursor_down(self) -> None:
        self._go(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self._go(self.cursor - 1)

    def _page(self) -> int:
        height = self.query_one("#describe-json", VerticalScroll).scrollable_content_region.height
        return max(1, height - 1)

    def action_page_down(self) -> None:
        self._go(self.cursor + self._page())

    def action_page_up(self) -> None:
        self._go(self.cursor - self._page())

    def action_half_page(self, direction: int) -> None:
        self._go(self.cursor + direction * max(1, self._page() // 2))

    def action_first(self) -> None:
        self._go(0)

    def action_last(self) -> None:
        self._go(len(self.lines) - 1)

    def action_search(self) -> None:
        box = self.query_one("#describe-search", Input)
        box.add_class("-open")
        box.value = self.search_text
        box.focus()

    @on(Input.Changed, "#describe-search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.search_text = event.value
        found = find(self.lines, self.search_text, self.cursor)
        if found is not None:
            self.cursor = found
        self._draw()

    @on(Input.Submitted, "#describe-search")
    def _search_done(self) -> None:
        self.query_one("#describe-search", Input).remove_class("-open")
        self.query_one("#describe-json").focus()

    def action_next_match(self, step: int) -> None:
        found = find(self.lines, self.search_text, self.cursor + step, step)
        if found is not None:
            self._go(found)

    def action_copy_field(self) -> None:
        path = self.lines[self.cursor].path
        copy_and_tell(self.app, copy_text(value_at(self.record, path)), path_text(path))

    def action_copy_record(self) -> None:
        record = json.dumps(self.record, ensure_ascii=False, indent=2)
        copy_and_tell(self.app, record, "the whole record as JSON")

    def action_close(self) -> None:
        search = self.query_one("#describe-search", Input)
        if search.has_class("-open"):
            # Esc while searching ends the search, not the dialog.
            search.remove_class("-open")
            self.search_text = ""
            self._draw()
            self.query_one("#describe-json").focus()
            return
        self.dismiss(None)
