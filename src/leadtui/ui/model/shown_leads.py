"""What a leads table shows: every row in the server's order, or the loaded rows filtered and
sorted.

Textual-free. Leads come a page at a time and the server neither filters nor sorts them, so a
filter or a sort works on the rows loaded so far (the table says so); while one is on, the
table reads rows from here and fetches nothing.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from leadtui.ui.model.lead_rows import LeadRows, cell_text
from leadtui.ui.model.table_view import TableView

LeadRow = tuple[Any, ...]


class ShownLeads:
    def __init__(self, rows: LeadRows) -> None:
        self.rows = rows
        self.view: TableView[LeadRow] | None = None

    @property
    def active(self) -> bool:
        """A filter or a sort is on: the loaded rows are shown through the view."""
        return self.view is not None

    @property
    def row_count(self) -> int:
        return self.view.shown_count if self.view is not None else self.rows.row_count

    def row(self, index: int) -> LeadRow | None:
        if self.view is None:
            return self.rows.row(index)
        return self.view.row(index) if 0 <= index < self.view.shown_count else None

    def record(self, index: int) -> dict[str, Any] | None:
        values = self.row(index)
        # A column learned after this row's page was read has no value in it.
        return None if values is None else dict(zip_longest(self.rows.columns, values))

    def _view(self) -> TableView[LeadRow]:
        if self.view is None:
            width = len(self.rows.columns)

            def cells(row: LeadRow) -> list[str]:
                return [cell_text(value) for value in row]

            def values(row: LeadRow) -> LeadRow:
                return row + (None,) * (width - len(row))  # a column learned after this page

            self.view = TableView(self.rows.columns, cells, values)
            pages = self.rows.pages
            self.view.set_rows([row for index in sorted(pages) for row in pages[index]])
        return self.view

    def filter(self, query: str) -> None:
        self._view().filter(query)
        self._settle()

    def sort_by(self, column: int) -> None:
        self._view().sort_by(column)

    def clear_filter(self) -> None:
        if self.view is not None:
            self.view.filter("")
            self._settle()

    def _settle(self) -> None:
        # Neither filtered nor sorted any more: back to every row, fetched as the user scrolls.
        if self.view is not None and not self.view.query and self.view.sort_column is None:
            self.view = None

    def heading(self, column: int, width: int) -> str:
        """The column's name in `width` cells; when it is sorted, the arrow always shows."""
        name = self.rows.columns[column]
        if self.view is None or column != self.view.sort_column:
            return name
        arrow = self.view.heading(column)[len(name) :]
        if len(name) + len(arrow) <= width:
            return name + arrow
        return name[: max(0, width - len(arrow) - 1)] + "…" + arrow

    def summary(self) -> str:
        """ "12 of 4,000 loaded shown · filter: paris · sorted by city ▲", or ""."""
        view = self.view
        if view is None:
            return ""
        # Said whenever the server has rows that are not in memory: they are not looked at.
        loaded = "" if self.rows.exhausted and view.total == self.rows.row_count else " loaded"
        parts = []
        if view.query:
            parts.append(
                f"{view.shown_count:,} of {view.total:,}{loaded} shown · filter: {view.query}"
            )
        if view.sort_column is not None:
            scope = f" (the {view.total:,}{loaded})" if loaded and not view.query else ""
            parts.append(f"sorted by {view.heading(view.sort_column)}{scope}")
        return " · ".join(parts)
