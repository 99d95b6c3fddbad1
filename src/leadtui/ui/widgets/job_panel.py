"""`JobPanel`: one jobs table and the keys that act on its jobs.

Textual scopes bindings to the focused widget and its ancestors, so a panel's keys are live
(and in the footer) only while its table has the focus; Tab moves to the other panel. A job
action marks the panel busy at once: the border line says what is running and the action's
key is greyed until the server has answered.
"""

from __future__ import annotations

import contextlib
from abc import abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable

from leadtui.api.contract import ExportStatus, ExtractionStatus, Scope
from leadtui.api.errors import LeadError
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.frame.handle import AppHandle, app_handle
from leadtui.ui.model.errors import describe
from leadtui.ui.model.export_files import stamp
from leadtui.ui.model.job_board import JobBoard, failure_reason
from leadtui.ui.widgets.download_line import DownloadLine
from leadtui.ui.widgets.job_columns import JobT
from leadtui.ui.widgets.job_tables import JobTable

if TYPE_CHECKING:
    from textual.app import ComposeResult


T = TypeVar("T")


class JobPanel(Vertical, Generic[JobT]):
    """A bordered jobs table with its own keys, actions and workers. (Textual's metaclass
    rules out ABCMeta here; mypy still refuses to build a panel that lacks an abstract
    method.)"""

    DEFAULT_CSS = """
    JobPanel { height: 1fr; border: round $foreground 45%; border-title-color: $foreground; }
    JobPanel:focus-within { border: round $primary; }
    JobPanel > DataTable { height: 1fr; scrollbar-size-vertical: 1; }
    """
    # action -> (scope, what it does): greyed without the scope; LeadApp says why on a press.
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {}
    # action -> the states of the jobs it is for, in order: greyed for the others (`why_off`).
    NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {}
    KIND: ClassVar[str] = ""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "results", "Results", id="jobs.results", show=False),
        Binding("w", "export_csv", "CSV", id="jobs.export_csv", show=False),
        Binding(
            "W",
            "export_csv(True)",
            "CSV to…",
            id="jobs.export_csv_to",
            key_display="W",
            show=False,
        ),
    ]

    LOADING: ClassVar[str] = "⟳ reading the first page…"
    # The border line of an empty table once the first page is read: how to make a job.
    NONE_YET: ClassVar[str] = ""

    # Binding description -> what the palette says under its entry (while the panel has focus).
    PALETTE_HELP: ClassVar[dict[str, str]] = {
        "CSV to…": "The rows shown, as a CSV file, to a folder you type (this file only)",
    }

    def __init__(self, table: JobTable[JobT], title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.table: JobTable[JobT] = table
        self.title_text = title
        self.border_title = title
        # action -> what it is doing now ("retrying exp_000004"): shown, its key greyed.
        self.busy: dict[str, str] = {}
        # The board's first whole page has been read (until then the table stays empty).
        self.listed = False

    def compose(self) -> ComposeResult:
        yield self.table

    @property
    def lead_app(self) -> AppHandle:
        return app_handle(self)

    @property
    def download_line(self) -> DownloadLine:
        return self.screen.query_one(DownloadLine)

    @abstractmethod
    def show(self, board: JobBoard, now: float) -> None:
        """Merge the board's jobs of this kind into the table, then `draw_subtitle`."""

    def applies(self, action: str, job: JobT | None) -> bool:
        """Whether `action` applies to the selected job (else its key is greyed)."""
        return job is not None and job.status in self.NEEDS.get(action, (job.status,))

    def why_off(self, action: str, label: str) -> str | None:
        """Why `action`'s key (`label`) is greyed for the selected job: LeadApp says it."""
        job, needs = self.table.focused_row, self.NEEDS.get(action, ())
        if job is None or not needs or job.status in needs:
            return None
        states = " or ".join((", ".join(needs[:-1]), needs[-1])) if len(needs) > 1 else needs[0]
        job_id, kind = self.table.shape.job_id(job), self.KIND
        return f"{job_id} is {job.status}: {label} is for {states} {kind}s."

    def note(self, job: JobT | None) -> str:
        """The border line when nothing is running: counts, hints, a failure's reason."""
        if job is not None and job.status in (ExportStatus.FAILED, ExtractionStatus.FAILED):
            reason = failure_reason(job)
            return f"✗ {self.table.shape.job_id(job)} failed" + (f": {reason}" if reason else "")
        count = self.table.row_count
        if not count and not self.listed:
            return self.LOADING
        return f"{count:,} shown" if count else self.NONE_YET

    def draw_subtitle(self) -> None:
        # Under a dialog (a launch's ConfirmSpend), nothing is sent yet: it shows once the
        # dashboard is back (JobsScreen redraws on resume).
        if self.busy and self.screen.is_active:
            self.border_subtitle = "⟳ " + "; ".join(self.busy.values()) + "…"
        else:
            self.border_subtitle = self.note(self.table.focused_row)

    @asynccontextmanager
    async def running(self, action: str, doing: str) -> AsyncIterator[None]:
        """While the body runs: `doing` on the border, the action's key greyed."""
        self.busy[action] = doing
        self.draw_subtitle()
        self.refresh_bindings()
        try:
            yield
        finally:
            del self.busy[action]
            if self.is_attached:  # not when the app is closing under a running action
                self.draw_subtitle()
                self.refresh_bindings()

    async def send(
        self,
        action: str,
        doing: str,
        call: Callable[[], Awaitable[T]],
        *,
        ask: ConfirmText | None = None,
        reread: Callable[[], Awaitable[T]] | None = None,
        took: Callable[[T], bool] = lambda record: True,
    ) -> T | None:
        """Make one request while `running`, once `ask` (if any) is answered yes. None when
        declined or failed; a failure is told under what was being done (words, code,
        request id). When the answer was a failure, `reread` reads the job again and returns it
        if it `took` effect after all (an answer lost after the server acted)."""
        if ask is not None and not await self.app.push_screen_wait(ask):
            return None
        async with self.running(action, doing):
            try:
                return await call()
            except LeadError as error:
                failure = error
            if reread is not None:
                with contextlib.suppress(LeadError):
                    record = await reread()
                    if took(record):
                        return record
        report = describe(failure)
        title = f"{doing[:1].upper()}{doing[1:]} failed: {report.title}"
        self.lead_app.notify_error(report._replace(title=title))
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        gate = self.ACTION_SCOPES.get(action)
        if action in self.busy or (gate is not None and not self.lead_app.has_scope(gate[0])):
            return None
        if action in ("results", "export_csv"):
            return True if self.table.row_count else None
        # Only this panel's own bindings are checked here.
        return True if self.applies(action, self.table.focused_row) else None

    @on(DataTable.RowHighlighted)
    @on(JobTable.ViewChanged)
    def _view_changed(self) -> None:
        caption = self.table.caption()
        self.border_title = f"{self.title_text} · {caption}" if caption else self.title_text
        self.draw_subtitle()
        self.refresh_bindings()

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_results()  # Enter on a row: its results

    @abstractmethod
    def action_results(self) -> None: ...

    @work(group="jobs-csv")
    async def action_export_csv(self, ask_where: bool = False) -> None:
        """The rows in the order shown (when the key was pressed), as data, to a CSV file in
        the download folder, or where the user says (`W`)."""
        line = self.download_line
        rows = self.table.raw_rows()
        name = f"{self.KIND}s-{stamp(self.lead_app.clock())}.csv"
        folder = await line.ask_folder(name) if ask_where else None
        if ask_where and folder is None:
            return
        await line.write_csv(name, rows, folder=folder)
