"""What a table shows of its rows: a filter on every visible column and a sort by one column.

Textual-free. The filter matches text anywhere in a row's visible cells, case-insensitively;
a leading `!` keeps the rows that do not match (as k9s does). The sort is stable, puts blank
cells last whichever the direction, and compares numbers ("1,234", "41%") and ISO 8601 dates
as such. A typed filter that narrows the last one only looks at the rows that last one kept,
and sort keys are computed once per column, so a keystroke on a large table stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import Any, Final, Generic, TypeVar

from leadtui.ui.model.timefmt import moment

Row = TypeVar("Row")

NEGATE: Final = "!"
ASCENDING_MARK: Final = "▲"
DESCENDING_MARK: Final = "▼"
# Cells are joined with a character no one types, so a filter never matches across two cells.
_SEPARATOR: Final = "\x1f"
_NUMBER: Final = re.compile(r"[-+]?\d[\d,]*(\.\d+)?%?|[-+]?\.\d+%?")

# Sort keys: (rank, value). Numbers and dates share a rank (both floats); text comes after.
_NUMERIC, _TEXT = 0, 1
SortKey = tuple[int, float | str]


def sort_key(value: Any) -> SortKey | None:
    """How a cell's value sorts; None for a blank (always last)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return _TEXT, str(value).casefold()
    if isinstance(value, int | float):
        return _NUMERIC, float(value)
    text = str(value).strip()
    if not text:
        return None
    if _NUMBER.fullmatch(text):
        return _NUMERIC, float(text.replace(",", "").rstrip("%"))
    at = moment(text) if text[:4].isdigit() and len(text) >= 10 and text[4] == "-" else None
    if at is not None:
        # A zone-less date is read as UTC, so it compares with the zoned ones.
        return _NUMERIC, (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()
    return _TEXT, text.casefold()


class TableView(Generic[Row]):
    """The rows a table shows, in order: `cells(row)` is what the filter searches, `values(row)`
    what a column sorts by (the cells by default; "3 min ago" sorts by its ISO 8601 time)."""

    def __init__(
        self,
        columns: Sequence[str],
        cells: Callable[[Row], Sequence[str]],
        values: Callable[[Row], Sequence[Any]] | None = None,
    ) -> None:
        self.columns = tuple(columns)
        self._cells = cells
        self._values = values or cells
        self._rows: list[Row] = []
        # The text a filter searches, built on the first filter (a sort alone never needs it).
        self._haystacks: list[str] | None = None
        self._sort_keys: dict[int, list[SortKey | None]] = {}
        self._order: list[int] = []  # every row index, in the sorted order
        self._shown: list[int] = []
        self.query = ""
        # A named rule rows must also pass ("moving": the jobs still moving), or None.
        self.scope: tuple[str, Callable[[Row], bool]] | None = None
        self.sort_column: int | None = None
        self.descending = False

    def set_rows(self, rows: Sequence[Row]) -> None:
        """Replace every row, keeping the filter and the sort."""
        self._rows = list(rows)
        self._haystacks = None
        self._sort_keys = {}
        self._order = self._sorted_order()
        self._shown = self._matching(self._order, self.query)

    @property
    def total(self) -> int:
        return len(self._rows)

    @property
    def shown(self) -> list[Row]:
        """The rows that pass the filter, sorted."""
        return [self._rows[i] for i in self._shown]

    @property
    def shown_count(self) -> int:
        return len(self._shown)

    def row(self, position: int) -> Row:
        """The shown row at `position` (0 is the first shown)."""
        return self._rows[self._shown[position]]

    def filter(self, query: str) -> None:
        """Keep the rows whose visible cells contain `query` (`!query`: those that do not)."""
        narrows = (
            bool(self.query)
            and not self.query.startswith(NEGATE)
            and not query.startswith(NEGATE)
            and self.query.casefold() in query.casefold()
        )
        source = self._shown if narrows else self._order
        self.query = query
        self._shown = self._matching(source, query)

    def restrict(self, scope: tuple[str, Callable[[Row], bool]] | None) -> None:
        """Keep only the rows `scope`'s rule passes, besides the filter (None: all rows)."""
        self.scope = scope
        self._shown = self._matching(self._order, self.query)

    def _matching(self, indices: list[int], query: str) -> list[int]:
        if self.scope is not None:
            rule, rows = self.scope[1], self._rows
            indices = [i for i in indices if rule(rows[i])]
        negate = query.startswith(NEGATE)
        needle = (query[1:] if negate else query).casefold()
        if not needle:
            return list(indices)
        if self._haystacks is None:
            self._haystacks = [_SEPARATOR.join(self._cells(row)).casefold() for row in self._rows]
        hay = self._haystacks
        return [i for i in indices if (needle in hay[i]) != negate]

    def sort_by(self, column: int) -> None:
        """Sort by `column`, ascending; the same column again reverses."""
        if not 0 <= column < len(self.columns):
            raise IndexError(f"no column {column}")
        if self.sort_column == column:
            self.descending = not self.descending
        else:
            self.sort_column, self.descending = column, False
        self._order = self._sorted_order()
        self._shown = self._matching(self._order, self.query)

    def _sorted_order(self) -> list[int]:
        indices = list(range(len(self._rows)))
        column = self.sort_column
        if column is None:
            return indices
        keys = self._sort_keys.get(column)
        if keys is None:
            keys = [sort_key(self._values(row)[column]) for row in self._rows]
            self._sort_keys[column] = keys
        filled = [i for i in indices if keys[i] is not None]
        blank = [i for i in indices if keys[i] is None]
        filled.sort(key=keys.__getitem__, reverse=self.descending)  # type: ignore[arg-type]
        return filled + blank

    def heading(self, column: int) -> str:
        """The column's label, with an arrow when the table is sorted by it."""
        label = self.columns[column]
        if column != self.sort_column:
            return label
        return f"{label} {DESCENDING_MARK if self.descending else ASCENDING_MARK}"

    def summary(self) -> str:
        """'12 of 40 shown · filter: paris' (and '· only moving') when filtered; '' if not."""
        parts = [f"filter: {self.query}"] if self.query else []
        if self.scope is not None:
            parts.append(f"only {self.scope[0]}")
        if not parts:
            return ""
        return " · ".join([f"{self.shown_count:,} of {self.total:,} shown", *parts])
