"""Printing pages of records as they arrive, in the chosen format, to stdout or a file.

Apart from `records.py` so that a command showing one record loads none of this.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from leadtui.api.models import Page
from leadtui.cli.failures import write_failure
from leadtui.cli.listing import AtomicTextFile, Listing
from leadtui.cli.output import Column
from leadtui.cli.records import as_json
from leadtui.cli.runtime import Context
from leadtui.cli.walking import walk_pages

T = TypeVar("T", bound=BaseModel)


def _output_file(name: str) -> AtomicTextFile:
    try:
        return AtomicTextFile(Path(name).expanduser())
    except OSError as exc:
        raise write_failure(name, exc) from None


async def show_pages(
    ctx: Context,
    fetch: Callable[[str | None, int | None], Awaitable[Page[T]]],
    columns: Sequence[Column] | None,
) -> None:
    """A list: one page (at --cursor), or with --all every page, streamed as it arrives.
    `-o FILE` writes to FILE atomically; a failure part-way leaves FILE as it was."""
    ns = ctx.ns
    target = _output_file(ns.output) if getattr(ns, "output", None) else None
    stream = target.stream if target else ctx.out.stdout
    listing = Listing(ctx.out, ctx.out.fmt, columns, stream)
    last: str | None = None
    try:
        async for page in walk_pages(lambda c: fetch(c, ns.limit), ns.cursor, every=ns.all):
            listing.add([as_json(item) for item in page.items])
            last = page.next_cursor
            if ns.all:
                ctx.out.progress(f"{listing.count:,} read …")
        listing.finish(None if ns.all else last)
    except BaseException:
        if target is not None:
            target.abandon()
        raise
    if target is not None:
        path = target.commit()
        ctx.out.progress(f"{listing.count:,} written to {path}", done=True)
    elif ns.all:
        ctx.out.progress(f"{listing.count:,} read", done=True)
