"""Approvals (`A` or the palette): spends other processes ask this app to approve.

Each row says who asks (the agent's name, or "command line"), its process id and when, what
it would spend, and the balance read just now (again whenever the journal moves). `y` opens
the same confirmation as any spend in the app; its yes is written into the journal for the
asker, which then sends the spend itself (the app never sends it). `n` denies. A row whose
quote changed is marked stale (its asker quotes again); another account's or server's, or a
request that does not match its spend, is shown and never approved: `y` there says why.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from leadtui.api.errors import LeadError
from leadtui.api.keys import short_key
from leadtui.spend.account import SpendAccount
from leadtui.spend.approvals import Answer, ApprovalRequest, Party, Ruling, UnreadableApproval
from leadtui.spend.decision import Authorization, Surface, Verdict
from leadtui.spend.errors import JournalError, SpendBlocked
from leadtui.spend.origin import spend_origin
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm_spend import ConfirmSpend
from leadtui.ui.model.approval_review import (
    Review,
    Standing,
    rebuilt_spend,
    review,
    settled_standing,
)
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.watches.journal_watch import JournalWatcher
from leadtui.ui.widgets.view_table import ViewTable

# The spend's words last: a search's summary may be long.
COLUMNS = ("State", "Who", "PID", "Asked", "Total", "Balance now", "Spend")
APP_NAME = "leadtui app"
NOTE = (
    "Spends asked by scripts and agents that cannot ask you themselves. y approves (the "
    "asking process sends it), n denies. Nothing is sent by this app."
)


def detail(row: Review) -> str:
    """The focused request in full: who, when, what, the price, the balance read now."""
    request, quote = row.request, row.fresh or row.request.quote
    when = request.asker.at.strftime("%Y-%m-%d %H:%M:%S %Z")
    return (
        f"{request.asker.label} asked at {when} to {row.what}: {quote.total_text()} "
        f"({quote.price_source.value}). Balance now: {row.balance}. "
        f"Idempotency key {short_key(request.idempotency_key)}…, profile {request.profile}, "
        f"{request.account.label}. {row.standing.value.capitalize()}."
    )


def why_not(row: Review) -> str:
    """Why `y` approves nothing on this row, in a person's words."""
    request = row.request
    if row.standing is Standing.ANOTHER_SERVER:
        return (
            f"This request is for another server ({request.origin}); this app spends on "
            "another. Approve it in leadtui running against that server."
        )
    if row.standing is Standing.ANOTHER_PROFILE:
        return f"This request is for profile '{request.profile}'; approve it in that profile."
    if row.standing is Standing.ANOTHER_ACCOUNT:
        return f"This request spends from {request.account.label}, not this app's account."
    if row.standing is Standing.CHECKING:
        return "The quote is still being checked; try again in a moment."
    return f"This request is {row.standing.value}: there is nothing to approve."


def _cells(row: Review) -> tuple[str, ...]:
    request = row.request
    return (
        row.standing.value,
        request.asker.name,
        str(request.asker.pid),
        request.asker.at.strftime("%H:%M:%S"),
        request.quote.total_text(),
        row.balance,
        row.short_what,
    )


def _record(row: Review) -> dict[str, Any]:
    doc = row.request.to_json()
    doc["state"] = row.standing.value
    if row.request.answer is not None:
        doc["answer"] = row.request.answer.to_json()
    return doc


