"""The output schemas the tools publish, and the argument types they share.

Each schema requires only what the spec states and allows the rest (records keep every field
the service sent). Each is published with the one error document (`with_errors`): a client
that validates every result against it (the TypeScript SDK's does, errors included) accepts
both.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from leadtui.api.models import PAGE_LIMIT_MAX, PAGE_LIMIT_MIN
from leadtui.api.urls import ID_MAX, id_problem

Cursor = Annotated[
    str | None,
    Field(description="Where the page starts: the next_cursor of the page before; omit at first."),
]
Limit = Annotated[
    int | None,
    Field(
        ge=PAGE_LIMIT_MIN,
        le=PAGE_LIMIT_MAX,
        description=f"Items per page, {PAGE_LIMIT_MIN} to {PAGE_LIMIT_MAX} (the service's "
        "default is 25).",
    ),
]


def one_segment(resource_id: str) -> str:
    """An id that can be sent as one path segment (the client's rule, checked on arrival so a
    bad one is refused with its reason before anything is read or priced)."""
    problem = id_problem(resource_id)
    if problem is not None:
        raise ValueError(problem)
    return resource_id


# The largest request body a tool sends (as JSON): the spec's limits keep a real search or
# extraction far below it; a runaway argument (a 10 MB result_filter) is refused unsent.
BODY_MAX: Final = 1024 * 1024


def bounded(body: BaseModel) -> BaseModel:
    """A request body no larger than BODY_MAX as JSON."""
    if len(body.model_dump_json(exclude_unset=True)) > BODY_MAX:
        raise ValueError(f"The request is larger than {BODY_MAX // 1024:,} KiB as JSON")
    return body


IdText = Annotated[str, Field(min_length=1, max_length=ID_MAX), AfterValidator(one_segment)]
"""An id argument: one path segment (see `api/urls.py`)."""


class Open(BaseModel):
    """A record as the service sent it: the fields named here, and any others it had."""

    model_config = ConfigDict(extra="allow")


class AccountOut(Open):
    credits: int
    subscription: dict[str, Any]
    key_masked: str = Field(description="The API key in use, masked (never the key itself).")


def _same_id(argument: str) -> Any:
    return Field(description=f"The record's id, as the tools' {argument} argument names it.")


class SearchOut(Open):
    search_id: str = _same_id("search_id")
    searchId: str


class ExportOut(Open):
    export_id: str = _same_id("export_id")
    exportId: str
    status: str


class ExtractionOut(Open):
    extraction_id: str = _same_id("extraction_id")
    extractionId: str


class PageOut(BaseModel):
    data: list[dict[str, Any]]
    next_cursor: str | None = Field(
        description="Pass it as cursor for the next page; null on the last page."
    )


class DownloadOut(BaseModel):
    export_id: str = _same_id("export_id")
    exportId: str
    path: str = Field(description="Where the archive was saved.")
    bytes: int = Field(description="Its size.")
    columns: list[str] | None = Field(
        default=None, description="The columns of a custom archive; null for the whole export."
    )


class JobOut(BaseModel):
    kind: str = Field(description="export or extraction")
    id: str
    export_id: str | None = Field(default=None, description="The export's id, if an export.")
    extraction_id: str | None = Field(
        default=None, description="The extraction's id, if an extraction."
    )
    status: str | None
    settled: bool = Field(
        description="True once the job will not change by itself (ready, failed, completed, "
        "stopped; or a draft or paused extraction, which waits for an action)."
    )
    waited_seconds: float
    job: dict[str, Any] = Field(description="The job's record as last read.")


def _described(kind: str, description: str) -> dict[str, Any]:
    return {"type": kind, "description": description}


# The one error document, `{"error": {...}}` (see results.ToolFailure): the members every error
# has, the ones some have, and room for those a newer server adds (a refusal may carry more).
ERROR_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "title": "ToolErrorResult",
    "description": "The result of a call that failed (isError: true): nothing more was done.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": _described("string", "What went wrong: branch on it."),
                "message": _described("string", "What went wrong, in words."),
                "hint": _described("string", "What to do next."),
                "request_id": _described("string", "The service's id of the request."),
                "status": _described("integer", "The service's HTTP status."),
                "quote": _described("object", "What the spend costs, and the balance."),
                "decision": _described("object", "The spend decision: verdict, code, message."),
                "answer": _described("string", "What came of asking the user."),
                "idempotency_key": _described("string", "The spend's idempotency key."),
                "cause": _described("string", "The code of what made the outcome unknown."),
                "fields": {
                    "type": "array",
                    "description": "The arguments at fault, each with its reason.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "field": {"type": "string"},
                            "reason": {"type": "string"},
                        },
                        "required": ["field", "reason"],
                    },
                },
            },
            "required": ["code", "message"],
            "additionalProperties": True,
        }
    },
    "required": ["error"],
    "additionalProperties": False,
}


def with_errors(success: dict[str, Any]) -> dict[str, Any]:
    """A tool's published output schema: its success schema or the error document. Definitions
    stay at the root, where the success schema's references point."""
    branch = dict(success)
    definitions = branch.pop("$defs", None)
    schema = {"type": "object", "anyOf": [branch, ERROR_SCHEMA]}
    return schema if definitions is None else schema | {"$defs": definitions}
