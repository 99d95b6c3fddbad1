"""ConfirmJobAction: yes/no in front of a job action that is not a spend (retry, stop)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmJobAction(ModalScreen[bool]):
    """True when the user pressed `y` or the action button; Esc/`n`/Cancel answer False."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Yes", id="confirm_job.confirm"),
        Binding("escape,n", "cancel", "Cancel", id="confirm_job.cancel"),
    ]

    def __init__(self, title: str, text: str, action_label: str) -> None:
        super().__init__()
        self._title = title
        self._text = text
        self._action_label = action_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="job-dialog") as box:
            box.border_title = self._title
            yield Static(self._text, classes="job-dialog-text", markup=False)
            yield Static("y confirms · Esc cancels", classes="job-dialog-hint")
            with Horizontal(classes="job-dialog-buttons"):
                yield Button("Cancel", id="job-cancel", variant="primary")
                yield Button(f"{self._action_label} (y)", id="job-confirm", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#job-cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "job-confirm")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
