"""Request bodies from a file (or `-` for stdin), checked against the schema's every limit
before anything is sent: a bad one is refused with each field's reason (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO, TypeVar

from pydantic import BaseModel, ValidationError

from leadtui.api.reasons import field_reasons
from leadtui.cli.failures import CliFailure, usage_failure

M = TypeVar("M", bound=BaseModel)


def read_json(name: str, stdin: TextIO) -> Any:
    """The JSON document in file `name` (`-`: standard input)."""
    try:
        text = stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise usage_failure(
            f"Cannot read {name}: {exc.strerror or exc}. Nothing was sent."
        ) from None
    except UnicodeDecodeError:
        raise usage_failure(f"{name} is not UTF-8 text. Nothing was sent.") from None
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_each_member_once)
    except json.JSONDecodeError as exc:
        raise usage_failure(
            f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
            "Nothing was sent."
        ) from None
    except _NotStrictJson as exc:
        raise usage_failure(f"{name} is not strict JSON: {exc}. Nothing was sent.") from None


class _NotStrictJson(ValueError):
    """What Python's JSON reader takes but would change the request: NaN and Infinity (not
    JSON; sent as null) and a member given twice (only the last one would be sent)."""


def _no_constant(word: str) -> Any:
    raise _NotStrictJson(f"{word} is not a JSON number")


def _each_member_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise _NotStrictJson(f"the member {json.dumps(key)} is given twice")
        members[key] = value
    return members


def checked(model: type[M], name: str, stdin: TextIO) -> M:
    """The request in file `name`, valid for `model`, or a usage failure listing every field."""
    try:
        return model.model_validate(read_json(name, stdin))
    except ValidationError as exc:
        reasons = field_reasons(exc)
        listed = "; ".join(f"{r['field']}: {r['reason']}" for r in reasons)
        failure: CliFailure = usage_failure(
            f"The {model.__name__} in {name} breaks {len(reasons)} rule(s): {listed}. "
            "Nothing was sent."
        )
        failure.details["fields"] = reasons
        raise failure from None
