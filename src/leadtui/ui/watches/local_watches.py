"""What the app watches on this machine, with no API call: the other processes of its profile.

One watch of the journal file (`JournalWatcher`) sees both the spends they journal and the
spends they ask this app to approve. It starts once the first GET /me answered or failed, after
the credits are painted, so it never competes with start-up; its module brings the spend core
(sqlite3 and the journal), which the first frame does not need.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from leadtui.ui.frame.handle import AppHandle
    from leadtui.ui.watches.journal_watch import JournalWatcher


class LocalWatches:
    def __init__(self, app: AppHandle, host: App[Any]) -> None:
        self.app = app
        self.host = host
        """Runs the watch's timer and workers (Textual's side of the app)."""
        self._journal: JournalWatcher | None = None

    @property
    def journal(self) -> JournalWatcher:
        """The journal's one watch, made on first use (started by `start`)."""
        if self._journal is None:
            from leadtui.spend.journal import default_journal_path
            from leadtui.ui.frame.spend_flow import follow_journal
            from leadtui.ui.watches.journal_watch import JournalWatcher

            path = self.app.deps.journal_path or default_journal_path()
            self._journal = JournalWatcher(
                self.app, self.host, path, partial(follow_journal, self.app)
            )
        return self._journal

    @property
    def started(self) -> bool:
        return self._journal is not None and self._journal.looks > 0

    def start(self) -> None:
        """Start the watch (a no-op once started)."""
        self.journal.start()
