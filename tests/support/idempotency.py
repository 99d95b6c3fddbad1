"""The `Idempotency-Key` header's rules as a request model, to test them the way the spec's
other bounds are tested (the client checks a key with `idempotency_key_problem`)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from leadtui.api.keys import idempotency_key_problem
from leadtui.api.models import RequestModel


def _usable_idempotency_key(key: str) -> str:
    problem = idempotency_key_problem(key)
    if problem is not None:
        raise ValueError(problem)
    return key


class IdempotencyParams(RequestModel):
    """The `Idempotency-Key` header of an IK-marked operation (see idempotency_key_problem)."""

    idempotency_key: Annotated[str, AfterValidator(_usable_idempotency_key)]
