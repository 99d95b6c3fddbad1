"""The output schemas the tools publish, and the argument types they share.

Records keep every field the service sent (the spec shows few), so each schema requires only
what the spec states and allows the rest.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from leadtui.api.models import PAGE_LIMIT_MAX, PAGE_LIMIT_MIN

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


def identifier(what: str) -> Any:
    """An id argument: a non-empty string, described."""
    return Field(min_length=1, description=what)


class Open(BaseModel):
    """A record as the service sent it: the fields named here, and any others it had."""

    model_config = ConfigDict(extra="allow")


class AccountOut(Open):
    credits: int
    subscription: dict[str, Any]
    key_masked: str = Field(description="The API key in use, masked (never the key itself).")


class SearchOut(Open):
    searchId: str


class ExportOut(Open):
    exportId: str
    status: str


class ExtractionOut(Open):
    extractionId: str


class PageOut(BaseModel):
    data: list[dict[str, Any]]
    next_cursor: str | None = Field(
        description="Pass it as cursor for the next page; null on the last page."
    )


class DownloadOut(BaseModel):
    exportId: str
    path: str = Field(description="Where the archive was saved.")
    bytes: int = Field(description="Its size.")
    columns: list[str] | None = Field(
        default=None, description="The columns of a custom archive; null for the whole export."
    )


class JobOut(BaseModel):
    kind: str = Field(description="export or extraction")
    id: str
    status: str | None
    settled: bool = Field(
        description="True once the job will not change by itself (ready, failed, completed, "
        "stopped; or a draft or paused extraction, which waits for an action)."
    )
    waited_seconds: float
    job: dict[str, Any] = Field(description="The job's record as last read.")
