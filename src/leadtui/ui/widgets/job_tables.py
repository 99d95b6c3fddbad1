"""The exports and extractions tables: rows keyed by job id, updated in place on every tick.

Status is a word and a mark (✓ ✗ ◐ …) with a theme colour, so NO_COLOR loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import ClassVar, Final, Generic, TypeVar

from rich.text import Text
from textual.widgets import DataTable

from leadtui.api.models import Export, Extraction
from leadtui.ui.model.timefmt import ago

JobT = TypeVar("JobT", Export, Extraction)

# status -> (mark, theme colour name); unknown states get "•" and no colour.
_LOOK: Final[dict[str, tuple[str, str]]] = {
    "queued": ("◌", "warning"),
    "processing": ("◐", "accent"),
    "running": ("◐", "accent"),
    "paused": ("‖", "warning"),
    "ready": ("✓", "success"),
    "completed": ("✓", "success"),
    "failed": ("✗", "error"),
    "stopped": ("■", "secondary"),
    "draft": ("✎", "foreground"),
}


def parse_time(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).timestamp()
    except ValueError:
        return None


def short_time(value: str | None) -> str:
    """`01-31 14:05` in local time, `—` when unknown."""
    ts = parse_time(value)
    return datetime.fromtimestamp(ts).strftime("%m-%d %H:%M") if ts is not None else "—"


class JobTable(DataTable[str | Text], Generic[JobT]):
    """A DataTable of jobs that merges records by id and keeps selection and scroll."""

    COLUMNS: ClassVar[tuple[tuple[str, str], ...]] = ()  # (key, label)

    def __init__(self, *, colour: Callable[[str], str | None], id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._colour = colour
        self.jobs: dict[str, JobT] = {}
        for key, label in self.COLUMNS:
            self.add_column(label, key=key)

    # --- what a subclass says about a job ---------------------------------------------

    def job_id(self, job: JobT) -> str:
        raise ValueError(job)

    def cells(self, job: JobT, now: float) -> Sequence[str | Text]:
        raise ValueError(job, now)

    # --- shared ---------------------------------------------------------------------------

    @property
    def selected(self) -> JobT | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return self.jobs.get(key) if key is not None else None

    def status_cell(self, status: str, progress: float | None) -> Text:
        mark, colour_name = _LOOK.get(status, ("•", ""))
        words = f"{mark} {status}"
        if progress is not None and status in ("processing", "running", "paused"):
            words += f" {int(progress * 100)}%"
        colour = self._colour(colour_name) if colour_name else None
        return Text(words, style=colour or "")

    def updated_cell(self, value: str | None, now: float) -> str:
        ts = parse_time(value)
        return ago(now - ts) if ts is not None else "—"

    def merge(self, jobs: Iterable[JobT], now: float) -> None:
        """Update rows in place; new jobs are added and rows re-sorted newest first."""
        selected = self.selected
        added = False
        for job in jobs:
            key = self.job_id(job)
            self.jobs[key] = job
            cells = self.cells(job, now)
            if key in self.rows:
                for (column, _), cell in zip(self.COLUMNS, cells, strict=True):
                    if self.get_cell(key, column) != cell:
                        self.update_cell(key, column, cell, update_width=True)
            else:
                self.add_row(*cells, key=key)
                added = True
        if added:
            order = {k: (job.created_at or "", k) for k, job in self.jobs.items()}
            self.sort("id", key=lambda cell: order.get(str(cell), ("", "")), reverse=True)
            if selected is not None:
                self.move_cursor(row=self.get_row_index(self.job_id(selected)), scroll=False)

    def visible_rows(self) -> list[list[str]]:
        """The rows as shown (plain text), header first: what the CSV export writes."""
        rows = [[label for _, label in self.COLUMNS]]
        for row_index in range(self.row_count):
            rows.append([str(cell) for cell in self.get_row_at(row_index)])
        return rows


class ExportTable(JobTable[Export]):
    COLUMNS = (
        ("id", "Export"),
        ("search", "Search"),
        ("results", "Results"),
        ("status", "Status"),
        ("created", "Created"),
        ("updated", "Updated"),
    )

    def job_id(self, job: Export) -> str:
        return job.exportId

    def cells(self, job: Export, now: float) -> Sequence[str | Text]:
        results = job.additional_results
        return (
            job.exportId,
            job.searchId or "—",
            f"{results:,}" if results is not None else "—",
            self.status_cell(job.status, job.progress),
            short_time(job.created_at),
            self.updated_cell(job.updated_at, now),
        )


def _summary(job: Extraction) -> str:
    parts = [", ".join(job.extra(name) or []) for name in ("categories", "countries")]
    return " · ".join(p for p in parts if p) or "—"


class ExtractionTable(JobTable[Extraction]):
    COLUMNS = (
        ("id", "Extraction"),
        ("what", "What"),
        ("results", "Results"),
        ("status", "Status"),
        ("created", "Created"),
        ("updated", "Updated"),
    )

    def job_id(self, job: Extraction) -> str:
        return job.extractionId

    def cells(self, job: Extraction, now: float) -> Sequence[str | Text]:
        count = job.extra("result_count")
        summary = _summary(job)
        return (
            job.extractionId,
            summary if len(summary) <= 16 else summary[:15] + "…",
            f"{count:,}" if isinstance(count, int) else "—",
            self.status_cell(job.status or "", job.extra("progress")),
            short_time(job.created_at),
            self.updated_cell(job.updated_at, now),
        )
