"""Following `next_cursor` page by page, with the guard that makes every walk end."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final, TypeVar

from leadtui.api.errors import bad_response
from leadtui.api.models import Page

T = TypeVar("T")

# A million records at the largest page size: no list is this long, a looping server is.
MAX_PAGES: Final = 10_000


async def walk_pages(
    fetch: Callable[[str | None], Awaitable[Page[T]]], first_cursor: str | None, *, every: bool
) -> AsyncIterator[Page[T]]:
    """The page at `first_cursor`, then (with `every`) each next one until the last.

    A page ends the walk when it has no cursor or no items, or when its cursor was seen
    before (a server going round in circles); a walk past MAX_PAGES is a bad response.
    """
    cursor = first_cursor
    seen: set[str] = set()
    for _ in range(MAX_PAGES):
        page = await fetch(cursor)
        yield page
        if not every or page.next_cursor is None or not page.items:
            return
        if page.next_cursor in seen:
            return
        seen.add(page.next_cursor)
        cursor = page.next_cursor
    raise bad_response(200, f"the list did not end within {MAX_PAGES} pages")
