"""Searches: the account's searches, a page at a time as you scroll, filterable; Enter opens one."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from leadtui.api.contract import Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import Search
from leadtui.ui.frame.main_screens import SEARCHES
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.widgets.row_table import Cell
from leadtui.ui.widgets.view_table import ViewTable

PAGE_SIZE = 25
# Load the next page when the highlight is this close to the last loaded row.
LOAD_AHEAD = 5
# With a filter that matches few rows, look through at most this many more pages by itself.
FILTER_PAGES = 4


def search_summary(search: Search) -> str:
    summary = search.extra("summary")
    return summary if isinstance(summary, str) else ""


def count_text(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


COLUMNS = ("Search", "Results", "Unlocked", "Created", "What")


# Below this many columns the creation time is its day alone ("01-31"): what a search is
# looks for keeps the room.
NARROW_WIDTH = 80


def search_cells(search: Search, *, narrow: bool = False) -> tuple[Cell, ...]:
    created = (search.created_at or "")[:16].replace("T", " ")
    return (
        search.searchId,
        Text(count_text(search.result_count), justify="right"),
        Text(count_text(search.unlocked_count), justify="right"),
        created[5:10] if narrow else created,
        search_summary(search),
    )


def _values(search: Search) -> tuple[object, ...]:
    return (
        search.searchId,
        search.result_count,
        search.unlocked_count,
        search.created_at,
        search_summary(search),
    )


class SearchesScreen(LeadScreen):
    CSS_PATH = stylesheet("searches")

    MODE = SEARCHES.mode
    LABEL = SEARCHES.label
    REQUIRED_SCOPES = ((Scope.SEARCHES_READ, "list your searches"),)
    AUTO_FOCUS = "#searches-table"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="searches.refresh"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.searches: list[Search] = []
        self.next_cursor: str | None = None
        self.exhausted = False
        self._filter_budget = 0
        self.narrow = False

    def compose_body(self) -> ComposeResult:
        yield ViewTable(
            "Searches",
            COLUMNS,
            lambda search: search_cells(search, narrow=self.narrow),
            row_id=lambda search: search.searchId,
            values=_values,
            # As the server sent it, the fields the spec does not fix included.
            record=lambda search: search.model_dump(mode="json"),
            id="searches-table",
        )
        yield Static("", id="searches-status")

    @property
    def table(self) -> ViewTable[Search]:
        table: ViewTable[Search] = self.query_one("#searches-table", ViewTable)
        return table

    def on_mount(self) -> None:
        self.table.focus()
        self.watch(self.app, "sign_ins", self.reload, init=False)
        self.reload()

    def on_resize(self) -> None:  # LeadScreen's runs too (Textual calls every class's)
        narrow = self.app.size.width < NARROW_WIDTH
        if narrow != self.narrow:
            self.narrow = narrow
            table = self.table
            for column in table.columns.values():
                column.content_width = 0  # widths are measured again from the new cells
            table.apply(lambda: None)

    def on_screen_resume(self) -> None:
        if self.searches:
            self.refresh_in_place()  # an unlock or a new search may have changed the counts

    def palette_commands(self) -> list[PaletteCommand]:
        return [PaletteCommand("searches: refresh", "List the searches again", self.reload)]

    def reload(self) -> None:
        self.searches, self.next_cursor, self.exhausted = [], None, False
        self.load_more()

    @work(exclusive=True, group="searches-load")
    async def load_more(self) -> None:
        if self.lead_app.session is None or self.exhausted:
            return
        table = self.table
        table.loading = not self.searches
        try:
            page = await self.client.searches.list(self.next_cursor, PAGE_SIZE)
        except LeadError as error:
            self.show_error(error, retry=self.load_more)
            return
        finally:
            table.loading = False
        self.clear_error()
        known = {s.searchId for s in self.searches}
        self.searches += [s for s in page.items if s.searchId not in known]
        self.next_cursor = page.next_cursor
        self.exhausted = page.next_cursor is None
        self._draw()

    @work(exclusive=True, group="searches-load")
    async def refresh_in_place(self) -> None:
        """Read the newest page again and merge it: rows stay, counts change, new ones appear
        on top; no blank table, the cursor stays on its search."""
        try:
            page = await self.client.searches.list(None, PAGE_SIZE)
        except LeadError as error:
            self.show_error(error, retry=self.refresh_in_place)
            return
        self.clear_error()
        fresh = {s.searchId: s for s in page.items}
        new = [s for s in page.items if s.searchId not in {k.searchId for k in self.searches}]
        self.searches = new + [fresh.get(s.searchId, s) for s in self.searches]
        self._draw()

    def _draw(self) -> None:
        table = self.table
        table.set_rows(self.searches, complete=self.exhausted)
        more = "more on the server: scroll down" if not self.exhausted else "all loaded"
        if table.view.query:
            status = f"the filter looks at the {len(self.searches):,} loaded · {more}"
        elif not self.searches and self.exhausted:
            status = "No searches yet: press 3 to build one."
        else:
            count = len(self.searches)
            searches = f"{count:,} search" + ("" if count == 1 else "es")
            status = f"{searches} · {more} · Enter opens one"
        self.query_one("#searches-status", Static).update(status)
        # A narrow filter shows few rows, so scrolling cannot reach "load more": look ahead.
        few = table.view.shown_count < 20
        if table.view.query and few and not self.exhausted and self._filter_budget:
            self._filter_budget -= 1
            self.load_more()

    @on(ViewTable.Filtered, "#searches-table")
    def _filter_changed(self) -> None:
        self._filter_budget = FILTER_PAGES
        self._draw()

    @on(DataTable.RowHighlighted, "#searches-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= event.data_table.row_count - LOAD_AHEAD and not self.exhausted:
            self.load_more()

    @on(DataTable.RowSelected, "#searches-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        search_id = event.row_key.value
        search = next((s for s in self.searches if s.searchId == search_id), None)
        if search is not None:
            start_worker(self.app, partial(self.lead_app.open_search, search), group="open-search")

    def action_refresh(self) -> None:
        self.reload()
