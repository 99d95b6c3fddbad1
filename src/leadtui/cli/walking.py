"""Following `next_cursor` page by page, from any cursor, ending where the client's walk ends.

`leadtui.api.pagination.iterate` yields items from the first page; the command line needs the
pages themselves (to stream each as it arrives, and to print one page's `next_cursor`) and may
start at `--cursor`. What ends a walk is the client's rule: `Page.is_last`, a cursor seen before,
or MAX_PAGES_PER_WALK pages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from leadtui.api.errors import bad_response
from leadtui.api.models import Page
from leadtui.api.pagination import MAX_PAGES_PER_WALK

T = TypeVar("T")


async def walk_pages(
    fetch: Callable[[str | None], Awaitable[Page[T]]], first_cursor: str | None, *, every: bool
) -> AsyncIterator[Page[T]]:
    """The page at `first_cursor`, then (with `every`) each next one until the last."""
    cursor = first_cursor
    seen: set[str | None] = {cursor}
    for _ in range(MAX_PAGES_PER_WALK):
        page = await fetch(cursor)
        yield page
        if not every or page.is_last or page.next_cursor in seen:
            return
        cursor = page.next_cursor
        seen.add(cursor)
    raise bad_response(200, f"the list did not end within {MAX_PAGES_PER_WALK} pages")
