"""WhileAway: what changed since the app was last open for this account — jobs that settled
(Enter opens one on Jobs), what was spent and by whom, the balance then and now, approvals,
spends still pending. Esc dismisses it; the app's key and the palette bring it back."""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from leadtui.digest import words
from leadtui.digest.report import Digest, JobChange
from leadtui.ui.frame.stylesheets import stylesheet
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.timefmt import ago

TITLE = "While you were away"


class WhileAway(ModalScreen[None]):
    CSS_PATH = stylesheet("away")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss", "Close", id="away.close", key_display="Esc"),
    ]

    def __init__(self, digest: Digest) -> None:
        super().__init__()
        self.digest = digest

    def compose(self) -> ComposeResult:
        digest = self.digest
        with Vertical(id="away-box") as box:
            box.border_title = TITLE
            box.border_subtitle = "enter open job · esc close" if digest.settled else "esc close"
            since = words.when(digest.since, local=True)
            lines = [
                f"Since {since}, {ago(digest.until - digest.since)}.",
                words.spent_line(digest),
                words.balance_line(digest),
                words.approvals_line(digest),
                words.pending_line(digest),
                words.jobs_line(digest),
            ]
            yield Static("\n".join(lines), id="away-summary", markup=False)
            if digest.settled:
                yield OptionList(
                    *(
                        Option(words.job_line(job, local=True), id=f"{job.kind} {job.id}")
                        for job in digest.settled
                    ),
                    id="away-jobs",
                )
            elif not digest.changed:
                yield Static("Nothing changed.", id="away-none")
        yield Footer()  # this dialog's keys, not the screen's below

    def on_mount(self) -> None:
        if self.digest.settled:
            jobs = self.query_one(OptionList)
            jobs.highlighted = 0
            jobs.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        job = self.digest.settled[event.option_index]
        self.dismiss(None)
        start_worker(self.app, partial(show_job, self.app, job), group="jump")


async def show_job(app: App[Any], job: JobChange) -> None:
    """Jobs, its table filtered to the job and focused (Esc there clears the filter)."""
    from leadtui.ui.widgets.job_tables import ExportTable, ExtractionTable, JobTable

    await app.switch_mode("jobs")
    kind: type[JobTable[Any]] = ExportTable if job.kind == "export" else ExtractionTable
    table = app.screen.query_one(kind)
    table.typed_filter.query = job.id
    table.filter_to(job.id)
    table.focus()
