"""Jobs: every export and extraction, live from the app's one JobWatcher.

The screen is composition and the status line: each panel (ExportsPanel, ExtractionsPanel)
owns its keys, actions and workers, live while its table has the focus (Tab switches); the
DownloadLine shows a download's progress and where files went.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Static

from leadtui.api.contract import Scope
from leadtui.ui.frame.main_screens import JOBS
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.model.job_board import JobBoard
from leadtui.ui.model.palette_command import PaletteCommand
from leadtui.ui.model.timefmt import ago
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.watches.job_watcher import JobWatcher
from leadtui.ui.widgets.download_line import DownloadLine
from leadtui.ui.widgets.exports_panel import ExportsPanel
from leadtui.ui.widgets.extractions_panel import ExtractionsPanel


class JobsScreen(LeadScreen):
    CSS_PATH = stylesheet("jobs")

    MODE = JOBS.mode
    LABEL = JOBS.label
    REQUIRED_SCOPES = ((Scope.EXPORTS_READ, "follow your export jobs"),)
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "new_extraction": (Scope.EXTRACTIONS_WRITE, "create extractions"),
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="jobs.refresh"),
        Binding("p", "toggle_polling", "Polling on/off", id="jobs.toggle_polling"),
        Binding("e", "new_extraction", "New extraction", id="jobs.new_extraction"),
        Binding("y", "copy_path", "Copy the saved file's path", id="jobs.copy_path", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._clock_timer: Timer | None = None
        self._board_report: ErrorReport | None = None

    def compose_body(self) -> ComposeResult:
        yield Static("", id="jobs-status")
        with Vertical(id="jobs-panels"):
            yield ExportsPanel()
            yield ExtractionsPanel()
        yield DownloadLine()

    @property
    def watcher(self) -> JobWatcher:
        return self.lead_app.jobs

    @property
    def panels(self) -> tuple[ExportsPanel, ExtractionsPanel]:
        return self.query_one(ExportsPanel), self.query_one(ExtractionsPanel)

    def on_mount(self) -> None:  # LeadScreen's runs too (Textual calls every class's)
        self.watcher.changed.subscribe(self, self._board_changed)
        # The status line and the "Updated" ages tick together, once a second.
        self._clock_timer = self.set_interval(1.0, self._tick_clock, pause=True)
        self._board_changed(self.watcher.board)

    def on_screen_resume(self) -> None:
        for panel in self.panels:
            panel.draw_subtitle()  # what a dialog confirmed now shows it runs
        self.watcher.show()
        if self._clock_timer is not None:
            self._clock_timer.resume()

    def on_screen_suspend(self) -> None:
        for panel in self.panels:
            panel.draw_subtitle()  # a dialog on top: what it asks is not running yet
        if self in self.app.screen_stack:
            return  # a dialog or the results screen on top: the dashboard is still in use
        # Another screen: the watcher keeps only a slow tick for followed jobs that move.
        self.watcher.hide()
        if self._clock_timer is not None:
            self._clock_timer.pause()

    def palette_commands(self) -> list[PaletteCommand]:
        return [
            PaletteCommand(
                "jobs: refresh", "Poll exports and extractions now", self.action_refresh
            ),
            PaletteCommand("jobs: pause or resume polling", "", self.action_toggle_polling),
            PaletteCommand(
                "jobs: new extraction", "Draft, or create and launch", self.action_new_extraction
            ),
            *self._panel_key_help(),
        ]

    def _panel_key_help(self) -> list[PaletteCommand]:
        """Words under the focused panel's key entries. Only while the panel has the focus,
        so each is joined to its key's entry by title, and the key's entry runs the action."""
        for panel in self.panels:
            if panel.has_focus_within:
                return [
                    PaletteCommand(f"jobs: {description}", words, _joined_to_its_key)
                    for description, words in panel.PALETTE_HELP.items()
                ]
        return []

    def _board_changed(self, board: JobBoard) -> None:
        now = self.lead_app.clock()
        for panel in self.panels:
            panel.show(board, now)
        if board.error is not None and (board.stopped or board.stale):
            if self.shown_error is not board.error:
                # The frame's words, code and request id (c copies it). No countdown here: the
                # watcher backs off by itself, and stops on 401/403.
                self.show_error(board.error)
                self._board_report = board.error
        elif self._board_report is not None and self.shown_error is self._board_report:
            # Scope notices share the panel; only the polling failure shown here is cleared.
            self.clear_error()
        self._draw_status()
        self.refresh_bindings()

    def _tick_clock(self) -> None:
        now = self.lead_app.clock()
        for panel in self.panels:
            panel.table.tick(now)
        self._draw_status()

    def _draw_status(self) -> None:
        watcher, board, now = self.watcher, self.watcher.board, self.lead_app.clock()
        updated = f"updated {ago(now - board.updated_at)}" if board.updated_at else "not loaded"
        moving = len(board.moving())
        if board.stopped:
            line = "■ polling stopped (see the message above) · r tries again"
        elif board.stale:
            error = board.error.title if board.error else "error"
            line = f"⚠ stale: {error} · {updated} · r tries now"
            line += " · polling paused (p resumes)" if watcher.paused else ""
        elif watcher.paused:
            line = f"‖ polling paused (p resumes, r reads once) · {updated}"
        elif not board.listed:
            # Never "live" over a partial list: only both whole first pages make it live.
            line = "⟳ reading exports and extractions…"
        else:
            line = f"● live · {updated}"
        # Only a poll the user asked for says it runs: every 2 s poll would make it flicker.
        if watcher.refreshing:
            line = "⟳ refreshing… · " + line
        if watcher.next_tick_at is not None and not board.stopped:
            line += f" · next in {max(0, round(watcher.next_tick_at - now))}s"
        if moving:
            line += f" · {moving} moving"
        status = self.query_one("#jobs-status", Static)
        status.update(line)
        status.set_class(board.stale, "-stale")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (gate := super().check_action(action, parameters)) is not True:
            return gate
        if action == "copy_path":
            return True if self.query_one(DownloadLine).saved_path is not None else None
        if action == "refresh":
            return None if self.watcher.refreshing else True
        if action == "new_extraction":
            return None if "new_extraction" in self.panels[1].busy else True
        return True

    def action_refresh(self) -> None:
        self.watcher.refresh_now()
        if self.watcher.paused:
            self.notify("Reading once; polling stays paused (p resumes).", timeout=3)

    def action_toggle_polling(self) -> None:
        paused = self.watcher.toggle_pause()
        self.notify("Polling paused: p resumes." if paused else "Polling resumed.", timeout=3)

    def action_new_extraction(self) -> None:
        self.panels[1].new_extraction()

    def action_copy_path(self) -> None:
        self.query_one(DownloadLine).copy_path()


def _joined_to_its_key() -> None:
    """The run of a palette entry that only lends its words to a key's entry (never listed)."""
