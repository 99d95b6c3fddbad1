"""The leads of a ready export, or of an extraction: live (grows while it runs) or archived."""

from __future__ import annotations

from typing import Any, ClassVar, Final, Literal

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from leadtui.api.errors import LeadError
from leadtui.api.models import Lead, Page
from leadtui.ui.model.job_board import JobBoard
from leadtui.ui.screens.base import LeadScreen

# Rows kept on screen; the download has them all.
MAX_ROWS: Final = 1000
PAGE_SIZE: Final = 100


class JobResultsScreen(LeadScreen):
    """Pushed from the jobs screen; Esc goes back."""

    LABEL = "Results"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", "Back", id="results.back"),
        Binding("r", "reload", "Refresh", id="results.refresh"),
    ]

    def __init__(self, kind: Literal["export", "extraction"], job_id: str) -> None:
        super().__init__()
        self.kind = kind
        self.job_id = job_id
        self.rows: list[Lead] = []
        self.results_state: str | None = None
        # The cursor of the last page read and how many leads it gave: a live list is read on
        # from there when it grows (the cursor is opaque, so the last page is asked again).
        self._last_cursor: str | None = None
        self._last_count = 0
        self._complete = False

    def compose_body(self) -> ComposeResult:
        yield Static("Loading results…", id="results-status")
        table: DataTable[Any] = DataTable(id="results-table", zebra_stripes=True)
        table.border_title = f"Results of {self.kind} {self.job_id}"
        yield table

    def on_mount(self) -> None:
        if self.kind == "extraction":
            watcher = self.lead_app.jobs
            watcher.changed.subscribe(self, self._board_changed)
            self._note_state(watcher.board)
        self.load_more()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_reload(self) -> None:
        self.load_more()

    def _note_state(self, board: JobBoard) -> None:
        # The page does not say live/archived; the extraction record does (results_state).
        job = board.extractions.get(self.job_id)
        state = job.extra("results_state") if job is not None else None
        if isinstance(state, str):
            self.results_state = state

    def _board_changed(self, board: JobBoard) -> None:
        self._note_state(board)
        self._draw_status()
        job = board.extractions.get(self.job_id)
        count = job.extra("result_count") if job is not None else None
        if isinstance(count, int) and count > len(self.rows) and len(self.rows) < MAX_ROWS:
            self.load_more()

    async def _page(self, cursor: str | None) -> Page[Lead]:
        if self.kind == "export":
            return await self.client.exports.results(self.job_id, cursor, PAGE_SIZE)
        return await self.client.extractions.results(self.job_id, cursor, PAGE_SIZE)

    @work(exclusive=True, group="job-results")
    async def load_more(self) -> None:
        """Read on from the last page until the end (or MAX_ROWS); rows already shown stay."""
        table: DataTable[Any] = self.query_one("#results-table", DataTable)
        cursor, skip = self._last_cursor, self._last_count
        try:
            while len(self.rows) < MAX_ROWS:
                page = await self._page(cursor)
                fresh = page.items[skip:]
                self._add(table, fresh)
                self._last_cursor, self._last_count = cursor, len(page.items)
                if page.next_cursor is None:
                    break
                cursor, skip = page.next_cursor, 0
        except LeadError as error:
            self.show_error(error, retry=self.load_more)
            return
        self.clear_error()
        self._draw_status()

    def _add(self, table: DataTable[Any], leads: list[Lead]) -> None:
        for lead in leads[: MAX_ROWS - len(self.rows)]:
            values = lead.model_dump()
            if not table.columns:
                for name in values:
                    table.add_column(name, key=name)
            table.add_row(*(self._cell(values.get(str(c.key))) for c in table.columns.values()))
            self.rows.append(lead)

    @staticmethod
    def _cell(value: object) -> str:
        return "—" if value is None else str(value)

    def _draw_status(self) -> None:
        shown = len(self.rows)
        text = f"{shown:,} result" + ("" if shown == 1 else "s")
        if shown >= MAX_ROWS:
            text += f" shown (the first {MAX_ROWS:,}; download for all)"
        if self.results_state == "live":
            text += " · live: more arrive while the extraction runs"
        elif self.results_state == "archived":
            text += " · archived: final"
        self.query_one("#results-status", Static).update(text + " · Esc goes back")
