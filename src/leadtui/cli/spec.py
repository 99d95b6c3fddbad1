"""`leadtui --spec`: the whole command line as one JSON document, for agents and scripts that
plan before they run: every command with its options, example and output shape, the exit
codes, the environment, and each JSON shape (records as JSON Schema, from the client's
models). Imported only when asked for.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Final, TextIO

from leadtui import __version__
from leadtui.cli.commands_tree import Command, walk
from leadtui.cli.exit_codes import MEANINGS

# What each command prints on stdout with --json (lists: --jsonl prints their items, one a
# line). A name in `SHAPES`, or a record model's.
OUTPUTS: Final[dict[str, str]] = {
    "account": "Identity",
    "usage": "Usage",
    "searches list": "page of Search",
    "searches get": "Search",
    "searches create": "Search",
    "searches results": "page of Lead (or the file written, with -o)",
    "unlock": "Export (or the quote, with --dry-run; with --download, also path, bytes and "
    "downloaded)",
    "exports list": "page of Export",
    "exports get": "Export",
    "exports results": "page of Lead (or the file written, with -o)",
    "exports retry": "Export",
    "exports download": "saved archive",
    "exports custom-download": "saved archive",
    "exports wait": "Export",
    "extractions list": "page of Extraction",
    "extractions get": "Extraction",
    "extractions draft": "Extraction",
    "extractions update": "Extraction",
    "extractions create": "Extraction (or the quote, with --dry-run)",
    "extractions launch": "Extraction (or the quote, with --dry-run)",
    "extractions pause": "Extraction",
    "extractions resume": "Extraction",
    "extractions stop": "Extraction",
    "extractions results": "page of Lead (or the file written, with -o)",
    "extractions wait": "Extraction",
    "pending list": "pending spends",
    "pending resend": "Export or Extraction",
    "pending discard": "pending spend",
    "digest": "digest",
}

_STRING: Final = {"type": "string"}
_STRING_OR_NULL: Final = {"type": ["string", "null"]}
_INTEGER_OR_NULL: Final = {"type": ["integer", "null"]}
_COUNT: Final = {"type": "integer", "minimum": 0}


def _all_required(**properties: Any) -> dict[str, Any]:
    """An object of `properties`, every one of them always there."""
    return {"type": "object", "required": list(properties), "properties": properties}


_SPENT: Final = _all_required(credits=_COUNT, launches=_COUNT)
_JOB: Final = _all_required(
    kind={"enum": ["export", "extraction"]}, id=_STRING, status=_STRING, at=_STRING_OR_NULL
)
_DIGEST: Final = _all_required(
    since=_STRING,
    until=_STRING,
    spent=_all_required(
        credits=_COUNT,
        launches=_COUNT,
        by_surface=_all_required(app=_SPENT, cli=_SPENT, agent=_SPENT)
        | {"additionalProperties": False},
    ),
    jobs=_all_required(
        settled={"type": "array", "items": _JOB}, moving={"type": "array", "items": _JOB}
    ),
    approvals=_all_required(asked=_COUNT, approved=_COUNT, denied=_COUNT, expired=_COUNT),
    pending={
        "type": "array",
        "items": _all_required(
            idempotency_key=_STRING,
            operation=_STRING,
            amount=_INTEGER_OR_NULL,
            surface=_STRING_OR_NULL,
            journaled_at=_STRING,
        ),
    },
    balance=_all_required(then=_INTEGER_OR_NULL, now=_INTEGER_OR_NULL),
)
_INTENT: Final = {
    "type": "object",
    "properties": {
        "idempotency_key": _STRING,
        "operation": {"enum": ["unlock", "extraction.create", "extraction.launch"]},
        "params": {"type": "object"},
        "amount": _INTEGER_OR_NULL,
        "profile": _STRING,
        "server": _STRING,
        "account": _STRING,
        "created_at": {"type": "string", "format": "date-time"},
        "attempts": {"type": "integer"},
        "last_error": _STRING_OR_NULL,
        "outcome": _STRING_OR_NULL,
    },
}
_ERROR: Final = _all_required(
    code=_STRING,
    message=_STRING,
    request_id=_STRING_OR_NULL,
    status=_INTEGER_OR_NULL,
    hint=_STRING_OR_NULL,
)
# The shapes of our own making (records are the server's: see `_records`).
SHAPES: Final[dict[str, Any]] = {
    "error": {
        "description": "Every failure, with the exit code; with --json on stdout, else stderr.",
        **_all_required(error=_ERROR | {"additionalProperties": True}),
    },
    "page": {
        "description": "A list: one page, or every page with --all (next_cursor then null).",
        **_all_required(data={"type": "array"}, next_cursor=_STRING_OR_NULL),
    },
    "file written": _all_required(
        path=_STRING,
        format={"enum": ["table", "json", "jsonl", "csv"]},
        count={"type": "integer"},
        next_cursor=_STRING_OR_NULL,
    ),
    "saved archive": _all_required(exportId=_STRING, path=_STRING, bytes={"type": "integer"}),
    "pending spend": _INTENT,
    "digest": _DIGEST,
    "pending spends": _all_required(
        data={"type": "array", "items": _INTENT},
        unreadable={
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"idempotency_key": _STRING, "unreadable": _STRING},
            },
        },
        next_cursor={"type": "null"},
    ),
}


def _records() -> dict[str, Any]:
    """The server's records as the client reads them (fields it does not know are kept)."""
    from leadtui.api.models import Export, Extraction, Identity, Lead, Search, Usage

    return {
        model.__name__: model.model_json_schema(mode="serialization")
        for model in (Identity, Usage, Search, Export, Extraction, Lead)
    }


def _command_json(command: Command) -> dict[str, Any]:
    example = None
    if command.epilog and "example:\n" in command.epilog:
        example = command.epilog.split("example:\n", 1)[1].strip()
    return {
        "command": command.name,
        "summary": command.summary,
        "options": [
            {
                "flags": list(option.flags),
                "name": option.name,
                "help": option.help,
                "takes_value": option.takes_value,
                "required": option.required,
                "choices": list(option.choices) or None,
                "default": option.default,
            }
            for option in command.options
        ],
        "output": OUTPUTS.get(command.name),
        "example": example,
    }


def spec_document(parser: argparse.ArgumentParser) -> dict[str, Any]:
    commands = [c for c in walk(parser) if c.path and not c.subcommands]
    top = next(walk(parser))
    return {
        "name": "leadtui",
        "version": __version__,
        "global_options": _command_json(top)["options"],
        "commands": [_command_json(c) for c in commands],
        "exit_codes": [{"code": code, "meaning": meaning} for code, meaning in MEANINGS.items()],
        "shapes": {**SHAPES, **_records()},
    }


def print_spec(parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    stdout.write(json.dumps(spec_document(parser), indent=2, ensure_ascii=False) + "\n")
    return 0
