"""`LeadScreen`: header, inline error panel, body, footer; scope checks; the error path."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from leadtui.api.contract import Scope
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.model.errors import ErrorReport, describe, missing_scope
from leadtui.ui.widgets.error_panel import ErrorPanel
from leadtui.ui.widgets.header import AppHeader

if TYPE_CHECKING:
    from leadtui.api.client import LeadClient
    from leadtui.api.models import Identity
    from leadtui.ui.app import LeadApp


class LeadScreen(Screen[None]):
    """Base of the main screens (one per app mode).

    Subclasses set MODE and LABEL, implement `compose_body`, and list the scopes they need:
    REQUIRED_SCOPES for the screen as a whole (a notice replaces failures), ACTION_SCOPES for
    single actions (the key is greyed out in the footer and pressing it says why).
    """

    MODE: ClassVar[str] = ""
    LABEL: ClassVar[str] = ""
    # (scope, what it lets the user do here), e.g. (Scope.SEARCHES_READ, "list searches").
    REQUIRED_SCOPES: ClassVar[tuple[tuple[Scope, str], ...]] = ()
    # action -> (scope, what it does), e.g. {"unlock": (Scope.EXPORTS_WRITE, "unlock results")}.
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {}
    # Screens with many keys use the compact footer so every key fits one line at 80 columns.
    COMPACT_FOOTER: ClassVar[bool] = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy_request_id", "Copy request id", id="error.copy_request_id"),
    ]

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield ErrorPanel()
        yield from self.compose_body()
        yield Footer(compact=self.COMPACT_FOOTER)

    def compose_body(self) -> ComposeResult:
        """The screen's own widgets, between the error panel and the footer."""
        yield from ()

    # --- what the screen works with -----------------------------------------------------

    @property
    def lead_app(self) -> LeadApp:
        return cast("LeadApp", self.app)

    @property
    def client(self) -> LeadClient:
        """The signed-in client. Workers only run once signed in, so this is always set."""
        return self.lead_app.client

    @property
    def error_panel(self) -> ErrorPanel:
        return self.query_one(ErrorPanel)

    # --- errors -------------------------------------------------------------------------

    def show_error(
        self, error: BaseException | ErrorReport, *, retry: Callable[[], object] | None = None
    ) -> None:
        """Show an error inline. Network failures retry by themselves via `retry`."""
        report = error if isinstance(error, ErrorReport) else describe(error)
        self.lead_app.note_error(report)
        panel = self.error_panel
        panel.delays = self.lead_app.deps.retry_delays
        panel.show(report, retry=retry)
        self.refresh_bindings()

    def clear_error(self) -> None:
        self.error_panel.clear()
        self.refresh_bindings()

    def action_copy_request_id(self) -> None:
        request_id = self.error_panel.request_id
        if request_id:
            self.app.copy_to_clipboard(request_id)
            self.notify(f"Copied request id {request_id}", timeout=3)

    # --- scopes -------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.watch(self.app, "identity", self._identity_changed, init=False)

    def on_screen_resume(self) -> None:
        self._check_required_scopes()

    def _identity_changed(self, identity: Identity | None) -> None:
        self._check_required_scopes()
        self.refresh_bindings()

    def missing_required_scope(self) -> ErrorReport | None:
        for scope, doing in self.REQUIRED_SCOPES:
            if not self.lead_app.has_scope(scope):
                return missing_scope(scope, doing)
        return None

    def _check_required_scopes(self) -> None:
        report = self.missing_required_scope()
        if report is not None:
            self.show_error(report)
        elif self._showing_scope_notice():
            self.clear_error()

    def _showing_scope_notice(self) -> bool:
        shown = self.error_panel.report
        return shown is not None and shown.status is None and shown.code == "insufficient_scope"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "copy_request_id":
            panels = self.query(ErrorPanel)  # empty while the screen is still composing
            return bool(panels and panels.first().request_id)
        gate = self.ACTION_SCOPES.get(action)
        if gate is not None and not self.lead_app.has_scope(gate[0]):
            return None  # greyed out; LeadApp.on_key explains when it is pressed
        return True

    def palette_commands(self) -> list[PaletteCommand]:
        """This screen's `group: action` entries for the command palette."""
        return []
