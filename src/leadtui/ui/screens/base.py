"""`LeadScreen`: header, inline error panel, body, footer; scope checks; the error path.

The first frame composes only what it paints: the header, the body and the footer. The line of
requests in flight, the error panel and the too-small notice are mounted when first needed
(hidden until then, with their modules they were ~3 ms of every launch's first frame).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import NoActiveWorker, Worker, WorkerState, WorkType, get_current_worker

from leadtui.api.contract import Scope
from leadtui.ui.frame.handle import AppHandle, app_handle
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.widgets.header import AppHeader
from leadtui.ui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from textual.widget import Widget

    from leadtui.api.client import LeadClient
    from leadtui.api.models import Identity
    from leadtui.ui.model.errors import ErrorReport
    from leadtui.ui.widgets.error_panel import ErrorPanel
    from leadtui.ui.widgets.lead_table import LeadTable
    from leadtui.ui.widgets.too_small import TooSmall

R = TypeVar("R")  # what a worker's work returns


class LeadScreen(Screen[None]):
    """Base of the main screens (one per app mode).

    Subclasses set MODE and LABEL (a main screen takes both from its entry in
    `ui/frame/main_screens.py`), implement `compose_body`, and list the scopes they need:
    REQUIRED_SCOPES for the screen as a whole (a notice replaces failures), ACTION_SCOPES for
    single actions (the key is greyed out in the footer and pressing it says why).
    """

    MODE: ClassVar[str] = ""
    LABEL: ClassVar[str] = ""
    # The smallest terminal the screen is laid out for (columns, rows): an SSH pane of 60×20
    # still shows the credits, the account, the searches and the jobs (fewer columns, a compact
    # footer). Below it the screen shows only why (TooSmall), not a cut table or badge.
    MIN_SIZE: ClassVar[tuple[int, int]] = (60, 20)
    # (scope, what it lets the user do here), e.g. (Scope.SEARCHES_READ, "list searches").
    REQUIRED_SCOPES: ClassVar[tuple[tuple[Scope, str], ...]] = ()
    # action -> (scope, what it does), e.g. {"unlock": (Scope.EXPORTS_WRITE, "unlock results")}.
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {}
    # The screen's main actions: the footer shows their keys at any width (KeyFooter).
    MAIN_ACTIONS: ClassVar[frozenset[str]] = frozenset()

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy_request_id", "Copy request id", id="error.copy_request_id"),
    ]

    def __init__(self) -> None:
        super().__init__()
        # What each running request is doing, by the action whose key started it.
        self._requests: dict[str, str] = {}
        # The worker whose failure the error panel shows (None: shown outside any worker).
        self._error_origin: Worker[object] | None = None
        self._load_failed = False

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield from self.compose_body()
        yield KeyFooter()

    def _mount_under_header(self, widget: Widget, *, below: str | None = None) -> None:
        """Mount `widget` between the header and the body (under the widget `below`, when
        it is mounted): it is in the screen, and can be drawn on, at once."""
        above = self.query(below) if below else None
        self.mount(widget, after=above.first() if above else self.query_one(AppHeader))

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets, between the header (and what is mounted under it) and the
        footer."""
        yield from ()

    # --- what the screen works with -----------------------------------------------------

    @property
    def lead_app(self) -> AppHandle:
        return app_handle(self)

    @property
    def client(self) -> LeadClient:
        """The signed-in client. Workers only run once signed in, so this is always set."""
        return self.lead_app.client

    def run_worker(self, work: WorkType[R], *args: Any, **kwargs: Any) -> Worker[R]:
        """Textual's, but an async worker whose answer comes as the screen is taken down ends
        quietly when its widgets are already gone (the app quitting mid-load)."""
        if not kwargs.get("thread") and inspect.iscoroutinefunction(work):
            work = cast("WorkType[R]", partial(self._unless_taken_down, work))
        return super().run_worker(work, *args, **kwargs)

    async def _unless_taken_down(self, work: Callable[[], Awaitable[Any]]) -> Any:
        try:
            return await work()
        except NoMatches:
            if not self.taken_down:
                raise
        return None

    @property
    def taken_down(self) -> bool:
        """Being removed (closed, or the app quitting: its widgets go first, and Textual stops
        displaying it as its removal starts): a worker that ends now draws nothing."""
        return not self.is_attached or not self.display or not self.query(AppHeader)

    @property
    def shown_error(self) -> ErrorReport | None:
        """What the error panel shows (None: nothing, or no panel yet)."""
        panel = self._panel()
        return panel.report if panel else None

    # --- errors -------------------------------------------------------------------------

    def show_error(
        self, error: BaseException | ErrorReport, *, retry: Callable[[], object] | None = None
    ) -> None:
        """Show an error inline. Network failures retry by themselves via `retry`."""
        from leadtui.ui.model.errors import ErrorReport, describe
        from leadtui.ui.widgets.error_panel import ErrorPanel

        report = error if isinstance(error, ErrorReport) else describe(error)
        self.lead_app.note_error(report)
        try:
            self._error_origin = get_current_worker()
        except NoActiveWorker:
            self._error_origin = None
        panel = self._panel()
        if panel is None:
            if self.taken_down:
                return
            panel = ErrorPanel()
            self._mount_under_header(panel, below="#requests-running")
        panel.delays = self.lead_app.deps.retry_delays
        panel.clock = self.lead_app.clock
        panel.show(report, retry=retry)
        self.refresh_bindings()

    def clear_error(self) -> None:
        self._error_origin = None
        panel = self._panel()
        if panel is not None:
            panel.clear()
            self.refresh_bindings()

    def show_load_error(self, error: BaseException, retry: Callable[[], object]) -> None:
        self._load_failed = True
        self.show_error(error, retry=retry)

    def load_recovered(self) -> None:
        # Only a load failure is cleared by a load: a spend's explanation stays until read.
        if self._load_failed:
            self._load_failed = False
            self.clear_error()

    # A screen's lead table, by name: importing the widget here would slow the first frame.
    def on_lead_table_loaded(self) -> None:
        self.load_recovered()

    def on_lead_table_load_failed(self, event: LeadTable.LoadFailed) -> None:
        self.show_load_error(event.error, event.table.retry)

    def _panel(self) -> ErrorPanel | None:
        """The error panel; None until the first error, and once the screen is taken down (a
        load that was answered as the app quit still ends: it has nothing left to show)."""
        panels = self.query("#error-panel")
        return cast("ErrorPanel", panels.first()) if panels else None

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # A panel reports one failure; the next success of the same work ends it: another run
        # of the worker that failed, or (for a failure found outside any worker, e.g. a check
        # on a key press) the next worker of this screen that succeeds. Scope notices stay.
        panel = self._panel()  # none once the screen is being taken down
        if event.state != WorkerState.SUCCESS or panel is None or panel.report is None:
            return
        if self._showing_scope_notice():
            return
        origin, worker = self._error_origin, event.worker
        if origin is worker:
            return
        if origin is None or (worker.name, worker.group) == (origin.name, origin.group):
            self.clear_error()

    # --- requests in flight -------------------------------------------------------------

    @contextmanager
    def request(self, action: str, doing: str) -> Iterator[None]:
        """While the block runs, `doing` ("Refreshing the account…") shows under the header and
        the key of `action` is greyed out, so it cannot start the same request twice."""
        self._requests[action] = doing
        self._draw_requests()
        try:
            yield
        finally:
            self._requests.pop(action, None)
            self._draw_requests()

    def is_requesting(self, action: str) -> bool:
        return action in self._requests

    def _draw_requests(self) -> None:
        lines = self.query("#requests-running")
        if lines:
            line = lines.first(Static)
        elif self._requests and not self.taken_down:
            line = Static(id="requests-running", markup=False)
            self._mount_under_header(line)
        else:
            return
        line.update("  ".join(f"⟳ {doing}" for doing in self._requests.values()))
        line.set_class(bool(self._requests), "-on")
        self.refresh_bindings()

    def action_copy_request_id(self) -> None:
        shown = self.shown_error
        request_id = shown.request_id if shown else None
        if request_id:
            self.app.copy_to_clipboard(request_id)
            self.notify(f"Copied request id {request_id}", timeout=3)

    # --- scopes -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.watch(self.app, "identity", self._identity_changed, init=False)
        self.lead_app.spend_settled.subscribe(self, self._spend_settled)

    def _spend_settled(self, idempotency_key: str) -> None:
        # "Outcome unknown" no longer holds once that spend is settled or discarded.
        shown = self.shown_error
        if shown is not None and shown.pending_spend == idempotency_key:
            self.clear_error()

    def on_screen_resume(self) -> None:
        self._check_required_scopes()
        self._fit_terminal()

    def on_resize(self) -> None:
        self._fit_terminal()

    def _fit_terminal(self) -> None:
        """Below `MIN_SIZE` the screen shows only the too-small notice (the CSS hides the rest
        through the `-too-small` class)."""
        need_width, need_height = self.MIN_SIZE
        width, height = self.app.size
        small = width < need_width or height < need_height
        if small:
            notices = self.query("TooSmall")
            if notices:
                notice = cast("TooSmall", notices.first())
            else:
                from leadtui.ui.widgets.too_small import TooSmall

                notice = TooSmall()
                self.mount(notice)
            notice.tell(self.MIN_SIZE, (width, height))
        self.set_class(small, "-too-small")

    def _identity_changed(self, identity: Identity | None) -> None:
        self._check_required_scopes()
        self.refresh_bindings()

    def _check_required_scopes(self) -> None:
        has = self.lead_app.has_scope
        missing = [(scope, doing) for scope, doing in self.REQUIRED_SCOPES if not has(scope)]
        if missing:
            from leadtui.ui.model.errors import missing_scope

            self.show_error(missing_scope(*missing[0]))
        elif self._showing_scope_notice():
            self.clear_error()

    def _showing_scope_notice(self) -> bool:
        shown = self.shown_error
        return shown is not None and shown.status is None and shown.code == "insufficient_scope"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_request_id":
            panel = self._panel()
            return bool(panel and panel.request_id)
        if action in self._requests:
            return None  # greyed out until the request it started ends
        gate = self.ACTION_SCOPES.get(action)
        if gate is not None and not self.lead_app.has_scope(gate[0]):
            return None  # greyed out; LeadApp.on_key explains when it is pressed
        return True

    def palette_commands(self) -> list[PaletteCommand]:
        """This screen's `group: action` entries for the command palette."""
        return []
