"""Account: credits, subscription, the key and its scopes, 30-day usage. `r` refreshes."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Sparkline, Static

from leadtui.api.contract import SCOPE_DESCRIPTIONS, Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import Identity, Usage
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.errors import SCOPE_DISABLES
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.timefmt import ago


class AccountScreen(LeadScreen):
    MODE = "account"
    LABEL = "Account"
    REQUIRED_SCOPES = ((Scope.USAGE_READ, "see the account, credits and usage"),)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="account.refresh"),
    ]

    usage: reactive[Usage | None] = reactive(None, init=False)
    refreshed_at: reactive[float | None] = reactive(None, init=False)

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="account-body"):
            yield Static("Loading the account…", id="account-summary")
            yield Static("", id="usage-totals")
            yield Sparkline([], id="usage-chart")
            yield Static("", id="refreshed")
            yield Static("", id="scopes")

    def on_mount(self) -> None:
        # No super().on_mount(): Textual calls LeadScreen's handler too (MRO dispatch).
        self.watch(self.app, "identity", self._draw_identity)
        self.watch(self.app, "session", self._signed_in, init=False)
        self.set_interval(1.0, self._draw_refreshed)
        self.load()

    def _signed_in(self) -> None:
        self.load()

    def palette_commands(self) -> list[PaletteCommand]:
        return [PaletteCommand("account: refresh", "Credits, scopes and usage again", self.load)]

    # The worker pattern every screen copies: exclusive per group, typed errors caught inside,
    # shown with show_error (which retries network failures by itself via `retry`).
    @work(exclusive=True, group="account-load")
    async def load(self) -> None:
        """Fetch /me and /usage together; the frame has already painted."""
        if self.services.client is None:
            return  # the saved key is still being read; `session` changes when it is
        body = self.query_one("#account-body")
        body.loading = self.lead_app.identity is None
        try:
            _identity, usage = await asyncio.gather(
                self.lead_app.refresh_identity(), self.client.usage()
            )
        except LeadError as error:
            self.show_error(error, retry=self.load)
            return
        finally:
            body.loading = False
        self.clear_error()
        self.usage = usage
        self.refreshed_at = self.services.clock()

    def action_refresh(self) -> None:
        self.load()

    # --- drawing ------------------------------------------------------------------------

    def _draw_identity(self, identity: Identity | None) -> None:
        if identity is None:
            return
        services = self.services
        name = identity.account.name if identity.account and identity.account.name else "—"
        status = identity.subscription.status
        mark = "✓" if identity.active else "✗"
        summary = Table.grid(padding=(0, 2))
        summary.add_column(style="bold", no_wrap=True)
        summary.add_column()
        summary.add_row("Account", Text(name))
        summary.add_row("Credits", Text(f"{identity.credits:,}"))
        summary.add_row("Subscription", Text(f"{mark} {status}"))
        key = f"{services.key_masked or self.client.key_masked}"
        if services.key_source:
            key += f"  (from {services.key_source})"
        summary.add_row("Key", Text(key))
        summary.add_row("Profile", Text(f"{services.profile} · {services.base_url}"))
        self.query_one("#account-summary", Static).update(summary)
        self.query_one("#scopes", Static).update(self._scopes_table(identity))

    def _scopes_table(self, identity: Identity) -> Table:
        held = set(identity.scopes)
        table = Table(
            title=f"Scopes of this key ({len(held & {s.value for s in Scope})} of {len(Scope)})",
            title_justify="left",
            title_style="bold",
            box=None,
            padding=(0, 1),
            expand=True,
        )
        table.add_column("", no_wrap=True, width=1)
        table.add_column("Scope", no_wrap=True)
        table.add_column("Allows", ratio=3)
        table.add_column("Without it", ratio=2)
        for scope in Scope:
            has = scope.value in held
            table.add_row(
                "✓" if has else "✗",
                Text(scope.value, style="" if has else "bold"),
                SCOPE_DESCRIPTIONS[scope],
                Text(SCOPE_DISABLES[scope], style="dim" if has else "bold"),
            )
        return table

    def watch_usage(self, usage: Usage | None) -> None:
        if usage is None:
            return
        totals = usage.totals
        self.query_one("#usage-totals", Static).update(
            f"[b]Last {usage.window_days} days[/b]  {totals.requests:,} requests · "
            f"{totals.credits_used:,} credits used  [dim](daily credits used ↓)[/]"
        )
        self.query_one("#usage-chart", Sparkline).data = [d.credits_used for d in usage.daily]

    def watch_refreshed_at(self) -> None:
        self._draw_refreshed()

    def _draw_refreshed(self) -> None:
        if self.refreshed_at is None:
            return
        when = ago(self.services.clock() - self.refreshed_at)
        self.query_one("#refreshed", Static).update(f"[dim]Last refreshed {when} · r refreshes[/]")
