"""Walking a cursor-paginated list to its end, which a hostile server cannot postpone."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final, TypeVar

from leadtui.api.errors import bad_response
from leadtui.api.models import Page

T = TypeVar("T")

FetchPage = Callable[[str | None], Awaitable[Page[T]]]

# A million records at the largest page size: no account's list is this long, every loop is.
MAX_PAGES_PER_WALK: Final = 10_000


async def iterate(fetch: FetchPage[T]) -> AsyncIterator[T]:
    """Yield every item of every page; `fetch(cursor)` returns one page.

    The walk ends on the last page (`Page.is_last`: no cursor, or no items) or on a cursor
    seen before (the server went round in a circle); past MAX_PAGES_PER_WALK pages it
    raises `bad_response`, after yielding what it read.
    """
    cursor: str | None = None
    seen: set[str | None] = set()
    for _ in range(MAX_PAGES_PER_WALK):
        page = await fetch(cursor)
        for item in page.items:
            yield item
        if page.is_last or page.next_cursor in seen:
            return
        cursor = page.next_cursor
        seen.add(cursor)
    raise bad_response(200, f"the list did not end within {MAX_PAGES_PER_WALK} pages")
