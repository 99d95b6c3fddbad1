"""ConfirmSpend: the one modal in front of every credit-consuming call.

Cancel has the focus and Enter cancels; only `y` (or a mouse click on the spend button, which
cannot take the focus) confirms, so no stray Enter can spend credits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from leadtui.api.contract import DEFAULT_PRICE_PER_RESULT
from leadtui.api.models import Search
from leadtui.spend.gate import SpendRequest
from leadtui.spend.quote import Quote, Unit

SERVER_PRICE = "stated by the server"
DEFAULT_PRICE = "our default: the server states no price"


def _credits(n: int) -> str:
    return f"{n:,} credit" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class SpendSummary:
    """What ConfirmSpend shows besides the request itself (which carries amount and key)."""

    title: str
    """What is bought, e.g. "Unlock 250 results"."""
    target: str
    """The search or extraction, e.g. "srch_000001 · Plumber · France · Paris"."""
    target_label: str = "Search"
    quantity: int | None = None
    """Number of results bought; None when the spend is not counted in results."""
    price_per_result: int | None = None
    price_source: str = DEFAULT_PRICE
    balance: int | None = None
    """Credits before the spend, as last read from GET /me; None when unknown."""

    @classmethod
    def unlock(cls, search: Search, count: int, balance: int | None) -> SpendSummary:
        """Unlocking `count` results of `search`; the price is the server's when it states one."""
        stated = search.price_per_result
        summary = search.extra("summary")
        target = search.searchId + (f" · {summary}" if isinstance(summary, str) else "")
        return cls(
            title=f"Unlock {count:,} result" + ("" if count == 1 else "s"),
            target=target,
            quantity=count,
            price_per_result=DEFAULT_PRICE_PER_RESULT if stated is None else stated,
            price_source=DEFAULT_PRICE if stated is None else SERVER_PRICE,
            balance=balance,
        )


def _launches(n: int) -> str:
    return f"{n:,} launch" + ("" if n == 1 else "es")


def _launch_rows(grid: Table, quote: Quote) -> None:
    """A launch costs one launch of the quota: launches left before → after, no credits."""
    grid.add_row("Cost", Text(f"{_launches(quote.total)} of the account's extraction quota"))
    if quote.balance is None:
        grid.add_row("Launches", "left: unknown (GET /me does not say)")
        return
    line = Text(f"{_launches(quote.balance)} left → {quote.balance_after or 0:,} after")
    if quote.shortfall:
        line.append("  ✗ none left: the server will refuse", style="bold")
    grid.add_row("Launches", line)


def summary_table(request: SpendRequest, summary: SpendSummary) -> Table:
    """The figures of a spend as a two-column grid (also used by the pending-spends dialog)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(summary.target_label, Text(summary.target))
    if request.quote.unit is Unit.LAUNCH:  # launches of the quota, not credits
        _launch_rows(grid, request.quote)
        grid.add_row("Key", Text(f"{request.short_key}… (the same key on every retry)"))
        return grid
    if summary.quantity is not None:
        grid.add_row("Results", f"{summary.quantity:,}")
    if summary.price_per_result is not None:
        grid.add_row(
            "Price",
            Text(f"{_credits(summary.price_per_result)} per result ({summary.price_source})"),
        )
    else:
        grid.add_row("Price", Text(summary.price_source))
    amount = request.amount
    grid.add_row("Total", "not stated by the server" if amount is None else _credits(amount))
    if summary.balance is None:
        grid.add_row("Balance", "unknown (GET /me has not answered)")
    elif amount is None:
        grid.add_row("Balance", f"{summary.balance:,} now")
    else:
        after = summary.balance - amount
        line = Text(f"{summary.balance:,} → {after:,} after")
        if after < 0:
            line.append(f"  ✗ {-after:,} short: the server will refuse", style="bold")
        grid.add_row("Balance", line)
    grid.add_row("Key", Text(f"{request.short_key}… (the same key on every retry)"))
    return grid


class ConfirmSpend(ModalScreen[bool]):
    """True only when the user pressed `y` (or clicked the spend button)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Spend", id="confirm_spend.confirm"),
        Binding("escape,n", "cancel", "Cancel", id="confirm_spend.cancel"),
    ]

    def __init__(self, request: SpendRequest, summary: SpendSummary) -> None:
        super().__init__()
        self.request = request
        self.summary = summary

    def compose(self) -> ComposeResult:
        amount = self.request.amount
        spend = "Spend" if amount is None else f"Spend {_credits(amount)}"
        if self.request.quote.unit is Unit.LAUNCH:
            spend = "Launch"
        with Vertical(id="confirm-spend-box") as box:
            box.border_title = f"Confirm: {self.summary.title}"
            yield Static(summary_table(self.request, self.summary), id="confirm-spend-figures")
            yield Static(
                f"Press [b]y[/b] to {spend.lower()}. Enter or Esc cancels; nothing is sent "
                "until you confirm.",
                id="confirm-spend-hint",
            )
            with Horizontal(id="confirm-spend-buttons"):
                yield Button("Cancel", id="confirm-spend-cancel", variant="primary")
                confirm = Button(f"{spend} (y)", id="confirm-spend-ok", variant="warning")
                confirm.can_focus = False  # never reachable by Tab + Enter
                yield confirm

    def on_mount(self) -> None:
        self.query_one("#confirm-spend-cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-spend-ok")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
