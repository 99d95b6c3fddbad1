"""ConfirmDialog: the one yes/no modal every confirmation (a spend, a job action) is built on.

Cancel has the focus and Enter cancels; only `y` (or a click on the confirm button, which
cannot take the focus) confirms, so no stray Enter or Tab + Enter says yes. The dialog has its
own footer naming its own keys ("y Spend · Esc Cancel"), never the keys of the screen below.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

CONFIRM_KEY = "y"
CONFIRM_ID = "confirm.yes"


class ConfirmDialog(ModalScreen[bool]):
    """True only when the user pressed `y` (or clicked the confirm button). Subclasses yield
    what is being confirmed from `compose_body`."""

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog > .confirm-box {
        width: 76; max-width: 95%; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 0 2;
    }
    ConfirmDialog .confirm-text { height: auto; margin: 1 0 0 0; }
    ConfirmDialog .confirm-hint { height: auto; margin: 1 0 0 0; color: $text-muted; }
    ConfirmDialog .confirm-buttons { height: auto; margin: 1 0 0 0; }
    ConfirmDialog .confirm-buttons Button { margin: 0 2 0 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # First, so the footer lists it first; `active_bindings` names it by what it does.
        Binding(CONFIRM_KEY, "confirm", "Confirm", id=CONFIRM_ID),
        Binding("escape,n", "cancel", "Cancel", id="confirm.cancel", key_display="Esc"),
    ]

    def __init__(self, title: str, confirm_label: str, *, key_label: str | None = None) -> None:
        """`confirm_label` is the button's ("Spend 100 credits"); `key_label` names the `y`
        key in the footer ("Spend"), the button's label when not given."""
        super().__init__()
        self.dialog_title = title
        self.confirm_label = confirm_label
        self.key_label = key_label or confirm_label

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """As Textual finds them, with the confirm key named by what it does ("y Spend",
        "y Stop"): the footer, help and the palette read these."""
        bindings = super().active_bindings
        for key, active in bindings.items():
            if active.binding.id == CONFIRM_ID:
                named = dataclasses.replace(active.binding, description=self.key_label)
                bindings[key] = active._replace(binding=named)
        return bindings

    def compose(self) -> ComposeResult:
        with Vertical(classes="confirm-box") as box:
            box.border_title = self.dialog_title
            yield from self.compose_body()
            yield Static(self.hint(), classes="confirm-hint", id="confirm-hint")
            with Horizontal(classes="confirm-buttons"):
                yield Button("Cancel", id="confirm-cancel", variant="primary")
                confirm = Button(
                    f"{self.confirm_label} ({CONFIRM_KEY})", id="confirm-ok", variant="warning"
                )
                confirm.can_focus = False  # never reachable by Tab + Enter
                yield confirm
        yield Footer()

    def compose_body(self) -> ComposeResult:
        """What is being confirmed, above the hint and the buttons."""
        yield from ()

    def hint(self) -> str:
        return f"{CONFIRM_KEY} confirms · Enter or Esc cancels"

    def on_mount(self) -> None:
        self.query_one("#confirm-cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm-ok":
            self.action_confirm()
        else:
            self.action_cancel()

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class ConfirmText(ConfirmDialog):
    """A confirmation whose subject is one paragraph of plain text."""

    def __init__(self, title: str, text: str, confirm_label: str) -> None:
        super().__init__(title, confirm_label)
        self.text = text

    def compose_body(self) -> ComposeResult:
        yield Static(self.text, classes="confirm-text", markup=False)
