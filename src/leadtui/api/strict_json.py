"""Strict JSON, the one rule for every JSON document a user writes (a request file on the
command line, the app's result_filter): what Python's reader takes but would change the
request is refused, never sent changed."""

from __future__ import annotations

import json
import math
from typing import Any


class NotStrictJson(ValueError):
    """Valid to Python's JSON reader, but not as sent: NaN and Infinity (not JSON; sent as
    null), a number too large for a float (read as infinity), a member given twice (only the
    last one would be sent)."""


def loads_strict(text: str) -> Any:
    """The JSON value of `text`; `json.JSONDecodeError` when it is not JSON, `NotStrictJson`
    when it is JSON that would be sent changed."""
    return json.loads(
        text,
        parse_constant=_no_constant,
        parse_float=_finite,
        object_pairs_hook=_each_member_once,
    )


def _no_constant(word: str) -> Any:
    raise NotStrictJson(f"{word} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotStrictJson(f"{text} is too large for a number")
    return value


def _each_member_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise NotStrictJson(f"the member {json.dumps(key)} is given twice")
        members[key] = value
    return members
