"""Rows of a cursor-paginated lead list, held as a bounded window of pages.

Pages are fetched in order (a cursor only leads to the next page), their cursors are kept so a
page dropped from the window can be fetched again, and at most `MAX_PAGES` pages stay in memory
however far the user scrolls: the memory of a 50,000-lead table is that of a few thousand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from leadtui.api.models import Lead, Page

FetchPage = Callable[[str | None], Awaitable[Page[Lead]]]

MAX_CELL_WIDTH = 32
MAX_PAGES = 40


def cell_text(value: Any) -> str:
    """A value as one table cell: None blank, lists joined, newlines flattened."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(cell_text(v) for v in value)
    return str(value).replace("\n", " ")


class LeadRows:
    """The data behind a LeadTable: columns from the records, pages by index, a row count."""

    def __init__(self, page_size: int, total: int | None = None) -> None:
        self.page_size = page_size
        # What the server said there is (the search's unlocked count), until the pages end.
        self.total = total
        self.columns: list[str] = []
        self.widths: list[int] = []
        self.pages: OrderedDict[int, list[tuple[Any, ...]]] = OrderedDict()
        # cursors[k] fetches page k; known up to the page after the last one fetched.
        self.cursors: list[str | None] = [None]
        self.exhausted = False
        # A page kept on screen but due to be read again (the last one, when the list grew).
        self.stale: int | None = None

    @property
    def row_count(self) -> int:
        """Rows the table shows (some may still be loading)."""
        if self.exhausted or self.total is not None:
            return self.total or 0
        return len(self.cursors) * self.page_size  # one page of "loading…" past the known

    def page_of(self, row: int) -> int:
        return row // self.page_size

    def row(self, index: int) -> tuple[Any, ...] | None:
        """A loaded row, or None while its page is not in the window."""
        page = self.pages.get(index // self.page_size)
        if page is None:
            return None
        offset = index % self.page_size
        return page[offset] if offset < len(page) else None

    def next_to_fetch(self, wanted: int) -> int | None:
        """The page to fetch on the way to page `wanted` (None: it is loaded or past the end)."""
        if self.stale is not None and self.stale <= wanted:
            return self.stale
        if wanted in self.pages:
            self.pages.move_to_end(wanted)
            return None
        if self.exhausted and wanted >= len(self.cursors) - 1:
            return None
        return min(wanted, len(self.cursors) - 1)

    def add_page(self, index: int, page: Page[Lead], keep: int) -> None:
        """Store page `index`; drop the page furthest from `keep` when over the bound."""
        records = [lead.model_extra or {} for lead in page.items]
        self._learn_columns(records)
        columns = self.columns
        self.pages[index] = [tuple(r.get(c) for c in columns) for r in records]
        if index == self.stale:
            self.stale = None
        if index == len(self.cursors) - 1:
            if page.next_cursor is None:
                self.exhausted = True
                self.total = index * self.page_size + len(page.items)
            else:
                self.cursors.append(page.next_cursor)
        while len(self.pages) > MAX_PAGES:
            far = max(self.pages, key=lambda k: abs(k - keep))
            del self.pages[far]

    def reopen(self, total: int | None) -> int:
        """The list grew past its end (live results): forget where it ended and return the
        last page read, to be read again (its cursor is opaque: more may follow it now)."""
        last = len(self.cursors) - 1
        self.exhausted = False
        self.total = total
        self.stale = last  # shown until read again, so the rows on screen do not blink
        return last

    def _learn_columns(self, records: Iterable[Mapping[str, Any]]) -> None:
        # Widths come from the first page (and the first sight of a new column), so the
        # layout does not shift under the user's eyes while scrolling.
        first = not self.columns
        position = {name: i for i, name in enumerate(self.columns)}
        for record in records:
            for name, value in record.items():
                width = min(MAX_CELL_WIDTH, len(cell_text(value)))
                i = position.get(name)
                if i is None:
                    position[name] = len(self.columns)
                    self.columns.append(name)
                    self.widths.append(min(MAX_CELL_WIDTH, max(len(name), width)))
                elif first and width > self.widths[i]:
                    self.widths[i] = width
