"""`JobWatcher`: the app's one poller of exports and extractions (never a timer per row).

Polls while the jobs screen is showing; while it is hidden, keeps a slow tick only for jobs
the user is following that still move, so their end is announced on any screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.signal import Signal
from textual.timer import Timer

from leadtui.api.contract import Scope
from leadtui.api.models import Export, Extraction
from leadtui.ui.frame.notifications import JobNotifier
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.job_board import JobBoard, JobKind, JobPoller

if TYPE_CHECKING:
    from textual.app import App

    from leadtui.api.client import LeadClient
    from leadtui.config.settings import Settings
    from leadtui.ui.frame.services import Session
    from leadtui.ui.frame.terminal_output import TerminalOutput
    from leadtui.ui.model.errors import ErrorReport


class WatchedAccount(Protocol):
    """What the watcher reads from the app on each tick: the app's handle, narrowed (the
    handle names the watcher, so the watcher cannot name the handle without a circle)."""

    terminal: TerminalOutput
    """Where the bell and desktop notifications of a finished job are written."""

    @property
    def client(self) -> LeadClient: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def session(self) -> Session | None: ...

    def clock(self) -> float: ...

    def has_scope(self, scope: Scope) -> bool: ...

    def note_error(self, report: ErrorReport) -> None: ...

    async def follow_journal(self) -> bool:
        """Reads what any surface spent since the last tick (the spend journal) and moves the
        balance shown; run after every tick."""


class JobWatcher:
    """Schedules `JobPoller` ticks on the app's timer and publishes the board after each."""

    def __init__(self, app: App[Any], account: WatchedAccount) -> None:
        self.app = app
        self.account = account
        self.poller = JobPoller(
            lambda: account.client,
            lambda: account.settings.polling,
            read_extractions=lambda: account.has_scope(Scope.EXTRACTIONS_READ),
        )
        # Published after every tick and every merged action result; the payload is the board.
        self.changed: Signal[JobBoard] = Signal(app, "jobs-changed")
        self.notifier = JobNotifier(
            app,
            bell=lambda: account.settings.notify_bell,
            desktop=lambda: account.settings.notify_desktop,
            on_dashboard=lambda: self.visible,
            terminal=account.terminal,
        )
        self.visible = False
        self.paused = False
        self.ticking = False
        # A poll the user asked for (r) is under way: the status line says so, r is greyed.
        self.refreshing = False
        # app.clock() time of the next tick; None when none is scheduled.
        self.next_tick_at: float | None = None
        self._timer: Timer | None = None
        app.watch(app, "sign_ins", self._new_session, init=False)

    @property
    def board(self) -> JobBoard:
        return self.poller.board

    # --- what screens and actions call ----------------------------------------------------

    def show(self) -> None:
        """The dashboard is on screen: poll now if what is shown is older than a fast tick."""
        self.visible = True
        updated = self.board.updated_at
        fresh = updated is not None and not self.board.stale
        fresh = fresh and self.account.clock() - (updated or 0) < self._fast()
        self._schedule(self.poller.next_interval() if fresh else 0.0)

    def hide(self) -> None:
        self.visible = False
        self._schedule(self._hidden_interval())

    def refresh_now(self) -> None:
        """Poll now, whatever the state: stopped tries again; paused reads once and stays
        paused (no timer is set)."""
        self.board.stopped = False
        self.refreshing = True
        if self.paused:
            self._fire()
        else:
            self._schedule(0.0)

    def toggle_pause(self) -> bool:
        """Pause or resume polling; returns True when now paused."""
        self.paused = not self.paused
        self._schedule(0.0 if not self.paused else None)
        return self.paused

    def follow(self, kind: JobKind, job_id: str) -> None:
        """Announce this job's end even off the dashboard (e.g. an export just unlocked)."""
        self.board.followed.add((kind, job_id))
        self._schedule(self._fast() if not self.visible else self.poller.next_interval())

    def absorb(self, record: Export | Extraction) -> None:
        """Merge a record an action returned, and look again soon. No announcement: the
        action tells the user itself, once."""
        self.board.absorb(record)
        self.changed.publish(self.board)
        self._schedule(min(self._fast(), self.poller.next_interval()))

    # --- scheduling -----------------------------------------------------------------------

    def _fast(self) -> float:
        return self.account.settings.polling.fast_seconds

    def _hidden_interval(self) -> float | None:
        if not self.board.watched():
            return None
        return max(self.account.settings.polling.slow_seconds, self.poller.next_interval())

    def _schedule(self, delay: float | None) -> None:
        """One timer for the app: the pending tick is replaced, never doubled."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        blocked = self.paused or self.board.stopped or self.account.session is None
        if not self.visible and delay is not None:
            hidden = self._hidden_interval()
            delay = None if hidden is None else max(delay, hidden)
        if blocked or delay is None:
            self.next_tick_at = None
        else:
            self.next_tick_at = self.account.clock() + delay
            # Textual's Timer divides by its interval: "now" is the shortest useful wait.
            wait = max(delay, 0.01)
            self._timer = self.app.set_timer(wait, self._fire, name="job-watcher")
        self.changed.publish(self.board)

    def _fire(self) -> None:
        self._timer = None
        start_worker(self.app, self.tick, group="job-watcher", exclusive=True, exit_on_error=False)

    async def tick(self) -> None:
        """One poll (the timer calls this; tests and `r` may too), then the next is planned."""
        self.ticking = True
        self.changed.publish(self.board)
        try:
            changes = await self.poller.tick(self.account.clock(), full=self.visible)
        finally:
            self.ticking = False
        self.refreshing = False  # not when cancelled: the tick that replaced it answers
        for change in changes:
            self.notifier.announce(change)
        if self.board.gone:
            self.notifier.announce_gone(self.board.gone)
        if self.board.stopped and self.board.error is not None:
            self.account.note_error(self.board.error)
        await self.account.follow_journal()  # a spend made elsewhere moves the balance shown
        self._schedule(self.poller.next_interval() if self.visible else self._hidden_interval())

    def _new_session(self) -> None:
        # Another key may be another account: forget its jobs.
        self.poller.board = JobBoard()
        self._schedule(0.0 if self.visible else None)
