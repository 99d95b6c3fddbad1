"""Request bodies read strictly: UTF-8, JSON with one value per member and no NaN or
infinity, nesting bounded, every string valid Unicode. Anything else is 400 `invalid_request`
before a handler sees it, so nothing the sandbox stores can fail to be sent back."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from leadtui.api.contract import JSON_NESTING_MAX
from leadtui.sandbox.problems import invalid


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated member has no agreed meaning (first wins? last?): refuse it.
    members: dict[str, Any] = {}
    for name, value in pairs:
        if name in members:
            raise invalid(f"body: the member {name!a} appears more than once.")
        members[name] = value
    return members


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise invalid(f"body: {text} is out of range for a JSON number.")
    return value


def _no_constant(name: str) -> Any:
    raise invalid(f"body: {name} is not JSON.")


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise invalid("body: a string holds a lone surrogate; send valid Unicode.") from None


def _check_tree(value: Any) -> None:
    """Every string valid Unicode and nothing nested deeper than `JSON_NESTING_MAX`."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > JSON_NESTING_MAX:
            raise invalid(f"body: nests deeper than {JSON_NESTING_MAX} levels.")
        if isinstance(item, dict):
            for name, member in item.items():
                _check_text(name)
                pending.append((member, depth + 1))
        else:
            pending.extend((element, depth + 1) for element in item)


def parse_body(raw: bytes) -> Any:
    """The JSON value of a request body, or 400 `invalid_request` naming what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise invalid("body: is not valid UTF-8.") from None
    try:
        value = json.loads(
            text,
            object_pairs_hook=_unique_members,
            parse_float=_finite,
            parse_constant=_no_constant,
        )
    except RecursionError:
        raise invalid(f"body: nests deeper than {JSON_NESTING_MAX} levels.") from None
    except ValueError as exc:
        raise invalid(f"body: is not valid JSON ({exc}).") from None
    _check_tree(value)
    return value


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        return parse_body(await self.body())


class StrictJsonRoute(APIRoute):
    """A route whose JSON body goes through `parse_body`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
