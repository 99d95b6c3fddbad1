"""What the jobs tables show of each kind of job: columns, status cells, the CSV rows.

Status is a word and a mark (✓ ✗ ◐ …) coloured from the current theme, so NO_COLOR loses
nothing and ctrl+t repaints it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from rich.text import Text
from textual.theme import Theme

from leadtui.api.contract import ExportStatus, ExtractionStatus
from leadtui.api.models import Export, Extraction
from leadtui.ui.model.job_board import job_key
from leadtui.ui.model.timefmt import date_time, moment

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
_WITH_PROGRESS: Final = frozenset({"processing", "running", "paused"})


def status_width(statuses: Iterable[str]) -> int:
    """The width every one of `statuses` fits, with its progress (below 100% while it
    moves): the column never narrows and cuts a "%". Longer words widen it (cells are padded
    to it, never cut)."""
    return max(
        len(Status(status).words()) + (len(" 99%") if status in _WITH_PROGRESS else 0)
        for status in statuses
    )


@dataclass(frozen=True)
class Status:
    """A status cell before it is painted with the theme's colours."""

    status: str
    progress: float | None = None

    def words(self) -> str:
        mark = _LOOK.get(self.status, ("•", ""))[0]
        words = f"{mark} {self.status}"
        if self.progress is not None and self.status in _WITH_PROGRESS:
            words += f" {int(self.progress * 100)}%"
        return words

    def paint(self, theme: Theme, width: int) -> Text:
        colour_name = _LOOK.get(self.status, ("", ""))[1]
        colour = getattr(theme, colour_name, None) if colour_name else None
        return Text(self.words().ljust(width), style=colour or "")


Cell = str | Status


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    flex: bool = False
    """Takes the width the other columns leave (one per table)."""
    short: Callable[[str], str] | None = None
    """A shorter form of a cell, used when the full ones do not all fit."""
    optional: bool = False
    """Left out when even the short forms do not fit (optional columns come last)."""


def day(text: str) -> str:
    """`2026-01-31 14:05` → `2026-01-31`: a date without its time."""
    return text.split(" ", 1)[0]


@dataclass(frozen=True)
class Layout:
    """How much of a table is shown: its first `count` columns, short forms or not."""

    count: int
    short: bool


def layouts(columns: Sequence[Column]) -> list[Layout]:
    """From the widest to the narrowest: every column in full, short forms, then without
    the optional columns at the right, one by one."""
    count = len(columns)
    found = [Layout(count, False)]
    if any(column.short for column in columns):
        found.append(Layout(count, True))
    while count > 1 and columns[count - 1].optional:
        count -= 1
        found.append(Layout(count, True))
    return found


def iso(value: str | None) -> str:
    """A server time as the CSV writes it: ISO 8601 with its offset (local when it has none)."""
    at = moment(value)
    if at is None:
        return value or ""
    return (at if at.tzinfo else at.astimezone()).isoformat()


# What a table and its CSV show of a job: its id, what it is about, its result count, its
# status and its progress (None where the server gives none).
Facts = tuple[str, str | None, int | None, str, float | None]


class JobColumns(ABC, Generic[JobT]):
    """What a jobs table shows of one kind of job, and what its CSV holds."""

    COLUMNS: tuple[Column, ...] = ()
    STATUSES: tuple[str, ...] = ()
    """The states this kind of job has: the status column is as wide as the widest."""

    @abstractmethod
    def facts(self, job: JobT) -> Facts: ...

    def job_id(self, job: JobT) -> str:
        return job_key(job)[1]

    def cells(self, job: JobT, updated: str) -> Sequence[Cell]:
        """One per column; `updated` is given by the table (it ages with the clock)."""
        job_id, what, results, status, progress = self.facts(job)
        count = "—" if results is None else f"{results:,}"
        return (
            job_id,
            what or "—",
            count,
            Status(status, progress),
            updated,
            date_time(job.created_at),
        )

    def raw(self, job: JobT) -> list[str]:
        """The CSV row: ids, numbers, status words and ISO 8601 times, not what is drawn."""
        job_id, what, results, status, _ = self.facts(job)
        count = "" if results is None else str(results)
        return [job_id, what or "", count, status, iso(job.updated_at), iso(job.created_at)]


# Every kind of job shows these after its id and what it is about.
_LAST_COLUMNS = (
    Column("results", "Results"),
    Column("status", "Status"),
    Column("updated", "Updated", optional=True),
    Column("created", "Created", short=day, optional=True),
)


class ExportColumns(JobColumns[Export]):
    STATUSES = tuple(ExportStatus)
    COLUMNS = (Column("id", "Export"), Column("search", "Search"), *_LAST_COLUMNS)

    def facts(self, job: Export) -> Facts:
        return job.exportId, job.searchId, job.additional_results, job.status, job.progress


def summary(request: Mapping[str, Any]) -> str:
    """What an extraction looks for: its categories · countries · localisations."""
    names = ("categories", "countries", "localisations")
    lists = [request.get(name) for name in names]
    parts = [", ".join(map(str, values)) for values in lists if isinstance(values, list)]
    return " · ".join(p for p in parts if p) or "—"


class ExtractionColumns(JobColumns[Extraction]):
    STATUSES = tuple(ExtractionStatus)
    COLUMNS = (Column("id", "Extraction"), Column("what", "What", flex=True), *_LAST_COLUMNS)

    def facts(self, job: Extraction) -> Facts:
        count, progress = job.extra("result_count"), job.extra("progress")
        return (
            job.extractionId,
            summary(job.model_extra or {}),
            count if isinstance(count, int) else None,
            job.status or "",
            progress if isinstance(progress, float | int) else None,
        )
