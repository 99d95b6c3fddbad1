"""Jobs: every export and extraction, live from the app's one JobWatcher, with their actions.

Export actions live here; extraction actions in `jobs_extractions.py` (a mixin of this
screen). Actions that do not apply to the focused table are hidden; those that do not apply
to the selected job are greyed out (check_action).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar, Literal

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import DataTable, Label, ProgressBar, Static

from leadtui.api.contract import ExportStatus, Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import Export
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.dialogs.confirm_job_action import ConfirmJobAction
from leadtui.ui.dialogs.custom_download import CustomDownload, CustomDownloadChoice
from leadtui.ui.job_watcher import JobWatcher
from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.model.export_files import authorized_columns, free_path, stamp, write_rows_csv
from leadtui.ui.model.job_board import JobBoard
from leadtui.ui.model.timefmt import ago
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.screens.jobs_extractions import EXTRACTION_ACTIONS, ExtractionActions
from leadtui.ui.widgets.job_tables import ExportTable, ExtractionTable, JobTable

EXPORT_ACTIONS = frozenset({"download", "custom_download", "retry"})


class JobsScreen(ExtractionActions):
    MODE = "jobs"
    LABEL = "Jobs"
    REQUIRED_SCOPES = ((Scope.EXPORTS_READ, "follow your export jobs"),)
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "retry": (Scope.EXPORTS_WRITE, "retry a failed export"),
        **ExtractionActions.EXTRACTION_SCOPES,
    }

    COMPACT_FOOTER = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh", id="jobs.refresh"),
        Binding("p", "toggle_polling", "Polling", id="jobs.toggle_polling"),
        Binding("v", "results", "Results", id="jobs.results", show=False),
        Binding("d", "download", "ZIP", id="jobs.download"),
        Binding("o", "custom_download", "Columns", id="jobs.custom_download"),
        Binding("t", "retry", "Retry", id="jobs.retry"),
        Binding("w", "export_csv", "CSV", id="jobs.export_csv", show=False),
        Binding("y", "copy_path", "Copy path", id="jobs.copy_path", show=False),
        *ExtractionActions.EXTRACTION_BINDINGS,
    ]

    # Download progress, bound to the ProgressBar (data_bind); total None = unknown size.
    download_total: reactive[float | None] = reactive(None, init=False)
    download_done: reactive[float] = reactive(0.0, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.saved_path: Path | None = None
        self._clock_timer: Timer | None = None
        self._board_report: ErrorReport | None = None

    def compose_body(self) -> ComposeResult:
        colour = self._theme_colour
        yield Static("", id="jobs-status")
        with Vertical(id="jobs-tables"):
            exports = ExportTable(colour=colour, id="exports-table")
            exports.border_title = "Exports"
            yield exports
            extractions = ExtractionTable(colour=colour, id="extractions-table")
            extractions.border_title = "Extractions"
            yield extractions
        with Horizontal(id="download-line"):
            yield Label("", id="download-label")
            yield ProgressBar(id="download-bar", show_eta=False).data_bind(
                total=JobsScreen.download_total, progress=JobsScreen.download_done
            )

    @property
    def watcher(self) -> JobWatcher:
        return self.lead_app.jobs

    @property
    def exports_table(self) -> ExportTable:
        return self.query_one(ExportTable)

    @property
    def extractions_table(self) -> ExtractionTable:
        return self.query_one(ExtractionTable)

    def on_mount(self) -> None:
        self.query_one("#download-line").display = False
        self.watcher.changed.subscribe(self, self._board_changed)
        self._clock_timer = self.set_interval(1.0, self._draw_status, pause=True)
        self._board_changed(self.watcher.board)

    def on_screen_resume(self) -> None:
        self.watcher.show()
        if self._clock_timer is not None:
            self._clock_timer.resume()

    def on_screen_suspend(self) -> None:
        if self in self.app.screen_stack:
            return  # a dialog or the results screen on top: the dashboard is still in use
        # Another screen: the watcher keeps only a slow tick for followed jobs that move.
        self.watcher.hide()
        if self._clock_timer is not None:
            self._clock_timer.pause()

    def _theme_colour(self, name: str) -> str | None:
        return getattr(self.app.current_theme, name, None) if name else None

    def palette_commands(self) -> list[PaletteCommand]:
        return [
            PaletteCommand(
                "jobs: refresh", "Poll exports and extractions now", self.action_refresh
            ),
            PaletteCommand("jobs: pause or resume polling", "", self.action_toggle_polling),
            PaletteCommand("jobs: export visible rows to CSV", "", self.action_export_csv),
            *self.extraction_palette_commands(),
        ]

    # --- the board ------------------------------------------------------------------------

    def _board_changed(self, board: JobBoard) -> None:
        now = self.lead_app.clock()
        self.exports_table.merge(board.exports.values(), now)
        extractions = self.extractions_table
        extractions.merge(board.extractions.values(), now)
        if not board.exports:
            self.exports_table.border_subtitle = "none yet: unlock results on Searches (s)"
        else:
            self.exports_table.border_subtitle = f"{len(board.exports)} shown"
        extractions.border_subtitle = (
            f"{len(board.extractions)} shown" if board.extractions else "none yet: e drafts one"
        )
        if not self.lead_app.has_scope(Scope.EXTRACTIONS_READ):
            extractions.border_title = "Extractions — this key lacks extractions:read"
        if board.error is not None and (board.stopped or board.stale):
            if self.error_panel.report is not board.error:
                # The frame's words, code and request id (c copies it). No countdown here: the
                # watcher backs off by itself, and stops on 401/403.
                self.show_error(board.error)
                self._board_report = board.error
        elif self._showing_board_error():
            self.clear_error()
        self._draw_status()
        self.refresh_bindings()

    def _showing_board_error(self) -> bool:
        # Scope notices share the panel; only the polling failure shown here is cleared.
        report = self.error_panel.report
        return report is not None and report is self._board_report

    def _draw_status(self) -> None:
        watcher, board, now = self.watcher, self.watcher.board, self.lead_app.clock()
        updated = f"updated {ago(now - board.updated_at)}" if board.updated_at else "not loaded"
        moving = len(board.moving())
        if board.stopped:
            line = "■ polling stopped (see the message above) · r tries again"
        elif board.stale:
            error = board.error.title if board.error else "error"
            line = f"⚠ stale: {error} · {updated}"
            line += " · polling paused (p resumes)" if watcher.paused else ""
        elif watcher.paused:
            line = f"‖ polling paused (p resumes) · {updated}"
        else:
            line = f"● live · {updated}"
        # No "refreshing…" state: a 2 s poll would make the line flicker for nothing.
        if watcher.next_tick_at is not None and not board.stopped:
            line += f" · next in {max(0, round(watcher.next_tick_at - now))}s"
        if moving:
            line += f" · {moving} moving"
        self.query_one("#jobs-status", Static).update(line)
        self.query_one("#jobs-status").set_class(board.stale, "-stale")

    # --- focus, selection and what applies ------------------------------------------------

    def focused_kind(self) -> Literal["export", "extraction"]:
        return "extraction" if isinstance(self.focused, ExtractionTable) else "export"

    def selected_export(self) -> Export | None:
        return self.exports_table.selected if self.focused_kind() == "export" else None

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self) -> None:
        self.refresh_bindings()

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_results()  # Enter on a row: its results

    def on_descendant_focus(self, event: object) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (gate := super().check_action(action, parameters)) is not True:
            return gate
        if action in EXPORT_ACTIONS:
            if self.focused_kind() != "export":
                return False  # hidden: it belongs to the other table
            export = self.selected_export()
            wanted = ExportStatus.FAILED if action == "retry" else ExportStatus.READY
            return True if export is not None and export.status == wanted else None
        if action in EXTRACTION_ACTIONS:
            return self.check_extraction_action(action)
        if action == "copy_path":
            return True if self.saved_path is not None else None
        if action in ("results", "export_csv"):
            return True if self._focused_table().row_count else None
        return True

    def _focused_table(self) -> JobTable[Export] | ExtractionTable:
        return self.extractions_table if self.focused_kind() == "extraction" else self.exports_table

    # --- polling keys ---------------------------------------------------------------------

    def action_refresh(self) -> None:
        self.watcher.refresh_now()

    def action_toggle_polling(self) -> None:
        paused = self.watcher.toggle_pause()
        self.notify("Polling paused: p resumes." if paused else "Polling resumed.", timeout=3)

    # --- exports --------------------------------------------------------------------------

    def action_results(self) -> None:
        if self.focused_kind() == "extraction":
            self.open_extraction_results()
            return
        export = self.exports_table.selected
        if export is None:
            return
        if export.status != ExportStatus.READY:
            progress = f" ({int((export.progress or 0) * 100)}%)" if export.progress else ""
            self.notify(
                f"Export {export.exportId} is {export.status}{progress}: its results can be "
                "read once it is ready.",
                title="Not ready yet",
                severity="warning",
                timeout=5,
            )
            return
        self.app.push_screen(JobResultsScreen("export", export.exportId))

    @work(exclusive=True, group="jobs-retry")
    async def action_retry(self) -> None:
        export = self.selected_export()
        if export is None or export.status != ExportStatus.FAILED:
            return
        confirmed = await self.app.push_screen_wait(
            ConfirmJobAction(
                f"Retry export {export.exportId}",
                "The export is queued again with the same results. Retrying a failed export "
                "uses no credits.",
                "Retry",
            )
        )
        if not confirmed:
            return
        try:
            record = await self.client.exports.retry(export.exportId)
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        self.watcher.absorb(record)
        self.notify(f"Export {record.exportId} is {record.status} again — no credits used.")

    @work(exclusive=True, group="jobs-download")
    async def action_download(self) -> None:
        export = self.selected_export()
        if export is None or export.status != ExportStatus.READY:
            return
        await self._save(export.exportId, f"{export.exportId}.zip", None)

    @work(exclusive=True, group="jobs-download")
    async def action_custom_download(self) -> None:
        export = self.selected_export()
        if export is None or export.status != ExportStatus.READY:
            return
        try:
            columns = await authorized_columns(self.client, export.exportId)
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        if not columns:
            self.notify("This export has no results to download.", severity="warning")
            return
        choice = await self.app.push_screen_wait(CustomDownload(export.exportId, columns))
        if choice is not None:
            await self._save(export.exportId, f"{export.exportId}-custom.zip", choice)

    def download_folder(self) -> Path:
        return Path(self.lead_app.settings.download_dir).expanduser()

    async def _save(self, export_id: str, name: str, choice: CustomDownloadChoice | None) -> None:
        folder = self.download_folder()
        label = self.query_one("#download-label", Label)
        self.query_one("#download-line").display = True
        self.download_total, self.download_done = None, 0.0
        try:
            target = await asyncio.to_thread(free_path, folder, name)
        except OSError as error:
            label.update(f"✗ Cannot write to {folder}: {error.strerror}")
            return
        self.query_one("#download-bar").display = True
        label.update(f"Downloading {export_id} → {target.name}")

        def progress(done: int, total: int | None) -> None:
            self.download_total, self.download_done = total, float(done)

        try:
            if choice is None:
                path = await self.client.exports.download(export_id, target, on_progress=progress)
            else:
                path = await self.client.exports.custom_download(
                    export_id, target, choice.columns, choice.format, on_progress=progress
                )
        except (LeadError, OSError) as error:
            label.update(f"✗ Download of {export_id} failed: nothing was left half-written.")
            if isinstance(error, LeadError):
                self.lead_app.notify_error(error)
            return
        self.download_total = self.download_done = float(max(1, int(self.download_done)))
        self.saved_path = path
        self.query_one("#download-bar").display = False  # the whole line for the path
        label.update(f"✓ Saved {path}  (y copies the path)")
        self.notify(f"Saved {path}", title="Downloaded", timeout=6, markup=False)
        self.refresh_bindings()

    def action_copy_path(self) -> None:
        if self.saved_path is not None:
            self.app.copy_to_clipboard(str(self.saved_path))
            self.notify(f"Copied {self.saved_path}", timeout=3, markup=False)

    @work(exclusive=True, group="jobs-csv")
    async def action_export_csv(self) -> None:
        table = self._focused_table()
        rows = table.visible_rows()
        name = f"{self.focused_kind()}s-{stamp(self.lead_app.clock())}.csv"
        folder = self.download_folder()
        try:
            path = await asyncio.to_thread(write_rows_csv, folder, name, rows)
        except OSError as error:
            self.notify(f"Cannot write to {folder}: {error.strerror}", severity="error")
            return
        self.saved_path = path
        label = self.query_one("#download-label", Label)
        self.query_one("#download-line").display = True
        self.query_one("#download-bar").display = False
        label.update(f"✓ {len(rows) - 1} rows saved to {path}  (y copies the path)")
        self.refresh_bindings()
