"""The exports and extractions tables: rows keyed by job id, updated in place on every tick.

Every column fits the terminal's width, none is cut: when they do not all fit, the columns
that have a short form use it (a date without its time), then the optional columns at the
right are left out, the last first (the CSV and Describe still have them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from leadtui.api.models import Export, Extraction
from leadtui.ui.model.table_view import TableView
from leadtui.ui.model.timefmt import ago, moment
from leadtui.ui.widgets.job_columns import (
    Cell,
    ExportColumns,
    ExtractionColumns,
    JobColumns,
    JobT,
    Layout,
    Status,
    layouts,
    status_width,
)
from leadtui.ui.widgets.row_table import RowTable

# The quick filters by state, in the order `f` steps through them (then back to all jobs).
STATE_FILTERS: Final[tuple[tuple[str, frozenset[str]], ...]] = (
    ("moving", frozenset({"queued", "processing", "running", "paused"})),
    ("failed", frozenset({"failed", "stopped"})),
    ("ready", frozenset({"ready", "completed"})),
)


# The flexible column never gets narrower than this, however narrow the terminal.
MIN_FLEX_WIDTH: Final = 8


class JobTable(RowTable[JobT]):
    """Jobs merged by id, keeping selection and scroll; `f` steps through the state filters."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "f",
            "state_filter",
            "Only moving/failed/ready jobs (in turn)",
            id="jobs.state_filter",
            show=False,
        ),
    ]

    class ViewChanged(Message):
        """The filter, the state filter or the sort changed: the panel's title says it."""

    def __init__(self, columns: JobColumns[JobT], *, id: str | None = None) -> None:
        view: TableView[Any] = TableView(
            [column.label for column in columns.COLUMNS], self._plain_cells, columns.raw
        )
        super().__init__(view, id=id)
        self.shape: JobColumns[JobT] = columns
        self._status_width = status_width(columns.STATUSES)
        self.jobs: dict[str, JobT] = {}
        self._flex_width = MIN_FLEX_WIDTH
        self._now = 0.0
        self._state = -1  # index in STATE_FILTERS; -1: every state
        self._layouts = layouts(columns.COLUMNS)
        self.layout_shown = self._layouts[0]
        for column in columns.COLUMNS:
            self.add_column(column.label, key=column.key)

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(
            self, lambda theme: self._redraw(self.jobs.values())
        )

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    @property
    def focused_row(self) -> JobT | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return self.jobs.get(key) if key is not None else None

    def merge(self, jobs: Iterable[JobT], now: float) -> None:
        """Show `jobs` that pass the filters: rows update in place, new ones are added (newest
        first, or in the sort's order), rows of jobs no longer shown are removed; the
        selected job stays selected."""
        self._now = now
        self.view.set_rows(list(jobs))
        self._show_view()
        if self.view.summary():
            self.title_changed()  # "N of M shown" counts what came

    def _show_view(self) -> None:
        selected = self.focused_row
        given = {self.shape.job_id(job): job for job in self.view.shown}
        for key in [k for k in self.jobs if k not in given]:
            del self.jobs[key]
            self.remove_row(key)
        added = [key for key in given if key not in self.rows]
        self.jobs.update(given)
        self._redraw(given.values())
        if self.view.sort_column is not None:
            place = {key: n for n, key in enumerate(given)}
            self.sort("id", key=lambda cell: place.get(str(cell), 0))
        elif added:
            order = {k: (job.created_at or "", k) for k, job in self.jobs.items()}
            self.sort("id", key=lambda cell: order.get(str(cell), ("", "")), reverse=True)
        if selected is not None and self.shape.job_id(selected) in self.rows:
            row = self.get_row_index(self.shape.job_id(selected))
            if row != self.cursor_row:
                self.move_cursor(row=row, scroll=False)
        self.call_after_refresh(self._fit)  # other columns may have grown or shrunk

    def tick(self, now: float) -> None:
        """Age the "Updated" cells to `now` (called with the status line's clock)."""
        self._now = now
        for key, job in self.jobs.items():
            self._set(key, "updated", self._updated(job))
        self.call_after_refresh(self._fit)

    def _updated(self, job: JobT) -> str:
        at = moment(job.updated_at)
        return ago(self._now - at.timestamp()) if at else "—"

    def _cells(self, job: JobT) -> Sequence[Cell]:
        return self.shape.cells(job, self._updated(job))

    def _redraw(self, jobs: Iterable[JobT]) -> None:
        theme = self.app.current_theme
        shown = self.layout_shown
        columns = self.shape.COLUMNS[: shown.count]
        for job in jobs:
            key = self.shape.job_id(job)
            cells: list[str | Text] = []
            for column, cell in zip(columns, self._cells(job), strict=False):
                if isinstance(cell, Status):
                    cells.append(cell.paint(theme, self._status_width))
                elif column.flex:
                    cells.append(_fit(cell, self._flex_width))
                elif shown.short and column.short is not None:
                    cells.append(column.short(cell))
                else:
                    cells.append(cell)
            if key not in self.rows:
                self.add_row(*cells, key=key)
                continue
            for column, value in zip(columns, cells, strict=True):
                self._set(key, column.key, value)

    def _set(self, key: str, column: str, value: str | Text) -> None:
        if column not in self.columns:
            return  # left out at this width
        current = self.get_cell(key, column)
        same = current == value and (
            not isinstance(value, Text) or current.style == value.style  # type: ignore[union-attr]
        )
        if not same:
            self.update_cell(key, column, value, update_width=True)

    def _fit(self) -> None:
        """The widest layout that fits, then the flexible column takes the free width: its
        cells are cut to it with "…"."""
        self._choose_layout()
        flex = [c.key for c in self.shape.COLUMNS if c.flex]
        if not flex:
            return
        others = sum(
            column.get_render_width(self)
            for key, column in self.columns.items()
            if key.value != flex[0]
        )
        free = self.scrollable_content_region.width - others - 2 * self.cell_padding
        width = max(MIN_FLEX_WIDTH, free)
        if width != self._flex_width:
            self._flex_width = width
            self._redraw(self.jobs.values())

    def _widths(self) -> tuple[list[int], list[int]]:
        """Each column's width with the jobs shown, in full and in short form: a status at
        the width every status fits, the flexible column at its least."""
        labels = [cell_len(self.heading(i)) for i in range(len(self.shape.COLUMNS))]
        full, short = list(labels), list(labels)
        for job in self.jobs.values():
            cells = zip(self.shape.COLUMNS, self._cells(job), strict=True)
            for i, (column, cell) in enumerate(cells):
                if isinstance(cell, Status) or column.flex:
                    continue
                full[i] = max(full[i], cell_len(cell))
                short[i] = max(short[i], cell_len(column.short(cell) if column.short else cell))
        for i, column in enumerate(self.shape.COLUMNS):
            least = MIN_FLEX_WIDTH if column.flex else 0
            least = self._status_width if column.key == "status" else least
            full[i], short[i] = max(full[i], least), max(short[i], least)
        return full, short

    def _choose_layout(self) -> None:
        """Show the widest layout that fits the table's width (the narrowest when none does)."""
        free = self.scrollable_content_region.width
        if free <= 0:
            return  # not laid out yet
        full, short = self._widths()
        padding = 2 * self.cell_padding

        def needed(layout: Layout) -> int:
            widths = (short if layout.short else full)[: layout.count]
            return sum(widths) + padding * layout.count

        chosen = next((lay for lay in self._layouts if needed(lay) <= free), self._layouts[-1])
        if chosen == self.layout_shown:
            return
        before, self.layout_shown = self.layout_shown, chosen
        for column in self.shape.COLUMNS[chosen.count : before.count]:
            self.remove_column(column.key)
        for index in range(before.count, chosen.count):
            key = self.shape.COLUMNS[index].key
            self.add_column(Text(self.view.heading(index)), key=key, default="")
        self._redraw(self.jobs.values())
        if self.picked_column >= chosen.count:  # it was left out: the first column is picked
            self.picked_column = 0
            self.relabel()

    def relabel(self) -> None:
        super().relabel()
        self.call_after_refresh(self._fit)  # a heading that grew may need another layout

    def action_pick_column(self, step: int) -> None:
        # Only the columns shown can be picked (a column left out at this width cannot).
        self.picked_column = (self.picked_column + step) % self.layout_shown.count
        self.relabel()

    def _plain_cells(self, job: JobT) -> list[str]:
        """What the filter searches: the words shown, the status as a word with its mark."""
        return [cell.words() if isinstance(cell, Status) else cell for cell in self._cells(job)]

    def caption(self) -> str:
        """The filter being typed, "N of M shown · …" and the sort, for the panel's title."""
        parts = [self.typed_filter.prompt, self.view.summary()]
        if self.view.sort_column is not None:
            parts.append(f"sorted by {self.view.heading(self.view.sort_column)}")
        return " · ".join(part for part in parts if part)

    def apply(self, change: Callable[[], object]) -> None:
        change()
        self._show_view()
        self.relabel()
        self.title_changed()

    def title_changed(self) -> None:
        self.post_message(self.ViewChanged())

    def id_to_copy(self, job: JobT) -> str | None:
        return self.shape.job_id(job)

    def describe(self, job: JobT) -> tuple[dict[str, Any], str] | None:
        return job.model_dump(mode="json"), self.shape.job_id(job)

    def action_state_filter(self) -> None:
        self._state = self._state + 1 if self._state + 1 < len(STATE_FILTERS) else -1
        if self._state < 0:
            self.apply(lambda: self.view.restrict(None))
        else:
            name, states = STATE_FILTERS[self._state]
            self.apply(lambda: self.view.restrict((name, lambda job: job.status in states)))

    def raw_rows(self) -> list[list[str]]:
        """The rows as data, header first, in the order shown: what the CSV export writes."""
        keys = [str(row.key.value) for row in self.ordered_rows]
        rows: list[list[str]] = [self.shape.raw(self.jobs[key]) for key in keys]
        return [list(self.view.columns), *rows]


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class ExportTable(JobTable[Export]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(ExportColumns(), id=id)


class ExtractionTable(JobTable[Extraction]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(ExtractionColumns(), id=id)
