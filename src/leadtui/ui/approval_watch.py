"""`ApprovalWatcher`: notices spends other processes ask this app to approve.

Once a second it lists the approvals folder beside the journal (names and change times: no
API call, no file read unless something changed). A new request of this profile rings the
bell, sends a desktop notification (OSC 9/777), toasts who asks for what, and the header
shows how many wait. A request the asker has sent moves the balance: the header reloads it.
When it starts, and hourly on the app's clock, it prunes old files (`approval_pruning.py`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Final

from textual.signal import Signal

from leadtui.api.errors import LeadError
from leadtui.spend.approval_pruning import PRUNE_EVERY_SECONDS, prune_approvals
from leadtui.spend.approval_records import ApprovalRequest, Progress
from leadtui.spend.approvals import ApprovalDesk, approvals_folder
from leadtui.spend.quote import plural
from leadtui.ui.model.approval_review import settled_standing
from leadtui.ui.notifications import desktop_escapes
from leadtui.ui.workers import start_worker

if TYPE_CHECKING:
    from textual.timer import Timer


CHECK_SECONDS: Final = 1.0


def asked_line(request: ApprovalRequest) -> str:
    """`command line (pid 4242) asks to unlock 40 results of srch_1: 40 credits`."""
    quote = request.quote
    if quote.unit.value == "credit":
        what = f"unlock {plural(quote.units, 'result')} of {quote.target}"
    else:
        what = f"launch {quote.target}"
    return f"{request.asker.label} asks to {what}: {quote.total_text()}"


class ApprovalWatcher:
    """The app's one look at the approvals folder; `changed` is published after each read."""

    def __init__(self, app: Any) -> None:
        # `app` is the LeadApp; its module is not imported here (screens import this one).
        self.app = app
        self.desk = ApprovalDesk(approvals_folder(app.deps.journal_path))
        self.requests: list[ApprovalRequest] = []
        self.refused: list[tuple[str, str]] = []
        """Files that cannot be trusted (id, why): shown, never approved."""
        self.changed: Signal[ApprovalWatcher] = Signal(app, "approvals-changed")
        self._signature: tuple[tuple[str, int], ...] | None = None
        self._known: dict[str, Progress] = {}
        self._read_once = False
        self._gone: set[str] = set()
        self._timer: Timer | None = None
        self._pruned_at: float | None = None

    def start(self) -> None:
        if self._timer is None:
            self._timer = self.app.set_interval(CHECK_SECONDS, self.check)
            self.check()

    def check(self) -> None:
        """Read the folder again if its listing changed (a cheap scandir); prune it hourly."""
        now = self.app.clock()
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = now
            start_worker(self.app, self.prune, group="approvals-prune", exclusive=True)
        signature = self.desk.signature()
        if signature != self._signature or self._an_asker_died():
            self._signature = signature
            start_worker(self.app, self.read, group="approvals-read", exclusive=True)

    def _an_asker_died(self) -> bool:
        """An asker still waiting or sending has ended (no file says so: it was killed)."""
        died = False
        for request in self.requests:
            live = request.progress in (Progress.WAITING, Progress.SENDING)
            if live and request.id not in self._gone and request.asker.gone():
                self._gone.add(request.id)
                died = True
        return died

    async def prune(self) -> None:
        """Remove the folder's old files (in a thread); the next check lists what is left."""
        await asyncio.to_thread(prune_approvals, self.desk.folder, self.app.clock())

    async def read(self) -> None:
        requests, refused = await asyncio.to_thread(self.desk.requests)
        first_read = not self._read_once
        self._read_once = True
        self.requests, self.refused = requests, refused
        mine = [r for r in requests if r.profile == self.app.deps.profile]
        waiting = [r for r in mine if settled_standing(r) is None]
        self.app.approvals_waiting = len(waiting)
        sent = False
        for request in mine:
            before = self._known.get(request.id)
            self._known[request.id] = request.progress
            if before is None and request in waiting and not first_read:
                self._announce(request)
            if before not in (None, Progress.SENT) and request.progress is Progress.SENT:
                sent = True
        if first_read and waiting:
            self._announce(waiting[-1], more=len(waiting) - 1)
        self.changed.publish(self)
        if sent:
            await self._balance_moved()

    def _announce(self, request: ApprovalRequest, *, more: int = 0) -> None:
        title = "Approval waiting"
        text = asked_line(request) + (f" (and {more} more)" if more else "")
        text += ". A opens Approvals."
        app = self.app
        app.notify(text, title=title, severity="warning", timeout=10, markup=False)
        if app.settings.notify_bell:
            app.bell()
        app.jobs.notifier.write(desktop_escapes(f"leadtui: {title}", text))

    async def _balance_moved(self) -> None:
        self.app.note_spend()
        if self.app.session is None:
            return
        try:
            await self.app.refresh_identity()
        except LeadError:
            return  # the header keeps its figure; the next screen load reads it again
