"""Job progress computed lazily from timestamps on read, so an injected clock decides it.

Exports: queued for the first fifth of `job_seconds`, then processing, then ready; an export
whose `started_at` lies ahead (the demo data's job waiting its turn) stays queued until then.
Extractions run for `EXTRACTION_RUNS` job lengths; pauses stop their run clock.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from leadtui.api.contract import POLL_HINT_HEADER, ExportStatus, ExtractionStatus

QUEUED_FRACTION: Final = 0.2
EXTRACTION_RUNS: Final = 3.0
# Seconds suggested to pollers; capped so a long job is still checked now and then.
MAX_POLL_HINT: Final = 5
# An extraction in these still finds results (they are live; afterwards, archived).
UNFINISHED: Final = {ExtractionStatus.QUEUED, ExtractionStatus.RUNNING, ExtractionStatus.PAUSED}


class StoredState(StrEnum):
    """What an extraction row stores; queued, running and completed are computed from
    `ACTIVE` and the run clock on every read."""

    DRAFT = "draft"
    ACTIVE = "active"
    PAUSED = "paused"
    STOPPED = "stopped"
    FAILED = "failed"


@dataclass(frozen=True)
class JobView:
    status: str
    progress: float
    updated_at: float
    seconds_to_change: float | None  # None once settled


def _hint(seconds: float) -> str:
    return str(max(1, min(MAX_POLL_HINT, math.ceil(seconds))))


def poll_hint(view: JobView, accepted: bool = False) -> dict[str, str]:
    """`Retry-After` for a job still moving, nothing for a settled one; a 202 (`accepted`)
    always carries one, the shortest once its job has settled (a replay, later)."""
    if view.seconds_to_change is None:
        return {POLL_HINT_HEADER: _hint(0)} if accepted else {}
    return {POLL_HINT_HEADER: _hint(view.seconds_to_change)}


def export_view(row: sqlite3.Row, now: float, job_seconds: float) -> JobView:
    started = float(row["started_at"])
    queue_s = job_seconds * QUEUED_FRACTION
    if row["failed_at"] is not None:
        failed = float(row["failed_at"])
        return JobView(
            ExportStatus.FAILED, _fraction(failed - started, queue_s, job_seconds), failed, None
        )
    elapsed = now - started
    if elapsed < queue_s:
        # Waiting for a later start, it last changed when it was created.
        since = started if elapsed >= 0 else float(row["created_at"])
        return JobView(ExportStatus.QUEUED, 0.0, since, queue_s - elapsed)
    if elapsed < job_seconds:
        progress = _fraction(elapsed, queue_s, job_seconds)
        return JobView(ExportStatus.PROCESSING, progress, started + queue_s, job_seconds - elapsed)
    return JobView(ExportStatus.READY, 1.0, started + job_seconds, None)


def _fraction(elapsed: float, queue_s: float, total: float) -> float:
    if total <= queue_s:
        return 1.0
    return round(min(1.0, max(0.0, (elapsed - queue_s) / (total - queue_s))), 4)


@dataclass(frozen=True)
class ExtractionView:
    job: JobView
    results_available: int
    results_state: str | None  # "live", "archived" or None for a draft


def extraction_run_seconds(row: sqlite3.Row, now: float) -> float:
    run = float(row["run_seconds"])
    if row["state"] == StoredState.ACTIVE and row["resumed_at"] is not None:
        run += max(0.0, now - float(row["resumed_at"]))
    return run


def extraction_view(
    row: sqlite3.Row, now: float, job_seconds: float, target_results: int
) -> ExtractionView:
    stored = StoredState(row["state"])
    updated = float(row["updated_at"])
    if stored == StoredState.DRAFT:
        return ExtractionView(JobView(ExtractionStatus.DRAFT, 0.0, updated, None), 0, None)
    run = extraction_run_seconds(row, now)
    queue_s = job_seconds * QUEUED_FRACTION
    total = job_seconds * EXTRACTION_RUNS
    progress = _fraction(run, queue_s, total)
    found = math.floor(target_results * progress)
    if stored == StoredState.ACTIVE:
        resumed = float(row["resumed_at"])
        if run < queue_s:
            job = JobView(ExtractionStatus.QUEUED, 0.0, updated, queue_s - run)
        elif run < total:
            since = max(updated, resumed + max(0.0, queue_s - float(row["run_seconds"])))
            job = JobView(ExtractionStatus.RUNNING, progress, since, total - run)
        else:
            done_at = resumed + (total - float(row["run_seconds"]))
            job = JobView(ExtractionStatus.COMPLETED, 1.0, max(updated, done_at), None)
    else:
        # paused, stopped or failed: frozen where they were
        job = JobView(ExtractionStatus(stored), progress, updated, None)
    return ExtractionView(job, found, "live" if job.status in UNFINISHED else "archived")
