"""Following `next_cursor` page by page, from any cursor, to the end, or to a list that
cannot be read whole.

`leadtui.api.pagination.iterate` yields items from the first page; the command line needs the
pages themselves (to stream each as it arrives, and to print one page's `next_cursor`) and may
start at `--cursor`. A walk with `--all` ends only on a page without `next_cursor`: a server
that repeats a cursor, or sends an empty page that still names a next one, raises
ListIncomplete after what was read, so a partial list never looks complete.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from leadtui.api.models import Page
from leadtui.api.pagination import MAX_PAGES_PER_WALK

T = TypeVar("T")


class ListIncomplete(Exception):
    """The server's pages stopped leading on before the list's end: `reason` in words,
    `next_cursor` the page that was never read."""

    def __init__(self, reason: str, next_cursor: str | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.next_cursor = next_cursor


async def walk_pages(
    fetch: Callable[[str | None], Awaitable[Page[T]]], first_cursor: str | None, *, every: bool
) -> AsyncIterator[Page[T]]:
    """The page at `first_cursor`, then (with `every`) each next one until the last."""
    cursor = first_cursor
    seen: set[str | None] = {cursor}
    for _ in range(MAX_PAGES_PER_WALK):
        page = await fetch(cursor)
        yield page
        if every and page.dropped_cursor is not None:
            raise ListIncomplete(
                "the server sent an empty page that names a next one", page.dropped_cursor
            )
        following = page.next_cursor
        if not every or following is None:
            return
        if following in seen:
            raise ListIncomplete("the server named a page it had already sent", following)
        cursor = following
        seen.add(cursor)
    raise ListIncomplete(f"the list did not end within {MAX_PAGES_PER_WALK:,} pages", cursor)
