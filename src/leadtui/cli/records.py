"""Printing one record the server returned, in the chosen format (pages: see `pages.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from leadtui.cli.runtime import Context


def as_json(record: BaseModel) -> dict[str, Any]:
    """The record as the server sent it: every field it had, none we default."""
    return record.model_dump(mode="json", exclude_unset=True)


def show_record(
    ctx: Context, record: BaseModel, rows: Callable[[dict[str, Any]], Iterable[tuple[str, object]]]
) -> None:
    """One record: the whole of it as JSON, or the `rows` people read."""
    doc = as_json(record)
    if ctx.out.machine:
        ctx.out.document(doc)
    else:
        ctx.out.fields(rows(doc))
