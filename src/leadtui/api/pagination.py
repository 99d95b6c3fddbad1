"""Walking a cursor-paginated list until `next_cursor` is null."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from leadtui.api.errors import bad_response
from leadtui.api.models import Page

T = TypeVar("T")

FetchPage = Callable[[str | None], Awaitable[Page[T]]]


async def iterate(fetch: FetchPage[T]) -> AsyncIterator[T]:
    """Yield every item of every page; `fetch(cursor)` returns one page."""
    cursor: str | None = None
    seen: set[str] = set()
    while True:
        page = await fetch(cursor)
        for item in page.items:
            yield item
        if page.next_cursor is None:
            return
        # A server that hands back a cursor twice would keep us here forever.
        if page.next_cursor in seen:
            raise bad_response(200, f"the server repeated the cursor {page.next_cursor!r}")
        seen.add(page.next_cursor)
        cursor = page.next_cursor
