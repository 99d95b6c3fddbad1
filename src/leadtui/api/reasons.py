"""Why a request was refused locally, field by field, in words every surface shows."""

from __future__ import annotations

from pydantic import ValidationError


def field_reasons(error: ValidationError) -> list[dict[str, str]]:
    """One `{field, reason}` per problem, the field as a dotted path (`activities.0.name`).
    Never the value at fault: it may be anything the caller typed."""
    return [
        {
            "field": ".".join(str(part) for part in problem["loc"]) or "body",
            "reason": problem["msg"],
        }
        for problem in error.errors(include_url=False, include_input=False)
    ]
