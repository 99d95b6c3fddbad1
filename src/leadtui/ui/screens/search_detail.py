"""One search: its result and unlocked counts, the unlocked leads, and `u` to unlock more."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
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
from leadtui.spend.errors import JournalError, SpendBlocked
from leadtui.spend.quote import Quote, affordable_results, plural, still_locked
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.lead_detail import LeadDetail
from leadtui.ui.dialogs.unlock_count import UnlockCount
from leadtui.ui.frame.main_screens import SEARCHES
from leadtui.ui.frame.spend_flow import (
    confirm_and_spend,
    decided_quote,
    unlock_request,
)
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.searches import count_text, search_summary
from leadtui.ui.widgets.lead_table import LeadTable

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
        Binding("escape,backspace,q", "dismiss", "Back", id="search.back"),
        Binding("E", "exports", "Its exports", id="search.exports", key_display="E"),
    ]

    def __init__(self, search: Search) -> None:
        super().__init__()
        self.search = search
        self.unlocking = False
        """An unlock is being chosen, confirmed or sent: `u` is off until it ends."""
        self.waiting_for: str | None = None
        """What an unlock waits for before its next dialog opens (a slow server: the balance
        read for a quote), shown at once; keys typed meanwhile are refused, visibly."""
        self.price: Quote | None = None
        """One result's quote as the spend core prices it (the observed price after an
        overcharge): the header's price. None until the journal is read."""

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
            self.show_load_error(error, self.refresh_search)
            return
        # Read before anything changes: a newer refresh may cancel this one at an await.
        price = await self._unit_quote(search)
        self.load_recovered()
        self.search, self.price = search, price
        self._draw_summary()
        self.refresh_bindings()
        if search.unlocked_count != before:
            self._load_leads()

    async def _unit_quote(self, search: Search) -> Quote | None:
        """One result of `search` as the spend core quotes it with no balance: the server's
        price, or the one this account was really debited (the journal's observed price),
        whichever an unlock's quote would use. None when the journal cannot be read."""
        try:
            gate = await self.lead_app.spending()
            account = await gate.account_of(self.client)
            observed = await asyncio.to_thread(
                gate.journal.observed_price, self.client.base_url, account
            )
        except (SpendBlocked, JournalError):
            return None  # the stated price stays; an unlock says why it cannot go ahead
        return Quote.unlock(search, 1, None).with_observed(observed)

    def _load_leads(self) -> None:
        fetch = partial(self._fetch_page, self.search.searchId)
        self.query_one(LeadTable).load(fetch, self.search.unlocked_count or 0)
        self._draw_status()

    async def _fetch_page(self, search_id: str, cursor: str | None) -> Page[Lead]:
        return await self.client.searches.results(search_id, cursor, PAGE_LIMIT_MAX)

    @on(LeadTable.RowOpened)
    def _row_opened(self, event: LeadTable.RowOpened) -> None:
        title = f"Lead {event.row + 1:,} of {self.search.searchId}"
        self.app.push_screen(LeadDetail(event.record, title))

    @on(LeadTable.Loaded)
    @on(LeadTable.CursorMoved)
    def _table_moved(self) -> None:
        self._draw_status()

    # --- drawing ------------------------------------------------------------------------

    def _draw_summary(self) -> None:
        s = self.search
        # The price an unlock's quote uses (stated, or observed after an overcharge).
        price = self.price or Quote.unlock(s, 1, None)
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
            # The source's name only ("observed", "stated by the server"): `u` explains it.
            f"{plural(price.price, 'credit')}/result ({price.price_source.split(':')[0]})",
        )
        counts.no_wrap, counts.overflow = True, "ellipsis"
        self.query_one("#search-detail-summary", Static).update(Text("\n").join([title, counts]))

    def _draw_status(self) -> None:
        table = self.query_one(LeadTable)
        if not self.search.unlocked_count:
            locked = count_text(still_locked(self.search))
            text = f"No results unlocked yet: {locked} can be. " + (
                "Unlocking is off (read-only)." if self.lead_app.read_only else "Press u to unlock."
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
        if self.waiting_for is not None:
            text = f"⟳ {self.waiting_for}… other keys wait"
        status = self.query_one("#search-detail-status", Static)
        status.update(text)
        status.set_class(self.waiting_for is not None, "-working")

    # --- actions ------------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.refresh_search()
        self._load_leads()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (allowed := super().check_action(action, parameters)) is not True:
            return allowed
        if action == "unlock" and (self.unlocking or self.lead_app.read_only):
            return None  # greyed out before any dialog; on_key says why
        return True

    def on_key(self, event: events.Key) -> None:
        if self.waiting_for is not None and self.is_active:
            # A slow server: the dialog is on its way. A key typed now is not for this screen
            # (a digit would switch screens): refused, and said.
            event.stop()
            event.prevent_default()
            typed = event.character if event.is_printable else event.key
            self.notify(
                f"{typed!r} was not taken: {self.waiting_for} from "
                f"{self.client.base_url}. The dialog opens when the server answers.",
                title="Still working",
                timeout=3,
            )
            return
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.binding.action != "unlock":
            return
        if self.lead_app.read_only:
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
        with self._waiting("reading your balance for the quote (GET /me)"):
            quote = await decided_quote(self, unlock_request(search, 1, self.lead_app.credits))
        if quote is None:
            return
        self.price = quote.with_units(1)
        self._draw_summary()
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
        # The confirmation reads the balance again first; it clears this once it is up.
        with self._waiting("reading your balance again for the confirmation (GET /me)"):
            bought = await confirm_and_spend(self, request)
        if bought is not None:
            self.clear_error()  # an earlier refusal no longer holds

    @contextmanager
    def _waiting(self, what: str) -> Iterator[None]:
        self.waiting_for = what
        self._draw_status()
        try:
            yield
        finally:
            self.waiting_for = None
            self._draw_status()

    def on_screen_suspend(self) -> None:
        # A dialog is up (the count, the confirmation): it answers keys, nothing waits here.
        if self.waiting_for is not None:
            self.waiting_for = None
            self._draw_status()
