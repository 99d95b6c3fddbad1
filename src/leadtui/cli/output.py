"""What a command prints: one JSON document (or JSON lines, or CSV) on stdout for programs, a
table for people; human text and progress on stderr, and only when stderr is a terminal. One
record is printed here; a list of them is `lists.py`'s, a file `files.py`'s. And what happens
when standard output itself fails."""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO

from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import CliFailure

if TYPE_CHECKING:
    from leadtui.api.models import Record

Format = Literal["table", "json", "jsonl", "csv"]
Column = tuple[str, Callable[[Mapping[str, Any]], object]]
# A record's `name: value` rows, as people read it.
Rows = Callable[[dict[str, Any]], Iterable[tuple[str, object]]]

# A table cell longer than this is cut with an ellipsis: a table is for reading, JSON for all.
MAX_CELL: Final = 40
NO_VALUE: Final = "—"


def cell(value: object) -> str:
    """One value as a table shows it: integers with thousands separators (10,000)."""
    if value is None:
        return NO_VALUE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.4g}"
    if isinstance(value, list | dict):
        text = ", ".join(cell(v) for v in value) if isinstance(value, list) else json.dumps(value)
    else:
        text = str(value)
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def percent(value: object) -> str:
    return f"{value:.0%}" if isinstance(value, int | float) else NO_VALUE


def field(name: str) -> Callable[[Mapping[str, Any]], object]:
    return lambda item: item.get(name)


@dataclass
class Output:
    """Where and how to print. `fmt` is the format of stdout; `tty` says stderr is a terminal."""

    stdout: TextIO
    stderr: TextIO
    fmt: Format
    json_asked: bool = False
    """--json or --jsonl was given, whatever --format says."""

    def __post_init__(self) -> None:
        self.tty = isatty(self.stderr)
        self.color = self.tty and not os.environ.get("NO_COLOR")

    @property
    def machine(self) -> bool:
        """True when stdout is for a program: errors go there too, as JSON."""
        return self.json_asked or self.fmt in ("json", "jsonl")

    def info(self, text: str) -> None:
        """Human text for a person at a terminal; nothing for a script."""
        if self.tty:
            print(text, file=self.stderr, flush=True)

    def progress(self, text: str, *, done: bool = False) -> None:
        """One line redrawn in place on the terminal."""
        if self.tty:
            self.stderr.write("\r\x1b[2K" + text + ("\n" if done else ""))
            self.stderr.flush()

    def document(self, doc: object) -> None:
        """Exactly one JSON document on stdout."""
        self.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")
        self.stdout.flush()

    def line(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.color else text

    def failure(self, failure: CliFailure) -> None:
        """The error document on stdout for a program; on stderr, the message and its hint
        for a person at a terminal, or exactly one line for a log (cron mails it)."""
        if self.machine:
            self.document(failure.document())
        where = ", ".join(
            part
            for part in (
                f"HTTP {failure.status}" if failure.status else None,
                failure.code,
                f"request id {failure.request_id}" if failure.request_id else None,
            )
            if part
        )
        if self.tty:
            red = "\x1b[31m" if self.color else ""
            reset = "\x1b[0m" if self.color else ""
            print(f"{red}Error{reset} ({where}): {failure.message}", file=self.stderr)
            if failure.hint:
                print(failure.hint, file=self.stderr)
        else:
            said = " ".join(f"{failure.message} {failure.hint or ''}".split())
            print(f"leadtui: error ({where}): {said}", file=self.stderr)
        self.stderr.flush()

    def record(self, record: Record, rows: Rows) -> None:
        """One record the server returned: the whole of it as JSON, or its `rows`."""
        doc = record.as_sent()
        if self.machine:
            self.document(doc)
        else:
            self.fields(rows(doc))

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        widths = column_widths(headers, rows)
        self.line(self.bold(aligned(headers, widths)))
        for row in rows:
            self.line(aligned(row, widths))

    def fields(self, rows: Iterable[tuple[str, object]]) -> None:
        """A record as `name: value` lines (the table view of one record)."""
        pairs = [(name, value if isinstance(value, str) else cell(value)) for name, value in rows]
        width = max((len(name) for name, _ in pairs), default=0)
        for name, value in pairs:
            self.line(f"{self.bold(name.ljust(width))}  {value}")
        self.stdout.flush()


def column_widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    return [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]


def aligned(row: Sequence[str], widths: Sequence[int]) -> str:
    """One table row: each cell cut or padded to its width, two spaces apart; the last column
    is not padded."""
    return "  ".join(text[:w].ljust(w) for text, w in zip(row, widths, strict=True)).rstrip()


def isatty(stream: TextIO) -> bool:
    asks = getattr(stream, "isatty", None)
    return bool(asks()) if callable(asks) else False


def stdout_closed(stderr: TextIO) -> int:
    """Started with standard output closed (`>&-`): nowhere to answer, so nothing is run."""
    stderr.write("leadtui: error (write_failed): standard output is closed: nothing was run.\n")
    stderr.flush()
    return Exit.WRITE_FAILED


def stdout_lost(stdout: TextIO, stderr: TextIO, error: OSError) -> int:
    """Standard output failed. A reader that went away (`| head`) ends it quietly, exit 0;
    anything else (a full disk) is one line on stderr, exit 11. The process's own stdout is
    then pointed at /dev/null, or Python complains while flushing it at exit."""
    if stdout is sys.__stdout__:
        with suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
    if error.errno == errno.EPIPE:
        return Exit.OK
    reason = error.strerror or type(error).__name__
    stderr.write(f"leadtui: error (write_failed): cannot write standard output: {reason}.\n")
    stderr.flush()
    return Exit.WRITE_FAILED
