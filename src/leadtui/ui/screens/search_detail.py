"""One search: its result and unlocked counts, the unlocked leads, and `u` to unlock more."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from leadtui.api.contract import DEFAULT_PRICE_PER_RESULT, Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import PAGE_LIMIT_MAX, Lead, Page, Search
from leadtui.spend.gate import SpendRequest
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.dialogs.confirm_spend import DEFAULT_PRICE, SERVER_PRICE, SpendSummary
from leadtui.ui.dialogs.lead_detail import LeadDetail
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.searches import count_text, search_summary
from leadtui.ui.spend_flow import confirm_and_spend
from leadtui.ui.widgets.lead_table import LeadTable


def remaining(search: Search) -> int:
    """Results still locked (what an unlock may ask for)."""
    if search.result_count is None:
        return 0
    return max(0, search.result_count - (search.unlocked_count or 0))


class SearchDetailScreen(LeadScreen):
    MODE = "searches"  # pushed on the Searches stack; the header marks Searches
    LABEL = "Search"
    REQUIRED_SCOPES = ((Scope.SEARCHES_READ, "read this search and its unlocked results"),)
    AUTO_FOCUS = "#search-leads"
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "unlock": (Scope.EXPORTS_WRITE, "unlock results (spends credits)"),
    }

    COMPACT_FOOTER = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "unlock", "Unlock more", id="search.unlock"),
        Binding("r", "refresh", "Refresh", id="search.refresh"),
        Binding("escape,backspace", "back", "Back", id="search.back"),
    ]

    def __init__(self, search: Search) -> None:
        super().__init__()
        self.search = search
        self._load_failed = False

    def compose_body(self) -> ComposeResult:
        yield Static("", id="search-detail-summary")
        yield Static("", id="search-detail-status")
        yield LeadTable(id="search-leads")

    def on_mount(self) -> None:
        self._draw_summary()
        self._load_leads()
        self.query_one(LeadTable).focus()
        self.refresh_search()

    def palette_commands(self) -> list[PaletteCommand]:
        return [
            PaletteCommand(
                "search: unlock more results",
                "Spends credits after a confirmation",
                self.action_unlock,
            ),
            PaletteCommand("search: refresh", "Counts and leads again", self.action_refresh),
        ]

    # --- data ---------------------------------------------------------------------------

    @work(exclusive=True, group="search-detail-load")
    async def refresh_search(self) -> None:
        """GET the search again: the counts change after an unlock."""
        before = self.search.unlocked_count
        try:
            search = await self.client.searches.get(self.search.searchId)
        except LeadError as error:
            self._load_failed = True
            self.show_error(error, retry=self.refresh_search)
            return
        self._loaded()
        self.search = search
        self._draw_summary()
        self.refresh_bindings()
        if search.unlocked_count != before:
            self._load_leads()

    def _load_leads(self) -> None:
        fetch = partial(self._fetch_page, self.search.searchId)
        self.query_one(LeadTable).load(fetch, self.search.unlocked_count or 0)
        self._draw_status()

    async def _fetch_page(self, search_id: str, cursor: str | None) -> Page[Lead]:
        return await self.client.searches.results(search_id, cursor, PAGE_LIMIT_MAX)

    @on(LeadTable.Loaded)
    def _leads_loaded(self) -> None:
        self._loaded()
        self._draw_status()

    def _loaded(self) -> None:
        # Only a load failure is cleared by a load: a spend's explanation stays until read.
        if self._load_failed:
            self._load_failed = False
            self.clear_error()

    @on(LeadTable.LoadFailed)
    def _leads_failed(self, event: LeadTable.LoadFailed) -> None:
        self._load_failed = True
        self.show_error(event.error, retry=event.table.retry)

    @on(LeadTable.RowOpened)
    def _row_opened(self, event: LeadTable.RowOpened) -> None:
        row = event.table.cursor_row + 1
        self.app.push_screen(LeadDetail(event.record, f"Lead {row:,} of {self.search.searchId}"))

    # --- drawing ------------------------------------------------------------------------

    def _draw_summary(self) -> None:
        s = self.search
        price = s.price_per_result
        source = SERVER_PRICE if price is not None else DEFAULT_PRICE
        price_text = f"{price if price is not None else DEFAULT_PRICE_PER_RESULT} credit/result"
        title = Text(s.searchId, style="bold")
        if search_summary(s):
            title.append(f" · {search_summary(s)}")
        title.no_wrap, title.overflow = True, "ellipsis"
        counts = Text.assemble(
            ("Results ", "bold"),
            count_text(s.result_count),
            ("  Unlocked ", "bold"),
            count_text(s.unlocked_count),
            ("  Locked ", "bold"),
            f"{remaining(s):,}",
            ("  Price ", "bold"),
            f"{price_text} ({source})",
        )
        counts.no_wrap, counts.overflow = True, "ellipsis"
        self.query_one("#search-detail-summary", Static).update(Text("\n").join([title, counts]))

    def _draw_status(self) -> None:
        table = self.query_one(LeadTable)
        rows = table.rows
        if not self.search.unlocked_count:
            text = f"No results unlocked yet: {remaining(self.search):,} can be. Press u to unlock."
        else:
            at = f"row {table.cursor_row + 1:,} of {rows.row_count:,}"
            loading = (
                f" · loading page {table.loading_page + 1:,}…"
                if table.loading_page is not None
                else ""
            )
            text = f"Unlocked leads: {at}{loading} · Enter details · y copy cell · Y copy row"
        self.query_one("#search-detail-status", Static).update(text)

    def on_key(self) -> None:
        # Cursor moves change "row N of M"; cheap enough to redraw on every key.
        self.call_after_refresh(self._draw_status)

    # --- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()

    def action_refresh(self) -> None:
        self.refresh_search()
        self._load_leads()

    @work(exclusive=True, group="search-unlock")
    async def action_unlock(self) -> None:
        search = self.search
        left = remaining(search)
        if left <= 0:
            self.notify("Every result of this search is already unlocked.", timeout=4)
            return
        stated = search.price_per_result
        price = DEFAULT_PRICE_PER_RESULT if stated is None else stated
        count = await self.app.push_screen_wait(
            UnlockCount(search.searchId, left, price, SERVER_PRICE if stated else DEFAULT_PRICE)
        )
        if count is None:
            return
        request = SpendRequest.unlock(search.searchId, count, price_per_result=stated)
        summary = SpendSummary.unlock(search, count, self.lead_app.credits)
        await confirm_and_spend(self, request, summary=summary)
        # Whatever happened (bought, refused, unknown), show the server's counts now.
        self.refresh_search()
