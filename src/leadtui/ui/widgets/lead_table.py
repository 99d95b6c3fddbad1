"""LeadTable: a virtual table of leads that renders only the lines on screen.

Textual's DataTable measures every cell of every row it is given (about 12 s for 50,000 rows
of 12 columns); this widget draws the visible lines from a bounded window of pages
(`LeadRows`) and fetches pages in order as the user scrolls, so the cost of a screen or a
page-down does not grow with the number of leads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import accumulate
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events, on, work
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from leadtui.api.errors import LeadError
from leadtui.ui.frame.clipboard import copy_and_tell
from leadtui.ui.model.lead_rows import FetchPage, LeadRows, cell_text
from leadtui.ui.model.shown_leads import ShownLeads
from leadtui.ui.widgets.table_keys import MOVEMENT_BINDINGS, VIEW_BINDINGS, TypedFilter

GAP = 2  # spaces between columns
PREFETCH_ROWS = 20  # fetch the next page when the screen bottom is this close to it


class LeadTable(ScrollView, can_focus=True):
    """Leads of one search, page by page. Call `load(fetch, total)` to (re)start."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVEMENT_BINDINGS,
        Binding("left", "column(-1)", "Column left", id="table.column_left", show=False),
        Binding("right", "column(1)", "Column right", id="table.column_right", show=False),
        *VIEW_BINDINGS,
        Binding("enter", "open_row", "Row details", id="leads.open_row"),
        Binding("y", "copy_cell", "Copy cell", id="leads.copy_cell"),
        Binding("Y", "copy_row", "Copy row", id="leads.copy_row", key_display="Y"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "lead-table--header",
        "lead-table--cursor",
        "lead-table--cell",
        "lead-table--loading",
    }

    DEFAULT_CSS = """
    LeadTable { height: 1fr; border: round $primary-muted; }
    LeadTable:focus { border: round $primary; }
    LeadTable > .lead-table--header { text-style: bold; background: $panel; }
    LeadTable > .lead-table--cursor { background: $primary 30%; }
    LeadTable:focus > .lead-table--cursor { background: $primary 60%; }
    LeadTable > .lead-table--cell { text-style: bold reverse; }
    LeadTable > .lead-table--loading { color: $text-muted; }
    """

    class Loaded(Message):
        """A page arrived (or the end was reached): counts may have changed."""

    class LoadFailed(Message):
        def __init__(self, table: LeadTable, error: LeadError) -> None:
            super().__init__()
            self.table = table
            self.error = error

    class RowOpened(Message):
        def __init__(self, row: int, record: dict[str, Any]) -> None:
            super().__init__()
            self.row = row
            """The row's index, the one the cursor was on when Enter was pressed."""
            self.record = record

    class CursorMoved(Message):
        """The cursor moved: "row N of M" is redrawn after the move, never before it."""

    def __init__(self, *, page_size: int = 100, id: str | None = None):
        super().__init__(id=id)
        self.page_size = page_size
        self.rows = LeadRows(page_size, 0)
        self.shown = ShownLeads(self.rows)
        self.typed_filter = TypedFilter(self._filter_typed)
        self.cursor_row = self.cursor_col = 0
        self._fetch: FetchPage | None = None
        self._wanted = 0
        self._generation = 0
        self.loading_page: int | None = None

    def load(self, fetch: FetchPage, total: int | None) -> None:
        """Start over: `fetch(cursor)` returns one page; `total` is how many rows to expect."""
        self._generation += 1
        self._fetch = fetch
        self.rows = LeadRows(self.page_size, total)
        self.shown = ShownLeads(self.rows)
        self.typed_filter.stop()
        self.cursor_row = self.cursor_col = 0
        self.scroll_to(0, 0, animate=False)
        self._resize()
        self._want(0)

    def grow(self, total: int | None) -> None:
        """More rows exist than were read (live results): read on from the last page, keeping
        the rows, the cursor and the scroll position where they are."""
        if self._fetch is None:
            return
        last = self.rows.reopen(total)
        self._resize()
        self._want(last)

    def retry(self) -> None:
        """Fetch what is missing again (after a failure)."""
        self._want(self._wanted)

    def _resize(self) -> None:
        width = sum(w + GAP for w in self.rows.widths)
        self.virtual_size = Size(width, self.shown.row_count + 1)  # +1: the header line
        self._draw_title()
        self._draw_cell_line()
        self.refresh()

    def _want(self, page: int) -> None:
        if self.shown.active:
            return  # filtered or sorted: the loaded rows are what is shown
        self._wanted = page
        if self._fetch is not None and self.rows.next_to_fetch(page) is not None:
            self._fetch_pages()

    @work(exclusive=True, group="lead-table-fetch")
    async def _fetch_pages(self) -> None:
        generation, rows, fetch = self._generation, self.rows, self._fetch
        assert fetch is not None
        while (index := rows.next_to_fetch(self._wanted)) is not None:
            self.loading_page = index
            self.post_message(self.Loaded())
            try:
                page = await fetch(rows.cursors[index])
            except LeadError as error:
                self.loading_page = None
                self.post_message(self.LoadFailed(self, error))
                return
            if generation != self._generation:
                return  # another search was loaded meanwhile: drop this page
            rows.add_page(index, page, keep=self._wanted)
            self._resize()
        self.loading_page = None
        self.post_message(self.Loaded())

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if y == 0:
            style = self.get_component_rich_style("lead-table--header")
            headings = [self.shown.heading(i, w) for i, w in enumerate(self.rows.widths)]
            return self._strip(headings, style, None, scroll_x, width)
        index = scroll_y + y - 1
        if index >= self.shown.row_count:
            return Strip.blank(width, self.rich_style)
        values = self.shown.row(index)
        cursor = index == self.cursor_row
        base = self.rich_style
        if cursor:
            base = base + self.get_component_rich_style("lead-table--cursor")
        if values is None:
            self.call_later(self._want, self.rows.page_of(index))
            loading = self.get_component_rich_style("lead-table--loading")
            text = f" loading row {index + 1:,}…"
            return Strip([Segment(text.ljust(width), base + loading)]).crop(0, width)
        cells = [cell_text(v) for v in values]
        cell = self.cursor_col if cursor and self.has_focus else None
        return self._strip(cells, base, cell, scroll_x, width)

    def _strip(
        self, cells: list[str], style: Style, cursor_col: int | None, scroll_x: int, width: int
    ) -> Strip:
        segments = []
        cell_style = style + self.get_component_rich_style("lead-table--cell")
        x = 0
        for i, w in enumerate(self.rows.widths):
            text = cells[i] if i < len(cells) else ""
            if len(text) > w:
                text = text[: w - 1] + "…"
            if x + w > scroll_x + width and x < scroll_x + width:
                # Cut by the view's right edge: a mark, not the start of a word.
                text = "…"
            segments.append(Segment(text.ljust(w), cell_style if i == cursor_col else style))
            segments.append(Segment(" " * GAP, style))
            x += w + GAP
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width, style)

    @on(events.Focus)
    @on(events.Blur)
    def _focus_changed(self) -> None:
        self.refresh()  # the cell cursor shows only while the table has the focus

    @property
    def page_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def move_to(self, row: int) -> None:
        count = self.shown.row_count
        self.cursor_row = max(0, min(row, count - 1)) if count else 0
        top = self.scroll_offset.y
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + self.page_height:
            self.scroll_to(y=self.cursor_row - self.page_height + 1, animate=False)
        # Fetch ahead so scrolling down rarely shows "loading".
        self._want(self.rows.page_of(min(self.cursor_row + PREFETCH_ROWS, max(0, count - 1))))
        if self.shown.row(self.cursor_row) is None:
            self._want(self.rows.page_of(self.cursor_row))
        self._draw_cell_line()
        self.refresh()
        self.post_message(self.CursorMoved())

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor_row + 1)

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor_row - 1)

    def action_page_down(self) -> None:
        self.move_to(self.cursor_row + self.page_height)

    def action_page_up(self) -> None:
        self.move_to(self.cursor_row - self.page_height)

    def action_half_page(self, direction: int) -> None:
        self.move_to(self.cursor_row + direction * max(1, self.page_height // 2))

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(self.shown.row_count - 1)

    def _column_starts(self) -> list[int]:
        return list(accumulate((width + GAP for width in self.rows.widths[:-1]), initial=0))

    def action_column(self, delta: int) -> None:
        """Move the cell cursor a column; the view scrolls a whole column at a time, so no
        value is cut at its left edge."""
        if not self.rows.columns:
            return
        self.cursor_col = max(0, min(self.cursor_col + delta, len(self.rows.columns) - 1))
        starts = self._column_starts()
        left = starts[self.cursor_col]
        right = left + self.rows.widths[self.cursor_col]
        view = self.scrollable_content_region.width
        if left < self.scroll_offset.x:
            self.scroll_to(x=left, animate=False)
        elif right > self.scroll_offset.x + view:
            # The first column start that shows the whole focused column.
            start = next((x for x in starts if right - x <= view), left)
            self.scroll_to(x=min(start, left), animate=False)
        self._draw_cell_line()
        self.refresh()

    def _draw_cell_line(self) -> None:
        """Under the table, the focused cell's whole value when the table shows less of it."""
        record = self.current_record()
        if record is None or not self.rows.columns:
            self.border_subtitle = None
            return
        name = self.rows.columns[self.cursor_col]
        text = cell_text(record.get(name))
        left = self._column_starts()[self.cursor_col]
        width = self.rows.widths[self.cursor_col]
        hidden = left + width > self.scroll_offset.x + self.scrollable_content_region.width
        self.border_subtitle = f"{name}: {text}" if len(text) > width or hidden else None

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.move_to(self.scroll_offset.y + event.y - 1)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        # Scrolled by the mouse wheel or the scrollbar: load what comes into view.
        bottom = int(new) + self.page_height
        self._want(self.rows.page_of(min(bottom, max(0, self.shown.row_count - 1))))

    def _draw_title(self) -> None:
        parts = [part for part in (self.typed_filter.prompt, self.shown.summary()) if part]
        self.border_title = " · ".join(parts) if parts else None

    def _viewed(self, change: Callable[[], object]) -> None:
        """Change what is shown, then start from its first row."""
        change()
        self.cursor_row = 0
        self.scroll_to(y=0, animate=False)
        self._resize()
        self.post_message(self.Loaded())

    def _filter_typed(self, query: str) -> None:
        self._viewed(lambda: self.shown.filter(query))

    def action_filter(self) -> None:
        self.typed_filter.start()
        self._draw_title()

    def action_clear_filter(self) -> None:
        self.typed_filter.stop()
        self._viewed(self.shown.clear_filter)

    def action_sort(self) -> None:
        if self.rows.columns:
            self._viewed(lambda: self.shown.sort_by(self.cursor_col))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            # No filter: Esc goes on to the screen (back one level).
            view = self.shown.view
            return self.typed_filter.typing or (view is not None and bool(view.query))
        if action in ("describe", "copy_id"):
            return self.current_record() is not None
        return True

    async def on_key(self, event: events.Key) -> None:
        if self.typed_filter.handle(event):
            self._draw_title()

    def action_describe(self) -> None:
        from leadtui.ui.dialogs.describe import Describe

        record = self.current_record()
        if record is not None:
            self.app.push_screen(Describe(record, str(record.get("leadId") or "Lead")))

    def action_copy_id(self) -> None:
        record = self.current_record()
        lead_id = record.get("leadId") if record else None
        if lead_id:
            copy_and_tell(self.app, str(lead_id), str(lead_id))

    def current_record(self) -> dict[str, Any] | None:
        return self.shown.record(self.cursor_row)

    def action_open_row(self) -> None:
        record = self.current_record()
        if record is not None:
            self.post_message(self.RowOpened(self.cursor_row, record))

    def action_copy_cell(self) -> None:
        record = self.current_record()
        if record is None or not self.rows.columns:
            return
        name = self.rows.columns[self.cursor_col]
        text = cell_text(record.get(name))
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {name}: {text[:60]}", timeout=3, markup=False)

    def action_copy_row(self) -> None:
        record = self.current_record()
        if record is not None:
            self.app.copy_to_clipboard(json.dumps(record, ensure_ascii=False))
            self.notify(f"Copied row {self.cursor_row + 1:,} as JSON", timeout=3)
