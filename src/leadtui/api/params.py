"""Client-side checks of query parameters and headers, against the spec's bounds."""

from __future__ import annotations

from typing import Any

from leadtui.api.keys import new_idempotency_key
from leadtui.api.models import IdempotencyKey, PageLimit, RequestModel


class ListParams(RequestModel):
    """`cursor` and `limit` of a paginated list (limit 1 to 100)."""

    cursor: str | None = None
    limit: PageLimit | None = None


class IdempotencyParams(RequestModel):
    """The `Idempotency-Key` header of an IK-marked operation (1 to 128 characters)."""

    idempotency_key: IdempotencyKey


def list_params(cursor: str | None, limit: int | None) -> dict[str, Any]:
    """Query parameters to send; raises pydantic.ValidationError naming the field."""
    given = {k: v for k, v in (("cursor", cursor), ("limit", limit)) if v is not None}
    return ListParams.model_validate(given).to_body()


def idempotency_key_for(key: str | None) -> str:
    """The caller's key, checked, or a fresh one made once for this call."""
    if key is None:
        return new_idempotency_key()
    return IdempotencyParams(idempotency_key=key).idempotency_key
