"""CustomDownload: pick the authorized columns and the format of a custom archive."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, RadioButton, RadioSet, SelectionList, Static


@dataclass(frozen=True)
class CustomDownloadChoice:
    columns: list[str]
    format: Literal["csv", "json"]


class CustomDownload(ModalScreen[CustomDownloadChoice | None]):
    """Columns (all ticked to start with) and csv/json; None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="custom_download.cancel"),
        Binding("ctrl+s", "download", "Download", id="custom_download.download"),
    ]

    def __init__(self, export_id: str, columns: Sequence[str]) -> None:
        super().__init__()
        self._export_id = export_id
        self._columns = list(columns)

    def compose(self) -> ComposeResult:
        with Vertical(classes="job-dialog", id="custom-download") as box:
            box.border_title = f"Custom download of {self._export_id}"
            yield Static("Columns (space toggles):", classes="job-dialog-hint")
            yield SelectionList[str](
                *((name, name, True) for name in self._columns), id="custom-columns"
            )
            with RadioSet(id="custom-format"):
                yield RadioButton("CSV", value=True, id="format-csv")
                yield RadioButton("JSON", id="format-json")
            yield Static("", id="custom-status", classes="job-dialog-hint")
            with Horizontal(classes="job-dialog-buttons"):
                yield Button("Cancel", id="custom-cancel")
                yield Button("Download (ctrl+s)", id="custom-ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#custom-columns").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "custom-ok":
            self.action_download()
        else:
            self.dismiss(None)

    def action_download(self) -> None:
        columns = self.query_one("#custom-columns", SelectionList).selected
        if not columns:
            self.query_one("#custom-status", Static).update("✗ Pick at least one column.")
            return
        json_format = self.query_one("#format-json", RadioButton).value
        # Keep the server's column order, not the order of ticking.
        ordered = [name for name in self._columns if name in columns]
        self.dismiss(CustomDownloadChoice(ordered, "json" if json_format else "csv"))

    def action_cancel(self) -> None:
        self.dismiss(None)
