"""What the jobs dashboard knows, and one polling tick: lists, details of moving jobs, merge.

No Textual here: `JobWatcher` schedules ticks, this module decides what a tick reads and how
long to wait before the next one (also used by bench/bench_jobs_polling.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from leadtui.api.client import LeadClient
from leadtui.api.contract import (
    MOVING_EXPORT_STATES,
    MOVING_EXTRACTION_STATES,
    ExportStatus,
    ExtractionStatus,
)
from leadtui.api.errors import Forbidden, LeadError, NotFound, Unauthorized
from leadtui.api.models import Export, Extraction, Page
from leadtui.config.settings import Polling
from leadtui.ui.model.errors import ErrorReport, describe
from leadtui.ui.model.timefmt import moment

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

# No way leads out of these (a failed export is retried, so it is not one of them).
FINAL_EXPORT: Final = frozenset({ExportStatus.READY})


def is_moving(job: Export | Extraction) -> bool:
    return job.status in (
        MOVING_EXPORT_STATES if isinstance(job, Export) else MOVING_EXTRACTION_STATES
    )


def job_key(record: Export | Extraction) -> tuple[JobKind, str]:
    if isinstance(record, Export):
        return "export", record.exportId
    return "extraction", record.extractionId


def failure_reason(job: Export | Extraction) -> str | None:
    """Why the server says a job failed, when it says so. The spec names no field: the usual
    spellings are read tolerantly (`failure_reason`, `reason`, `error` as text or an object
    with a `message`)."""
    for name in ("failure_reason", "reason", "error"):
        value = job.extra(name)
        if isinstance(value, Mapping):
            value = value.get("message")
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return None


def older(record: Export | Extraction, known: Export | Extraction | None) -> bool:
    """True when `record` says less than what is known: a tick's answer read before an
    action's answer arrived must not undo it (and announce the job's end a second time).
    Older by `updated_at`; at the same time, a job never leaves a final state."""
    if known is None:
        return False
    new, old = moment(record.updated_at), moment(known.updated_at)
    if new is not None and old is not None and new != old:
        return new.timestamp() < old.timestamp()
    final = FINAL_EXPORT if isinstance(known, Export) else FINISHED_EXTRACTION
    return known.status in final and record.status != known.status


@dataclass(frozen=True)
class JobChange:
    """A followed job reached a state worth telling the user about."""

    kind: JobKind
    job_id: str
    before: str | None
    after: str
    reason: str | None = None
    """The server's reason for a failure, when it gives one."""


