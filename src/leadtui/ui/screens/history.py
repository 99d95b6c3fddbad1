"""History: this session's requests and notifications, newest first, filterable, copyable;
below them, the spend journal's spends, who asked for each (the app, the command line, an
agent) and who approved it.

What a user pastes into a support ticket: time, method and path, status, how long it took,
the request id and the idempotency key's short form. Never the API key: entries hold none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from leadtui.spend.approval_parties import ApprovedSpends
from leadtui.spend.approvals import ApprovalDesk
from leadtui.spend.errors import JournalError
from leadtui.spend.intent import SpendIntent
from leadtui.spend.origin import spend_origin
from leadtui.ui.frame.clipboard import copy_and_tell
from leadtui.ui.model.history import COLUMNS, HistoryEntry
from leadtui.ui.model.spend_history import SPEND_COLUMNS, SpendRow
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.widgets.view_table import ViewTable


class HistoryScreen(LeadScreen):
    """Pushed over the current screen (`H` or the palette); Esc goes back."""

    LABEL = "History"
    AUTO_FOCUS = "#history-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Back", id="history.back"),
        Binding("y", "copy_line", "Copy line", id="history.copy_line"),
        Binding("Y", "copy_shown", "Copy all shown", id="history.copy_shown", key_display="Y"),
    ]

    DEFAULT_CSS = """
    HistoryScreen #history-table { height: 1fr; }
    HistoryScreen #history-spends { height: auto; max-height: 9; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._stop_listening: Callable[[], None] | None = None

    def compose_body(self) -> ComposeResult:
        yield ViewTable(
            "History",
            COLUMNS,
            HistoryEntry.cells,
            row_id=lambda entry: f"#{entry.number}",
            record=HistoryEntry.record,
            copy_id=lambda entry: entry.request_id,
            id="history-table",
        )
        yield ViewTable(
            "Spends",
            SPEND_COLUMNS,
            SpendRow.cells,
            row_id=lambda row: row.key,
            record=SpendRow.record,
            id="history-spends",
        )

    def on_mount(self) -> None:
        table = self._table
        table.border_subtitle = "newest first · / filter · y copy line · Enter describes"
        self._stop_listening = self.lead_app.history.listen(self._changed)
        self._fill()
        spends = self.query_one("#history-spends", ViewTable)
        spends.border_subtitle = "the spend journal · who asked (pid), who approved · newest first"
        self._load_spends()

    @work(group="history-spends")
    async def _load_spends(self) -> None:
        """The spends of this profile on the server and account the app is on, in the
        journal, whichever surface made them, with who asked for each and who approved it
        (the journal's approval requests). Spends elsewhere are not this account's money: the
        border says how many were left out."""
        app = self.lead_app
        client = app.client
        try:
            gate = await app.spending()
            account = await gate.account_of(client)
            intents: list[SpendIntent] = await asyncio.to_thread(gate.journal.history, 50)
        except JournalError as error:
            app.notify_error(error)
            return
        origin = spend_origin(client.base_url)
        approved = await asyncio.to_thread(ApprovedSpends.read, ApprovalDesk(gate.journal))
        profiles = [intent for intent in intents if intent.profile == gate.profile]
        here = [i for i in profiles if i.origin == origin and i.account.same_as(account)]
        spends = self.query_one("#history-spends", ViewTable)
        spends.set_rows([SpendRow(intent, approved.parties(intent)) for intent in here])
        elsewhere = len(profiles) - len(here)
        # Elsewhere: another server, or another account on this one.
        others = f" · {elsewhere:,} elsewhere not shown" if elsewhere else ""
        spends.border_subtitle = f"{account.label} at {origin}{others} · newest first"

    def on_unmount(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()

    @property
    def _table(self) -> ViewTable[HistoryEntry]:
        table: ViewTable[HistoryEntry] = self.query_one("#history-table", ViewTable)
        return table

    def _changed(self) -> None:
        # Told from inside a request's bookkeeping: redraw after it, not during it.
        self.call_later(self._fill)

    def _fill(self) -> None:
        table = self._table
        at_top = table.cursor_row == 0
        table.set_rows(self.lead_app.history.entries())
        if at_top:
            table.move_cursor(row=0, animate=False)  # the newest line stays in view

    def action_copy_line(self) -> None:
        entry = self._table.focused_row
        if entry is not None:
            copy_and_tell(self.app, entry.line(), "the line")

    def action_copy_shown(self) -> None:
        shown = self._table.view.shown
        if shown:
            lines = "\n".join(entry.line() for entry in shown)
            copy_and_tell(self.app, lines, f"{len(shown):,} lines")

    @on(DataTable.RowSelected, "#history-table")
    def _describe(self) -> None:
        self._table.action_describe()
