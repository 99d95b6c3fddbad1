"""Response bodies to models, straight from bytes; anything unreadable becomes `bad_response`."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Final, Generic, TypeVar

import httpx
from pydantic import AliasChoices, BaseModel, Field, StringConstraints, TypeAdapter, ValidationError

from leadtui.api.attempt import request_id_of
from leadtui.api.errors import bad_response
from leadtui.api.models import PAGE_LIMIT_MAX, Page, Record
from leadtui.api.transport import poll_hint

R = TypeVar("R", bound=Record)
T = TypeVar("T")

# Cursors are opaque but go back in a query string and are remembered for a whole walk.
MAX_CURSOR_CHARS: Final = 2048
Cursor = Annotated[str, StringConstraints(max_length=MAX_CURSOR_CHARS)]


# These three read what they name and pass over any other member (pydantic's default).
class _Wrapped(BaseModel, Generic[T]):
    """A single object under `data`, as `GET /me` (and the sandbox, everywhere) returns it."""

    data: T


class _CursorHolder(BaseModel):
    next_cursor: Cursor | None = None


class _WirePage(BaseModel, Generic[T]):
    """A page as it arrives; `next_cursor` at the top, or under `meta` or `pagination`."""

    # No page is ever longer than the spec's largest `limit`; validation stops past it.
    data: list[T] = Field(validation_alias=AliasChoices("data", "items"), max_length=PAGE_LIMIT_MAX)
    next_cursor: Cursor | None = None
    meta: _CursorHolder | None = None
    pagination: _CursorHolder | None = None

    def cursor(self) -> str | None:
        for holder in (self, self.meta, self.pagination):
            if holder is not None and holder.next_cursor:
                return holder.next_cursor
        return None


@cache
def _record_adapter(model: type[Record]) -> TypeAdapter[Any]:
    # Wrapped first: a bare record never has a `data` member holding the record itself.
    wrapped_or_bare: Any = Annotated[
        _Wrapped[model] | model,  # type: ignore[valid-type]
        Field(union_mode="left_to_right"),
    ]
    return TypeAdapter(wrapped_or_bare)


@cache
def _page_adapter(model: type[Record]) -> TypeAdapter[Any]:
    return TypeAdapter(_WirePage[model])  # type: ignore[valid-type]


def _where(loc: tuple[int | str, ...]) -> str:
    # Drop the union arm tags (`_Wrapped[Search]`, `Search`): they name our classes, not fields.
    parts = [str(p) for p in loc if not (isinstance(p, str) and p[:1].isupper())]
    parts = [p for p in parts if not p.startswith("_Wrapped[")]
    return ".".join(parts) or "body"


def _read(
    adapter: TypeAdapter[Any], response: httpx.Response, expected: str, key: str | None = None
) -> Any:
    """The body as `adapter` validates it, or a `bad_response` saying what was `expected`."""
    try:
        return adapter.validate_json(response.content)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[:3]
        where = "; ".join(f"{_where(e['loc'])}: {e['msg']}" for e in first)
        detail = f"expected {expected}; {exc.error_count()} problem(s): {where}"
        rid = request_id_of(response)
        raise bad_response(response.status_code, detail, rid, idempotency_key=key) from None


def parse_record(
    response: httpx.Response, model: type[R], *, idempotency_key: str | None = None
) -> R:
    """One record, wrapped in `data` or not, with the poll hint and key attached."""
    expected = f"a {model.__name__} record"
    parsed = _read(_record_adapter(model), response, expected, idempotency_key)
    record: R = parsed.data if isinstance(parsed, _Wrapped) else parsed
    record._poll_after = poll_hint(response)
    record._idempotency_key = idempotency_key
    record._request_id = request_id_of(response)
    return record


def parse_page(response: httpx.Response, model: type[R], limit: int | None) -> Page[R]:
    """One page of records, validated in a single pass over the bytes.

    A page with more items than `limit` (or, without one, than any limit allows) is a
    `bad_response`: the server did not answer what was asked.
    """
    wire = _read(_page_adapter(model), response, f"a page of {model.__name__} records")
    most = PAGE_LIMIT_MAX if limit is None else limit
    if len(wire.data) > most:
        raise bad_response(
            response.status_code,
            f"the page has {len(wire.data)} items; {most} at most were asked for",
            request_id_of(response),
        )
    # Items are already validated: build the page without a second pass over them.
    page = Page[model].model_construct(items=wire.data, next_cursor=wire.cursor())  # type: ignore[valid-type]
    # A last page carries no cursor, so a reader that only looks at `next_cursor` stops too.
    if page.is_last:
        page._dropped_cursor = page.next_cursor
        page.next_cursor = None
    page._poll_after = poll_hint(response)
    return page
