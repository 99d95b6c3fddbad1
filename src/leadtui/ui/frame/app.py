"""`LeadApp`, the frame every screen lives in, and `make_app`, the factory tests share with main.

The errors' modules (the typed API errors, their descriptions) are imported where an error is
met: the first frame paints without them (bench/bench_startup.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, work
from textual.binding import BindingType
from textual.content import Content
from textual.markup import MarkupError
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.signal import Signal

from leadtui.api.contract import Scope
from leadtui.config.errors import ConfigError
from leadtui.ui.frame import app_actions
from leadtui.ui.frame.crash import CrashReportingConsole
from leadtui.ui.frame.handle import AppHandle
from leadtui.ui.frame.key_bursts import KeysInBursts
from leadtui.ui.frame.main_screens import SCREENS
from leadtui.ui.frame.pending_offer import PendingOffer
from leadtui.ui.frame.quitting import ask_to_quit, interrupt, quit_at_once
from leadtui.ui.frame.services import AppDeps, FirstFrame, Session, SharedRead
from leadtui.ui.frame.sessions import SessionKeeper, signed_in_session
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.frame.terminal_output import TerminalOutput
from leadtui.ui.model.history import History
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.watches.away import AwayWatch

if TYPE_CHECKING:
    from pydantic import SecretStr
    from textual.driver import Driver

    from leadtui.api.client import LeadClient
    from leadtui.api.models import Identity, Search
    from leadtui.config.settings import Settings
    from leadtui.spend.gate import SpendGate
    from leadtui.spend.intent import SpendIntent
    from leadtui.ui.model.errors import ErrorReport
    from leadtui.ui.watches.job_watcher import JobWatcher
    from leadtui.ui.watches.journal_watch import JournalWatcher

THEMES = {"dark": "textual-dark", "light": "textual-light"}


class LeadApp(KeysInBursts):
    """The app frame: modes per screen, header badge, help, palette, sign-in, errors."""

    CSS_PATH = stylesheet("frame")
    TITLE = "leadtui"
    # The first screen is the default screen of the mode the app starts in, and its mode is
    # added once it is up (on_mount): a mode listed here would restyle the whole frame (the
    # stylesheet parsed and applied again) before the first paint. Signing in is pushed on
    # top of it; the account screen loads nothing until there is a client.
    MODES: ClassVar[dict[str, Any]] = {screen.mode: screen for screen in SCREENS[1:]}
    DEFAULT_MODE: ClassVar[str] = SCREENS[0].mode
    COMMANDS: ClassVar[set[Any]] = {app_actions.lead_commands}
    BINDINGS: ClassVar[list[BindingType]] = list(app_actions.APP_BINDINGS)

    # What each member means to the screens that watch it: `AppHandle` (ui/frame/handle.py).
    identity: reactive[Identity | None] = reactive(None, init=False)
    credits: reactive[int | None] = reactive(None, init=False)
    key_rejected: reactive[bool] = reactive(False, init=False)
    sign_ins: reactive[int] = reactive(0, init=False)
    spends: reactive[int] = reactive(0, init=False)
    approvals_waiting: reactive[int] = reactive(0, init=False)

    def __init__(
        self,
        deps: AppDeps | None = None,
        session: Session | None = None,
        *,
        first_frame: FirstFrame | None = None,
    ) -> None:
        """With `deps`, ready at once (tests, screenshots). With `first_frame` instead (a
        launch), the frame paints from it first and its `load` fills the rest in a thread."""
        # Before Textual's __init__: it asks get_driver_class, which attaches the driver here.
        self.terminal = TerminalOutput()
        """Where the bell and desktop notifications are written (nowhere when headless)."""
        super().__init__()
        # Textual renders a crash as a traceback with every frame's locals, which may hold the
        # API key: this console renders it as one line instead (ui/frame/crash.py).
        self.console.__class__ = CrashReportingConsole
        self._deps = deps
        self._settings = deps.settings if deps is not None else None
        self.sessions = SessionKeeper(self, first_frame)
        """Sign-in, the saved key, sign-out: how `session` is come by and replaced."""
        self.history = History(self._history_clock)
        """This run's requests and notifications (the History screen)."""
        self._session: Session | None = None
        self.session = session
        self.demo = deps.demo if deps is not None else bool(first_frame and first_frame.demo)
        self.start_error: str | None = None
        self._jobs: JobWatcher | None = None
        self._journal_watch: JournalWatcher | None = None
        self._spend_gate: SpendGate | None = None
        # The journal is opened (and on first use created) once, whoever asks first.
        self._spend_gate_opening = asyncio.Lock()
        # One GET /me per balance refresh: a new session or a settled spend is a new refresh.
        self._identity_read = SharedRead(self._read_identity, lambda: (self.session, self.spends))
        self._account_read: tuple[LeadClient, Identity] | None = None
        self.spends_in_flight = 0
        self.journal_seen: object | None = None
        self.spend_settled: Signal[str] = Signal(self, "spend_settled")
        self.pending_offer = PendingOffer(self)
        """Spends journaled but never settled (a crash): offered at start and each sign-in."""
        # What changed since the app was last open (ui/watches/away.py), over the offer.
        self.away = AwayWatch(self, before_panel=self.pending_offer.settled)
        self._user_keymap: dict[str, str] = {}
        looks = deps.settings if deps is not None else first_frame
        if looks is not None:
            self._look(looks.theme, looks.keymap)

    def get_driver_class(self) -> type[Driver]:
        """The driver Textual picks, attached to `terminal` while it runs."""
        return self.terminal.driver_class(super().get_driver_class())

    def app_handle(self) -> AppHandle:
        return self

    @property
    def deps(self) -> AppDeps:
        """Everything the app talks to; set from the start, or once the launch has loaded."""
        if self._deps is None:
            raise _not_ready("Still starting.")
        return self._deps

    @property
    def settings(self) -> Settings:
        """The current settings (the theme and a profile's base URL change while running)."""
        if self._settings is None:
            raise _not_ready("Still starting.")
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = settings

    @property
    def read_only(self) -> bool:
        return self.started and self.settings.spend_policy(self.deps.profile).read_only

    @property
    def started(self) -> bool:
        """True once the deps are there (at once, or after a launch's load)."""
        return self._deps is not None

    def _history_clock(self) -> float:
        # Notifications may come before the launch has loaded the deps (and their clock).
        return self.deps.clock() if self.started else time.time()

    @property
    def session(self) -> Session | None:
        return self._session

    @session.setter
    def session(self, session: Session | None) -> None:
        if session is not None:
            session.client.on_exchange = self.history.add_exchange
        self._session = session

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast, also kept in the history (as the words shown, markup removed)."""
        words = message
        if markup:
            with contextlib.suppress(MarkupError):
                words = Content.from_markup(message).plain
        self.history.add_notice(title, words, severity)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    @property
    def client(self) -> LeadClient:
        if self.session is None:
            raise _not_ready("Not signed in.")
        return self.session.client

    def clock(self) -> float:
        return self.deps.clock()

    @property
    def jobs(self) -> JobWatcher:
        """The app's one job watcher, made on first use (not needed for the first frame)."""
        if self._jobs is None:
            from leadtui.ui.watches.job_watcher import JobWatcher

            self._jobs = JobWatcher(self, self)
        return self._jobs

    @property
    def journal_watch(self) -> JournalWatcher:
        """The look at the journal file for what other processes of this profile spend and ask
        to approve, made on first use: it brings the spend core, not needed for the credits."""
        if self._journal_watch is None:
            from leadtui.spend.journal import default_journal_path
            from leadtui.ui.watches.journal_watch import JournalWatcher

            path = self.deps.journal_path or default_journal_path()
            self._journal_watch = JournalWatcher(self, self, path, self.follow_journal)
        return self._journal_watch

    async def follow_journal(self) -> bool:
        from leadtui.ui.frame.spend_flow import follow_journal  # the spend core: not at start

        return await follow_journal(self)

    async def spending(self) -> SpendGate:
        """The profile's spend gate, built on first use: opening the journal (sqlite3) runs in
        a thread. Raises JournalError when the journal cannot be opened."""
        async with self._spend_gate_opening:
            if self._spend_gate is None:
                from leadtui.spend.gate import SpendGate
                from leadtui.spend.journal import SpendJournal

                journal = await asyncio.to_thread(SpendJournal, self.deps.journal_path)
                policy = self.settings.spend_policy(self.deps.profile)
                self._spend_gate = SpendGate(journal, profile=self.deps.profile, policy=policy)
            if self._account_read is not None:
                # The account GET /me named already: the gate does not ask the server again.
                self._spend_gate.remember(*self._account_read)
            return self._spend_gate

    def get_default_screen(self) -> Screen[Any]:
        return SCREENS[0]()

    def on_mount(self) -> None:
        self.add_mode(SCREENS[0].mode, self.get_default_screen)  # its stack is the one shown now
        self.watch(self, "sign_ins", self.pending_offer.after_sign_in, init=self.started)
        self.sessions.start()

    def on_ready(self) -> None:
        # Textual's Ready comes once the first frame is painted; waiting for the refreshes
        # after it (the screen resumed, the footer's keys) as before held the load back.
        self.sessions.first_frame_painted()

    def use_deps(self, deps: AppDeps) -> None:
        """Take the deps a launch loaded after the first frame."""
        self._deps, self._settings = deps, deps.settings
        # The first frame's quick read of the looks gives way to the settings as resolved.
        self._look(deps.settings.theme, deps.settings.keymap)

    def _look(self, theme: str, keymap: dict[str, str]) -> None:
        self.theme = THEMES.get(theme, THEMES["dark"])
        if keymap != self._user_keymap:
            self._user_keymap = dict(keymap)
            self.set_keymap(self._user_keymap)

    def watch_identity(self) -> None:
        self.pending_offer.when_known()
        self.away.when_known()

    def save_settings_now(self) -> None:
        """Persist `settings` (blocking: from a thread). A save that fails is told; the app
        goes on with the settings in memory."""
        try:
            self.deps.save_settings(self.settings)
        except ConfigError as error:
            self.call_from_thread(
                self.notify,
                str(error),
                title="Settings not saved",
                severity="warning",
                markup=False,
            )

    def action_sign_in(self, reason: str = "") -> None:
        self.sessions.sign_in(reason)

    @work(exclusive=True, group="sign-out")
    async def action_sign_out(self) -> None:
        await self.sessions.sign_out()

    async def refresh_identity(self) -> Identity:
        """GET /me and update the header badge; askers of the same balance refresh share one
        request. Raises the client's typed errors."""
        return await self._identity_read()

    async def _read_identity(self) -> Identity:
        from leadtui.api.errors import Unauthorized

        client = self.client
        try:
            identity = await client.me()
            self.account_read(client, identity)
        except Unauthorized:
            self.key_rejected = True
            raise
        finally:
            # The journal watch starts once the first GET /me answered or failed, after the
            # refresh that paints the credits: it never competes with start-up.
            self.call_after_refresh(lambda: self.journal_watch.start())
        self.key_rejected = False
        return identity

    def account_read(self, client: LeadClient, identity: Identity) -> None:
        """What GET /me answered to `client`'s key: the header and the spend gate take it."""
        self.identity = identity
        self.credits = identity.credits
        self._account_read = (client, identity)

    async def open_search(self, search: Search) -> None:
        from leadtui.ui.frame.jumps import show_search

        await show_search(self, search)

    async def show_exports_of(self, search_id: str) -> None:
        from leadtui.ui.frame.jumps import show_exports_of

        await show_exports_of(self, search_id)

    async def show_search_of(self, search_id: str) -> None:
        from leadtui.ui.frame.jumps import show_search_of

        await show_search_of(self, search_id)

    async def show_pending_spends(self, intents: list[SpendIntent]) -> None:
        from leadtui.ui.dialogs.pending_spends import PendingSpends

        if not isinstance(self.screen, PendingSpends):
            await self.push_screen(PendingSpends(intents))

    def note_spend(self) -> None:
        self.spends += 1

    def has_scope(self, scope: Scope) -> bool:
        """True when the key holds `scope` (or the scopes are not known yet)."""
        return self.identity is None or scope.value in self.identity.scopes

    def note_error(self, report: ErrorReport) -> None:
        if report.sign_in:
            self.key_rejected = True

    def notify_error(self, error: BaseException | ErrorReport) -> None:
        """A toast for errors that have no place on the screen (after an action)."""
        from leadtui.ui.model.errors import ErrorReport, describe

        report = error if isinstance(error, ErrorReport) else describe(error)
        self.note_error(report)
        text = f"{report.text}\n{report.meta}" if report.meta else report.text
        self.notify(text, title=report.title, severity="error", timeout=8, markup=False)

    def nav_entries(self) -> list[tuple[str, str, str]]:
        """(mode, key as shown, label) of each screen, honouring the user's keymap."""
        return app_actions.nav_entries(self._user_keymap)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        signing_in = self.sessions.signing_in() or self.session is None
        if action in ("open", "help", "history", "approvals", "away"):
            return not signing_in
        if action in ("toggle_theme", "sign_out"):
            return self.started
        return not (action == "sign_in" and signing_in)

    def watch_key_rejected(self) -> None:
        self.refresh_bindings()

    async def action_quit(self) -> None:
        quit_at_once(self)

    async def action_interrupt(self) -> None:
        interrupt(self)

    async def action_ask_quit(self) -> None:
        ask_to_quit(self)

    def action_open(self, mode: str) -> None:
        """A screen's number opens that screen itself (Searches' list, not the search last
        opened over it); a dialog waiting for an answer there stays, with what is under it."""
        self.switch_mode(mode)
        while len(self.screen_stack) > 1 and isinstance(self.screen, LeadScreen):
            self.pop_screen()

    def _show_over(self, screen: Screen[Any]) -> None:
        """Push `screen` over the one shown, unless one of its kind is shown (its key again)."""
        if not isinstance(self.screen, type(screen)):
            self.push_screen(screen)

    def action_history(self) -> None:
        from leadtui.ui.screens.history import HistoryScreen

        self._show_over(HistoryScreen())

    def action_approvals(self) -> None:
        from leadtui.ui.screens.approvals import ApprovalsScreen

        self._show_over(ApprovalsScreen(self.journal_watch))

    async def action_away(self) -> None:
        await self.away.show()

    def action_help(self) -> None:
        from leadtui.ui.screens.help import HelpScreen

        screen = self.screen
        if not isinstance(screen, HelpScreen):
            title = getattr(screen, "LABEL", "") or "leadtui"
            self.push_screen(HelpScreen(screen, title))

    def action_toggle_theme(self) -> None:
        light = self.theme == THEMES["dark"]
        self.theme = THEMES["light" if light else "dark"]
        self.settings.theme = "light" if light else "dark"
        self.run_worker(self.save_settings_now, thread=True, group="save-settings")

    def palette_commands(self, screen: Screen[Any]) -> list[PaletteCommand]:
        """The palette: screens, app and account actions, then the screen's own commands."""
        commands = app_actions.app_commands(self)
        if isinstance(screen, LeadScreen):
            commands += screen.palette_commands()
        return commands

    def on_key(self, event: events.Key) -> None:
        active = self.screen.active_bindings.get(event.key)
        if active is not None and not active.enabled:  # it reaches here unhandled: say why
            app_actions.say_why_greyed(self, active)

    async def on_unmount(self) -> None:
        self.away.mark()
        if self.session is not None:
            await self.session.client.aclose()


def _not_ready(words: str) -> Exception:
    from leadtui.api.errors import ConfigurationError

    return ConfigurationError(words)


def make_app(deps: AppDeps, *, key: str | SecretStr | None = None, key_source: str = "") -> LeadApp:
    """Build the app, signed in with `key` at `deps.base_url` when both are given: what every
    UI test and snapshot uses (a launch builds it from a `FirstFrame` instead, see launch.py).
    Raises ConfigurationError for a bad base URL or key."""
    session = None
    if key is not None and deps.base_url:
        session = signed_in_session(deps, key, key_source)
    return LeadApp(deps, session)