@dataclass
class JobBoard:
    """Every job the dashboard shows, by id, and how fresh that knowledge is."""

    exports: dict[str, Export] = field(default_factory=dict)
    extractions: dict[str, Extraction] = field(default_factory=dict)
    # When both first pages were last read whole: a hidden dashboard's ticks read only the
    # followed jobs, and those never make the board "live" (None: never listed yet).
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
    # Jobs the server no longer knows (a 404 on their detail, or missing from a whole list),
    # dropped by the last tick: said once, then forgotten.
    gone: list[tuple[JobKind, str]] = field(default_factory=list)

    @property
    def stale(self) -> bool:
        return self.errors > 0

    @property
    def listed(self) -> bool:
        """The first page of each list has been read: the tables can be shown as complete."""
        return self.updated_at is not None

    def jobs(self) -> list[Export | Extraction]:
        return [*self.exports.values(), *self.extractions.values()]

    def moving(self) -> list[tuple[JobKind, str]]:
        """Jobs still queued, processing or running, exports first."""
        return [job_key(job) for job in self.jobs() if is_moving(job)]

    def watched(self) -> list[tuple[JobKind, str]]:
        """Followed jobs still moving, or not seen yet: what a hidden dashboard keeps reading."""
        moving = set(self.moving())
        known = {job_key(job) for job in self.jobs()}
        return sorted(job for job in self.followed if job in moving or job not in known)

    def drop(self, kind: JobKind, job_id: str) -> None:
        """The server no longer has this job: forget it and stop following it."""
        jobs: dict[str, Export] | dict[str, Extraction]
        jobs = self.exports if kind == "export" else self.extractions
        jobs.pop(job_id, None)
        self.followed.discard((kind, job_id))
        self.gone.append((kind, job_id))

    def absorb(self, record: Export | Extraction) -> JobChange | None:
        """Merge one record by id; returns the change if a followed job just finished.
        A record older than the one known is ignored (see `older`)."""
        key = job_key(record)
        old = (self.exports if key[0] == "export" else self.extractions).get(key[1])
        if older(record, old):
            return None
        if isinstance(record, Export):
            self.exports[record.exportId] = record
        else:
            self.extractions[record.extractionId] = record
        after = record.status or ""
        finished = FINISHED_EXPORT if isinstance(record, Export) else FINISHED_EXTRACTION
        if is_moving(record):
            self.followed.add(key)
            return None
        before = old.status if old is not None else None
        change = None
        if key in self.followed and before != after and after in finished:
            change = JobChange(key[0], key[1], before, after, failure_reason(record))
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
    ) -> None:
        self._client = client
        self._polling = polling
        self._read_extractions = read_extractions
        self.board = JobBoard()

    async def tick(self, now: float, *, full: bool = True) -> list[JobChange]:
        """Read what changed and merge it. `full=False` (dashboard hidden) reads only the
        details of followed jobs still moving. Never raises a LeadError: it is on the board."""
        board = self.board
        board.gone = []
        try:
            changes = await (self._full_tick() if full else self._details(board.watched()))
        except LeadError as error:
            board.stopped = board.stopped or isinstance(error, Unauthorized | Forbidden)
            board.errors, board.error = board.errors + 1, describe(error)
            return []
        board.errors, board.error = 0, None
        if full:
            board.updated_at = now
        return changes

    async def _full_tick(self) -> list[JobChange]:
        client = self._client()
        board = self.board
        known = {job_key(job) for job in board.jobs()}
        exports: Page[Export]
        extractions: Page[Extraction] | None = None
        if self._read_extractions():
            exports, extractions = await asyncio.gather(
                client.exports.list(), client.extractions.list()
            )
        else:
            exports = await client.exports.list()
        records: list[Export | Extraction] = [*exports.items]
        # A list that fits one page names every job of its kind.
        whole: set[JobKind] = {"export"} if exports.next_cursor is None else set()
        if extractions is not None:
            records += extractions.items
            whole |= {"extraction"} if extractions.next_cursor is None else set()
        listed = {job_key(r) for r in records}
        # Known before this tick and absent from a whole list: gone from the server. (A job
        # an action added meanwhile was not known at the start, so it stays.)
        for kind, job_id in sorted(known - listed):
            if kind in whole:
                board.drop(kind, job_id)
        changes = [c for r in records if (c := board.absorb(r))]
        # Moving jobs (also those that fell off the first page) and followed ones not seen yet.
        return changes + await self._details(sorted({*board.moving(), *board.watched()}))

    async def _details(self, jobs: list[tuple[JobKind, str]]) -> list[JobChange]:
        wanted = sorted(jobs)[:MAX_DETAILS_PER_TICK]
        answers = await asyncio.gather(*(self._detail(kind, job_id) for kind, job_id in wanted))
        records = [r for r in answers if r is not None]
        hints = [r.poll_after for r in records if r.poll_after is not None]
        self.board.hint = min(hints) if hints else None
        return [c for r in records if (c := self.board.absorb(r))]

    async def _detail(self, kind: JobKind, job_id: str) -> Export | Extraction | None:
        """The job's record, or None when the server no longer has it (it is dropped: one
        vanished job must not leave the whole board stale)."""
        client = self._client()
        try:
            return await (client.exports if kind == "export" else client.extractions).get(job_id)
        except NotFound:
            self.board.drop(kind, job_id)
            return None

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
