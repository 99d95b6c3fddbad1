"""The extraction actions of the jobs screen: draft, edit, launch (a spend), pause, stop.

Launching and create-and-launch consume the account's extraction quota, so they go through
`spend_flow.confirm_and_spend` (ConfirmSpend, journal, same key on retries) like unlocks.
"""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from leadtui.api.contract import MOVING_EXTRACTION_STATES, ExtractionStatus, Scope
from leadtui.api.errors import LeadError
from leadtui.api.models import Extraction
from leadtui.spend.gate import SpendRequest
from leadtui.ui.commands import PaletteCommand
from leadtui.ui.dialogs.confirm_job_action import ConfirmJobAction
from leadtui.ui.dialogs.extraction_form import ExtractionForm
from leadtui.ui.job_watcher import JobWatcher
from leadtui.ui.screens.base import LeadScreen
from leadtui.ui.screens.job_results import JobResultsScreen
from leadtui.ui.spend_flow import confirm_and_spend
from leadtui.ui.widgets.job_tables import ExtractionTable

EXTRACTION_ACTIONS = frozenset({"edit_draft", "launch", "toggle_job", "stop"})
_STOPPABLE = frozenset({*MOVING_EXTRACTION_STATES, ExtractionStatus.PAUSED})


class ExtractionActions(LeadScreen):
    """Mixin base of JobsScreen: everything done to an extraction."""

    EXTRACTION_SCOPES: ClassVar[dict[str, tuple[Scope, str]]] = {
        "new_extraction": (Scope.EXTRACTIONS_WRITE, "create extractions"),
        "edit_draft": (Scope.EXTRACTIONS_WRITE, "edit a draft"),
        "launch": (Scope.EXTRACTIONS_WRITE, "launch an extraction"),
        "toggle_job": (Scope.EXTRACTIONS_WRITE, "pause or resume an extraction"),
        "stop": (Scope.EXTRACTIONS_WRITE, "stop an extraction"),
    }
    EXTRACTION_BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "new_extraction", "New", id="jobs.new_extraction"),
        Binding("m", "edit_draft", "Edit", id="jobs.edit_draft"),
        Binding("l", "launch", "Launch", id="jobs.launch"),
        Binding("z", "toggle_job", "Pause", id="jobs.toggle_job"),
        Binding("x", "stop", "Stop", id="jobs.stop"),
    ]

    @property
    def job_watcher(self) -> JobWatcher:
        return self.lead_app.jobs

    def selected_extraction(self) -> Extraction | None:
        if not isinstance(self.focused, ExtractionTable):
            return None
        return self.focused.selected

    def check_extraction_action(self, action: str) -> bool | None:
        if not isinstance(self.focused, ExtractionTable):
            return False  # hidden: it belongs to the other table
        status = (extraction := self.selected_extraction()) and extraction.status
        allowed = {
            "edit_draft": status == ExtractionStatus.DRAFT,
            "launch": status == ExtractionStatus.DRAFT,
            "toggle_job": status in (ExtractionStatus.RUNNING, ExtractionStatus.PAUSED),
            "stop": status in _STOPPABLE,
        }
        return True if allowed.get(action) else None

    def extraction_palette_commands(self) -> list[PaletteCommand]:
        return [
            PaletteCommand("jobs: new extraction", "Draft, or create and launch", self._new),
        ]

    def _new(self) -> None:
        self.action_new_extraction()

    def open_extraction_results(self) -> None:
        extraction = self.selected_extraction()
        if extraction is None:
            return
        if extraction.status == ExtractionStatus.DRAFT:
            self.notify("A draft has no results yet: launch it first (l).", severity="warning")
            return
        self.app.push_screen(JobResultsScreen("extraction", extraction.extractionId))

    # --- drafts ---------------------------------------------------------------------------

    @work(exclusive=True, group="jobs-extraction-form")
    async def action_new_extraction(self) -> None:
        result = await self.app.push_screen_wait(ExtractionForm())
        if result is None:
            return
        if result.launch:
            request = SpendRequest.extraction_create(result.body)
            # confirm_and_spend hands the new extraction to the job watcher.
            await confirm_and_spend(self, request)
            return
        try:
            draft = await self.client.extractions.create_draft(result.body)
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        self._absorb(draft)
        self.notify(f"Draft {draft.extractionId} saved; l launches it.", title="Draft saved")

    @work(exclusive=True, group="jobs-extraction-form")
    async def action_edit_draft(self) -> None:
        extraction = self.selected_extraction()
        if extraction is None or extraction.status != ExtractionStatus.DRAFT:
            return
        result = await self.app.push_screen_wait(ExtractionForm(extraction))
        if result is None:
            return
        try:
            draft = await self.client.extractions.update_draft(extraction.extractionId, result.body)
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        self._absorb(draft)
        self.notify(f"Draft {draft.extractionId} updated.", timeout=4)

    @work(exclusive=True, group="jobs-extraction-launch")
    async def action_launch(self) -> None:
        extraction = self.selected_extraction()
        if extraction is None or extraction.status != ExtractionStatus.DRAFT:
            return
        request = SpendRequest.extraction_launch(extraction.extractionId)
        await confirm_and_spend(self, request)

    # --- running jobs ---------------------------------------------------------------------

    @work(exclusive=True, group="jobs-extraction-state")
    async def action_toggle_job(self) -> None:
        extraction = self.selected_extraction()
        if extraction is None:
            return
        extractions = self.client.extractions
        try:
            if extraction.status == ExtractionStatus.PAUSED:
                record = await extractions.resume(extraction.extractionId)
            elif extraction.status == ExtractionStatus.RUNNING:
                record = await extractions.pause(extraction.extractionId)
            else:
                return
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        self._absorb(record)
        self.notify(f"Extraction {record.extractionId} is {record.status}.", timeout=4)

    @work(exclusive=True, group="jobs-extraction-state")
    async def action_stop(self) -> None:
        extraction = self.selected_extraction()
        if extraction is None or extraction.status not in _STOPPABLE:
            return
        confirmed = await self.app.push_screen_wait(
            ConfirmJobAction(
                f"Stop extraction {extraction.extractionId}",
                "Stopping is final: the extraction cannot be resumed. Results found so far "
                "are archived and stay readable.",
                "Stop",
            )
        )
        if not confirmed:
            return
        try:
            record = await self.client.extractions.stop(extraction.extractionId)
        except LeadError as error:
            self.lead_app.notify_error(error)
            return
        self._absorb(record)

    def _absorb(self, record: object) -> None:
        if isinstance(record, Extraction):
            self.job_watcher.absorb(record)
