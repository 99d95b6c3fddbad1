"""A list: pages of records followed by `next_cursor`, streamed as they arrive in the chosen
format, to stdout or a file. Memory stays flat however many pages `--all` walks (except
`json`, which is one document and so is built whole).

The command line walks the pages themselves (to stream each as it arrives, and to print one
page's `next_cursor`) and may start at `--cursor`. A walk with `--all` ends only on a page
without `next_cursor`: a server that repeats a cursor, or sends an empty page that still
names a next one, raises `list_incomplete` after what was read, so a partial list never looks
complete.

Apart from `output.py` so that a command showing one record loads none of this.
"""

from __future__ import annotations

import asyncio
import csv
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TextIO, TypeVar

from leadtui.api.models import MAX_PAGES_PER_WALK, Page, Record
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import LIST_INCOMPLETE, CliFailure, usage_failure, write_failure
from leadtui.cli.files import AtomicTextFile, names_stdout, output_path
from leadtui.cli.output import Column, Output, aligned, cell, column_widths, field
from leadtui.cli.runtime import Context
from leadtui.spend.errors import Code

T = TypeVar("T", bound=Record)


def _incomplete(reason: str, next_cursor: str | None) -> CliFailure:
    """The server's pages stopped leading on before the list's end (exit 9); `next_cursor`
    is the page that was never read."""
    said = f"The list could not be read to its end: {reason}."
    return CliFailure(LIST_INCOMPLETE, said, Exit.UNAVAILABLE, details={"next_cursor": next_cursor})


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
            raise _incomplete(
                "the server sent an empty page that names a next one", page.dropped_cursor
            )
        following = page.next_cursor
        if not every or following is None:
            return
        if following in seen:
            raise _incomplete("the server named a page it had already sent", following)
        cursor = following
        seen.add(cursor)
    raise _incomplete(f"the list did not end within {MAX_PAGES_PER_WALK:,} pages", cursor)


def _csv_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class Listing:
    """Write `add(page)` calls, then `finish(next_cursor)`. Table and CSV columns come from
    `columns`, or, when None (lead records, whose fields the spec does not show), from the
    first record's fields."""

    def __init__(self, out: Output, columns: Sequence[Column] | None, stream: TextIO):
        self._out = out
        self._fmt = out.fmt
        self._columns = list(columns) if columns is not None else None
        self._stream = stream
        self._kept: list[Mapping[str, Any]] = []
        self._csv: Any = None
        self._widths: list[int] | None = None
        self.count = 0

    @property
    def kept(self) -> list[Mapping[str, Any]] | None:
        """The items read so far, for `json` (the one format that holds them until the end)."""
        return list(self._kept) if self._fmt == "json" else None

    def _columns_for(self, first: Mapping[str, Any]) -> list[Column]:
        if self._columns is None:
            self._columns = [(name, field(name)) for name in first]
        return self._columns

    def add(self, items: Sequence[Mapping[str, Any]]) -> None:
        self.count += len(items)
        if self._fmt == "json":
            self._kept.extend(items)
            return
        if not items:
            return
        if self._fmt == "jsonl":
            for item in items:
                self._stream.write(json.dumps(item, ensure_ascii=False) + "\n")
        elif self._fmt == "csv":
            self._add_csv(items)
        else:
            self._add_table(items)
        self._stream.flush()

    def _add_csv(self, items: Sequence[Mapping[str, Any]]) -> None:
        columns = self._columns_for(items[0])
        if self._csv is None:
            self._csv = csv.writer(self._stream)
            self._csv.writerow([name for name, _ in columns])
        self._csv.writerows([[_csv_value(get(item)) for _, get in columns] for item in items])

    def _add_table(self, items: Sequence[Mapping[str, Any]]) -> None:
        columns = self._columns_for(items[0])
        rows = [[cell(get(item)) for _, get in columns] for item in items]
        if self._widths is None:
            # The first page sets the widths; later pages are cut to them, so rows stream.
            headers = [name for name, _ in columns]
            self._widths = column_widths(headers, rows)
            self._stream.write(self._out.bold(aligned(headers, self._widths)) + "\n")
        self._stream.writelines(aligned(row, self._widths) + "\n" for row in rows)

    def finish(self, next_cursor: str | None) -> None:
        if self._fmt == "json":
            doc = {"data": list(self._kept), "next_cursor": next_cursor}
            self._stream.write(json.dumps(doc, ensure_ascii=False) + "\n")
        elif self._fmt == "table" and self.count == 0:
            self._out.info("Nothing to list.")
        elif self._fmt == "table" and next_cursor is not None:
            self._out.info(f"More: --cursor {next_cursor}  (or --all for every page)")
        self._stream.flush()


def _output_file(ctx: Context) -> AtomicTextFile | None:
    """`-o FILE`'s file; None for standard output (no -o, `-o -`, `-o /dev/stdout`)."""
    given: str | None = getattr(ctx.ns, "output", None)
    if not given or names_stdout(given, ctx.out.stdout):
        return None
    # In a folder (`-o DIR/`): the results' id, or the resource listed, as the file's name.
    named = getattr(ctx.ns, "id", None) or str(ctx.ns.runs).split(":")[0]
    extension = {"table": "txt"}.get(ctx.out.fmt, ctx.out.fmt)
    path = output_path(given, f"{named}.{extension}")
    try:
        return AtomicTextFile(path)
    except OSError as exc:
        raise write_failure(given, exc) from None


def _cut_short(
    listing: Listing, to_file: bool, next_cursor: str | None, failure: CliFailure
) -> CliFailure:
    """A list not read to its end, never a complete-looking answer: what was read was printed
    already (a table, CSV, JSON lines), or is in the error (`data`, for --json); a file is
    left as it was."""
    kept = f" {listing.count:,} items were read" + (", and not written." if to_file else ".")
    details: dict[str, Any] = {"items_read": listing.count, "next_cursor": next_cursor}
    if listing.kept is not None:
        details["data"] = listing.kept
    return replace(failure, message=failure.message + kept, details=details)


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
    listing = Listing(ctx.out, columns, stream)
    last: str | None = None
    try:
        async for page in walk_pages(lambda c: fetch(c, ns.limit), ns.cursor, every=ns.all):
            listing.add([item.as_sent() for item in page.items])
            last = page.next_cursor
            if ns.all:
                ctx.out.progress(f"{listing.count:,} read …")
        listing.finish(None if ns.all else last)
    except BaseException as exc:
        if target is not None:
            target.abandon()
        if isinstance(exc, CliFailure) and exc.code == LIST_INCOMPLETE:
            cursor = exc.details["next_cursor"]
            raise _cut_short(listing, target is not None, cursor, exc) from None
        if isinstance(exc, asyncio.CancelledError | KeyboardInterrupt):
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # handled here: the command ends with its report, not a traceback
            failure = CliFailure(
                Code.INTERRUPTED,
                "Interrupted before the list's end.",
                Exit.INTERRUPTED,
                hint="--cursor resumes at next_cursor.",
            )
            raise _cut_short(listing, target is not None, last, failure) from None
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
