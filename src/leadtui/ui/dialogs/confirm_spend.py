"""ConfirmSpend: the one modal in front of every credit-consuming call; it renders the spend
decision and its progress.

Its figures all come from the decision's quote (re-priced against the balance read when it
opened). A decision that asks offers `y` and says why it asks; one that sends without asking
(within the budget) says so while it sends; a refusal opens no dialog (it is shown where errors
are). After `y` the dialog stays up saying "Sending… (same key on every retry)" until the
server answers: a confirmed spend has no key that cancels it.
"""

from __future__ import annotations

import asyncio

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from leadtui.spend.decision import Decision
from leadtui.spend.intent import SpendOperation
from leadtui.spend.quote import Quote, Unit, plural
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm import CONFIRM_KEY, ConfirmDialog
from leadtui.ui.frame.stylesheets import stylesheet

SENDING = "Sending… (same key on every retry)"


def spend_title(quote: Quote) -> str:
    """What is bought, e.g. "Unlock 250 results"."""
    if quote.operation is SpendOperation.UNLOCK:
        return f"Unlock {plural(quote.units, 'result')}"
    if quote.operation is SpendOperation.EXTRACTION_CREATE:
        return "Create and launch an extraction"
    return f"Launch extraction {quote.target}"


def quote_table(decision: Decision, short_key: str, asker: str | None = None) -> Table:
    """The figures of a spend as a two-column grid (first who asks for it, when another
    process does)."""
    quote = decision.quote
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    if asker is not None:
        grid.add_row("Asked by", Text(asker))
    unlock = quote.operation is SpendOperation.UNLOCK
    grid.add_row("Search" if unlock else "Extraction", Text(quote.target))
    if quote.unit is Unit.LAUNCH:
        _launch_rows(grid, quote)
    else:
        _credit_rows(grid, quote)
        grid.add_row("Budget", Text(decision.budget.text()))
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
        line.append(f"  ✗ {quote.shortfall:,} short", style="bold")
    grid.add_row("Balance", line)


def _launch_rows(grid: Table, quote: Quote) -> None:
    """A launch costs one launch of the quota: launches left before → after, no credits."""
    grid.add_row("Cost", Text(f"{plural(quote.total, 'launch')} of the account's extraction quota"))
    if quote.balance is None:
        grid.add_row("Launches", "left: unknown (GET /me does not say)")
        return
    line = Text(f"{plural(quote.balance, 'launch')} left → {quote.balance_after or 0:,} after")
    if quote.shortfall:
        line.append("  ✗ none left", style="bold")
    grid.add_row("Launches", line)


class ConfirmSpend(ConfirmDialog):
    """`answer` resolves True on `y`, False on Esc/Cancel (which also closes the dialog).

    From `y` on (or at once when the decision sends without asking) the dialog shows that the
    spend is sending; the caller calls `finished()` when the server has answered.
    """

    CSS_PATH = stylesheet("spending")

    def __init__(
        self, request: SpendRequest, decision: Decision, *, asker: str | None = None
    ) -> None:
        """`asker`: another process asks for this spend and sends it once approved (the
        Approvals screen); the dialog then asks for an approval, not a spend."""
        quote = decision.quote
        launch = quote.unit is Unit.LAUNCH
        if asker is not None:
            title, key = "Approve", "Approve"
            label = "Approve the launch" if launch else f"Approve {quote.total_text()}"
        else:
            title, key = "Confirm", "Launch" if launch else "Spend"
            label = key if launch else f"Spend {quote.total_text()}"
        super().__init__(f"{title}: {spend_title(quote)}", label, key_label=key)
        self.request = request
        self.decision = decision
        self.asker = asker
        self.is_sending = False
        self._done = False
        self.answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def compose_body(self) -> ComposeResult:
        table = quote_table(self.decision, self.request.short_key, self.asker)
        yield Static(table, id="confirm-spend-figures", classes="confirm-text")

    def hint(self) -> str:
        if self.asker is not None:
            return (
                f"{self.asker} asks for this spend and sends it once you approve; this app "
                f"sends nothing itself. {self.decision.message} Press {CONFIRM_KEY} to "
                f"{self.confirm_label.lower()}. Enter or Esc cancels; the request then still "
                "waits."
            )
        return (
            f"{self.decision.message} Press {CONFIRM_KEY} to {self.confirm_label.lower()}. "
            "Enter or Esc cancels; nothing is sent until you confirm."
        )

    def on_mount(self) -> None:
        super().on_mount()
        if self.decision.sends:
            self.sending(note=f"{self.decision.message} Sent without asking. ")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Sent: only the server's answer ends it, so neither key is shown.
        return not (self.is_sending and action in ("confirm", "cancel"))

    def sending(self, *, note: str = "") -> None:
        """The spend is on its way: say so where the user is looking; no key ends it."""
        self.is_sending = True
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
        if not self.is_sending and not self.answer.done():
            self.answer.set_result(True)
            if self.asker is None:
                self.sending()  # an approval is written, not sent: the dialog closes at once

    def action_cancel(self) -> None:
        if self.is_sending:
            return
        if not self.answer.done():
            self.answer.set_result(False)
        self.dismiss(False)
