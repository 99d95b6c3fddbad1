"""Every item of a list, for tests that look at a whole list: the product reads lists a page
at a time (the command line's `--all` walks them in `leadtui.cli.lists`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from leadtui.api.models import Page

T = TypeVar("T")


async def every(fetch: Callable[[str | None], Awaitable[Page[T]]]) -> list[T]:
    """The items of the page `fetch(None)` and of each page after it, to the last."""
    items: list[T] = []
    cursor: str | None = None
    while True:
        page = await fetch(cursor)
        items.extend(page.items)
        if page.next_cursor is None:
            return items
        cursor = page.next_cursor
