"""UnlockCount: how many more results to unlock, at most what the balance pays for and what is
still locked (and never more than one unlock may ask for). Choosing spends nothing."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from leadtui.api.models import ADDITIONAL_RESULTS_MIN, Search
from leadtui.spend.quote import Quote, affordable_results, plural, still_locked
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.widgets.text_fields import WholeNumberField

SUGGESTED = 100


class UnlockCount(ModalScreen[int | None]):
    """The count to unlock, or None. ConfirmSpend comes next."""

    CSS_PATH = stylesheet("searches")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="unlock_count.cancel", key_display="Esc"),
    ]

    def __init__(self, search: Search, quote: Quote) -> None:
        """`quote`: the spend decision's quote for unlocking results of `search` (a balance
        read just before, the price that counts: stated or observed). Every figure shown is
        that quote's, for the count typed."""
        super().__init__()
        self.search = search
        self.quote = quote
        self.maximum, capped_by = affordable_results(search, quote.balance, quote.price)
        self.locked = still_locked(search)
        unlimited = "all that is still locked" if self.locked is not None else "one unlock"
        self.capped_by = capped_by or unlimited

    def compose(self) -> ComposeResult:
        quote = self.quote
        locked = "An unknown number of" if self.locked is None else f"{self.locked:,}"
        with Vertical(id="unlock-count-box") as box:
            box.border_title = f"Unlock results of {self.search.searchId}"
            box.border_subtitle = "Enter reviews the cost · Esc cancels"
            yield Static(
                f"{locked} results are still locked; {plural(quote.price, 'credit')} each "
                f"({quote.price_source}). Unlock {ADDITIONAL_RESULTS_MIN} to "
                f"{self.maximum:,} now ({self.capped_by}).",
                id="unlock-count-text",
            )
            yield WholeNumberField(
                str(min(SUGGESTED, self.maximum)),
                what="the count",
                id="unlock-count-input",
            )
            yield Static("", id="unlock-count-reason")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._check()

    def _count(self, value: str) -> int | None:
        if self.query_one(WholeNumberField).refused is not None:
            return None  # "1.5" reads 15: never taken for what was typed
        try:
            count = int(value)
        except ValueError:
            return None
        return count if ADDITIONAL_RESULTS_MIN <= count <= self.maximum else None

    @on(Input.Changed)
    @on(WholeNumberField.Refused)
    def _check(self) -> None:
        value = self.query_one(Input).value
        count = self._count(value)
        reason = self.query_one("#unlock-count-reason", Static)
        refused = self.query_one(WholeNumberField).reason
        if refused is not None:
            reason.update(f"✗ additional_results: {refused}")
        elif count is not None:
            cost = self.quote.with_units(count).total_text()
            reason.update(f"✓ costs {cost} — confirmed on the next screen")
        elif value.strip().lstrip("-").isdigit() and int(value) > self.maximum:
            reason.update(f"✗ additional_results: at most {self.maximum:,} ({self.capped_by})")
        else:
            reason.update(
                f"✗ additional_results: a whole number from {ADDITIONAL_RESULTS_MIN} "
                f"to {self.maximum:,}"
            )
        reason.set_class(count is None, "-invalid")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_choose()

    def action_choose(self) -> None:
        count = self._count(self.query_one(Input).value)
        if count is not None:
            self.dismiss(count)
