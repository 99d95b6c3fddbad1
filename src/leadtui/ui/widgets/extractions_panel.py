"""`ExtractionsPanel`: the extractions table and what can be done to one: edit a draft,
launch it (one launch of the account's quota, through the spend flow), pause or resume,
stop (final, confirmed first), and read its results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import work
from textual.binding import Binding, BindingType

from leadtui.api.contract import ErrorCode, ExtractionStatus, Scope
from leadtui.api.models import Extraction
from leadtui.spend.errors import Code
from leadtui.spend.intent import SpendOperation
from leadtui.spend.quote import Quote
from leadtui.spend.request import SpendRequest
from leadtui.ui.dialogs.confirm import ConfirmText
from leadtui.ui.dialogs.extraction_form import ExtractionForm, launch_problems
from leadtui.ui.frame.spend_flow import confirm_and_spend
from leadtui.ui.model.errors import ErrorReport
from leadtui.ui.model.job_board import JobBoard
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.widgets.job_columns import summary
from leadtui.ui.widgets.job_panel import JobPanel
from leadtui.ui.widgets.job_tables import ExtractionTable

if TYPE_CHECKING:
    from leadtui.ui.screens.base import LeadScreen

# Pause from queued or running, resume from paused (docs/api-contract.md); stop from any.
_PAUSABLE = (ExtractionStatus.QUEUED, ExtractionStatus.RUNNING)
_TOGGLES = (*_PAUSABLE, ExtractionStatus.PAUSED)
# Titles of what this panel shows on the screen's error panel, cleared by the next success.
DRAFT_INCOMPLETE = "Draft incomplete"
AS_DRAFT = "ctrl+s saves this as a draft to launch later."


def refused_launch(report: ErrorReport) -> str:
    """Why the form is open again: who refused the launch (the spend decision, before
    anything was sent, or the server) and why, in their own words and code."""
    if report.code == Code.NO_LAUNCHES_LEFT:
        return (
            f"✗ Not sent: the spend decision refused the launch ({report.code}). "
            f"{report.text} {AS_DRAFT}"
        )
    return (
        f"✗ The server refused the launch ({report.code}): the account's extraction launches "
        f"are used up. Nothing was launched. {AS_DRAFT}"
    )


class ExtractionsPanel(JobPanel[Extraction]):
    KIND = "extraction"
    NONE_YET = "none yet: e drafts one"
    ACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "edit_draft": (Scope.EXTRACTIONS_WRITE, "edit a draft"),
        "launch": (Scope.EXTRACTIONS_WRITE, "launch an extraction"),
        "toggle_job": (Scope.EXTRACTIONS_WRITE, "pause or resume an extraction"),
        "stop": (Scope.EXTRACTIONS_WRITE, "stop an extraction"),
    }
    NEEDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "edit_draft": (ExtractionStatus.DRAFT,),
        "launch": (ExtractionStatus.DRAFT,),
        "toggle_job": _TOGGLES,
        "stop": _TOGGLES,
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "edit_draft", "Edit", id="jobs.edit_draft"),
        Binding("l", "launch", "Launch", id="jobs.launch"),
        Binding("z", "toggle_job", "Pause/resume", id="jobs.toggle_job"),
        Binding("x", "stop", "Stop", id="jobs.stop"),
    ]

    def __init__(self) -> None:
        super().__init__(
            ExtractionTable(id="extractions-table"), "Extractions", id="extractions-panel"
        )

    def show(self, board: JobBoard, now: float) -> None:
        self.listed = board.listed
        self.table.merge(board.extractions.values() if board.listed else (), now)
        if not self.lead_app.has_scope(Scope.EXTRACTIONS_READ):
            self.border_title = "Extractions — this key lacks extractions:read"
        self.draw_subtitle()

    def action_results(self) -> None:
        extraction = self.table.focused_row
        if extraction is None:
            return
        if extraction.status == ExtractionStatus.DRAFT:
            self.notify("A draft has no results yet: launch it first (l).", severity="warning")
            return
        self.app.push_screen(JobResultsScreen("extraction", extraction.extractionId))

    @work(group="jobs-extraction-form")
    async def new_extraction(self) -> None:
        """The form for a new extraction: saved as a draft, or created and launched. A launch
        the server refuses for want of launches opens the form again, with what was typed."""
        typed: dict[str, Any] | None = None
        why = ""
        while True:
            form = ExtractionForm(launches_left=self._launches_left, typed=typed, why=why)
            result = await self.app.push_screen_wait(form)
            if result is None:
                return
            if not result.launch:
                break
            target = "new: " + summary(result.body)
            quote = Quote.launch(SpendOperation.EXTRACTION_CREATE, target, self._launches_left())
            before = cast("LeadScreen", self.screen).shown_error
            await self._spend(
                "new_extraction",
                SpendRequest.for_extraction(quote, result.body),
                "Create and launch an extraction",
            )
            shown = cast("LeadScreen", self.screen).shown_error
            # None left: refused by the spend decision (fresh GET /me) or by the server's 409.
            no_launches = (ErrorCode.EXTRACTION_UNAVAILABLE, Code.NO_LAUNCHES_LEFT)
            if shown is before or shown is None or shown.code not in no_launches:
                return
            typed, why = result.body, refused_launch(shown)
        extractions = self.lead_app.client.extractions
        draft = await self.send(
            "new_extraction", "saving the draft", lambda: extractions.create_draft(result.body)
        )
        if draft is None:
            return
        self.lead_app.jobs.absorb(draft)
        self.notify(f"Draft {draft.extractionId} saved; l launches it.", title="Draft saved")

    @work(group="jobs-extraction-form")
    async def action_edit_draft(self) -> None:
        extraction = self.table.focused_row
        if extraction is None or extraction.status != ExtractionStatus.DRAFT:
            return
        result = await self.app.push_screen_wait(ExtractionForm(extraction))
        if result is None:
            return
        job_id, extractions = extraction.extractionId, self.lead_app.client.extractions
        draft = await self.send(
            "edit_draft", f"saving {job_id}", lambda: extractions.update_draft(job_id, result.body)
        )
        if draft is None:
            return
        self._clear_incomplete()
        self.lead_app.jobs.absorb(draft)
        self.notify(f"Draft {draft.extractionId} updated.", timeout=4)

    @work(group="jobs-extraction-launch")
    async def action_launch(self) -> None:
        extraction = self.table.focused_row
        if extraction is None or extraction.status != ExtractionStatus.DRAFT:
            return
        problems = launch_problems(extraction.model_extra or {})
        if problems:
            cast("LeadScreen", self.screen).show_error(
                ErrorReport(
                    DRAFT_INCOMPLETE,
                    f"Draft {extraction.extractionId} cannot be launched yet: "
                    f"{'; '.join(problems)}. m edits it. Nothing was sent.",
                )
            )
            return
        job_id = extraction.extractionId
        quote = Quote.launch(SpendOperation.EXTRACTION_LAUNCH, job_id, self._launches_left())
        await self._spend(
            "launch", SpendRequest.for_launch(quote, job_id), f"Launch extraction {job_id}"
        )

    def _launches_left(self) -> int | None:
        identity = self.lead_app.identity
        return None if identity is None else identity.launches_left

    async def _spend(self, action: str, request: SpendRequest, title: str) -> None:
        # Whether launches are left is the spend decision's to say (it reads GET /me afresh).
        doing = f"{title.lower()}: sending (the same key on every retry)"
        async with self.running(action, doing):
            result = await confirm_and_spend(self.screen, request)
        if result is not None:
            self._clear_incomplete()

    def _clear_incomplete(self) -> None:
        """A launch or an edit went through: what stopped the last launch is over."""
        screen = cast("LeadScreen", self.screen)
        shown = screen.shown_error
        if shown is not None and (
            shown.title == DRAFT_INCOMPLETE or shown.code == Code.NO_LAUNCHES_LEFT
        ):
            screen.clear_error()

    @work(group="jobs-extraction-state")
    async def action_toggle_job(self) -> None:
        extraction = self.table.focused_row
        if extraction is None or extraction.status not in _TOGGLES:
            return
        extractions = self.lead_app.client.extractions
        job_id = extraction.extractionId
        pausing = extraction.status in _PAUSABLE
        call = extractions.pause if pausing else extractions.resume
        wanted = {ExtractionStatus.PAUSED} if pausing else _PAUSABLE
        record = await self.send(
            "toggle_job",
            f"{'pausing' if pausing else 'resuming'} {job_id}",
            lambda: call(job_id),
            reread=lambda: extractions.get(job_id),
            took=lambda record: record.status in wanted,
        )
        if record is None:
            return
        self.lead_app.jobs.absorb(record)
        self.notify(f"Extraction {record.extractionId} is {record.status}.", timeout=4)

    @work(group="jobs-extraction-state")
    async def action_stop(self) -> None:
        extraction = self.table.focused_row
        if extraction is None or extraction.status not in _TOGGLES:
            return
        job_id, extractions = extraction.extractionId, self.lead_app.client.extractions
        ask = ConfirmText(
            f"Stop extraction {job_id}",
            "Stopping is final: the extraction cannot be resumed. Results found so far "
            "are archived and stay readable.",
            "Stop",
        )
        record = await self.send(
            "stop",
            f"stopping {job_id}",
            lambda: extractions.stop(job_id),
            ask=ask,
            reread=lambda: extractions.get(job_id),
            took=lambda record: record.status == ExtractionStatus.STOPPED,
        )
        if record is None:
            return
        self.lead_app.jobs.absorb(record)
        self.notify(
            f"{record.extractionId} is {record.status}: the results found so far stay "
            "readable (v).",
            title="■ Extraction stopped",
            timeout=6,
        )
