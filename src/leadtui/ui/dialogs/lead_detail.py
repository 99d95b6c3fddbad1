"""LeadDetail: one lead record, every field on its own line; `Y` copies it as JSON."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.lead_rows import cell_text


class LeadDetail(ModalScreen[None]):
    CSS_PATH = stylesheet("searches")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "dismiss", "Close", id="lead_detail.close", key_display="Esc"),
        Binding("Y", "copy_row", "Copy as JSON", id="lead_detail.copy", key_display="Y"),
    ]

    def __init__(self, record: dict[str, Any], title: str) -> None:
        super().__init__()
        self.record = record
        self.title_text = title

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(overflow="fold")
        for name, value in self.record.items():
            grid.add_row(name, Text(cell_text(value)))
        with VerticalScroll(id="lead-detail-box") as box:
            box.border_title = self.title_text
            box.border_subtitle = "Y copies as JSON · esc closes"
            yield Static(grid)
        yield Footer()  # this dialog's keys, not the screen's below

    def action_copy_row(self) -> None:
        self.app.copy_to_clipboard(json.dumps(self.record, ensure_ascii=False))
        self.notify("Copied the lead as JSON", timeout=3)
