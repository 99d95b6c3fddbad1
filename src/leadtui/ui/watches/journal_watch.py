"""`JournalWatcher`: the app's one look at its journal, for what other processes do there.

The command line, an agent or another window spends from the same journal file, and asks this
app to approve spends in it. Once a second the watcher looks at that file and its write-ahead
log (two `stat` calls: no query, no API call); when they changed, it follows the spends
(`follow`: the balance is read again and the screens that show it reload) and lists the
approval requests again (one query). A new request
of this profile rings the bell, sends a desktop notification (OSC 9/777), toasts who asks for
what, and the header shows how many wait. Hourly on the app's clock, old requests age out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from textual.signal import Signal

from leadtui.spend.approvals import ApprovalDesk, ApprovalRequest, Listed, Progress
from leadtui.spend.errors import JournalError
from leadtui.spend.quote import plural
from leadtui.ui.frame.notifications import desktop_escapes
from leadtui.ui.frame.workers import start_worker
from leadtui.ui.model.approval_review import settled_standing

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

    from leadtui.ui.frame.handle import AppHandle

CHECK_SECONDS: Final = 1.0
PRUNE_EVERY_SECONDS: Final = 3600.0

Signature = tuple[tuple[int, int] | None, ...]


def journal_signature(path: Path) -> Signature:
    """(change time, size) of the journal and its write-ahead log; None for a missing one."""
    stamps: list[tuple[int, int] | None] = []
    for file in (path, path.with_name(path.name + "-wal")):
        try:
            stat = file.stat()
        except OSError:
            stamps.append(None)
        else:
            stamps.append((stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def asked_line(request: ApprovalRequest) -> str:
    """`command line (pid 4242) asks to unlock 40 results of srch_1: 40 credits`."""
    quote = request.quote
    if quote.unit.value == "credit":
        what = f"unlock {plural(quote.units, 'result')} of {quote.target}"
    else:
        what = f"launch {quote.target}"
    return f"{request.asker.label} asks to {what}: {quote.total_text()}"


class JournalWatcher:
    """The app's cheap look at its journal file; `changed` is published after each read of the
    approval requests, and after spends moved (`spends_moved` counts those)."""

    def __init__(
        self,
        app: AppHandle,
        host: App[Any],
        path: Path,
        follow: Callable[[], Awaitable[bool]],
    ) -> None:
        self.app = app
        self.host = host
        """Runs the timer and the workers (Textual's side of the app)."""
        self.path = path
        self.follow = follow
        self.looks = 0
        """Follows done: the first takes the mark that later ones are compared with."""
        self.requests: list[ApprovalRequest] = []
        self.refused: list[tuple[str, str]] = []
        """Rows that cannot be read (id, why): shown, never approved."""
        self.spends_moved = 0
        self.changed: Signal[JournalWatcher] = Signal(host, "journal-changed")
        self.desk: ApprovalDesk | None = None
        self._signature: Signature | None = None
        self._listed = False
        self._known: set[str] = set()
        self._gone: set[str] = set()
        self._timer: Timer | None = None
        self._pruned_at: float | None = None

    @property
    def started(self) -> bool:
        return self.looks > 0

    def start(self) -> None:
        if self._timer is None:
            self._timer = self.host.set_interval(CHECK_SECONDS, self.check)
            self.check()

    def check(self) -> None:
        """Follow the journal when its files changed since the last look, or when an asker
        still waiting or sending has ended (killed: nothing was written)."""
        signature = journal_signature(self.path)
        if signature != self._signature or self._an_asker_died():
            self._signature = signature
            start_worker(self.host, self._follow, group="journal-follow", exclusive=True)

    def _an_asker_died(self) -> bool:
        died = False
        for request in self.requests:
            live = request.progress in (Progress.WAITING, Progress.SENDING)
            if live and request.id not in self._gone and request.asker.gone():
                self._gone.add(request.id)
                died = True
        return died

    async def _follow(self) -> None:
        if await self.follow():
            self.spends_moved += 1
            self.changed.publish(self)
        with contextlib.suppress(JournalError):  # unreadable now: the next change looks again
            await self.read_now()
        self.looks += 1

    async def read_now(self) -> None:
        """List the approval requests again (also at once after this app answered one)."""
        if self.desk is None:
            self.desk = ApprovalDesk((await self.app.spending()).journal)
        desk, now = self.desk, self.app.clock()
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY_SECONDS:
            self._pruned_at = now
            await asyncio.to_thread(desk.prune, now)
        self._take(await asyncio.to_thread(desk.listed), first=not self._listed)
        self._listed = True

    def _take(self, listed: Listed, *, first: bool) -> None:
        self.requests, self.refused = listed.requests, listed.refused
        mine = [r for r in listed.requests if r.profile == self.app.deps.profile]
        waiting = [r for r in mine if settled_standing(r) is None]
        self.app.approvals_waiting = len(waiting)
        new = [r for r in waiting if r.id not in self._known]
        self._known.update(r.id for r in mine)
        if first and waiting:
            self._announce(waiting[-1], more=len(waiting) - 1)
        elif not first:
            for request in new:
                self._announce(request)
        self.changed.publish(self)

    def _announce(self, request: ApprovalRequest, *, more: int = 0) -> None:
        title = "Approval waiting"
        text = asked_line(request) + (f" (and {more} more)" if more else "")
        text += ". A opens Approvals."
        self.app.notify(text, title=title, severity="warning", timeout=10, markup=False)
        if self.app.settings.notify_bell:
            self.host.bell()
        self.app.jobs.notifier.write(desktop_escapes(f"leadtui: {title}", text))
