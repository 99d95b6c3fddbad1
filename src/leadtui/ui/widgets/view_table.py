"""ViewTable: a RowTable of rows given whole, redrawn from its view on every change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message

from leadtui.ui.model.table_view import TableView
from leadtui.ui.widgets.row_table import Cell, RowTable

Row = TypeVar("Row")


class ViewTable(RowTable[Row]):
    """Rows of one kind, shown through a `TableView`.

    `cells(row)` are the visible cells (Text keeps its style; the filter reads its words),
    `values(row)` the raw values a column sorts by (ISO timestamps, counts), `row_id(row)` the
    row key and the id `I` copies (unless `copy_id` gives another, or None for none),
    `record(row)` the JSON `D` shows. `label` heads the title.
    """

    class Filtered(Message):
        """The filter changed (a screen may load more rows when few match)."""

        def __init__(self, table: ViewTable[Any]) -> None:
            super().__init__()
            self.table = table

        @property
        def control(self) -> ViewTable[Any]:
            return self.table

    DEFAULT_CSS = """
    ViewTable { border: round $primary-muted; }
    ViewTable:focus { border: round $primary; }
    """

    def __init__(
        self,
        label: str,
        columns: Sequence[str],
        cells: Callable[[Row], Sequence[Cell]],
        *,
        row_id: Callable[[Row], str],
        values: Callable[[Row], Sequence[Any]] | None = None,
        record: Callable[[Row], dict[str, Any]] | None = None,
        copy_id: Callable[[Row], str | None] | None = None,
        id: str | None = None,
    ) -> None:
        view: TableView[Row] = TableView(
            columns, lambda row: [_plain(cell) for cell in cells(row)], values
        )
        super().__init__(view, id=id)
        self.label = label
        self._cells = cells
        self._row_id = row_id
        self._record = record
        self._copy_id = copy_id or row_id
        self.complete = True
        """False while the server has more rows than are loaded (a paged list)."""

    def on_mount(self) -> None:
        for index in range(len(self.view.columns)):
            self.add_column(self.heading(index), key=str(index))
        self.title_changed()

    def set_rows(self, rows: Sequence[Row], *, complete: bool = True) -> None:
        """Show `rows` through the current filter and sort, keeping the cursor on its row."""
        self.complete = complete
        self.apply(lambda: self.view.set_rows(rows))

    @property
    def focused_row(self) -> Row | None:
        if not 0 <= self.cursor_row < self.view.shown_count:
            return None
        return self.view.row(self.cursor_row)

    def apply(self, change: Callable[[], object]) -> None:
        focused = self.focused_row
        keep = self._row_id(focused) if focused is not None else None
        change()
        # Labelled before the rows are added: a column is as wide as its label with the sort's
        # arrow and the brackets, never cut to "[Result".
        self.relabel()
        self.clear()
        for row in self.view.shown:
            cells = self._cells(row)
            # DataTable widens a column for a new row only once idle, and keeps what it drew
            # before at the old width until a resize: a row whose state grew was cut short.
            for column, cell in zip(self.ordered_columns, cells, strict=False):
                column.content_width = max(column.content_width, _width(cell))
            self.add_row(*cells, key=self._row_id(row))
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep), animate=False)
        self.title_changed()

    def filter_to(self, query: str) -> None:
        super().filter_to(query)
        self.post_message(self.Filtered(self))

    def title_changed(self) -> None:
        parts = [self.label, self.typed_filter.prompt]
        summary = self.view.summary()
        parts.append(summary or f"{self.view.total:,}")
        if self.view.sort_column is not None:
            name = self.view.columns[self.view.sort_column]
            arrow = self.view.heading(self.view.sort_column)[len(name) + 1 :]
            scope = "" if self.complete else f", the {self.view.total:,} loaded"
            parts.append(f"sorted by {name} {arrow}{scope}")
        elif not self.complete and (summary or self.typed_filter.typing):
            parts.append(f"the {self.view.total:,} loaded")
        self.border_title = " · ".join(part for part in parts if part)

    def id_to_copy(self, row: Row) -> str | None:
        return self._copy_id(row)

    def describe(self, row: Row) -> tuple[dict[str, Any], str] | None:
        if self._record is None:
            return None
        return self._record(row), self._copy_id(row) or self._row_id(row)


def _width(cell: Cell) -> int:
    if isinstance(cell, Text):
        return cell.cell_len
    return Text.from_markup(cell).cell_len if "[" in cell else cell_len(cell)


def _plain(cell: Cell) -> str:
    return cell.plain if isinstance(cell, Text) else cell
