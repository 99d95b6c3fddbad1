"""CustomDownload: pick the authorized columns and the format of a custom archive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.segment import Segment
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.strip import Strip
from textual.widgets import Button, RadioButton, RadioSet, SelectionList, Static
from textual.widgets.selection_list import SelectionType

from leadtui.ui.frame.stylesheets import stylesheet

# The mark inside a ticked box and an empty one: told apart without colour (NO_COLOR).
TICKED, UNTICKED = "✓", " "


class ColumnList(SelectionList[SelectionType]):
    """A SelectionList whose boxes read ✓ when ticked and stay empty when not (Textual draws
    the same X in both and tells them apart by colour alone)."""

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        segments = list(line)
        index = self.scroll_offset.y + y
        if len(segments) < 3 or index >= self.option_count:
            return line
        ticked = self.get_option_at_index(index).value in self.selected
        box = segments[1]
        segments[1] = Segment(TICKED if ticked else UNTICKED, box.style, box.control)
        return Strip(segments, line.cell_length)


class FormatButton(RadioButton):
    """A RadioButton whose dot shows only when chosen (not the same dot in another colour)."""

    def render(self) -> Content:
        self.BUTTON_INNER = "●" if self.value else " "
        return super().render()


@dataclass(frozen=True)
class CustomDownloadChoice:
    columns: list[str]
    format: Literal["csv", "json"]


class CustomDownload(ModalScreen[CustomDownloadChoice | None]):
    """Columns (all ticked to start with) and csv/json; None when cancelled."""

    CSS_PATH = stylesheet("jobs")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="custom_download.cancel"),
        Binding("ctrl+s", "download", "Download", id="custom_download.download"),
    ]

    def __init__(self, export_id: str, columns: Sequence[str]) -> None:
        super().__init__()
        self._export_id = export_id
        self._columns = list(columns)

    def compose(self) -> ComposeResult:
        with Vertical(classes="job-dialog", id="custom-download") as box:
            box.border_title = f"Custom download of {self._export_id}"
            yield Static(
                f"Columns ({TICKED} = in the archive; space toggles):", classes="job-dialog-hint"
            )
            yield ColumnList[str](
                *((name, name, True) for name in self._columns), id="custom-columns"
            )
            with RadioSet(id="custom-format"):
                yield FormatButton("CSV", value=True, id="format-csv")
                yield FormatButton("JSON", id="format-json")
            yield Static("", id="custom-status", classes="job-dialog-hint")
            with Horizontal(classes="job-dialog-buttons"):
                yield Button("Cancel", id="custom-cancel", action="screen.dismiss")
                yield Button(
                    "Download (ctrl+s)", id="custom-ok", variant="primary", action="screen.download"
                )

    def on_mount(self) -> None:
        self.query_one("#custom-columns").focus()

    def action_download(self) -> None:
        columns = self.query_one("#custom-columns", SelectionList).selected
        if not columns:
            self.query_one("#custom-status", Static).update("✗ Pick at least one column.")
            return
        json_format = self.query_one("#format-json", RadioButton).value
        # Keep the server's column order, not the order of ticking.
        ordered = [name for name in self._columns if name in columns]
        self.dismiss(CustomDownloadChoice(ordered, "json" if json_format else "csv"))
