"""One search: its result and unlocked counts, the unlocked leads, and `u` to unlock more."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import PAGE_LIMIT_MAX, Lead, Page, Search
from leadtui.spend.quote import Quote, affordable_results, plural, still_locked
from leadtui.spend.request import SpendRequest
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.dialogs.lead_detail import LeadDetail
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.main_screens import SEARCHES
from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.searches import count_text, search_summary
from leadtui.ui.spend_flow import (
    confirm_and_spend,
    decided_quote,
    spending_switched_off,
    unlock_request,
)
from leadtui.ui.stylesheets import stylesheet
from leadtui.ui.widgets.lead_table import LeadTable
from leadtui.ui.workers import start_worker

READ_ONLY = ErrorReport(
    "Spending is switched off",
    "read_only = true in the settings (or this profile): unlocking is off. Nothing was sent.",
)


class SearchDetailScreen(LeadScreen):
    CSS_PATH = stylesheet("searches")

    MODE = SEARCHES.mode  # pushed on the Searches stack; the header marks Searches
    LABEL = "Search"
    REQUIRED_SCOPES = ((Scope.SEARCHES_READ, "read this search and its unlocked results"),)
    AUTO_FOCUS = "#search-leads"
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "unlock": (Scope.EXPORTS_WRITE, "unlock results (spends credits)"),
    }

    MAIN_ACTIONS = frozenset({"unlock"})
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "unlock", "Unlock more", id="search.unlock"),
        Binding("r", "refresh", "Refresh", id="search.refresh"),
        Binding("escape,backspace,q", "back", "Back", id="search.back"),
        Binding("E", "exports", "Its exports", id="search.exports", key_display="E"),
    ]

    def __init__(self, search: Search) -> None:
        super().__init__()
        self.search = search
        self._load_failed = False
        self.unlocking = False
        """An unlock is being chosen, confirmed or sent: `u` is off until it ends."""

    def compose_body(self) -> ComposeResult:
        yield Static("", id="search-detail-summary")
        yield Static("", id="search-detail-status")
        yield LeadTable(id="search-leads")

    def on_mount(self) -> None:  # LeadScreen's runs too (Textual calls every class's)
        # A pending spend resent or discarded in its dialog may have moved the counts.
        self.watch(self.app, "spends", self._spent, init=False)
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

    def action_exports(self) -> None:
        start_worker(
            self.app, partial(self.lead_app.show_exports_of, self.search.searchId), group="jump"
        )

    # --- data ---------------------------------------------------------------------------

    def _spent(self) -> None:
        self.refresh_search()

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
        title = f"Lead {event.row + 1:,} of {self.search.searchId}"
        self.app.push_screen(LeadDetail(event.record, title))

    @on(LeadTable.CursorMoved)
    def _cursor_moved(self) -> None:
        self._draw_status()

    # --- drawing ------------------------------------------------------------------------

    def _draw_summary(self) -> None:
        s = self.search
        price = Quote.unlock(s, 1, None)
        locked = still_locked(s)
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
            count_text(locked),
            ("  Price ", "bold"),
            f"{plural(price.price, 'credit')}/result ({price.price_source})",
        )
        counts.no_wrap, counts.overflow = True, "ellipsis"
        self.query_one("#search-detail-summary", Static).update(Text("\n").join([title, counts]))

    def _draw_status(self) -> None:
        table = self.query_one(LeadTable)
        if not self.search.unlocked_count:
            locked = count_text(still_locked(self.search))
            text = f"No results unlocked yet: {locked} can be. " + (
                "Unlocking is off (read-only)."
                if spending_switched_off(self.lead_app)
                else "Press u to unlock."
            )
        else:
            shown = table.shown  # filtered or sorted: what the table shows, not what exists
            if shown.active and not shown.row_count:
                at = "no row matches the filter"
            else:
                at = f"row {table.cursor_row + 1:,} of {shown.row_count:,}"
                if shown.active:
                    at += " shown"  # the table's title says of how many, and how
            loading = (
                f" · loading page {table.loading_page + 1:,}…"
                if table.loading_page is not None
                else ""
            )
            text = f"Unlocked leads: {at}{loading} · Enter details · y copy cell · Y copy row"
        self.query_one("#search-detail-status", Static).update(text)

    # --- actions ------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()

    def action_refresh(self) -> None:
        self.refresh_search()
        self._load_leads()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (allowed := super().check_action(action, parameters)) is not True:
            return allowed
        if action == "unlock" and (self.unlocking or spending_switched_off(self.lead_app)):
            return None  # greyed out before any dialog; on_key says why
        return True

    def on_key(self, event: events.Key) -> None:
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.binding.action != "unlock":
            return
        if spending_switched_off(self.lead_app):
            self.show_error(READ_ONLY)
        elif self.unlocking:
            self.notify("An unlock is already under way: its answer comes first.", timeout=4)

    # Not exclusive: a second start must never cancel a confirmed spend (`u` is off meanwhile).
    @work(group="search-unlock")
    async def action_unlock(self) -> None:
        if self.unlocking:
            return
        self.unlocking = True
        self.refresh_bindings()
        try:
            await self._unlock(self.search)
        finally:
            self.unlocking = False
            self.refresh_bindings()
        # Whatever happened (bought, refused, unknown), show the server's counts now.
        self.refresh_search()

    async def _unlock(self, search: Search) -> None:
        if still_locked(search) == 0:
            self.notify("Every result of this search is already unlocked.", timeout=4)
            return
        # Every cost the count dialog shows is the decision's (fresh balance, observed price).
        quote = await decided_quote(self, unlock_request(search, 1, self.lead_app.credits))
        if quote is None:
            return
        balance, price = quote.balance, quote.price
        most, _why = affordable_results(search, balance, price)
        if most == 0:
            self.show_error(
                ErrorReport(
                    "Not enough credits",
                    f"One result costs {plural(price, 'credit')}; the account has "
                    f"{plural(balance or 0, 'credit')}. Nothing was sent. Buy credits on the "
                    "service's account page.",
                )
            )
            return
        count = await self.app.push_screen_wait(UnlockCount(search, quote))
        if count is None:
            return
        request = SpendRequest.for_unlock(quote.with_units(count), search.searchId)
        if await confirm_and_spend(self, request) is not None:
            self.clear_error()  # an earlier refusal no longer holds
