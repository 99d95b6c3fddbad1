"""A record as pretty JSON, line by line, each line knowing which field it shows.

Textual-free. The text is exactly `json.dumps(record, indent=2, ensure_ascii=False)`; each line
carries the path of the field (or list item) it starts, so a cursor on a line can copy that
field, and a search can move from match to match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

INDENT: Final = 2
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class JsonLine:
    text: str
    path: Path
    """The field this line opens or shows; () for the record itself."""


def json_lines(record: Any) -> list[JsonLine]:
    return list(_lines(record, (), 0, "", ""))


def _lines(value: Any, path: Path, depth: int, head: str, tail: str) -> Iterator[JsonLine]:
    pad = " " * (INDENT * depth)
    if isinstance(value, dict) and value:
        yield JsonLine(f"{pad}{head}{{", path)
        for n, (key, item) in enumerate(value.items()):
            comma = "," if n < len(value) - 1 else ""
            name = f"{json.dumps(str(key), ensure_ascii=False)}: "
            yield from _lines(item, (*path, str(key)), depth + 1, name, comma)
        yield JsonLine(f"{pad}}}{tail}", path)
    elif isinstance(value, list) and value:
        yield JsonLine(f"{pad}{head}[", path)
        for n, item in enumerate(value):
            comma = "," if n < len(value) - 1 else ""
            yield from _lines(item, (*path, n), depth + 1, "", comma)
        yield JsonLine(f"{pad}]{tail}", path)
    else:
        yield JsonLine(f"{pad}{head}{json.dumps(value, ensure_ascii=False)}{tail}", path)


def value_at(record: Any, path: Path) -> Any:
    for step in path:
        record = record[step]
    return record


def path_text(path: Path) -> str:
    """`account.name`, `scopes[2]`; "the whole record" for ()."""
    if not path:
        return "the whole record"
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def copy_text(value: Any) -> str:
    """A field as it is pasted: text bare, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, indent=INDENT)


def find(lines: list[JsonLine], query: str, start: int, step: int = 1) -> int | None:
    """The first line from `start` (wrapping, in direction `step`) containing `query`."""
    found = matches(lines, query)
    return min(found, key=lambda i: (i - start) * step % len(lines)) if found else None


def matches(lines: list[JsonLine], query: str) -> list[int]:
    needle = query.casefold()
    return [i for i, line in enumerate(lines) if needle and needle in line.text.casefold()]
