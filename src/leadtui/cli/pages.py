"""Printing pages of records as they arrive, in the chosen format, to stdout or a file.

Apart from `records.py` so that a command showing one record loads none of this.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from leadtui.api.models import Page
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import (
    INTERRUPTED,
    LIST_INCOMPLETE,
    CliFailure,
    usage_failure,
    write_failure,
)
from leadtui.cli.listing import AtomicTextFile, Listing
from leadtui.cli.output import Column
from leadtui.cli.records import as_json
from leadtui.cli.runtime import Context
from leadtui.cli.targets import file_path, names_stdout
from leadtui.cli.walking import ListIncomplete, walk_pages

T = TypeVar("T", bound=BaseModel)


def _output_file(ctx: Context) -> AtomicTextFile | None:
    """`-o FILE`'s file; None for standard output (no -o, `-o -`, `-o /dev/stdout`)."""
    given: str | None = getattr(ctx.ns, "output", None)
    if not given or names_stdout(given, ctx.out.stdout):
        return None
    # In a folder (`-o DIR/`): the results' id, or the resource listed, as the file's name.
    named = getattr(ctx.ns, "id", None) or str(ctx.ns.runs).split(":")[0]
    extension = {"table": "txt"}.get(ctx.out.fmt, ctx.out.fmt)
    path = file_path(given, f"{named}.{extension}")
    try:
        return AtomicTextFile(path)
    except OSError as exc:
        raise write_failure(given, exc) from None


def _incomplete(error: ListIncomplete, listing: Listing, to_file: bool) -> CliFailure:
    """A list that could not be read whole: exit 9, never a complete-looking answer. What
    was read was printed already (a table, CSV, JSON lines), or is in the error (`data`, for
    --json); a file is left as it was."""
    kept = f" {listing.count:,} items were read" + (", and not written." if to_file else ".")
    failure = CliFailure(
        LIST_INCOMPLETE,
        f"The list could not be read to its end: {error.reason}.{kept}",
        Exit.UNAVAILABLE,
        hint="Run it again later; --cursor resumes at next_cursor.",
        details={"items_read": listing.count, "next_cursor": error.next_cursor},
    )
    if listing.kept is not None:
        failure.details["data"] = listing.kept
    return failure


def _interrupted(listing: Listing, to_file: bool, next_cursor: str | None) -> CliFailure:
    """Ctrl-C part-way (exit 130): what was read was printed already (JSON lines, a table,
    CSV), or is in the error (`data`, for --json); a file is left as it was."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()  # handled here: the command ends with its report, not a traceback
    kept = f" {listing.count:,} items were read" + (", and not written." if to_file else ".")
    failure = CliFailure(
        INTERRUPTED,
        f"Interrupted before the list's end.{kept}",
        Exit.INTERRUPTED,
        hint="--cursor resumes at next_cursor.",
        details={"items_read": listing.count, "next_cursor": next_cursor},
    )
    if listing.kept is not None:
        failure.details["data"] = listing.kept
    return failure


def _one_document_only(ctx: Context, to_file: bool) -> None:
    """--json promises one JSON document on stdout: a table or CSV goes to a file, or not
    at all."""
    if ctx.out.machine and not to_file and ctx.out.fmt not in ("json", "jsonl"):
        raise usage_failure(
            f"--format {ctx.out.fmt} prints {ctx.out.fmt} on stdout, where --json prints one "
            "JSON document. Nothing was sent.",
            hint=f"Write the {ctx.out.fmt} to a file with -o FILE, or drop --json.",
        )


async def show_pages(
    ctx: Context,
    fetch: Callable[[str | None, int | None], Awaitable[Page[T]]],
    columns: Sequence[Column] | None,
) -> None:
    """A list: one page (at --cursor), or with --all every page, streamed as it arrives.
    `-o FILE` writes to FILE atomically; a failure part-way leaves FILE as it was."""
    ns = ctx.ns
    target = _output_file(ctx)
    _one_document_only(ctx, to_file=target is not None)
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
    except BaseException as exc:
        if target is not None:
            target.abandon()
        if isinstance(exc, ListIncomplete):
            raise _incomplete(exc, listing, target is not None) from None
        if isinstance(exc, asyncio.CancelledError | KeyboardInterrupt):
            raise _interrupted(listing, target is not None, last) from None
        raise
    if target is not None:
        try:
            path = target.commit()
        except OSError as exc:
            raise write_failure(target.path, exc) from None
        ctx.out.progress(f"{listing.count:,} written to {path}", done=True)
        if ctx.out.machine:
            ctx.out.document(
                {
                    "path": str(path),
                    "format": ctx.out.fmt,
                    "count": listing.count,
                    "next_cursor": None if ns.all else last,
                }
            )
    elif ns.all:
        ctx.out.progress(f"{listing.count:,} read", done=True)
