"""Client-side checks of query parameters and headers, against the spec's bounds."""

from __future__ import annotations

from typing import Any

from leadtui.api.errors import InvalidIdempotencyKey
from leadtui.api.keys import idempotency_key_problem, new_idempotency_key
from leadtui.api.models import PageLimit, RequestModel


class ListParams(RequestModel):
    """`cursor` and `limit` of a paginated list (limit 1 to 100)."""

    cursor: str | None = None
    limit: PageLimit | None = None


def list_params(cursor: str | None, limit: int | None) -> dict[str, Any]:
    """Query parameters to send; raises pydantic.ValidationError naming the field."""
    given = {k: v for k, v in (("cursor", cursor), ("limit", limit)) if v is not None}
    return ListParams.model_validate(given).to_body()


def idempotency_key_for(key: str | None) -> str:
    """The caller's key, checked (InvalidIdempotencyKey), or a fresh one made for this call."""
    if key is None:
        return new_idempotency_key()
    problem = idempotency_key_problem(key)
    if problem is not None:
        raise InvalidIdempotencyKey(f"Nothing was sent: {problem}.")
    return key
