"""ConfirmSpend: the one modal in front of every credit-consuming call, and its progress.

Its figures all come from the spend's `Quote`. After `y` the dialog stays up and says
"Sending… (same key on every retry)" until the server answers: a confirmed spend has no key
that cancels it. A spend the balance cannot cover is shown but never offered.
"""

from __future__ import annotations

import asyncio

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Button, Static

from leadtui.spend.journal import SpendOperation
from leadtui.spend.quote import Quote, Unit, plural
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm import CONFIRM_KEY, ConfirmDialog
from leadtui.ui.stylesheets import stylesheet

SENDING = "Sending… (same key on every retry)"


def spend_title(quote: Quote) -> str:
    """What is bought, e.g. "Unlock 250 results"."""
    if quote.operation is SpendOperation.UNLOCK:
        return f"Unlock {plural(quote.units, 'result')}"
    if quote.operation is SpendOperation.EXTRACTION_CREATE:
        return "Create and launch an extraction"
    return f"Launch extraction {quote.target}"


def quote_table(quote: Quote, short_key: str) -> Table:
    """The figures of a spend as a two-column grid."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    unlock = quote.operation is SpendOperation.UNLOCK
    grid.add_row("Search" if unlock else "Extraction", Text(quote.target))
    if quote.unit is Unit.LAUNCH:
        _launch_rows(grid, quote)
    else:
        _credit_rows(grid, quote)
    grid.add_row("Idempotency key", Text(f"{short_key}… (the same on every retry)"))
    return grid


def _credit_rows(grid: Table, quote: Quote) -> None:
    grid.add_row("Results", f"{quote.units:,}")
    grid.add_row(
        "Price", Text(f"{plural(quote.price, 'credit')} per result ({quote.price_source})")
    )
    grid.add_row("Total", quote.total_text())
    after = quote.balance_after
    if quote.balance is None or after is None:
        grid.add_row("Balance", "unknown (GET /me has not answered)")
        return
    line = Text(f"{quote.balance:,} → {after:,} after")
    if quote.shortfall:
        line.append(f"  ✗ {quote.shortfall:,} short: the server would refuse", style="bold")
    grid.add_row("Balance", line)


def _launch_rows(grid: Table, quote: Quote) -> None:
    """A launch costs one launch of the quota: launches left before → after, no credits."""
    grid.add_row("Cost", Text(f"{plural(quote.total, 'launch')} of the account's extraction quota"))
    if quote.balance is None:
        grid.add_row("Launches", "left: unknown (GET /me does not say)")
        return
    line = Text(f"{plural(quote.balance, 'launch')} left → {quote.balance_after or 0:,} after")
    if quote.shortfall:
        line.append("  ✗ none left: the server would refuse", style="bold")
    grid.add_row("Launches", line)


class ConfirmSpend(ConfirmDialog):
    """`answer` resolves True on `y`, False on Esc/Cancel (which also closes the dialog).

    From `y` on (or at once with `ask=False`: within the user's budget) the dialog shows that
    the spend is sending; the caller calls `finished()` when the server has answered.
    """

    CSS_PATH = stylesheet("spending")

    def __init__(self, request: SpendRequest, *, ask: bool = True) -> None:
        quote = request.quote
        key = "Launch" if quote.unit is Unit.LAUNCH else "Spend"
        super().__init__(f"Confirm: {spend_title(quote)}", self._label(quote), key_label=key)
        self.request = request
        self.quote = quote
        self.ask = ask
        self.is_sending = False
        self._done = False
        self.answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    @staticmethod
    def _label(quote: Quote) -> str:
        if quote.unit is Unit.LAUNCH:
            return "Launch"
        return f"Spend {quote.total_text()}"

    def compose_body(self) -> ComposeResult:
        table = quote_table(self.quote, self.request.short_key)
        yield Static(table, id="confirm-spend-figures", classes="confirm-text")

    def hint(self) -> str:
        if self.quote.shortfall:
            return (
                f"Not enough credits: {self.quote.shortfall:,} short. Nothing can be sent; "
                "Esc closes. Unlock fewer results or buy credits."
            )
        return (
            f"Press {CONFIRM_KEY} to {self.confirm_label.lower()}. Enter or Esc cancels; "
            "nothing is sent until you confirm."
        )

    def on_mount(self) -> None:
        super().on_mount()
        ok = self.query_one("#confirm-ok", Button)
        ok.disabled = bool(self.quote.shortfall)
        if not self.ask:
            self.sending(within_budget=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.is_sending and action in ("confirm", "cancel"):
            return False  # sent: only the server's answer ends it, so neither key is shown
        if action == "confirm" and self.quote.shortfall:
            return None  # shown greyed: a spend the balance cannot cover is never offered
        return True

    def sending(self, *, within_budget: bool = False) -> None:
        """The spend is on its way: say so where the user is looking; no key ends it."""
        self.is_sending = True
        note = "Within your spend_budget: sent without asking. " if within_budget else ""
        self.query_one("#confirm-hint", Static).update(
            f"{note}{SENDING}. Waiting for the server's answer: it cannot be cancelled now."
        )
        self.query_one(".confirm-buttons").display = False
        self.refresh_bindings()

    def finished(self) -> None:
        """The server answered (or the client gave up): close the dialog (once it is on top
        again, when another dialog, e.g. "quit?", was opened over it)."""
        self.is_sending = False
        self._done = True
        if self.app.screen is self:  # dismiss pops the top screen, whichever it is
            self.dismiss(True)

    def on_screen_resume(self) -> None:
        if self._done and self.app.screen is self:
            self.dismiss(True)

    def action_confirm(self) -> None:
        if not self.is_sending and not self.quote.shortfall and not self.answer.done():
            self.answer.set_result(True)
            self.sending()

    def action_cancel(self) -> None:
        if self.is_sending:
            return
        if not self.answer.done():
            self.answer.set_result(False)
        self.dismiss(False)
