"""Pages of records, streamed as they arrive in the chosen format: memory stays flat however
many pages `--all` walks (except `json`, which is one document and so is built whole)."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from leadtui.cli.output import Column, Format, Output, cell, field, table_lines
from leadtui.durable import NewFile


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

    def __init__(self, out: Output, fmt: Format, columns: Sequence[Column] | None, stream: TextIO):
        self._out = out
        self._fmt = fmt
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
        headers = [name for name, _ in columns]
        rows = [[cell(get(item)) for _, get in columns] for item in items]
        if self._widths is None:
            # The first page sets the widths; later pages are cut to them, so rows stream.
            lines = table_lines(headers, rows)
            self._widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
            self._stream.write(self._out.bold(lines[0]) + "\n")
            self._stream.writelines(line + "\n" for line in lines[1:])
            return
        for row in rows:
            cut = [text[:w] for text, w in zip(row, self._widths, strict=True)]
            self._stream.write(
                "  ".join(t.ljust(w) for t, w in zip(cut, self._widths, strict=True)).rstrip()
                + "\n"
            )

    def finish(self, next_cursor: str | None) -> None:
        if self._fmt == "json":
            doc = {"data": list(self._kept), "next_cursor": next_cursor}
            self._stream.write(json.dumps(doc, ensure_ascii=False) + "\n")
        elif self._fmt == "table" and self.count == 0:
            self._out.info("Nothing to list.")
        elif self._fmt == "table" and next_cursor is not None:
            self._out.info(f"More: --cursor {next_cursor}  (or --all for every page)")
        self._stream.flush()


class AtomicTextFile:
    """`-o FILE`: written to a new exclusive file beside FILE, which takes FILE's place once
    complete (see `NewFile`: a FILE that is not a regular file is refused)."""

    def __init__(self, path: Path) -> None:
        self._file = NewFile(path)
        self.path = path
        self.stream: TextIO = self._file.text()

    def commit(self) -> Path:
        self.stream.flush()
        return self._file.commit()

    def abandon(self) -> None:
        self._file.abandon()
