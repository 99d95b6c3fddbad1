"""The leads of a ready export, or of an extraction: live (grows while it runs) or archived.

The same virtual `LeadTable` as a search's leads: every row can be reached (pages are read as
the user scrolls), and live results grow in place without moving the cursor.
"""

from __future__ import annotations

from typing import ClassVar, Final, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from leadtui.api.models import PAGE_LIMIT_MAX, Lead, Page
from leadtui.spend.quote import plural
from leadtui.ui.dialogs.lead_detail import LeadDetail
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.job_board import JobBoard
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.widgets.lead_table import LeadTable

PAGE_SIZE: Final = PAGE_LIMIT_MAX


class JobResultsScreen(LeadScreen):
    """Pushed from the jobs screen; Esc goes back."""

    CSS_PATH = stylesheet("jobs")

    LABEL = "Results"
    AUTO_FOCUS = "#results-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Back", id="results.back"),
        Binding("r", "reload", "Refresh", id="results.refresh"),
    ]

    def __init__(self, kind: Literal["export", "extraction"], job_id: str) -> None:
        super().__init__()
        self.kind = kind
        self.job_id = job_id
        self.results_state: str | None = None

    def compose_body(self) -> ComposeResult:
        yield Static("Loading results…", id="results-status")
        table = LeadTable(id="results-table", page_size=PAGE_SIZE)
        table.border_title = f"Results of {self.kind} {self.job_id}"
        yield table

    def on_mount(self) -> None:
        if self.kind == "extraction":
            watcher = self.lead_app.jobs
            watcher.changed.subscribe(self, self._board_changed)
            self._note_state(watcher.board)
        self.action_reload()

    @property
    def table(self) -> LeadTable:
        return self.query_one(LeadTable)

    def action_reload(self) -> None:
        self.table.load(self._page, self._known_count())

    def _known_count(self) -> int | None:
        """How many results the job's record says it has (so far, while live); None when it
        does not say: the pages tell, as they are read."""
        board = self.lead_app.jobs.board
        if self.kind == "export":
            export = board.exports.get(self.job_id)
            count = export.additional_results if export is not None else None
        else:
            extraction = board.extractions.get(self.job_id)
            count = extraction.extra("result_count") if extraction is not None else None
        return count if isinstance(count, int) else None

    def _note_state(self, board: JobBoard) -> None:
        # The page does not say live/archived; the extraction record does (results_state).
        job = board.extractions.get(self.job_id)
        state = job.extra("results_state") if job is not None else None
        if isinstance(state, str):
            self.results_state = state

    def _board_changed(self, board: JobBoard) -> None:
        self._note_state(board)
        count = self._known_count()
        if count is not None and count > self.table.rows.row_count:
            self.table.grow(count)  # live results: read on from the last page, in place
        self._draw_status()

    async def _page(self, cursor: str | None) -> Page[Lead]:
        if self.kind == "export":
            return await self.client.exports.results(self.job_id, cursor, PAGE_SIZE)
        return await self.client.extractions.results(self.job_id, cursor, PAGE_SIZE)

    @on(LeadTable.Loaded)
    @on(LeadTable.CursorMoved)
    def _table_moved(self) -> None:
        self._draw_status()

    @on(LeadTable.RowOpened)
    def _row_opened(self, event: LeadTable.RowOpened) -> None:
        title = f"Result {event.row + 1:,} of {self.kind} {self.job_id}"
        self.app.push_screen(LeadDetail(event.record, title))

    def _draw_status(self) -> None:
        table = self.table
        rows = table.rows
        known = rows.exhausted or rows.total is not None
        if known:
            text = plural(rows.row_count, "result")
        else:
            text = f"{rows.row_count - rows.page_size:,}+ results"
        if rows.row_count:
            text += f" · row {table.cursor_row + 1:,}" + (
                f" of {rows.row_count:,}" if known else ""
            )
        if table.loading_page is not None:
            text += f" · loading page {table.loading_page + 1:,}…"
        if self.results_state == "live":
            text += " · live: more arrive while the extraction runs"
        elif self.results_state == "archived":
            text += " · archived: final"
        self.query_one("#results-status", Static).update(text + " · Enter details · Esc back")
