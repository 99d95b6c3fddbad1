"""RowTable: what every DataTable of records does the same way: the table keys, ←/→ to pick
the column `s` sorts by, `/` to filter, `D` to describe a row, `I` to copy its id. A subclass
says how its rows are redrawn after the view changes, where the title goes, and what a row's id
and record are.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from leadtui.ui.frame.clipboard import copy_and_tell
from leadtui.ui.model.table_view import TableView
from leadtui.ui.widgets.table_keys import MOVEMENT_BINDINGS, VIEW_BINDINGS, TypedFilter

Row = TypeVar("Row")
Cell = str | Text


class RowTable(DataTable[Cell], Generic[Row]):
    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVEMENT_BINDINGS,
        Binding("enter", "select_cursor", "Open", id="table.open", show=False),
        Binding("left", "pick_column(-1)", "Column left", id="table.column_left", show=False),
        Binding("right", "pick_column(1)", "Column right", id="table.column_right", show=False),
        *VIEW_BINDINGS,
    ]

    def __init__(self, view: TableView[Row], *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.view = view
        self.typed_filter = TypedFilter(self.filter_to)
        self.picked_column = 0

    # Abstract: mypy, not Textual's metaclass, refuses a subclass that leaves one out.
    @property
    @abstractmethod
    def focused_row(self) -> Row | None: ...

    @abstractmethod
    def apply(self, change: Callable[[], object]) -> None:
        """Change the view, then show its rows (the cursor staying on its row)."""

    @abstractmethod
    def title_changed(self) -> None:
        """The filter being typed, the filter or the sort changed: redraw the title."""

    @abstractmethod
    def id_to_copy(self, row: Row) -> str | None: ...

    @abstractmethod
    def describe(self, row: Row) -> tuple[dict[str, Any], str] | None:
        """(the record as JSON, the dialog's title), or None when there is nothing to show."""

    def heading(self, index: int) -> str:
        """A column's label: the sort's arrow, and brackets on the column `s` would sort."""
        heading = self.view.heading(index)
        return f"[{heading}]" if index == self.picked_column else heading

    def relabel(self) -> None:
        for index, column in enumerate(self.ordered_columns):
            column.label = Text(self.heading(index))
            # DataTable sizes a column by its first label and its cells: the sort's arrow and
            # the brackets would be cut ("[Result") without room made for them.
            column.content_width = max(column.content_width, column.label.cell_len)
        self.refresh()

    def filter_to(self, query: str) -> None:
        self.apply(lambda: self.view.filter(query))

    def action_first(self) -> None:
        self.move_cursor(row=0)

    def action_last(self) -> None:
        self.move_cursor(row=max(0, self.row_count - 1))

    def action_half_page(self, direction: int) -> None:
        half = max(1, (self.scrollable_content_region.height - self.header_height) // 2)
        self.move_cursor(row=max(0, min(self.row_count - 1, self.cursor_row + direction * half)))

    def action_pick_column(self, step: int) -> None:
        self.picked_column = (self.picked_column + step) % len(self.view.columns)
        self.apply(lambda: None)  # the columns' widths follow the brackets

    def action_filter(self) -> None:
        self.typed_filter.start()
        self.title_changed()

    def action_clear_filter(self) -> None:
        self.typed_filter.stop()
        self.filter_to("")

    def action_sort(self) -> None:
        self.apply(lambda: self.view.sort_by(self.picked_column))

    async def on_key(self, event: events.Key) -> None:
        # Textual also runs the base classes' handlers unless the default is prevented.
        if self.typed_filter.handle(event):
            self.title_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            # No filter: Esc goes on to the screen (back one level).
            return self.typed_filter.typing or bool(self.view.query)
        row = self.focused_row
        if action == "describe":
            return row is not None and self.describe(row) is not None
        if action == "copy_id":
            return row is not None and bool(self.id_to_copy(row))
        return True

    def action_describe(self) -> None:
        from leadtui.ui.dialogs.describe import Describe

        row = self.focused_row
        shown = self.describe(row) if row is not None else None
        if shown is not None:
            self.app.push_screen(Describe(*shown))

    def action_copy_id(self) -> None:
        row = self.focused_row
        value = self.id_to_copy(row) if row is not None else None
        if value:
            copy_and_tell(self.app, value, value)
