"""`AppHandle`: what a screen, dialog or widget gets from the app it runs in.

The session, the client, the clock, the spend core, the settings, the account and the ways to
report an error, behind one typed protocol that `LeadApp` provides. Screens reach it with
`app_handle(self)` and never import the app module, so `ui/` has no import circle. Textual's
own API (push_screen, run_worker, notify…) stays on `self.app`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.app import App

if TYPE_CHECKING:
    from textual.message_pump import MessagePump
    from textual.notifications import SeverityLevel
    from textual.signal import Signal

    from leadtui.api.client import LeadClient
    from leadtui.api.contract import Scope
    from leadtui.api.models import Identity, Search
    from leadtui.config.settings import Settings
    from leadtui.spend.gate import SpendGate
    from leadtui.spend.intent import SpendIntent
    from leadtui.ui.frame.services import AppDeps, Session
    from leadtui.ui.model.errors import ErrorReport
    from leadtui.ui.model.history import History
    from leadtui.ui.watches.job_watcher import JobWatcher


class AppHandle(Protocol):
    """The app's services for every screen, dialog and widget."""

    identity: Identity | None
    """The signed-in account; None until GET /me answered (a reactive: watch it)."""
    credits: int | None
    """The credits badge (a reactive): set after a spend, or by `refresh_identity`."""
    key_rejected: bool
    """The server rejected the key (401): the error panel says to press `i`."""
    sign_ins: int
    """Bumped on every sign-in: screens watch it to load again."""
    spends: int
    """Bumped after each spend the server settled (`note_spend`): what shows the balance or
    the usage reloads."""
    spends_in_flight: int
    """Spends sent and not answered yet (counted by ui/frame/spend_flow.py): quitting asks."""
    journal_seen: object | None
    """The journal's activity mark when the app last looked: a change means spends by others."""
    demo: bool
    start_error: str | None
    """Why a launch's load failed (the app then exits with code 2)."""
    approvals_waiting: int
    """Spends other processes of this profile ask this app to approve, still waiting (a
    reactive: the header's badge)."""
    spend_settled: Signal[str]
    """Published with its idempotency key when a pending spend was resent and settled, or
    discarded: what was shown about it is out of date."""

    @property
    def history(self) -> History: ...

    @property
    def deps(self) -> AppDeps: ...

    @property
    def settings(self) -> Settings: ...

    @settings.setter
    def settings(self, settings: Settings) -> None: ...

    @property
    def started(self) -> bool: ...

    @property
    def read_only(self) -> bool:
        """Spending is switched off for this profile."""

    @property
    def session(self) -> Session | None:
        """The signed-in key; None until signed in. Replaced whole on each sign-in."""

    @session.setter
    def session(self, session: Session | None) -> None: ...

    @property
    def client(self) -> LeadClient: ...

    @property
    def jobs(self) -> JobWatcher: ...

    def clock(self) -> float: ...

    async def spending(self) -> SpendGate: ...

    async def refresh_identity(self) -> Identity: ...

    def account_read(self, client: LeadClient, identity: Identity) -> None: ...

    def note_spend(self) -> None: ...

    def has_scope(self, scope: Scope) -> bool: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def note_error(self, report: ErrorReport) -> None: ...

    def notify_error(self, error: BaseException | ErrorReport) -> None: ...

    async def open_search(self, search: Search) -> None:
        """The search's detail in the Searches stack."""

    async def show_exports_of(self, search_id: str) -> None:
        """Jobs, its exports filtered to the search."""

    async def show_search_of(self, search_id: str) -> None:
        """The search read again, shown in the Searches stack."""

    async def show_pending_spends(self, intents: list[SpendIntent]) -> None:
        """The pending spends dialog with `intents` (unless it is up already)."""

    def nav_entries(self) -> list[tuple[str, str, str]]: ...

    def save_settings_now(self) -> None: ...

    def use_deps(self, deps: AppDeps) -> None: ...


@runtime_checkable
class ProvidesAppHandle(Protocol):
    """An app that hands out an `AppHandle` (LeadApp)."""

    def app_handle(self) -> AppHandle: ...


class NotInLeadApp(RuntimeError):
    """A screen or widget of ours was mounted in an app that is not leadtui's."""


def app_handle(node: MessagePump) -> AppHandle:
    """The handle of the app `node` runs in (`node` may be the app itself)."""
    app = node if isinstance(node, App) else node.app
    if not isinstance(app, ProvidesAppHandle):
        raise NotInLeadApp(f"{type(node).__name__} runs in {type(app).__name__}, not leadtui")
    return app.app_handle()
