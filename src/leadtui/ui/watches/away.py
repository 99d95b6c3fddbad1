"""While you were away: the app remembers when it was last open for each profile, server and
account, and once the account and its balance are known it tells what changed since then.

The look runs in a worker after the balance is painted (the job lists, the journal and the
approvals are read then, never before the first frame); the mark is written once the look
is done, every `MARK_EVERY` seconds while the app runs, and when it closes. The panel waits
for `before_panel` (the pending spends' offer: the panel lies over it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final

from leadtui.ui.frame.handle import app_handle

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from leadtui.digest.marks import Marks, Seen
    from leadtui.digest.report import Digest

MARK_EVERY: Final = 60.0
"""Seconds between two marks while the app runs: a crash or a killed terminal loses no more."""


class AwayWatch:
    """The app's mark, its look at what changed, and the panel that shows it."""

    def __init__(self, app: App[Any], before_panel: Callable[[], Awaitable[None]]) -> None:
        self.app = app
        self.before_panel = before_panel
        self.digest: Digest | None = None
        """The last look (None until it is done)."""
        self._looked_at_sign_in: int | None = None
        self._seen: Seen | None = None
        self._marks: Marks | None = None
        self._timer: Timer | None = None

    def when_known(self) -> None:
        """Call when the account may have become known: the look runs once per sign-in."""
        lead = app_handle(self.app)
        if lead.identity is None or self._looked_at_sign_in == lead.sign_ins:
            return
        self._looked_at_sign_in = lead.sign_ins
        self.app.call_after_refresh(
            self.app.run_worker, self._look, group="away", exclusive=True, exit_on_error=False
        )

    async def _look(self) -> None:
        from leadtui.api.errors import LeadError
        from leadtui.digest.gather import Window, gather
        from leadtui.digest.marks import Looker, Mark, Marks, Seen, marks_path
        from leadtui.spend.account import SpendAccount
        from leadtui.spend.errors import JournalError
        from leadtui.spend.journal import SpendJournal

        lead = app_handle(self.app)
        identity, client, deps = lead.identity, lead.client, lead.deps
        if identity is None:
            return
        seen = Seen(deps.profile, client.base_url, SpendAccount.of(identity, client.key_masked))
        marks = Marks(marks_path(deps.journal_path))
        now = lead.clock()
        if self._seen is not None and self._marks is not None and self._seen != seen:
            # The account signed out of was open until now (its balance is no longer known).
            with contextlib.suppress(OSError):
                await asyncio.to_thread(self._marks.put, self._seen, Looker.APP, Mark(now, None))
        self._seen, self._marks = seen, marks
        last = await asyncio.to_thread(marks.get, seen, Looker.APP)
        self.digest = None  # a first look at this account has nothing to compare with
        try:
            if last is not None:
                journal = await asyncio.to_thread(SpendJournal, deps.journal_path)
                window = Window(min(last.at, now), now, last.balance)
                self.digest = await gather(client, identity, journal, seen, window)
        except (LeadError, JournalError) as error:
            lead.notify_error(error)
        await asyncio.to_thread(self.mark)
        if self._timer is None:
            self._timer = self.app.set_interval(MARK_EVERY, self._mark_soon)
        if self.digest is not None and self.digest.changed:
            await self.before_panel()
            await self.show()

    async def show(self) -> None:
        """The panel with the last look (unless it is up already)."""
        from leadtui.ui.dialogs.while_away import WhileAway

        if self.digest is None:
            app_handle(self.app).notify(
                "Nothing to compare with yet: the app remembers from now on.",
                title="While you were away",
                timeout=4,
            )
        elif not isinstance(self.app.screen, WhileAway):
            await self.app.push_screen(WhileAway(self.digest))

    def _mark_soon(self) -> None:
        self.app.run_worker(self.mark, thread=True, group="away-mark", exit_on_error=False)

    def mark(self) -> None:
        """Remember now as the last time the app was open for this account (blocking: a
        small file). A mark that cannot be written is skipped: the next look reaches back
        further, nothing is lost."""
        from leadtui.digest.marks import Looker, Mark

        if self._seen is None or self._marks is None:
            return
        lead = app_handle(self.app)
        with contextlib.suppress(OSError):
            self._marks.put(self._seen, Looker.APP, Mark(lead.clock(), lead.credits))
