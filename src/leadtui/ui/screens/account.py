"""Account: credits, subscription, the key and its scopes, 30-day usage. `r` refreshes.

The usage chart's modules are imported when GET /usage first answers, not with this screen:
the Account screen is the first one drawn, and until then a line says the usage is loading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from leadtui.api.contract import SCOPE_DESCRIPTIONS, Scope
from leadtui.ui.frame.main_screens import ACCOUNT
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.model.timefmt import ago
from leadtui.ui.screens.base import LeadScreen

if TYPE_CHECKING:
    from leadtui.api.models import Identity, Usage
    from leadtui.ui.widgets.usage_chart import UsageChart

# Below this many columns the scopes table leaves out what each scope allows.
NARROW_WIDTH = 80


class AccountScreen(LeadScreen):
    MODE = ACCOUNT.mode
    LABEL = ACCOUNT.label
    REQUIRED_SCOPES = ((Scope.USAGE_READ, "see the account, credits and usage"),)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="account.refresh"),
    ]

    usage: reactive[Usage | None] = reactive(None, init=False)
    refreshed_at: reactive[float | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        # The balance when the usage shown was read, and whether a load is running.
        self._usage_credits: int | None = None
        self._loading = False
        self._stale = False
        """A spend moved the usage while another screen was shown: read it when shown."""
        # Mounted under the totals when the first usage arrives (see watch_usage).
        self._chart: UsageChart | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="account-body"):
            yield Static("Loading the account…", id="account-summary")
            # The placeholder the chart replaces: the totals line, until GET /usage answers.
            yield Static("Loading usage…", id="usage-totals")
            yield Static("", id="scopes")

    def on_mount(self) -> None:
        # No super().on_mount(): Textual calls LeadScreen's handler too (MRO dispatch).
        self.watch(self.app, "identity", self._draw_identity)
        self.watch(self.app, "sign_ins", self._signed_in, init=False)
        # A spend changes the balance and the usage: what this screen shows follows it.
        self.watch(self.app, "spends", self._reload, init=False)
        self.watch(self.app, "credits", self._credits_changed, init=False)
        self.set_interval(1.0, self._draw_summary)  # "Refreshed 5s ago" moves on
        self.load()

    def _signed_in(self) -> None:
        self.load()

    def _credits_changed(self, credits: int | None) -> None:
        # The balance moved without this screen asking (a spend elsewhere): the usage is stale.
        if credits is not None and credits != self._usage_credits:
            self._usage_credits = credits
            self._reload()

    def _reload(self) -> None:
        # Not shown (another screen is): the usage is read when this screen is shown again;
        # the header's balance is the app's to refresh.
        if not self.is_current:
            self._stale = True
            return
        # One load at a time: a second would cancel the first (exclusive) before it answered.
        if not self._loading:
            self._loading = True
            self.load()

    def on_screen_resume(self) -> None:
        if self._stale:
            self._stale = False
            self._reload()

    def palette_commands(self) -> list[PaletteCommand]:
        return [PaletteCommand("account: refresh", "Credits, scopes and usage again", self.load)]

    # The worker pattern every screen copies: exclusive per group, typed errors caught inside,
    # shown with show_error (which retries network failures by itself via `retry`).
    @work(exclusive=True, group="account-load")
    async def load(self) -> None:
        """Fetch /me, then /usage; the frame has already painted."""
        if self.lead_app.session is None:
            self._loading = False
            return  # the saved key is still being read; `session` changes when it is
        from leadtui.api.errors import LeadError  # not on the first frame's path

        # No loading cover: the summary says "Loading the account…" from the first frame on,
        # and a cover would only swap those words for a spinner until /me answers.
        self._loading = True
        try:
            with self.request("refresh", "Refreshing the account…"):
                self._draw_summary()
                # /me first: the credits badge fills in before usage arrives.
                identity = await self.lead_app.refresh_identity()
                # Before the badge's watchers run (they are deferred): this balance is ours.
                self._usage_credits = identity.credits
                # The summary and the scopes are drawn: "Loading usage…" says what still comes.
                # GET /usage goes out once they are painted: its answer (on the first one, the
                # chart's import and layout) was otherwise drawn in the same frame, before them.
                await self.wait_for_refresh()
                usage = await self.client.usage()
        except LeadError as error:
            if self.lead_app.identity is None:
                self.query_one("#account-summary", Static).update(
                    "The account could not be loaded: see the message above."
                )
            if self.usage is None:
                for line in self.query("#usage-totals").results(Static):
                    line.update("")  # not loading any more
            self.show_error(error, retry=self.load)
            return
        finally:
            self._loading = False
            self._draw_summary()
        self.clear_error()
        self.usage = usage
        self.refreshed_at = self.lead_app.clock()

    def action_refresh(self) -> None:
        if not self.is_requesting("refresh"):
            self.load()

    def _draw_identity(self, identity: Identity | None) -> None:
        if identity is None:
            return
        self._draw_summary()
        # The scopes a frame later: drawing their table in the frame that paints the balance
        # took ~10 ms before it showed.
        self.call_after_refresh(self._draw_scopes)

    def _draw_scopes(self) -> None:
        identity, scopes = self.lead_app.identity, self.query("#scopes")
        if identity is not None and scopes:  # none once the screen is being removed
            scopes.first(Static).update(self._scopes_table(identity))

    def _draw_summary(self) -> None:
        identity, session = self.lead_app.identity, self.lead_app.session
        summaries = self.query("#account-summary")  # none once the screen is being removed
        if identity is None or session is None or not summaries:
            return
        name = identity.account.name if identity.account and identity.account.name else "—"
        mark = "✓" if identity.active else "✗"
        key = session.client.key_masked
        if session.key_source:
            key += f" · {session.key_source}"
        refreshed = "—"
        if self.is_requesting("refresh"):
            refreshed = "refreshing…"
        elif self.refreshed_at is not None:
            refreshed = ago(self.lead_app.clock() - self.refreshed_at)
        summary = Table.grid(padding=(0, 2))
        summary.add_column(style="bold", no_wrap=True)
        summary.add_column(no_wrap=True)
        summary.add_column(style="bold", no_wrap=True)
        summary.add_column(overflow="fold")
        summary.add_row("Account", Text(name), "Key", Text(key))
        summary.add_row(
            "Credits", Text(f"{identity.credits:,}"), "Server", Text(session.client.base_url)
        )
        summary.add_row(
            "Subscription",
            Text(f"{mark} {identity.subscription.status}"),
            "Refreshed",
            Text(f"{refreshed} (r)"),
        )
        summaries.first(Static).update(summary)

    def _scopes_table(self, identity: Identity) -> Table:
        from leadtui.ui.model.errors import SCOPE_DISABLES  # not on the first frame's path

        held = set(identity.scopes)
        count = sum(scope.value in held for scope in Scope)
        table = Table(
            title=f"Scopes of this key ({count} of {len(Scope)}, "
            f"profile {self.lead_app.deps.profile})",
            title_justify="left",
            title_style="bold",
            box=None,
            padding=(0, 1),
            expand=True,
        )
        # Narrow (an SSH pane of 60 columns): what each scope allows is left out, one line a
        # scope; what is off without it stays.
        narrow = self.app.size.width < NARROW_WIDTH
        table.add_column("", no_wrap=True, width=1)
        table.add_column("Scope", no_wrap=True)
        if not narrow:
            table.add_column("Allows")
        table.add_column("Without it, no", no_wrap=True)
        for scope in Scope:
            has = scope.value in held
            # ✓/✗ and bold carry the meaning, so it survives NO_COLOR.
            cells = [
                "✓" if has else "✗",
                Text(scope.value, style="" if has else "bold"),
                SCOPE_DESCRIPTIONS[scope],
                Text(SCOPE_DISABLES[scope], style="dim" if has else "bold"),
            ]
            if narrow:
                del cells[2]
            table.add_row(*cells)
        return table

    def on_resize(self) -> None:  # LeadScreen's runs too (Textual calls every class's)
        self._draw_identity(self.lead_app.identity)

    async def watch_usage(self, usage: Usage | None) -> None:
        # A load's answer may land while the app quits, once this screen's widgets are removed
        # (they go before its last queued calls run): there is nothing left to draw it in.
        lines, bodies = self.query("#usage-totals"), self.query("#account-body")
        if usage is None or not lines or not bodies:
            return
        totals = usage.totals
        lines.first(Static).update(
            f"[b]Last {usage.window_days} days[/b]  {totals.requests:,} requests · "
            f"{totals.credits_used:,} credits used"
        )
        chart = self._chart
        if chart is None:
            # Imported here, once: the first frame and the balance do not wait for the chart.
            from leadtui.ui.widgets.usage_chart import UsageChart

            chart = self._chart = UsageChart(id="usage-days")
            await bodies.first().mount(chart, after="#usage-totals")
        chart.show_usage(usage)
        if self.focused is None or self.focused.id == "account-body":
            # Its keys (←/→ a day, c credits or requests) work at once. It sits near the top
            # of the body, so focusing it must not scroll the account summary away.
            chart.focus(scroll_visible=False)

    def watch_refreshed_at(self) -> None:
        self._draw_summary()
