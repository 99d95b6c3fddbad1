"""`ExportsPanel`: the exports table and what can be done to an export: its results, the
archive (whole or chosen columns) to the download folder or to a folder asked for that one
file, a retry of a failed one (no credits)."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from leadtui.api.contract import ExportStatus, Scope
from leadtui.api.models import Export
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.dialogs.custom_download import CustomDownload
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.export_files import authorized_columns
from leadtui.ui.model.job_board import JobBoard, failure_reason
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.widgets.job_panel import JobPanel
from leadtui.ui.widgets.job_tables import ExportTable


class ExportsPanel(JobPanel[Export]):
    KIND = "export"
    NONE_YET = "none yet: unlock results on Searches (2)"
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "retry": (Scope.EXPORTS_WRITE, "retry a failed export"),
    }
    NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "download": (ExportStatus.READY,),
        "custom_download": (ExportStatus.READY,),
        "retry": (ExportStatus.FAILED,),
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "download", "ZIP", id="jobs.download"),
        Binding("a", "download(True)", "ZIP to…", id="jobs.download_to"),
        Binding("o", "custom_download", "Columns", id="jobs.custom_download"),
        Binding(
            "O",
            "custom_download(True)",
            "Columns to…",
            id="jobs.custom_download_to",
            key_display="O",
            show=False,
        ),
        Binding("t", "retry", "Retry", id="jobs.retry"),
        Binding("S", "open_search", "Its search", id="jobs.open_search", key_display="S"),
    ]

    PALETTE_HELP: ClassVar[dict[str, str]] = {
        **JobPanel.PALETTE_HELP,
        "ZIP to…": "Download the export's ZIP to a folder you type (this file only)",
        "Columns to…": "Pick columns and format, then download to a folder you type",
    }

    def __init__(self) -> None:
        super().__init__(ExportTable(id="exports-table"), "Exports", id="exports-panel")

    def show(self, board: JobBoard, now: float) -> None:
        # Until the first whole page is read, no partial list (only this session's jobs).
        self.listed = board.listed
        self.table.merge(board.exports.values() if board.listed else (), now)
        self.draw_subtitle()

    def note(self, export: Export | None) -> str:
        if export is not None and export.status == ExportStatus.FAILED:
            return f"{super().note(export)} · t retries it at no cost"
        if export is not None and export.status == ExportStatus.READY:
            # Where a download goes, before it starts.
            folder = self.download_line.folder()
            return f"d saves {export.exportId}.zip to {folder} · a asks where"
        return super().note(export)

    def action_results(self) -> None:
        export = self.table.focused_row
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

    def action_open_search(self) -> None:
        export = self.table.focused_row
        if export is not None and export.searchId:
            start_worker(
                self.app, partial(self.lead_app.show_search_of, export.searchId), group="jump"
            )

    @work(group="jobs-retry")
    async def action_retry(self) -> None:
        export = self.table.focused_row
        if export is None or export.status != ExportStatus.FAILED or "retry" in self.busy:
            return
        reason = failure_reason(export)
        ask = ConfirmText(
            f"Retry export {export.exportId}",
            (f"It failed: {reason}\n" if reason else "")
            + "The export is queued again with the same results. Retrying a failed export "
            "uses no credits.",
            "Retry",
        )
        exports = self.lead_app.client.exports
        record = await self.send(
            "retry",
            f"retrying {export.exportId}",
            lambda: exports.retry(export.exportId),
            ask=ask,
            reread=lambda: exports.get(export.exportId),
            took=lambda record: record.status != ExportStatus.FAILED,
        )
        if record is None:
            return
        self.lead_app.jobs.absorb(record)
        self.notify(f"Export {record.exportId} is {record.status} again — no credits used.")

    @work(group="jobs-download")
    async def action_download(self, ask_where: bool = False) -> None:
        """The whole archive, to the download folder, or where the user says (`a`)."""
        export = self.table.focused_row
        if export is None or export.status != ExportStatus.READY or self._downloading():
            return
        name = f"{export.exportId}.zip"
        folder = await self.download_line.ask_folder(name) if ask_where else None
        if ask_where and folder is None:
            return
        async with self.running("download", f"downloading {export.exportId}"):
            await self.download_line.save(export.exportId, name, folder=folder)

    @work(group="jobs-download")
    async def action_custom_download(self, ask_where: bool = False) -> None:
        """Chosen columns and format, to the download folder, or where the user says (`O`)."""
        export = self.table.focused_row
        if export is None or export.status != ExportStatus.READY or self._downloading():
            return
        client = self.lead_app.client
        columns = await self.send(
            "custom_download",
            f"reading the columns of {export.exportId}",
            lambda: authorized_columns(client, export.exportId),
        )
        if columns is None:
            return
        if not columns:
            self.notify("This export has no results to download.", severity="warning")
            return
        choice = await self.app.push_screen_wait(CustomDownload(export.exportId, columns))
        if choice is None:
            return
        name = f"{export.exportId}-custom.zip"
        folder = await self.download_line.ask_folder(name) if ask_where else None
        if ask_where and folder is None:
            return
        async with self.running("custom_download", f"downloading {export.exportId}"):
            await self.download_line.save(export.exportId, name, choice, folder=folder)

    def _downloading(self) -> bool:
        return "download" in self.busy or "custom_download" in self.busy

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # One download at a time: both download keys wait for the one running.
        if action in ("download", "custom_download") and self._downloading():
            return None
        return super().check_action(action, parameters)
