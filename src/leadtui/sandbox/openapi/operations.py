"""`op(...)`: the route keyword arguments that document one operation — its scope, its
answer (status, body, polling hint, replay marker) and every error status it can return,
with the `error.code` values each can carry."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from fastapi import Response
from pydantic import BaseModel

from leadtui.api.contract import POLL_HINT_HEADER, ErrorCode, Scope
from leadtui.sandbox.idempotency import REPLAY_HEADER

ERROR_SCHEMA: Final = "#/components/schemas/Error"
# A download's answer: a ZIP archive, as sent; then the same bytes by the generic name.
BINARY_MEDIA_TYPES: Final = ("application/zip", "application/octet-stream")
HintRule = Literal["never", "while_moving", "always"]


@dataclass(frozen=True)
class Answer:
    """The success answer: `model` is its JSON body, or None for a ZIP archive."""

    status: int
    model: type[BaseModel] | None
    description: str
    hint: HintRule = "never"
    replayable: bool = False
    # (operationId, parameter): operations that take this answer's record id as a parameter.
    links: tuple[tuple[str, str], ...] = ()


def links(parameter: str, *operations: str) -> tuple[tuple[str, str], ...]:
    """`Answer.links`: each of `operations` takes the answer's record id as `parameter`."""
    return tuple((operation, parameter) for operation in operations)


def retry_after(required: bool, when: str) -> dict[str, Any]:
    return {
        "description": f"Seconds to wait before asking again: {when}.",
        "required": required,
        "schema": {"type": "integer", "minimum": 0},
    }


def _success(answer: Answer) -> dict[str, Any]:
    doc: dict[str, Any] = {"description": answer.description}
    headers: dict[str, Any] = {}
    if answer.hint == "always":
        headers[POLL_HINT_HEADER] = retry_after(True, "the job's next change is due")
    elif answer.hint == "while_moving":
        headers[POLL_HINT_HEADER] = retry_after(False, "sent while the job still moves")
    if answer.replayable:
        headers[REPLAY_HEADER] = {
            "description": "`true` when this is the stored first answer to the same "
            "Idempotency-Key and body (nothing was done again).",
            "required": False,
            "schema": {"type": "string", "enum": ["true"]},
        }
    if answer.model is None:
        # OpenAPI 3.1: raw bytes are described by their media type, with no `type` (a schema
        # of type string asks a validator for text, which no real archive is). The archive is
        # also named as bytes of any kind: the one binary media type every generated client
        # reads without being told how.
        doc["content"] = {
            media: {"schema": {"contentMediaType": media}} for media in BINARY_MEDIA_TYPES
        }
        headers["Content-Disposition"] = {
            "description": '`attachment; filename="<exportId>.zip"`.',
            "required": True,
            "schema": {"type": "string"},
        }
    else:
        doc["model"] = answer.model
    if headers:
        doc["headers"] = headers
    if answer.links:
        doc["links"] = {
            target: {
                "operationId": target,
                "parameters": {parameter: f"$response.body#/data/{parameter}"},
            }
            for target, parameter in answer.links
        }
    return doc


def error(
    description: str, codes: Sequence[ErrorCode], headers: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An error answer whose `error.code` is one of `codes`."""
    listed = ", ".join(f"`{code}`" for code in codes)
    # The `Error` schema, its code narrowed to `codes`.
    narrowed = {"type": "object", "properties": {"code": {"enum": [str(c) for c in codes]}}}
    schema = {
        "allOf": [{"$ref": ERROR_SCHEMA}, {"type": "object", "properties": {"error": narrowed}}]
    }
    doc: dict[str, Any] = {
        "description": f"{description} `error.code`: {listed}.",
        "content": {"application/json": {"schema": schema}},
    }
    if headers:
        doc["headers"] = headers
    return doc


INVALID_INPUT: Final = "Invalid input: the body, a parameter or a header (the message names it)."
# What a list's 400 also covers: its cursor (our choice, see pagination.py).
INVALID_PAGE: Final = (
    "Invalid input: `limit` out of range, or a `cursor` that is empty or was not issued by "
    "this server for this list (the message names it)."
)
_NOT_FOUND: Final = error(
    "Not found, or not owned by the authenticated account.", [ErrorCode.NOT_FOUND]
)
_UNAUTHORIZED: Final = error(
    "Missing, malformed, expired or revoked key.",
    [ErrorCode.UNAUTHORIZED],
    {"WWW-Authenticate": {"required": True, "schema": {"type": "string"}}},
)
_FORBIDDEN: Final = error(
    "Inactive subscription, suspended data access, or a scope the key lacks.",
    [
        ErrorCode.SUBSCRIPTION_INACTIVE,
        ErrorCode.DATA_ACCESS_SUSPENDED,
        ErrorCode.INSUFFICIENT_SCOPE,
    ],
)
# Every operation can meet these: the service's rate limit and its failures.
ALWAYS_ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    429: error(
        "Too many requests (the sandbox sets no rate limit; the service may).",
        [ErrorCode.RATE_LIMITED],
        {POLL_HINT_HEADER: retry_after(True, "then retry")},
    ),
    500: error(
        "The server failed; nothing is promised about the request.", [ErrorCode.INTERNAL_ERROR]
    ),
    502: error(
        "A gateway failed after or before the request was handled: retry it, with the same "
        "Idempotency-Key where there is one.",
        [ErrorCode.INTERNAL_ERROR],
    ),
    503: error(
        "Unavailable; nothing was done: retry after the hint.",
        [ErrorCode.INTERNAL_ERROR],
        {POLL_HINT_HEADER: retry_after(True, "then retry")},
    ),
}


def op(
    scope: Scope | None,
    summary: str,
    answer: Answer,
    *statuses: Literal[400, 404],
    conflicts: Sequence[ErrorCode] = (),
    conflict_hint: bool = False,
    description: str | None = None,
    also: Answer | None = None,
    invalid: str = INVALID_INPUT,
) -> dict[str, Any]:
    """Keyword arguments for a route decorator: `statuses` are the 400/404 it can answer
    (`invalid` says when it answers 400), `conflicts` the `error.code` values of its 409
    (with a polling hint if `conflict_hint`), `also` a second success answer."""
    responses: dict[int | str, dict[str, Any]] = {answer.status: _success(answer)}
    if also is not None:
        responses[also.status] = _success(also)
    if 400 in statuses:
        responses[400] = error(invalid, [ErrorCode.INVALID_REQUEST])
    extra: dict[str, Any] = {"security": []}
    if scope is not None:
        responses[401] = _UNAUTHORIZED
        responses[403] = _FORBIDDEN
        extra = {"security": [{"bearerAuth": [str(scope)]}], "x-required-scope": str(scope)}
    if 404 in statuses:
        responses[404] = _NOT_FOUND
    if conflicts:
        hint = {POLL_HINT_HEADER: retry_after(False, "sent while the job still moves")}
        responses[409] = error(
            "Conflict with the current state.", conflicts, hint if conflict_hint else None
        )
    responses.update(ALWAYS_ERRORS)
    kwargs: dict[str, Any] = {
        "summary": summary,
        "status_code": answer.status,
        "response_model": None,
        "responses": responses,
        "openapi_extra": extra,
        "description": description,
    }
    if answer.model is None:
        kwargs["response_class"] = Response
    return kwargs
