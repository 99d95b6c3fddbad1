"""UnlockCount: how many more results to unlock (1 to min(50,000, what remains))."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from leadtui.api.models import ADDITIONAL_RESULTS_MAX, ADDITIONAL_RESULTS_MIN


class UnlockCount(ModalScreen[int | None]):
    """The count to unlock, or None. Choosing spends nothing: ConfirmSpend comes next."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="unlock_count.cancel"),
    ]

    def __init__(self, search_id: str, remaining: int, price: int, price_source: str) -> None:
        super().__init__()
        self.search_id = search_id
        self.maximum = max(0, min(ADDITIONAL_RESULTS_MAX, remaining))
        self.remaining = remaining
        self.price = price
        self.price_source = price_source

    def compose(self) -> ComposeResult:
        with Vertical(id="unlock-count-box") as box:
            box.border_title = f"Unlock results of {self.search_id}"
            box.border_subtitle = "Enter: review the cost · Esc: cancel"
            yield Static(
                f"{self.remaining:,} results are still locked. Unlock "
                f"{ADDITIONAL_RESULTS_MIN} to {self.maximum:,} now "
                f"({self.price} credit{'s' if self.price != 1 else ''} each, {self.price_source}).",
                id="unlock-count-text",
            )
            yield Input(str(min(100, self.maximum)), type="integer", id="unlock-count-input")
            yield Static("", id="unlock-count-reason")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._check(self.query_one(Input).value)

    def _count(self, value: str) -> int | None:
        try:
            count = int(value)
        except ValueError:
            return None
        return count if ADDITIONAL_RESULTS_MIN <= count <= self.maximum else None

    def _check(self, value: str) -> None:
        count = self._count(value)
        reason = self.query_one("#unlock-count-reason", Static)
        if count is None:
            reason.update(f"✗ additional_results: {value or 'empty'} is not 1 to {self.maximum:,}")
        else:
            reason.update(f"✓ costs {count * self.price:,} credits — confirmed on the next screen")
        reason.set_class(count is None, "-invalid")

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._check(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        count = self._count(event.value)
        if count is not None:
            self.dismiss(count)

    def action_cancel(self) -> None:
        self.dismiss(None)
