"""Request bodies from a file (or `-` for stdin), checked against the schema's every limit
before anything is sent: a bad one is refused with each field's reason (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO, TypeVar

from pydantic import BaseModel, ValidationError

from leadtui.api.reasons import field_reasons
from leadtui.api.strict_json import NotStrictJson, loads_strict
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
        return loads_strict(text)
    except NotStrictJson as exc:
        raise usage_failure(f"{name} is not strict JSON: {exc}. Nothing was sent.") from None
    except json.JSONDecodeError as exc:
        raise usage_failure(
            f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}). "
            "Nothing was sent."
        ) from None


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
