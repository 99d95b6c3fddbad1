"""`JournalWatcher`: notices spends another process of this profile journaled or settled.

The command line, an agent or another window spends from the same journal file. Once a
second the watcher looks at that file and its write-ahead log (two `stat` calls: no query,
no API call); when they changed, `follow` reads the journal's activity mark and, when spends
moved, the balance is read again and the screens that show it reload. So the header follows
a spend made elsewhere whichever screen is open, with no job being watched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from leadtui.ui.workers import start_worker

if TYPE_CHECKING:
    from textual.timer import Timer

CHECK_SECONDS: Final = 1.0

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


class JournalWatcher:
    """The app's cheap look at its journal file; `follow` does the reading when it changed."""

    def __init__(self, app: Any, path: Path, follow: Callable[[], Awaitable[object]]) -> None:
        # `app` is the LeadApp (its timers and workers); its module is not imported here.
        self.app = app
        self.path = path
        self.follow = follow
        self.looks = 0
        """Follows done: the first takes the mark that later ones are compared with."""
        self._signature: Signature | None = None
        self._timer: Timer | None = None

    def start(self) -> None:
        if self._timer is None:
            self._timer = self.app.set_interval(CHECK_SECONDS, self.check)
            self.check()

    def check(self) -> None:
        """Follow the journal when its files changed since the last look."""
        signature = journal_signature(self.path)
        if signature != self._signature:
            self._signature = signature
            start_worker(self.app, self._follow, group="journal-follow", exclusive=True)

    async def _follow(self) -> None:
        await self.follow()
        self.looks += 1
