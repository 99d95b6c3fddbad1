"""What the app watches on this machine, with no API call: the other processes of its profile.

Spends they ask this app to approve (`ApprovalWatcher`, the approvals folder) and spends they
journal (`JournalWatcher`, the journal file). Both are made when they start, after the first
frame: their modules bring the spend core (sqlite3 and the journal), which the frame does not
need.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadtui.ui.approval_watch import ApprovalWatcher
    from leadtui.ui.journal_watch import JournalWatcher


class LocalWatches:
    def __init__(self, app: Any) -> None:
        # `app` is the LeadApp; its module is not imported here.
        self.app = app
        self._approvals: ApprovalWatcher | None = None
        self.journal: JournalWatcher | None = None
        """The journal file's watch, once started."""

    @property
    def approvals(self) -> ApprovalWatcher:
        """The app's one look at spends asked of it, made on first use."""
        if self._approvals is None:
            from leadtui.ui.approval_watch import ApprovalWatcher

            self._approvals = ApprovalWatcher(self.app)
        return self._approvals

    def start(self) -> None:
        """Start both (again after a launch loaded its settings: a no-op once started)."""
        self.approvals.start()
        if self.journal is None:
            from leadtui.spend.journal import default_journal_path
            from leadtui.ui.journal_watch import JournalWatcher
            from leadtui.ui.spend_flow import follow_journal

            path = self.app.deps.journal_path or default_journal_path()
            self.journal = JournalWatcher(self.app, path, partial(follow_journal, self.app))
            self.journal.start()
