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

_STRING_OR_NULL: Final = {"type": ["string", "null"]}
_COUNT: Final = {"type": "integer", "minimum": 0}
_SPENT: Final = {
    "type": "object",
    "required": ["credits", "launches"],
    "properties": {"credits": _COUNT, "launches": _COUNT},
}
_JOB: Final = {
    "type": "object",
    "required": ["kind", "id", "status", "at"],
    "properties": {
        "kind": {"enum": ["export", "extraction"]},
        "id": {"type": "string"},
        "status": {"type": "string"},
        "at": _STRING_OR_NULL,
    },
}
_DIGEST: Final = {
    "type": "object",
    "required": ["since", "until", "spent", "jobs", "approvals", "pending", "balance"],
    "properties": {
        "since": {"type": "string"},
        "until": {"type": "string"},
        "spent": {
            "type": "object",
            "required": ["credits", "launches", "by_surface"],
            "properties": {
                "credits": _COUNT,
                "launches": _COUNT,
                "by_surface": {
                    "type": "object",
                    "required": ["app", "cli", "agent"],
                    "properties": {"app": _SPENT, "cli": _SPENT, "agent": _SPENT},
                    "additionalProperties": False,
                },
            },
        },
        "jobs": {
            "type": "object",
            "required": ["settled", "moving"],
            "properties": {
                "settled": {"type": "array", "items": _JOB},
                "moving": {"type": "array", "items": _JOB},
            },
        },
        "approvals": {
            "type": "object",
            "required": ["asked", "approved", "denied", "expired"],
            "properties": {
                "asked": _COUNT,
                "approved": _COUNT,
                "denied": _COUNT,
                "expired": _COUNT,
            },
        },
        "pending": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["idempotency_key", "operation", "amount", "surface", "journaled_at"],
                "properties": {
                    "idempotency_key": {"type": "string"},
                    "operation": {"type": "string"},
                    "amount": {"type": ["integer", "null"]},
                    "surface": _STRING_OR_NULL,
                    "journaled_at": {"type": "string"},
                },
            },
        },
        "balance": {
            "type": "object",
            "required": ["then", "now"],
            "properties": {
                "then": {"type": ["integer", "null"]},
                "now": {"type": ["integer", "null"]},
            },
        },
    },
}
_INTENT: Final = {
    "type": "object",
    "properties": {
        "idempotency_key": {"type": "string"},
        "operation": {"enum": ["unlock", "extraction.create", "extraction.launch"]},
        "params": {"type": "object"},
        "amount": {"type": ["integer", "null"]},
        "profile": {"type": "string"},
        "server": {"type": "string"},
        "account": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "attempts": {"type": "integer"},
        "last_error": _STRING_OR_NULL,
        "outcome": _STRING_OR_NULL,
    },
}
# The shapes of our own making (records are the server's: see `_records`).
SHAPES: Final[dict[str, Any]] = {
    "error": {
        "description": "Every failure, with the exit code; with --json on stdout, else stderr.",
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "request_id", "status", "hint"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "request_id": _STRING_OR_NULL,
                    "status": {"type": ["integer", "null"]},
                    "hint": _STRING_OR_NULL,
                },
                "additionalProperties": True,
            }
        },
    },
    "page": {
        "description": "A list: one page, or every page with --all (next_cursor then null).",
        "type": "object",
        "required": ["data", "next_cursor"],
        "properties": {"data": {"type": "array"}, "next_cursor": _STRING_OR_NULL},
    },
    "file written": {
        "type": "object",
        "required": ["path", "format", "count", "next_cursor"],
        "properties": {
            "path": {"type": "string"},
            "format": {"enum": ["table", "json", "jsonl", "csv"]},
            "count": {"type": "integer"},
            "next_cursor": _STRING_OR_NULL,
        },
    },
    "saved archive": {
        "type": "object",
        "required": ["exportId", "path", "bytes"],
        "properties": {
            "exportId": {"type": "string"},
            "path": {"type": "string"},
            "bytes": {"type": "integer"},
        },
    },
    "pending spend": _INTENT,
    "digest": _DIGEST,
    "pending spends": {
        "type": "object",
        "required": ["data", "unreadable", "next_cursor"],
        "properties": {
            "data": {"type": "array", "items": _INTENT},
            "unreadable": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "idempotency_key": {"type": "string"},
                        "unreadable": {"type": "string"},
                    },
                },
            },
            "next_cursor": {"type": "null"},
        },
    },
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