class ApprovalsScreen(LeadScreen):
    """Pushed over the current screen; Esc goes back."""

    LABEL = "Approvals"
    AUTO_FOCUS = "#approvals-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "approve", "Approve (confirm)", id="approvals.approve"),
        Binding("n", "deny", "Deny", id="approvals.deny"),
        Binding("r", "recheck", "Check the quotes again", id="approvals.recheck"),
        Binding("escape,q", "dismiss", "Back", id="approvals.back"),
    ]

    DEFAULT_CSS = """
    ApprovalsScreen #approvals-table { height: 1fr; }
    ApprovalsScreen #approvals-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, watcher: JournalWatcher) -> None:
        super().__init__()
        self.watcher = watcher
        self.rows: list[Review] = []
        self._fresh: dict[str, Quote] = {}
        """The app's own quote of each request's spend, by its request hash."""
        self._account: SpendAccount | None = None
        self._spends_seen = watcher.spends_moved
        self._built: dict[str, SpendRequest] = {}
        self._drawn: list[tuple[str, ...]] | None = None

    def compose_body(self) -> ComposeResult:
        yield ViewTable(
            "Approvals",
            COLUMNS,
            _cells,
            row_id=lambda row: row.request.id,
            record=_record,
            copy_id=lambda row: row.request.idempotency_key,
            id="approvals-table",
        )
        yield Static(NOTE, id="approvals-note", markup=False)

    def on_mount(self) -> None:
        super().on_mount()
        self._table.border_subtitle = "y approve · n deny · r check again · esc back"
        self.watcher.changed.subscribe(self, self._changed)
        self._show()
        self.call_after_refresh(self._show)  # the table's columns are there by then
        self.recheck()

    @property
    def _table(self) -> ViewTable[Review]:
        table: ViewTable[Review] = self.query_one("#approvals-table", ViewTable)
        return table

    def _changed(self, watcher: JournalWatcher) -> None:
        if watcher.spends_moved != self._spends_seen:
            # A spend moved the balance: every open request is quoted again.
            self._spends_seen = watcher.spends_moved
            self._fresh.clear()
        self._show()
        if any(row.standing is Standing.CHECKING for row in self.rows):
            self.recheck()

    def _review(self, request: ApprovalRequest) -> Review:
        account = self._account
        if account is None or self.lead_app.session is None:
            # Whose account this app spends from is not known yet: nothing is judged.
            return Review(request, settled_standing(request) or Standing.CHECKING)
        return review(
            request,
            profile=self.lead_app.deps.profile,
            origin=spend_origin(self.lead_app.client.base_url),
            account=account,
            fresh=self._fresh.get(request.request_hash),
            built=self._spend_of,
        )

    def _spend_of(self, request: ApprovalRequest) -> SpendRequest:
        """The row's spend at its own quote, built once for what the row says now."""
        says = json.dumps([request.request_hash, request.to_json()], sort_keys=True)
        if says not in self._built:
            self._built[says] = rebuilt_spend(request, request.quote)
        return self._built[says]

    def _show(self) -> None:
        self.rows = [self._review(r) for r in reversed(self.watcher.requests)]
        table = self._table
        cells = [_cells(row) for row in self.rows]
        # Redrawn only when a cell changed (a thousand rows are measured on each redraw), and
        # once the table has its columns (cells added before them would be cut to the labels).
        if (cells != self._drawn or not cells) and table.columns:
            self._drawn = cells
            at_top = table.cursor_row == 0
            table.set_rows(self.rows)
            if at_top:
                table.move_cursor(row=0, animate=False)
        else:
            table.view.set_rows(self.rows)  # the same cells: the rows behind them, not redrawn
        self._describe_focused()

    @on(DataTable.RowHighlighted, "#approvals-table")
    def _describe_focused(self) -> None:
        row = self._table.focused_row
        self.query_one("#approvals-note", Static).update(NOTE if row is None else detail(row))
        self.refresh_bindings()

    # --- reading the quotes again -------------------------------------------------------

    @work(exclusive=True, group="approvals-recheck")
    async def recheck(self) -> None:
        """Quote every open request again with a balance read now; mark the stale ones."""
        app = self.lead_app
        if app.session is None:
            return
        with self.request("recheck", "Reading the balance and prices…"):
            try:
                gate = await app.spending()
                self._account = await gate.account_of(app.client)
                await app.refresh_identity()
                for request in self.watcher.requests:
                    # One quote per spend, however often it is asked.
                    checking = self._review(request).standing is Standing.CHECKING
                    if checking and request.request_hash not in self._fresh:
                        asked = rebuilt_spend(request, request.quote)
                        decided = await gate.decide(asked, app.client, Authorization(Surface.APP))
                        self._fresh[request.request_hash] = decided.quote
            except (LeadError, SpendBlocked, JournalError) as error:
                self.show_error(error)
                return
        self._show()
        stale = [row for row in self.rows if row.standing is Standing.STALE]
        for row in stale:
            await self._answer(row, Ruling.STALE, quiet=True)

    def action_recheck(self) -> None:
        self._fresh.clear()
        self.recheck()

    # --- answering ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("approve", "deny"):
            row = self._table.focused_row if self.is_mounted else None
            if row is None:
                return None
            if action == "approve":
                return True  # a row that cannot be approved here says why
            open_rows = (Standing.WAITING, Standing.CHECKING, Standing.CHANGED)
            return True if row.standing in open_rows else None
        return super().check_action(action, parameters)

    @work(group="approvals-answer")
    async def action_approve(self) -> None:
        row = self._table.focused_row
        if row is None:
            return
        if not row.approvable or row.spend is None:
            self.app.notify(why_not(row), title="Not approved here", severity="warning")
            return
        gate = await self.lead_app.spending()
        decision = await gate.decide(row.spend, self.lead_app.client, Authorization(Surface.APP))
        if decision.verdict is Verdict.REFUSE:
            self.app.notify(decision.message, title="Not approved", severity="warning")
            return
        # Approving is a person's yes to exactly this quote: the dialog always asks.
        asked = dataclasses.replace(decision, verdict=Verdict.ASK, authorized_by=None)
        dialog = ConfirmSpend(row.spend, asked, asker=row.request.asker.label)
        await self.app.push_screen(dialog)
        try:
            if not await dialog.answer:
                self.app.notify("Not approved: the request still waits.", timeout=4)
                return
            # The request may have changed while the dialog was up: judge it once more.
            desk = self.watcher.desk
            try:
                current = await asyncio.to_thread(desk.get, row.request.id) if desk else None
            except (UnreadableApproval, JournalError):
                current = None
            again = self._review(current) if current is not None else None
            if again is None or not again.approvable or again.spend != row.spend:
                self.app.notify(
                    "The request changed or ended while you looked: nothing was approved.",
                    severity="warning",
                    timeout=6,
                )
                return
            await self._answer(row, Ruling.APPROVED)
        finally:
            dialog.finished()

    @work(group="approvals-answer")
    async def action_deny(self) -> None:
        row = self._table.focused_row
        if row is not None:
            await self._answer(row, Ruling.DENIED)

    async def _answer(self, row: Review, verdict: Ruling, *, quiet: bool = False) -> None:
        request = row.request
        quote = row.fresh or request.quote
        answer = Answer(
            verdict,
            Party.here("app", APP_NAME),
            request.idempotency_key,
            row.spend.request_hash if row.spend is not None else request.request_hash,
            quote.total,
            self._account or request.account,
        )
        try:
            desk = self.watcher.desk
            won = desk is not None and await asyncio.to_thread(desk.answer, request.id, answer)
        except JournalError as error:
            self.app.notify(f"The answer could not be written: {error}", severity="error")
            return
        if not won:
            if not quiet:
                self.app.notify(
                    "Already answered (in another window, or the asker stopped waiting): "
                    "nothing was changed here.",
                    severity="warning",
                    timeout=6,
                )
        elif verdict is Ruling.APPROVED:
            self.app.notify(
                f"{request.asker.label} sends {row.what} ({quote.total_text()}) with key "
                f"{short_key(request.idempotency_key)}…",
                title="Approved by you",
                timeout=6,
            )
        elif verdict is Ruling.DENIED:
            self.app.notify(
                f"{request.asker.label} sends nothing ({row.what}).",
                title="Denied by you",
                timeout=6,
            )
        try:
            await self.watcher.read_now()
        except JournalError as error:
            self.show_error(error)
