"""What the jobs dashboard knows, and one polling tick: lists, details of moving jobs, merge.

No Textual here: `JobWatcher` schedules ticks, this module decides what a tick reads and how
long to wait before the next one (also used by bench/bench_jobs_polling.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

from leadtui.api.client import LeadClient
from leadtui.api.contract import (
    MOVING_EXPORT_STATES,
    MOVING_EXTRACTION_STATES,
    ExportStatus,
    ExtractionStatus,
)
from leadtui.api.errors import Forbidden, LeadError, Unauthorized
from leadtui.api.models import Export, Extraction
from leadtui.config.settings import Polling
from leadtui.ui.model.errors import ErrorReport, describe

JobKind = Literal["export", "extraction"]

# Details fetched per tick are bounded too: many moving jobs cost at most this many reads.
MAX_DETAILS_PER_TICK: Final = 8
# Backoff after errors doubles from the fast interval up to this many seconds.
MAX_BACKOFF_SECONDS: Final = 120.0
# The server's Retry-After is honoured, but never below this.
MIN_INTERVAL_SECONDS: Final = 0.5

# A job entering one of these states is news worth a notification.
FINISHED_EXPORT: Final = frozenset({ExportStatus.READY, ExportStatus.FAILED})
FINISHED_EXTRACTION: Final = frozenset(
    {ExtractionStatus.COMPLETED, ExtractionStatus.FAILED, ExtractionStatus.STOPPED}
)


def export_moving(export: Export) -> bool:
    return export.status in MOVING_EXPORT_STATES


def extraction_moving(extraction: Extraction) -> bool:
    return extraction.status in MOVING_EXTRACTION_STATES


@dataclass(frozen=True)
class JobChange:
    """A followed job reached a state worth telling the user about."""

    kind: JobKind
    job_id: str
    before: str | None
    after: str


@dataclass
class JobBoard:
    """Every job the dashboard shows, by id, and how fresh that knowledge is."""

    exports: dict[str, Export] = field(default_factory=dict)
    extractions: dict[str, Extraction] = field(default_factory=dict)
    updated_at: float | None = None
    # Consecutive failed ticks; > 0 means what is shown is stale.
    errors: int = 0
    error: ErrorReport | None = None
    # 401/403: polling stopped until the user signs in again.
    stopped: bool = False
    # Jobs the user started here (or saw moving): their end is announced even off-screen.
    followed: set[tuple[JobKind, str]] = field(default_factory=set)
    # The smallest Retry-After the last tick's detail reads carried.
    hint: float | None = None

    @property
    def stale(self) -> bool:
        return self.errors > 0

    def moving(self) -> list[tuple[JobKind, str]]:
        """Jobs still queued, processing or running, exports first."""
        jobs: list[tuple[JobKind, str]] = [
            ("export", i) for i, e in self.exports.items() if export_moving(e)
        ]
        jobs += [("extraction", i) for i, x in self.extractions.items() if extraction_moving(x)]
        return jobs

    def watched(self) -> list[tuple[JobKind, str]]:
        """Followed jobs still moving, or not seen yet: what a hidden dashboard keeps reading."""
        moving = set(self.moving())
        known = {("export", i) for i in self.exports}
        known |= {("extraction", i) for i in self.extractions}
        return sorted(job for job in self.followed if job in moving or job not in known)

    def absorb(self, record: Export | Extraction) -> JobChange | None:
        """Merge one record by id; returns the change if a followed job just finished."""
        key: tuple[JobKind, str]
        if isinstance(record, Export):
            old: Export | Extraction | None = self.exports.get(record.exportId)
            self.exports[record.exportId] = record
            key, after = ("export", record.exportId), record.status
            moving, finished = export_moving(record), after in FINISHED_EXPORT
        else:
            old = self.extractions.get(record.extractionId)
            self.extractions[record.extractionId] = record
            key, after = ("extraction", record.extractionId), record.status or ""
            moving, finished = extraction_moving(record), after in FINISHED_EXTRACTION
        if moving:
            self.followed.add(key)
            return None
        before = old.status if old is not None else None
        change = None
        if key in self.followed and before != after and finished:
            change = JobChange(key[0], key[1], before, after)
        if after != ExtractionStatus.PAUSED:  # a paused job may resume: keep following it
            self.followed.discard(key)
        return change


class JobPoller:
    """One tick at a time against the API; the board is the result."""

    def __init__(
        self,
        client: Callable[[], LeadClient],
        polling: Callable[[], Polling],
        *,
        read_extractions: Callable[[], bool] = lambda: True,
        board: JobBoard | None = None,
    ) -> None:
        self._client = client
        self._polling = polling
        self._read_extractions = read_extractions
        self.board = board or JobBoard()

    async def tick(self, now: float, *, full: bool = True) -> list[JobChange]:
        """Read what changed and merge it. `full=False` (dashboard hidden) reads only the
        details of followed jobs still moving. Never raises a LeadError: it is on the board."""
        board = self.board
        try:
            changes = await (self._full_tick() if full else self._followed_tick())
        except (Unauthorized, Forbidden) as error:
            board.stopped, board.errors, board.error = True, board.errors + 1, describe(error)
            return []
        except LeadError as error:
            board.errors, board.error = board.errors + 1, describe(error)
            return []
        board.errors, board.error, board.updated_at = 0, None, now
        return changes

    async def _full_tick(self) -> list[JobChange]:
        client = self._client()
        reading_extractions = self._read_extractions()
        if reading_extractions:
            exports, extractions = await asyncio.gather(
                client.exports.list(), client.extractions.list()
            )
            extraction_items = extractions.items
        else:
            exports, extraction_items = await client.exports.list(), []
        records: list[Export | Extraction] = [*exports.items, *extraction_items]
        changes = [c for r in records if (c := self.board.absorb(r))]
        # Moving jobs (also those that fell off the first page) and followed ones not seen yet.
        return changes + await self._details(sorted({*self.board.moving(), *self.board.watched()}))

    async def _followed_tick(self) -> list[JobChange]:
        return await self._details(self.board.watched())

    async def _details(self, jobs: list[tuple[JobKind, str]]) -> list[JobChange]:
        wanted = sorted(jobs)[:MAX_DETAILS_PER_TICK]
        records = await asyncio.gather(*(self._detail(kind, job_id) for kind, job_id in wanted))
        hints = [r.poll_after for r in records if r.poll_after is not None]
        self.board.hint = min(hints) if hints else None
        return [c for r in records if (c := self.board.absorb(r))]

    async def _detail(self, kind: JobKind, job_id: str) -> Export | Extraction:
        client = self._client()
        if kind == "export":
            return await client.exports.get(job_id)
        return await client.extractions.get(job_id)

    def next_interval(self) -> float:
        """Seconds to the next tick: fast (or Retry-After) while jobs move, slow when settled,
        doubling after errors. Never faster than slow while nothing moves, so a settled board
        costs at most 12 requests a minute however many jobs it holds."""
        polling, board = self._polling(), self.board
        if board.moving():
            base = board.hint if board.hint is not None else polling.fast_seconds
            base = min(max(base, MIN_INTERVAL_SECONDS), polling.slow_seconds)
        else:
            base = polling.slow_seconds
        if board.errors:
            backoff = float(polling.fast_seconds * 2**board.errors)
            if board.error is not None and board.error.retry_after:
                backoff = max(backoff, board.error.retry_after)
            return float(max(base, min(MAX_BACKOFF_SECONDS, backoff)))
        return base
